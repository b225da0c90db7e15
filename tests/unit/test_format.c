// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the stream's record formatters (userctl/format.c,
 * json.c, outbuf.c): the hand-written text and JSON lines must be the
 * bytes that the printf-based formatters they replaced wrote. The
 * references below are those formatters, kept here as the oracle, run
 * on edge values and on random records.
 */
#define _GNU_SOURCE
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

#include "format.h"
#include "outbuf.h"
#include "symbols.h"
#include "test_rand.h"

#define TEXT_BASE 0xffffffff81000000ull

/* ------------------------------------------------------------------ */
/* The oracle: the formatters as they were, on printf                  */

static void ref_arg(FILE *out, unsigned int type, uint64_t v)
{
	char sym[200];

	switch (type) {
	case RAWPROBE_ARG_S64:
	case RAWPROBE_ARG_S32:
		fprintf(out, "%" PRId64, (int64_t)v);
		break;
	case RAWPROBE_ARG_U32:
		fprintf(out, "%" PRIu64, v);
		break;
	case RAWPROBE_ARG_PTR:
		rp_ksym_format(v, sym, sizeof(sym));
		fprintf(out, "0x%" PRIx64 "%s%s%s", v, sym[0] ? " <" : "", sym,
			sym[0] ? ">" : "");
		break;
	default:
		fprintf(out, "0x%" PRIx64, v);
	}
}

static void ref_text(FILE *out, const struct rawprobe_record *r,
		     const struct rp_probe_desc *d)
{
	unsigned long long t = r->ts_ns;
	char sym[200] = "";
	unsigned int i;

	if (!d || d->is_addr)
		rp_ksym_format(r->addr, sym, sizeof(sym));
	fprintf(out, "%6llu.%06llu %3u %7u %-16.16s %-24s%s%s%s",
		t / 1000000000ULL, (t / 1000) % 1000000ULL, r->cpu, r->pid,
		r->comm, d ? d->name : "?", sym[0] ? " <" : "", sym,
		sym[0] ? ">" : "");
	if (r->flags & RAWPROBE_REC_ARGS) {
		fputs(" (", out);
		for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++) {
			if (i)
				fputs(", ", out);
			if ((r->flags & RAWPROBE_REC_STR) && i == r->str_arg)
				fprintf(out, "\"%.*s\"%s", (int)r->str_len,
					r->str, r->flags & RAWPROBE_REC_STR_TRUNC ?
					"..." : "");
			else if ((r->flags & RAWPROBE_REC_STR_FAULT) &&
				 i == r->str_arg)
				fputs("<fault>", out);
			else
				ref_arg(out, rp_argtype_of(d, i), r->args[i]);
		}
		fputc(')', out);
	}
	if ((r->flags & RAWPROBE_REC_STR) &&
	    (!(r->flags & RAWPROBE_REC_ARGS) || r->str_arg >= r->nargs))
		fprintf(out, " \"%.*s\"%s", (int)r->str_len, r->str,
			r->flags & RAWPROBE_REC_STR_TRUNC ? "..." : "");
	if (r->flags & RAWPROBE_REC_RETVAL)
		fprintf(out, " = %" PRId64 " (%" PRIu64 " ns)",
			(int64_t)r->retval, (uint64_t)r->latency_ns);
	fputc('\n', out);
}

static void ref_json_str(FILE *out, const char *key, const char *s)
{
	const unsigned char *p;

	fprintf(out, ",\"%s\":\"", key);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void ref_json(FILE *out, const struct rawprobe_record *r,
		     const struct rp_probe_desc *d)
{
	char sym[200];
	unsigned int i;

	fprintf(out, "{\"ts_ns\":%" PRIu64 ",\"seq\":%" PRIu64
		",\"cpu\":%u,\"pid\":%u,\"tgid\":%u", (uint64_t)r->ts_ns,
		(uint64_t)r->seq, r->cpu, r->pid, r->tgid);
	ref_json_str(out, "comm", r->comm);
	fprintf(out, ",\"probe_id\":%u", r->probe_id);
	if (d)
		ref_json_str(out, "probe", d->name);
	fprintf(out, ",\"kind\":\"%s\",\"addr\":\"0x%" PRIx64 "\"",
		rp_kind_name(r->kind), (uint64_t)r->addr);
	rp_ksym_format(r->addr, sym, sizeof(sym));
	if (sym[0])
		ref_json_str(out, "sym", sym);
	if (r->flags & RAWPROBE_REC_ARGS) {
		fputs(",\"args\":[", out);
		for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++) {
			unsigned int t = rp_argtype_of(d, i);

			fputs(i ? "," : "", out);
			if (t == RAWPROBE_ARG_S32 || t == RAWPROBE_ARG_S64)
				fprintf(out, "%" PRId64, (int64_t)r->args[i]);
			else
				fprintf(out, "%" PRIu64, (uint64_t)r->args[i]);
		}
		fputc(']', out);
	}
	if (r->flags & RAWPROBE_REC_STR) {
		ref_json_str(out, "str", r->str);
		fprintf(out, ",\"str_truncated\":%s",
			r->flags & RAWPROBE_REC_STR_TRUNC ? "true" : "false");
	}
	if (r->flags & RAWPROBE_REC_STR_FAULT)
		fputs(",\"str_fault\":true", out);
	if (r->flags & RAWPROBE_REC_RETVAL)
		fprintf(out, ",\"retval\":%" PRId64 ",\"latency_ns\":%" PRIu64,
			(int64_t)r->retval, (uint64_t)r->latency_ns);
	fputs("}\n", out);
}

/* ------------------------------------------------------------------ */
/* Running both                                                        */

/* A small buffer, so that long runs also exercise the flushes. */
#define SMALL_OUTBUF 4096

/* Which formatter, into what. */
enum how {
	REF_TEXT, TEXT,			/* the oracle; rp_record_text() */
	REF_JSON,			/* the oracle, compact */
	JSON_BUF, JSON_FILE,		/* rp_record_json(), compact */
	PRETTY_BUF, PRETTY_FILE,	/* rp_record_json(), pretty */
};

/* What one formatter writes for r, as a malloc'd string. */
static char *format_as(enum how how, const struct rawprobe_record *r,
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
static void check_both(const struct rawprobe_record *r,
		       const struct rp_probe_desc *d)
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

static void base_record(struct rawprobe_record *r)
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

static void rnd_string(char *s, size_t size)
{
	size_t n = rnd() % size, i;

	for (i = 0; i < n; i++)	/* printable mostly, any byte sometimes */
		s[i] = (char)(rnd() % 8 ? 32 + rnd() % 95 : 1 + rnd() % 255);
	s[n] = '\0';
}

static void test_random_records(void **state)
{
	struct rp_probe_desc d;
	struct rawprobe_record r;
	unsigned int i, k;

	(void)state;
	for (i = 0; i < 20000; i++) {
		memset(&r, 0, sizeof(r));
		r.ts_ns = rnd_value();
		r.seq = rnd_value();
		r.probe_id = (uint32_t)rnd();
		r.kind = (uint8_t)(rnd() % 6);
		r.flags = (uint8_t)(rnd() % 32);
		r.cpu = (uint16_t)rnd_value();
		r.pid = (uint32_t)rnd_value();
		r.tgid = (uint32_t)rnd_value();
		rnd_string(r.comm, RAWPROBE_COMM_LEN);
		r.addr = rnd_value();
		for (k = 0; k < RAWPROBE_MAX_ARGS; k++)
			r.args[k] = rnd_value();
		r.retval = (int64_t)rnd_value();
		r.latency_ns = rnd_value();
		rnd_string(r.str, RAWPROBE_STR_LEN);
		r.str_len = (uint16_t)(rnd() % 2 ? strlen(r.str) : rnd() % 300);
		r.str_arg = (uint8_t)(rnd() % 3 ? rnd() % 7 : 0xff);
		r.nargs = (uint8_t)(rnd() % 8);

		memset(&d, 0, sizeof(d));
		d.id = r.probe_id;
		d.kind = r.kind;
		d.is_addr = rnd() % 4 == 0;
		d.nargs = (uint8_t)(rnd() % 7);
		for (k = 0; k < RAWPROBE_MAX_ARGS; k++)
			d.argtypes[k] = (uint8_t)(rnd() % __RAWPROBE_ARG_MAX);
		rnd_string(d.name, sizeof(d.name));
		check_both(&r, rnd() % 8 ? &d : NULL);
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
	unsigned int i;

	(void)state;
	if (!f)
		return -1;
	for (i = 0; i < 256; i++)
		fprintf(f, "%llx %c fn_%u%s\n", TEXT_BASE + i * 0x100ull,
			i % 5 ? 't' : 'T', i, i % 7 ? "" : "\t[ext4]");
	fprintf(f, "%llx D some_data\n", TEXT_BASE + 0x10000);
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
		cmocka_unit_test(test_random_records),
	};

	return cmocka_run_group_tests(tests, setup_kallsyms, teardown_kallsyms);
}
