// SPDX-License-Identifier: GPL-2.0
/*
 * The format suite's part on a record's arguments: value formats
 * (addresses, ports, lookups), fetches that faulted, and the string
 * area when it holds several strings (uapi: RAWPROBE_STR_ARG_MULTI):
 * each at its argument in text, JSON, CSV and Perfetto; string arrays;
 * IPv4 and IPv6 addresses told apart by their length; garbage segments
 * read safely. test_format.c runs them.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "out/format.h"
#include "out/sink.h"
#include "lib/record_str.h"
#include "test_format.h"
#include "test_rand.h"

/*
 * Value formats: skc_daddr 127.0.0.1 is 16777343 as a number,
 * port 80 in network order 20480.
 */
void test_value_formats(void **state)
{
	static const struct rp_probe_desc d = {
		.id = 7, .kind = RAWPROBE_KIND_KPROBE, .nargs = 6,
		.argtypes = { RAWPROBE_ARG_IP4, RAWPROBE_ARG_BE16,
			      RAWPROBE_ARG_BE32, RAWPROBE_ARG_HEX,
			      RAWPROBE_ARG_KSYM, RAWPROBE_ARG_KSYM },
		.name = "kprobe:tcp_connect",
	};
	static const struct rp_probe_desc p = {
		.id = 7, .kind = RAWPROBE_KIND_KPROBE, .nargs = 2,
		.argtypes = { RAWPROBE_ARG_PTR, RAWPROBE_ARG_U64 },
		.name = "kprobe:tcp_connect",
	};
	struct rawprobe_record r;
	char *text;

	(void)state;
	base_record(&r);
	r.kind = RAWPROBE_KIND_KPROBE;
	r.flags = RAWPROBE_REC_ARGS;
	r.nargs = 6;
	r.args[0] = 0xffffffff0100007full;	/* high bits: not the address's */
	r.args[1] = 0x5000;
	r.args[2] = 0x01000000;
	r.args[3] = 0xff;
	r.args[4] = TEXT_BASE + 0x110;
	r.args[5] = 0x1234;			/* in no function */
	check_both(&r, &d);
	text = format_as(TEXT, &r, &d);
	assert_non_null(strstr(text, " (127.0.0.1, 80, 1, 0xff, fn_1+0x10, 0x1234)\n"));
	free(text);
	text = format_as(JSON_BUF, &r, &d);
	assert_non_null(strstr(text, ",\"args\":[18446744069431361663,20480,"
				     "16777216,255,18446744071578845456,4660],"
				     "\"args_text\":[\"127.0.0.1\",\"80\",\"1\","
				     "\"0xff\",\"fn_1+0x10\",\"0x1234\"]"));
	free(text);
	text = csv_of(&r, &d);
	assert_non_null(strstr(text, ",127.0.0.1,80,1,0xff,\"fn_1+0x10\","
				     "\"0x1234\","));
	free(text);
	/* no value format: no args_text */
	r.nargs = 2;
	text = format_as(JSON_BUF, &r, &p);
	assert_null(strstr(text, "args_text"));
	free(text);
	/* CSV prints pointers as hex, as text does */
	text = csv_of(&r, &p);
	assert_non_null(strstr(text, ",0xffffffff0100007f,20480,,,,,"));
	free(text);
	/* a faulted fetch: null, as in args */
	r.nargs = 6;
	r.fault_mask = 1U << 0;
	check_both(&r, &d);
	text = format_as(JSON_BUF, &r, &d);
	assert_non_null(strstr(text, "\"args_text\":[null,\"80\","));
	free(text);
}

void test_fetch_faults(void **state)
{
	struct rp_probe_desc d = {
		.id = 7, .kind = RAWPROBE_KIND_KPROBE, .nargs = 3, .by_name = 1,
		.argtypes = { RAWPROBE_ARG_S64, RAWPROBE_ARG_U32,
			      RAWPROBE_ARG_KSTR },
		.name = "kprobe:vfs_read",
	};
	struct rawprobe_record r;
	struct rp_sink sink;
	char *text, *csv = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(rp_desc_set_names(&d, "file->f_pos,count,file->f_path."
					   "dentry->d_name.name"), 0);
	base_record(&r);
	r.kind = RAWPROBE_KIND_KPROBE;
	r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_STR_FAULT;
	r.nargs = 3;
	r.args[0] = 0;			/* what a faulted fetch leaves */
	r.args[1] = 4096;
	r.str_arg = 2;
	r.fault_mask = 1U << 0 | 1U << 2;
	check_both(&r, &d);
	assert_formats(TEXT, &r, &d, " (file->f_pos=(fault), count=4096, "
		       "file->f_path.dentry->d_name.name=(fault))");
	assert_formats(JSON_BUF, &r, &d, "\"args\":[null,4096,null],"
		       "\"arg_names\":[\"file->f_pos\",\"count\",");

	/*
	 * CSV: the faulted argument's field is empty, as a string's is
	 * (then str, retval, latency_ns and stack: empty too)
	 */
	f = open_memstream(&csv, &len);
	assert_non_null(f);
	assert_int_equal(rp_sink_init(&sink, RP_FMT_CSV, f, false), 0);
	sink.ops->record(&sink, &r, &d);
	rp_sink_flush(&sink);	/* rows are buffered, as text's */
	sink.ops->free(&sink);
	fclose(f);
	assert_non_null(strstr(csv, ",\"kprobe:vfs_read\",kprobe,0x"));
	assert_non_null(strstr(csv, ",,4096,,,,,,,,\n"));
	free(csv);

	/* no bit, no fault: the value (0 here) is shown */
	r.fault_mask = 0;
	text = format_as(TEXT, &r, &d);
	assert_non_null(strstr(text, "(file->f_pos=0, count=4096, "
				     "file->f_path.dentry->d_name.name=<fault>)"));
	free(text);
}

/* Append a segment of several strings' record (uapi: STR_ARG_MULTI) */
static void add_seg(struct rawprobe_record *r, unsigned int arg,
		    unsigned int flags, const char *str)
{
	struct rawprobe_str_seg *seg = (void *)(r->str + r->str_len);
	size_t n = strlen(str);

	seg->arg = (uint8_t)arg;
	seg->flags = (uint8_t)flags;
	seg->len = (uint8_t)n;
	memcpy(seg->str, str, n + 1);
	r->str_len = (uint8_t)(r->str_len + sizeof(*seg) + n + 1);
	r->flags |= (uint8_t)flags;
}

/*
 * Several strings: pty_write's tty->name and buf, and
 * a third whose read faulted; each shown at its argument, in text,
 * JSON ("strs"), CSV (each in its argument's column) and Perfetto.
 */
void test_multi_strings(void **state)
{
	struct rp_probe_desc d = {
		.id = 9, .kind = RAWPROBE_KIND_KPROBE, .nargs = 4, .by_name = 1,
		.argtypes = { RAWPROBE_ARG_KSTR, RAWPROBE_ARG_KSTR,
			      RAWPROBE_ARG_U64, RAWPROBE_ARG_USTR },
		.name = "kprobe:pty_write",
	};
	struct rawprobe_record r;
	char *text, *csv;

	(void)state;
	assert_int_equal(rp_desc_set_names(&d, "tty->name,buf,c,u"), 0);
	base_record(&r);
	r.kind = RAWPROBE_KIND_KPROBE;
	r.flags = RAWPROBE_REC_ARGS;
	r.nargs = 4;
	r.args[2] = 5;
	r.str_arg = RAWPROBE_STR_ARG_MULTI;
	r.str_len = 0;
	add_seg(&r, 0, RAWPROBE_REC_STR, "pts0");
	add_seg(&r, 1, RAWPROBE_REC_STR | RAWPROBE_REC_STR_TRUNC, "hel\"lo");
	add_seg(&r, 3, RAWPROBE_REC_STR_FAULT, "");
	text = format_as(TEXT, &r, &d);
	/* (text escapes controls, not quotes) */
	assert_non_null(strstr(text, "(tty->name=\"pts0\", buf=\"hel\"lo\"..., "
				     "c=5, u=<fault>)\n"));
	free(text);
	text = format_as(JSON_BUF, &r, &d);
	assert_non_null(strstr(text, ",\"strs\":[{\"arg\":0,\"str\":\"pts0\","
				     "\"truncated\":false},{\"arg\":1,\"str\":"
				     "\"hel\\\"lo\",\"truncated\":true},{\"arg\":3,"
				     "\"str\":null,\"truncated\":false}]"));
	assert_non_null(strstr(text, "\"str_fault\":true"));
	free(text);
	csv = csv_of(&r, &d);
	assert_non_null(strstr(csv, ",\"pts0\",\"hel\"\"lo\",5,,,,,"));
	free(csv);

	/* a segment past str_len is none: its argument shows as a number */
	r.str_len = 9;		/* "pts0"'s segment and 1 byte of the next */
	text = format_as(TEXT, &r, &d);
	assert_non_null(strstr(text, "(tty->name=\"pts0\", buf=0x"));
	free(text);
}

/*
 * :strv: the kernel joins an argv into one segment, a string to every
 * output (at its argument, "..." where cut: 20 strings at most).
 */
void test_strv(void **state)
{
	struct rp_probe_desc d = {
		.id = 9, .kind = RAWPROBE_KIND_TRACEPOINT, .nargs = 2,
		.by_name = 1,
		.argtypes = { RAWPROBE_ARG_USTR, RAWPROBE_ARG_USTRV },
		.name = "tracepoint:syscalls:sys_enter_execve",
	};
	struct rawprobe_record r;
	char *csv;

	(void)state;
	assert_string_equal(rp_argtype_name(RAWPROBE_ARG_KSTRV), "strv");
	assert_int_equal(rp_argtype_parse("ustrv"), RAWPROBE_ARG_USTRV);
	assert_int_equal(rp_desc_set_names(&d, "filename,argv"), 0);
	base_record(&r);
	r.kind = RAWPROBE_KIND_TRACEPOINT;
	r.flags = RAWPROBE_REC_ARGS;
	r.nargs = 2;
	r.str_arg = RAWPROBE_STR_ARG_MULTI;
	r.str_len = 0;
	add_seg(&r, 0, RAWPROBE_REC_STR, "/bin/true");
	add_seg(&r, 1, RAWPROBE_REC_STR | RAWPROBE_REC_STR_TRUNC,
		"true a  b c");
	assert_formats(TEXT, &r, &d, "(filename=\"/bin/true\", "
				     "argv=\"true a  b c\"...)\n");
	assert_formats(JSON_BUF, &r, &d, "{\"arg\":1,\"str\":\"true a  b c\","
				     "\"truncated\":true}");
	csv = csv_of(&r, &d);
	assert_non_null(strstr(csv, ",\"/bin/true\",\"true a  b c\","));
	free(csv);
}

/* Append a segment of n raw bytes (an :ip6 address) */
static void add_seg_bytes(struct rawprobe_record *r, unsigned int arg,
			  const unsigned char *b, size_t n)
{
	struct rawprobe_str_seg *seg = (void *)(r->str + r->str_len);

	seg->arg = (uint8_t)arg;
	seg->flags = RAWPROBE_REC_STR;
	seg->len = (uint8_t)n;
	memcpy(seg->str, b, n);
	seg->str[n] = '\0';
	r->str_len = (uint8_t)(r->str_len + sizeof(*seg) + n + 1);
	r->flags |= RAWPROBE_REC_STR;
}

/*
 * :ip6: the kernel copies 16 bytes, NULs among them; every output but a
 * capture shows inet_ntop()'s text, alone or among several strings.
 */
void test_ip6(void **state)
{
	static const unsigned char lo[16] = { [15] = 1 };
	static const unsigned char doc[16] = { 0x20, 0x01, 0x0d, 0xb8,
					       [14] = 0xab, [15] = 0xcd };
	struct rp_probe_desc d = {
		.id = 9, .kind = RAWPROBE_KIND_KPROBE, .nargs = 3, .by_name = 1,
		.argtypes = { RAWPROBE_ARG_IP6, RAWPROBE_ARG_KSTR,
			      RAWPROBE_ARG_IP6 },
		.name = "kprobe:tcp_v6_connect",
	};
	struct rawprobe_record r, shown;
	char *out;

	(void)state;
	assert_int_equal(rp_desc_set_names(&d, "daddr,name,saddr"), 0);
	base_record(&r);
	r.kind = RAWPROBE_KIND_KPROBE;
	r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_STR;
	r.nargs = 1;
	d.nargs = 1;
	r.str_arg = 0;
	memcpy(r.str, lo, 16);
	r.str_len = 16;
	out = sink_of(RP_FMT_TEXT, &r, &d);
	assert_non_null(strstr(out, "(daddr=\"::1\")"));
	free(out);
	out = sink_of(RP_FMT_JSON, &r, &d);
	assert_non_null(strstr(out, "\"str\":\"::1\""));
	free(out);
	/* an argument of another type: the bytes are left alone */
	d.argtypes[0] = RAWPROBE_ARG_KSTR;
	assert_false(rp_rec_ip6_text(&shown, &r, &d));
	d.argtypes[0] = RAWPROBE_ARG_IP6;

	d.nargs = 3;
	r.nargs = 3;
	r.str_arg = RAWPROBE_STR_ARG_MULTI;
	r.str_len = 0;
	memset(r.str, 0, sizeof(r.str));
	add_seg_bytes(&r, 0, doc, 16);
	add_seg(&r, 1, RAWPROBE_REC_STR, "eth0");
	add_seg_bytes(&r, 2, lo, 16);
	out = sink_of(RP_FMT_TEXT, &r, &d);
	assert_non_null(strstr(out, "(daddr=\"2001:db8::abcd\", "
				    "name=\"eth0\", saddr=\"::1\")"));
	free(out);
	out = csv_of(&r, &d);
	assert_non_null(strstr(out, ",\"2001:db8::abcd\",\"eth0\",\"::1\","));
	free(out);
	/* a cut address: its bytes, the rest 0, said truncated */
	r.str_len = 0;
	add_seg_bytes(&r, 0, doc, 4);
	r.nargs = 1;
	d.nargs = 1;
	out = sink_of(RP_FMT_TEXT, &r, &d);
	assert_non_null(strstr(out, "(daddr=\"2001:db8::\")"));
	free(out);
}

/* Segments as a capture file may hold them: whatever the bytes, no
 * read past the record (ASan's build) and a line per record. */
void test_multi_strings_garbage(void **state)
{
	struct rp_probe_desc ip6 = {
		.id = 1, .kind = RAWPROBE_KIND_KPROBE, .nargs = RAWPROBE_MAX_ARGS,
		.name = "kprobe:x",
	};
	struct rawprobe_record r;
	unsigned int i, k;
	char *text;

	(void)state;
	for (k = 0; k < RAWPROBE_MAX_ARGS; k++)
		ip6.argtypes[k] = k % 2 ? RAWPROBE_ARG_IP6 : RAWPROBE_ARG_KSTR;
	for (i = 0; i < 5000; i++) {
		base_record(&r);
		r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_STR;
		r.nargs = (uint8_t)(i % 8);
		r.str_arg = RAWPROBE_STR_ARG_MULTI;
		r.str_len = (uint8_t)(i * 7);
		for (k = 0; k < RAWPROBE_STR_LEN; k++)
			r.str[k] = (char)(splitmix64(&(uint64_t){ i * 131 + k }) %
					  (k % 3 ? 256 : 8));
		text = format_as(TEXT, &r, NULL);
		assert_non_null(strchr(text, '\n'));
		free(text);
		text = format_as(JSON_BUF, &r, NULL);
		free(text);
		free(csv_of(&r, NULL));
		/* :ip6 text in place of bytes: within the area, whatever */
		text = sink_of(RP_FMT_TEXT, &r, &ip6);
		assert_non_null(strchr(text, '\n'));
		free(text);
	}
}
