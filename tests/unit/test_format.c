// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the stream's record formatters (userctl/out/format.c,
 * json.c, outbuf.c, escape.c, CSV in sink.c): the hand-written text and
 * JSON lines must
 * be the bytes that the printf-based formatters they replaced wrote (and
 * a record's kernel stack, what the oracle says of it). The
 * references below are those formatters, kept here as the oracle (with a
 * slow escaping of their own for text), run on edge values and on random
 * records. The escaping of human output is tested on its own, in
 * test_escape.c, against the same oracle (ref_escape.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "test_filter.h"

#include "lib/escape.h"
#include "out/format.h"
#include "lib/outbuf.h"
#include "lib/record_str.h"
#include "out/sink.h"
#include "lib/symbols.h"
#include "test_rand.h"
#include "ref_escape.h"
#include "test_format.h"

/* A function whose name is 250 ESCs, in the kallsyms of setup_kallsyms() */
#define ESC_SYM_ADDR (TEXT_BASE + 0x40000)

#include "ref_format.h"

/* ------------------------------------------------------------------ */
/* Running both                                                        */

/* A small buffer, so that long runs also exercise the flushes. */
#define SMALL_OUTBUF 4096

char *format_as(enum how how, const struct rawprobe_record *r,
		const struct rp_probe_desc *d)
{
	bool buffered = how == TEXT || how == JSON_BUF || how == PRETTY_BUF;
	struct rp_outbuf ob;
	struct json j;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (buffered)
		assert_int_equal(rp_outbuf_init(&ob, f, SMALL_OUTBUF), 0);
	json_init(&j, f, how == PRETTY_BUF || how == PRETTY_FILE);
	if (buffered)
		json_set_outbuf(&j, &ob);
	switch (how) {
	case REF_TEXT:
		ref_text(f, r, d);
		break;
	case TEXT:
		rp_record_text(&ob, r, d);
		break;
	case REF_JSON:
		ref_json(f, r, d);
		break;
	default:
		rp_record_json(&j, r, d);
	}
	if (buffered) {
		rp_outbuf_flush(&ob);
		rp_outbuf_free(&ob);
	}
	fclose(f);
	return text;
}

/* Formatters a and b write the same bytes for r. */
static void check_same(enum how a, enum how b, const struct rawprobe_record *r,
		       const struct rp_probe_desc *d)
{
	char *want = format_as(a, r, d), *got = format_as(b, r, d);

	assert_string_equal(got, want);
	free(want);
	free(got);
}

/* Text and compact JSON as the oracle has them; pretty JSON alike both ways. */
void check_both(const struct rawprobe_record *r, const struct rp_probe_desc *d)
{
	check_same(REF_TEXT, TEXT, r, d);
	check_same(REF_JSON, JSON_BUF, r, d);
	check_same(REF_JSON, JSON_FILE, r, d);
	check_same(PRETTY_FILE, PRETTY_BUF, r, d);
}

/* ------------------------------------------------------------------ */
/* Records                                                             */

static const struct rp_probe_desc desc_typed = {
	.id = 7, .kind = RAWPROBE_KIND_JPROBE, .nargs = 6,
	.argtypes = { RAWPROBE_ARG_U64, RAWPROBE_ARG_S64, RAWPROBE_ARG_S32,
		      RAWPROBE_ARG_U32, RAWPROBE_ARG_PTR, RAWPROBE_ARG_USTR },
	.name = "jprobe:do_sys_openat2",
};

static struct rp_probe_desc desc_addr = {
	.id = 8, .kind = RAWPROBE_KIND_KPROBE, .is_addr = 1,
	.name = "kprobe:0xffffffff81000110",
};

void base_record(struct rawprobe_record *r)
{
	memset(r, 0, sizeof(*r));
	r->ts_ns = 5000000001234ull;
	r->seq = 42;
	r->probe_id = 7;
	r->kind = RAWPROBE_KIND_JPROBE;
	r->cpu = 1;
	r->pid = 100;
	r->tgid = 99;
	strcpy(r->comm, "cat");
	r->addr = TEXT_BASE + 0x110;
}

static void test_edge_numbers(void **state)
{
	static const uint64_t u[] = {
		0, 1, 9, 10, 99, 100, 999999, 1000000, 999999999, 1000000000,
		4294967295ull, 4294967296ull, 9999999999999999999ull,
		10000000000000000000ull, INT64_MAX, (uint64_t)INT64_MIN,
		UINT64_MAX - 1, UINT64_MAX,
	};
	struct rawprobe_record r;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		base_record(&r);
		r.ts_ns = u[i];
		r.seq = u[i];
		r.cpu = (uint16_t)u[i];
		r.pid = (uint32_t)u[i];
		r.tgid = (uint32_t)(u[i] >> 32);
		r.probe_id = (uint32_t)u[i];
		r.addr = u[i];
		r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_RETVAL;
		r.nargs = 6;
		for (k = 0; k < 6; k++)
			r.args[k] = u[(i + k) % (sizeof(u) / sizeof(u[0]))];
		r.retval = (int64_t)u[i];
		r.latency_ns = u[i];
		check_both(&r, &desc_typed);
		check_both(&r, NULL);
		check_both(&r, &desc_addr);
	}
}

static void test_edge_strings(void **state)
{
	struct rp_probe_desc longname = desc_typed;
	struct rawprobe_record r;
	unsigned int c;

	(void)state;
	memset(longname.name, 'n', sizeof(longname.name) - 1);
	longname.name[sizeof(longname.name) - 1] = '\0';

	base_record(&r);
	r.comm[0] = '\0';				/* empty comm */
	check_both(&r, &desc_typed);
	strcpy(r.comm, "fifteen_chars_x");		/* 15, the most */
	check_both(&r, &longname);

	/* every byte in comm and string: escapes, controls, not UTF-8 */
	for (c = 1; c < 256; c += 13) {
		unsigned int k;

		base_record(&r);
		for (k = 0; k < 15; k++)
			r.comm[k] = (char)(c + k > 255 ? c + k - 255 : c + k);
		r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_STR;
		r.nargs = 6;
		r.str_arg = 5;
		for (k = 0; k < 127; k++)
			r.str[k] = (char)(1 + (c + k) % 255);
		r.str_len = 127;
		check_both(&r, &desc_typed);
	}

	/* a string of its own, truncated; one shorter than str_len says */
	base_record(&r);
	r.flags = RAWPROBE_REC_STR | RAWPROBE_REC_STR_TRUNC;
	r.str_arg = RAWPROBE_STR_ARG_NONE;
	strcpy(r.str, "a \"quoted\" \\ path\n");
	r.str_len = 200;
	check_both(&r, &desc_typed);
	r.str_len = 3;
	check_both(&r, &desc_typed);
	r.str[0] = '\0';
	r.str_len = 0;
	check_both(&r, &desc_typed);

	/* a fault in place of the string argument */
	base_record(&r);
	r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_STR_FAULT;
	r.nargs = 6;
	r.str_arg = 5;
	check_both(&r, &desc_typed);
}

/*
 * Every field escaped to its longest: the line is far longer than before
 * escaping, and must fit what rp_record_text() reserves (the buffer of
 * format_as() grows to exactly that; ASan sees a byte more).
 */
static void test_text_worst_case(void **state)
{
	struct rp_probe_desc d = {
		.id = 9, .kind = RAWPROBE_KIND_KPROBE, .is_addr = 1, .nargs = 6,
	};
	struct rawprobe_record r;
	char *text;
	unsigned int k;

	(void)state;
	memset(d.argtypes, RAWPROBE_ARG_PTR, sizeof(d.argtypes));
	memset(d.name, 0x9b, sizeof(d.name) - 1);
	base_record(&r);
	r.ts_ns = r.latency_ns = UINT64_MAX;
	r.retval = INT64_MIN;
	r.cpu = UINT16_MAX;
	r.pid = UINT32_MAX;
	memset(r.comm, 0x1b, sizeof(r.comm));		/* no NUL */
	r.addr = ESC_SYM_ADDR;
	r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_STR | RAWPROBE_REC_STR_TRUNC |
		  RAWPROBE_REC_RETVAL;
	r.nargs = 6;
	for (k = 0; k < 6; k++)
		r.args[k] = ESC_SYM_ADDR + 0x1000 * k + 0xfff;
	r.str_arg = RAWPROBE_STR_ARG_NONE;		/* a string of its own */
	memset(r.str, 0x7f, RAWPROBE_STR_LEN - 1);
	r.str_len = RAWPROBE_STR_LEN;
	check_same(REF_TEXT, TEXT, &r, &d);
	text = format_as(TEXT, &r, &d);
	assert_true(strlen(text) > 7000);
	assert_null(strchr(text, 0x1b));
	free(text);
}

/*
 * A desc made ready (rp_desc_name_ready(): its name copied without a
 * scan) prints the bytes of one that is not: names shorter than the
 * column, as long, past rp_put()'s word moves, and one to escape.
 */
static void test_text_name_ready(void **state)
{
	static const char *const names[] = {
		"k", "kprobe:f", "kprobe:__x64_sys_getpg", "kprobe:__x64_sys_getpgid",
		"kretprobe:__x64_sys_getpgid", "kretprobe:a_function_name_past_32",
		"kprobe:tab\there", "kprobe:\x1b[2J",	/* a tab, an ESC */
	};
	struct rp_probe_desc plain = { .id = 9, .kind = RAWPROBE_KIND_KPROBE };
	struct rp_probe_desc ready;
	struct rawprobe_record r;
	char *a, *b;
	size_t i;

	(void)state;
	base_record(&r);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		memset(plain.name, 0, sizeof(plain.name));
		strcpy(plain.name, names[i]);
		ready = plain;
		rp_desc_name_ready(&ready);
		/* a tab or an ESC is escaped: not ready, printed so */
		assert_int_equal(ready.name_plain_len,
				 strpbrk(plain.name, "\t\x1b") ? 0 :
				 strlen(names[i]));
		a = format_as(TEXT, &r, &plain);
		b = format_as(TEXT, &r, &ready);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
}

/* rp_put(), each length to 40: the bytes of memcpy, nothing past them. */
static void test_put_lengths(void **state)
{
	char src[48], dst[48], want[48];
	size_t n, i;

	(void)state;
	for (i = 0; i < sizeof(src); i++)
		src[i] = (char)('a' + i % 26);
	for (n = 0; n <= 40; n++) {
		memset(dst, '#', sizeof(dst));
		memset(want, '#', sizeof(want));
		memcpy(want + 1, src, n);
		assert_ptr_equal(rp_put(dst + 1, src, n), dst + 1 + n);
		assert_memory_equal(dst, want, sizeof(dst));
	}
}

/* Sixteen frames, each a symbol escaped to its longest, under that line. */
static void test_text_worst_stack(void **state)
{
	struct rp_probe_desc d = { .id = 9, .kind = RAWPROBE_KIND_KPROBE };
	struct rawprobe_record r;
	uint64_t frames[RAWPROBE_STACK_MAX];
	char *text;
	unsigned int k;

	(void)state;
	memset(d.name, 0x9b, sizeof(d.name) - 1);
	base_record(&r);
	r.flags = RAWPROBE_REC_STACK | RAWPROBE_REC_RETVAL;
	for (k = 0; k < RAWPROBE_STACK_MAX; k++)
		frames[k] = ESC_SYM_ADDR + 0xfff - k;
	memcpy(r.str, frames, sizeof(frames));
	r.str_len = 255;		/* more than the area: 16 frames */
	check_both(&r, &d);
	text = format_as(TEXT, &r, &d);
	assert_true(strlen(text) > RAWPROBE_STACK_MAX * 700);
	assert_null(strchr(text, 0x1b));
	free(text);
	r.str_len = 0;			/* an empty stack: no frame */
	check_both(&r, &d);
}

/*
 * The test's return types, by probe id: s32, u32, s64, u64, ptr; 10 a
 * bool, 11 an enum (u32) whose value 2 has a name that is no identifier;
 * 12 not known.
 */
static unsigned char test_ret_type(uint32_t id)
{
	static const unsigned char types[] = {
		RP_RET_S32, RP_RET_U32, RP_RET_S64, RP_RET_U64, RP_RET_PTR,
	};

	if (id < 10)
		return types[id % 5];
	return id == 10 ? RP_RET_BOOL : id == 11 ? RP_RET_U32 : RP_RET_RAW;
}

static const char *test_ret_label(const struct rp_probe_desc *d, uint64_t v)
{
	if (d->id == 11)
		return v == 1 ? "HRTIMER_RESTART" : v == 2 ? "not one" : NULL;
	return NULL;
}

/* what check_ret()'s descs say of their labels (desc.h's ret_label) */
static unsigned char check_ret_label;

/* " = VALUE (" of r as text shows it, for probe id */
static void check_ret(uint32_t id, uint64_t v, const char *want)
{
	struct rp_probe_desc d = { .id = id, .kind = RAWPROBE_KIND_KRETPROBE,
				   .name = "kretprobe:f",
				   .ret_type = test_ret_type(id),
				   .ret_label = check_ret_label };
	struct rawprobe_record r;
	char *text, *at;

	base_record(&r);
	r.kind = RAWPROBE_KIND_KRETPROBE;
	r.flags = RAWPROBE_REC_RETVAL;
	r.retval = (int64_t)v;
	r.latency_ns = 7;
	text = format_as(TEXT, &r, &d);
	at = strstr(text, " = ");
	assert_non_null(at);
	assert_string_equal(at, want);
	free(text);
}

/* Return values typed from BTF (rp_ret_label_fn): a register's bits. */
static void test_ret_typed(void **state)
{
	struct rp_probe_desc d = { .id = 4, .kind = RAWPROBE_KIND_KRETPROBE,
				   .ret_type = RP_RET_PTR };
	struct rawprobe_record r;
	char *text;

	(void)state;
	rp_format_set_ret_labels(test_ret_label);
	check_ret(0, 0xffffffffULL, " = -1 (7 ns)\n");	/* int -1 in eax */
	check_ret(0, 0xfffffffffffffff2ULL, " = -14 (7 ns)\n");
	check_ret(1, 0xffffffff00000005ULL, " = 5 (7 ns)\n");
	check_ret(2, (uint64_t)-14, " = -14 (7 ns)\n");
	check_ret(3, UINT64_MAX, " = 18446744073709551615 (7 ns)\n");
	check_ret(4, TEXT_BASE + 0x110, " = 0xffffffff81000110 <fn_1+0x10> (7 ns)\n");
	check_ret(4, 0, " = 0x0 (7 ns)\n");
	check_ret(10, 0x100, " = false (7 ns)\n");
	check_ret(10, 1, " = true (7 ns)\n");
	check_ret(11, 1, " = HRTIMER_RESTART (7 ns)\n");
	check_ret(11, 2, " = 2 (7 ns)\n");
	check_ret(11, 3, " = 3 (7 ns)\n");
	/* a desc that knows its labels: asked if an enum's, not if none */
	check_ret_label = RP_RET_LABEL_ENUM;
	check_ret(11, 1, " = HRTIMER_RESTART (7 ns)\n");
	check_ret_label = RP_RET_LABEL_NONE;
	check_ret(11, 1, " = 1 (7 ns)\n");
	check_ret_label = RP_RET_LABEL_UNKNOWN;
	/* the longest: a pointer to a symbol escaped to its longest */
	memset(d.name, 0x9b, sizeof(d.name) - 1);
	base_record(&r);
	r.kind = RAWPROBE_KIND_KRETPROBE;
	memset(r.comm, 0x1b, sizeof(r.comm));
	r.flags = RAWPROBE_REC_STR | RAWPROBE_REC_STR_TRUNC | RAWPROBE_REC_RETVAL;
	r.str_arg = RAWPROBE_STR_ARG_NONE;
	memset(r.str, 0x7f, RAWPROBE_STR_LEN - 1);
	r.str_len = RAWPROBE_STR_LEN;
	r.retval = (int64_t)(ESC_SYM_ADDR + 0xfff);
	r.latency_ns = UINT64_MAX;
	text = format_as(TEXT, &r, &d);
	assert_non_null(strstr(text, " = 0xffffffff81040fff <\\x1b"));
	assert_null(strchr(text, 0x1b));
	free(text);
	/* no type known: the signed 64 bits, as before */
	check_ret(12, 0xffffffffULL, " = 4294967295 (7 ns)\n");
	check_ret(12, 0x100, " = 256 (7 ns)\n");
	/* an enum's type without its names: the number */
	rp_format_set_ret_labels(NULL);
	check_ret(11, 0xffffffff00000001ULL, " = 1 (7 ns)\n");
}

/* The part of r's JSON (compact and pretty) from "args" to its end */
static void check_json_tail(const struct rawprobe_record *r,
			    const struct rp_probe_desc *d, const char *want)
{
	char *text = format_as(JSON_BUF, r, d), *at;

	at = strstr(text, ",\"args\":");
	assert_non_null(at);
	assert_string_equal(at, want);
	free(text);
	check_same(PRETTY_FILE, PRETTY_BUF, r, d);
}

/*
 * JSON's typed values: a bool argument true or false by its low byte, a
 * u32's and an s32's upper register bits dropped; the return value by
 * its type, the register in retval_raw where that reads otherwise.
 */
static void test_json_typed(void **state)
{
	struct rp_probe_desc d = {
		.id = 1, .kind = RAWPROBE_KIND_KRETPROBE, .nargs = 4,
		.argtypes = { RAWPROBE_ARG_U32, RAWPROBE_ARG_U32,
			      RAWPROBE_ARG_S32, RAWPROBE_ARG_PTR },
		.name = "kretprobe:f", .arg_bool = 1, .ret_type = RP_RET_S32,
	};
	struct rawprobe_record r;

	(void)state;
	base_record(&r);
	r.kind = RAWPROBE_KIND_KRETPROBE;
	r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_RETVAL;
	r.nargs = 4;
	r.args[0] = 0x100;			/* a bool: its low byte */
	r.args[1] = 0xdeadbeef00000005ULL;	/* u32: 5 */
	r.args[2] = 0x00000000fffffffeULL;	/* s32: -2 */
	r.args[3] = 0xffff888000001000ULL;
	r.retval = 0xfffffffe;			/* int -2 in eax */
	r.latency_ns = 7;
	check_json_tail(&r, &d, ",\"args\":[false,5,-2,18446612682070036480],"
			"\"retval\":-2,\"retval_raw\":4294967294,"
			"\"latency_ns\":7}\n");
	r.args[0] = 0xff01;
	r.retval = -2;			/* sign-extended: the same */
	check_json_tail(&r, &d, ",\"args\":[true,5,-2,18446612682070036480],"
			"\"retval\":-2,\"latency_ns\":7}\n");
	d.ret_type = RP_RET_BOOL;
	r.retval = 0x100;
	check_json_tail(&r, &d, ",\"args\":[true,5,-2,18446612682070036480],"
			"\"retval\":false,\"retval_raw\":256,"
			"\"latency_ns\":7}\n");
	d.ret_type = RP_RET_U32;
	r.retval = -1;
	check_json_tail(&r, &d, ",\"args\":[true,5,-2,18446612682070036480],"
			"\"retval\":4294967295,\"retval_raw\":-1,"
			"\"latency_ns\":7}\n");
	d.ret_type = RP_RET_PTR;
	r.retval = -2;				/* ERR_PTR(-ENOENT) */
	check_json_tail(&r, &d, ",\"args\":[true,5,-2,18446612682070036480],"
			"\"retval\":18446744073709551614,\"retval_raw\":-2,"
			"\"latency_ns\":7}\n");
	/* no types known: the register, signed, as before types */
	d.ret_type = RP_RET_RAW;
	d.arg_bool = 0;
	r.retval = 0xfffffffe;
	check_json_tail(&r, &d, ",\"args\":[65281,5,-2,18446612682070036480],"
			"\"retval\":4294967294,\"latency_ns\":7}\n");
}

/* The test's labels: every other value, of the longest length kept. */
static const char *test_label(const struct rp_probe_desc *d, unsigned int i,
			      uint64_t v)
{
	static const char *const labels[] = {
		"true", "false", "not an identifier", "9starts_with_a_digit",
		/* 64: the longest shown; 65: not shown */
		"L234567890123456789012345678901234567890123456789012345678901234",
		"L2345678901234567890123456789012345678901234567890123456789012345",
		"", NULL,
	};

	(void)d;
	(void)i;
	return labels[v % (sizeof(labels) / sizeof(labels[0]))];
}

static void set_labels(rp_arg_label_fn fn)
{
	rp_format_set_labels(fn);
	ref_label = fn;
}

/* Names of 127 bytes, labels of 64: the line still fits. */
static void test_text_worst_named(void **state)
{
	struct rp_probe_desc d = {
		.id = 9, .kind = RAWPROBE_KIND_KPROBE, .nargs = 6,
		.argtypes = { RAWPROBE_ARG_U32, RAWPROBE_ARG_S32,
			      RAWPROBE_ARG_U32, RAWPROBE_ARG_PTR,
			      RAWPROBE_ARG_U64, RAWPROBE_ARG_U32 },
	};
	char names[RAWPROBE_ARG_NAMES_LEN];
	struct rawprobe_record r;
	unsigned int k;

	(void)state;
	/* 5 names of 20, one of 21, 5 commas: 126 bytes */
	memset(names, 'a', sizeof(names));
	for (k = 1; k < 6; k++)
		names[k * 21 - 1] = ',';
	names[126] = '\0';
	assert_int_equal(rp_desc_set_names(&d, names), 0);
	memset(d.name, 0x9b, sizeof(d.name) - 1);
	set_labels(test_label);
	base_record(&r);
	r.flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_RETVAL;
	r.nargs = 6;
	for (k = 0; k < 6; k++)
		r.args[k] = k == 3 ? ESC_SYM_ADDR + 0xfff : 4;	/* 64 bytes */
	check_both(&r, &d);
	for (k = 0; k < 6; k++)
		r.args[k] = k;
	check_both(&r, &d);
	set_labels(NULL);
	check_both(&r, &d);
}

/* What rp_desc_set_names() and rp_argspec_parse_names() take. */
static void test_names(void **state)
{
	struct rp_probe_desc d = { .nargs = 3 };
	unsigned char types[RAWPROBE_MAX_ARGS];
	char names[RAWPROBE_ARG_NAMES_LEN];
	static const char *const bad[] = {
		"a,b", "a,b,c,d", "a,,c", ",b,c", "a,b,", "a b,c,d", "1a,b,c",
		"a,b,c\x1b", "a,b,c\n", "", "a->,b,c", "a,b..c,d", "a,b[x],c",
		"a,b[1,c", "a,b-c,d", "a,->b,c", "a,b.1c,d", "a,b[2147483648],c",
		"a,b -> c,d",
	};
	size_t i;

	(void)state;
	assert_int_equal(rp_desc_set_names(&d, "fd,buf,_count9"), 0);
	assert_string_equal(d.arg_names, "fd,buf,_count9");
	assert_int_equal(d.name_off[2], 7);
	assert_int_equal(d.name_len[2], 7);
	/* field paths (--args by name), as the kernel sends them back */
	assert_int_equal(rp_desc_set_names(&d, "skb->dev->name,f.a[12],x[0]->y"),
			 0);
	assert_int_equal(d.name_off[1], 15);
	assert_int_equal(d.name_len[1], 7);
	assert_int_equal(d.name_len[2], 7);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = rp_desc_set_names(&d, bad[i]);

		/* "" means no names, which is no error */
		assert_int_equal(rc, bad[i][0] ? -EINVAL : 0);
		assert_string_equal(d.arg_names, "");
	}
	assert_int_equal(rp_argspec_parse_names("fd:s32,buf:ptr,n:u64", types,
						names, sizeof(names)), 3);
	assert_string_equal(names, "fd,buf,n");
	assert_int_equal(types[0], RAWPROBE_ARG_S32);
	assert_int_equal(types[2], RAWPROBE_ARG_U64);
	assert_int_equal(rp_argspec_parse_names("s32,ptr", types, names,
						sizeof(names)), 2);
	assert_string_equal(names, "");
	assert_int_equal(rp_argspec_parse_names("3", types, names, sizeof(names)), 3);
	/* all named or none; names are identifiers; types still checked */
	assert_true(rp_argspec_parse_names("fd:s32,ptr", types, names, sizeof(names)) < 0);
	assert_true(rp_argspec_parse_names("s32,buf:ptr", types, names, sizeof(names)) < 0);
	assert_true(rp_argspec_parse_names("1fd:s32", types, names, sizeof(names)) < 0);
	assert_true(rp_argspec_parse_names("f d:s32", types, names, sizeof(names)) < 0);
	assert_true(rp_argspec_parse_names(":s32", types, names, sizeof(names)) < 0);
	assert_true(rp_argspec_parse_names("fd:", types, names, sizeof(names)) < 0);
	assert_true(rp_argspec_parse_names("fd:float", types, names, sizeof(names)) < 0);
	assert_true(rp_argspec_parse_names("fd:s32:u32", types, names, sizeof(names)) < 0);
	assert_true(rp_argspec_parse_names("a:u64,b:u64,c:u64,d:u64,e:u64,f:u64,g:u64",
					   types, names, sizeof(names)) < 0);
	/* rp_argspec_parse takes no names */
	assert_true(rp_argspec_parse("fd:s32", types) < 0);
}

/* What a sink of format fmt writes for r, as a malloc'd string */
char *sink_of(int fmt, const struct rawprobe_record *r,
	      const struct rp_probe_desc *d)
{
	struct rp_sink sink;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	assert_int_equal(rp_sink_init(&sink, fmt, f, false), 0);
	rp_sink_record(&sink, r, d);
	rp_sink_flush(&sink);
	sink.ops->free(&sink);
	fclose(f);
	return out;
}

/* What one formatter writes for r holds want. */
void assert_formats(enum how how, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d, const char *want)
{
	char *text = format_as(how, r, d);

	if (!strstr(text, want))
		fail_msg("'%s' not in: %s", want, text);
	free(text);
}

/* CSV's row of r, as a malloc'd string */
char *csv_of(const struct rawprobe_record *r, const struct rp_probe_desc *d)
{
	return sink_of(RP_FMT_CSV, r, d);
}

static uint64_t rng_state = 7;

static uint64_t rnd(void)
{
	return splitmix64(&rng_state);
}

/* Mostly small numbers, some of every length, some at the edges. */
static uint64_t rnd_value(void)
{
	switch (rnd() % 4) {
	case 0:
		return rnd() % 1000;
	case 1:
		return rnd() >> (rnd() % 64);
	case 2:
		return TEXT_BASE + rnd() % 0x20000;	/* in (and past) text */
	default:
		return rnd() % 2 ? UINT64_MAX - rnd() % 3 : rnd();
	}
}

/* UTF-8 that escaping keeps and that it does not, at the edges */
static const char *const utf8_pieces[] = {
	"\xc2\xa0", "\xc3\xa9", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf",
	"\xee\x80\x80", "\xef\xbf\xbd", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
	"\xc2\x80", "\xc2\x9f", "\xc1\xbf", "\xe0\x9f\xbf", "\xed\xa0\x80",
	"\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xe2\x82", "\xf0\x9f\x98",
};

static void rnd_string(char *s, size_t size)
{
	size_t n = rnd() % size, i, len;
	const char *piece;

	for (i = 0; i < n; i++) {
		/* printable mostly, UTF-8 or any byte sometimes */
		piece = utf8_pieces[rnd() % (sizeof(utf8_pieces) /
					    sizeof(utf8_pieces[0]))];
		len = strlen(piece);
		if (rnd() % 8 == 0 && i + len <= n) {
			memcpy(s + i, piece, len);
			i += len - 1;
		} else {
			s[i] = (char)(rnd() % 8 ? 32 + rnd() % 95 :
				      1 + rnd() % 255);
		}
	}
	s[n] = '\0';
}

/* Names for d's arguments, now and then not valid (then none). */
static void rnd_names(struct rp_probe_desc *d)
{
	char names[RAWPROBE_ARG_NAMES_LEN] = "";
	unsigned int k, n = d->nargs + (rnd() % 8 == 0);
	size_t at = 0;

	if (rnd() % 2)
		return;
	/* identifiers and field paths, and now and then neither */
	static const char *const tails[] = { "", "->f", ".g2", "[3]", "->h[0].i",
					     "->", "[x]" };
	for (k = 0; k < n && at < 100; k++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%c%u%s",
				       k ? "," : "", rnd() % 9 ? 'a' + k : '-',
				       (unsigned int)(rnd() % 1000),
				       tails[rnd() % 12 < 7 ? 0 :
					     rnd() % (sizeof(tails) /
						      sizeof(tails[0]))]);
	rp_desc_set_names(d, names);
}

/* Frames in the test's kallsyms, some of them nowhere. */
static void rnd_stack(struct rawprobe_record *r)
{
	uint64_t frames[RAWPROBE_STACK_MAX];
	unsigned int n = (unsigned int)(rnd() % (RAWPROBE_STACK_MAX + 1)), k;

	for (k = 0; k < n; k++)
		frames[k] = rnd() % 8 ? TEXT_BASE + rnd() % 0x41000 :
			    rnd_value();
	memcpy(r->str, frames, n * sizeof(frames[0]));
	r->str_len = (uint8_t)(n * sizeof(frames[0]));
}

/*
 * Half the records keep the last one's task and second (text's head
 * cache), and half its probe (d as it was: the name cached with the head,
 * by its key, when it was made ready).
 */
static void rnd_keep_task(struct rawprobe_record *r,
			  const struct rawprobe_record *last)
{
	r->ts_ns = last->ts_ns / 1000000000U * 1000000000U +
		   rnd() % 1000000000U;
	r->cpu = last->cpu;
	r->pid = last->pid;
	memcpy(r->comm, last->comm, sizeof(r->comm));
}

static void rnd_desc(struct rp_probe_desc *d, const struct rawprobe_record *r)
{
	unsigned int k;

	memset(d, 0, sizeof(*d));
	d->id = r->probe_id;
	d->kind = r->kind;
	d->is_addr = rnd() % 4 == 0;
	d->nargs = (uint8_t)(rnd() % 7);
	for (k = 0; k < RAWPROBE_MAX_ARGS; k++)
		d->argtypes[k] = (uint8_t)(rnd() % __RAWPROBE_ARG_MAX);
	if (rnd() % 2)
		rnd_string(d->name, sizeof(d->name));
	else	/* names to copy as they are */
		snprintf(d->name, sizeof(d->name), "kprobe:fn_%llx",
			 (unsigned long long)rnd_value());
	rnd_names(d);
	d->ret_type = (uint8_t)(rnd() % (RP_RET_MAX + 1));
	d->arg_bool = (uint8_t)(rnd() % 2 ? rnd() % 64 : 0);
	if (rnd() % 2)
		rp_desc_name_ready(d);
}

static void test_random_records(void **state)
{
	struct rp_probe_desc d = { 0 };
	struct rawprobe_record r, last = { 0 };
	unsigned int i, k;
	bool keep_desc;

	(void)state;
	for (i = 0; i < 20000; i++) {
		keep_desc = i && rnd() % 2;
		memset(&r, 0, sizeof(r));
		r.ts_ns = rnd_value();
		r.seq = rnd_value();
		r.probe_id = keep_desc ? d.id : (uint32_t)rnd();
		r.kind = (uint8_t)(rnd() % 6);
		r.flags = (uint8_t)(rnd() % 32 |
				    (rnd() % 4 ? 0 : RAWPROBE_REC_STACK));
		r.cpu = (uint16_t)rnd_value();
		r.pid = (uint32_t)rnd_value();
		r.tgid = (uint32_t)rnd_value();
		rnd_string(r.comm, RAWPROBE_COMM_LEN);
		if (i && rnd() % 2)
			rnd_keep_task(&r, &last);
		r.addr = rnd_value();
		for (k = 0; k < RAWPROBE_MAX_ARGS; k++)
			r.args[k] = rnd_value();
		r.retval = (int64_t)rnd_value();
		r.latency_ns = rnd_value();
		rnd_string(r.str, RAWPROBE_STR_LEN);
		r.str_len = (uint8_t)(rnd() % 2 ? strlen(r.str) : rnd() % 256);
		if ((r.flags & RAWPROBE_REC_STACK) && rnd() % 2)
			rnd_stack(&r);
		r.fault_mask = (uint8_t)(rnd() % 4 ? 0 : rnd());
		r.str_arg = (uint8_t)(rnd() % 3 ? rnd() % 7 : 0xff);
		r.nargs = (uint8_t)(rnd() % 8);

		if (!keep_desc)
			rnd_desc(&d, &r);
		set_labels(rnd() % 2 ? test_label : NULL);
		check_both(&r, rnd() % 8 ? &d : NULL);
		last = r;
	}
}

/* The number helpers against printf, around every power of ten. */
static void test_numbers(void **state)
{
	char got[64], want[64], *p;
	uint64_t v, pow = 1;
	int i, k;

	(void)state;
	for (i = 0; i < 20; i++, pow *= 10) {
		for (k = -2; k <= 2; k++) {
			v = pow + (uint64_t)k;
			*rp_put_u64(got, v) = '\0';
			snprintf(want, sizeof(want), "%" PRIu64, v);
			assert_string_equal(got, want);
			*rp_put_s64(got, (int64_t)v) = '\0';
			snprintf(want, sizeof(want), "%" PRId64, (int64_t)v);
			assert_string_equal(got, want);
			*rp_put_hex(got, v) = '\0';
			snprintf(want, sizeof(want), "0x%" PRIx64, v);
			assert_string_equal(got, want);
			p = rp_put_u64_width(got, v % 1000000, 6, '0');
			*p = '\0';
			snprintf(want, sizeof(want), "%06" PRIu64, v % 1000000);
			assert_string_equal(got, want);
		}
	}
}

/* A piece larger than the buffer, and many that fill it up. */
static void test_outbuf_flushes(void **state)
{
	struct rp_outbuf ob;
	char big[10000], *text = NULL;
	size_t i, len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	memset(big, 'b', sizeof(big));
	assert_int_equal(rp_outbuf_init(&ob, f, 64), 0);
	for (i = 0; i < 1000; i++)
		rp_ob_put(&ob, "0123456789", 10);
	rp_ob_put(&ob, big, sizeof(big));
	rp_ob_putc(&ob, '!');
	rp_outbuf_flush(&ob);
	rp_outbuf_free(&ob);
	fclose(f);
	assert_int_equal(len, 10000 + sizeof(big) + 1);
	assert_memory_equal(text + 9990, "0123456789bbb", 13);
	assert_int_equal(text[len - 1], '!');
	free(text);
}

/* Address to symbol, against the kallsyms of setup_kallsyms(). */
static void test_ksym(void **state)
{
	static const struct {
		uint64_t addr;
		const char *sym;
	} cases[] = {
		{ TEXT_BASE, "fn_0+0x0 [ext4]" },
		{ TEXT_BASE + 0x110, "fn_1+0x10" },
		{ TEXT_BASE + 0x7ff, "fn_7+0xff [ext4]" },
		{ TEXT_BASE + 0xffff, "fn_255+0xff" },
		{ TEXT_BASE - 1, "" },			/* below the first */
		{ TEXT_BASE + 0x10000, "" },		/* data */
		{ TEXT_BASE + 0x30000, "" },		/* far past the last */
		{ 0xffff888012345678ull, "" },		/* the heap */
		{ 0, "" },
		{ UINT64_MAX, "" },
	};
	char buf[RP_KSYM_MAX];
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rp_ksym_format(cases[i].addr, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].sym);
		assert_string_equal(rp_ksym_cached(cases[i].addr, &len),
				    cases[i].sym);
		assert_int_equal(len, strlen(cases[i].sym));
	}
	rp_ksym_format(TEXT_BASE + 0x110, buf, 8);	/* cut as snprintf */
	assert_string_equal(buf, "fn_1+0x");
}

/* A kallsyms of its own, so that addresses near TEXT_BASE symbolize. */
static int setup_kallsyms(void **state)
{
	static char path[] = "/tmp/rp-test-kallsyms.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char esc_name[251];
	unsigned int i;

	(void)state;
	if (!f)
		return -1;
	for (i = 0; i < 256; i++)
		fprintf(f, "%llx %c fn_%u%s\n", TEXT_BASE + i * 0x100ull,
			i % 5 ? 't' : 'T', i, i % 7 ? "" : "\t[ext4]");
	fprintf(f, "%llx D some_data\n", TEXT_BASE + 0x10000);
	memset(esc_name, 0x1b, sizeof(esc_name) - 1);
	esc_name[sizeof(esc_name) - 1] = '\0';
	fprintf(f, "%llx t %s\n", ESC_SYM_ADDR, esc_name);
	fclose(f);
	setenv("RAWPROBE_KALLSYMS", path, 1);
	return 0;
}

static int teardown_kallsyms(void **state)
{
	(void)state;
	unlink(getenv("RAWPROBE_KALLSYMS"));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_outbuf_flushes),
		cmocka_unit_test(test_ksym),
		cmocka_unit_test(test_edge_numbers),
		cmocka_unit_test(test_edge_strings),
		cmocka_unit_test(test_text_worst_case),
		cmocka_unit_test(test_text_worst_named),
		cmocka_unit_test(test_text_worst_stack),
		cmocka_unit_test(test_text_name_ready),
		cmocka_unit_test(test_put_lengths),
		cmocka_unit_test(test_ret_typed),
		cmocka_unit_test(test_json_typed),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_fetch_faults),
		cmocka_unit_test(test_value_formats),
		cmocka_unit_test(test_random_records),
		cmocka_unit_test(test_multi_strings),
		cmocka_unit_test(test_strv),
		cmocka_unit_test(test_multi_strings_garbage),
		cmocka_unit_test(test_ip6),
	};

	rp_test_filter();
	return cmocka_run_group_tests(tests, setup_kallsyms, teardown_kallsyms);
}
