// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of count -f openmetrics (userctl/out/openmetrics.c):
 * synthetic aggregates (commands with quotes, backslashes, newlines and
 * control bytes, callers, log2 and linear histograms of random values,
 * stats) rendered and checked
 *   - by promtool check metrics (Debian's prometheus package, installed
 *     by tools/deps.sh): exit 0 and not a word of lint;
 *   - against an oracle: every sample's labels as escape.h's text and
 *     the exposition format's escaping make them, every cumulative
 *     bucket the number of the values at most its le, +Inf, _count and
 *     _sum the values' count and sum;
 * and the running totals of count -i (rp_agg_accumulate).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "test_filter.h"

#include "lib/agg_read.h"
#include "lib/escape.h"
#include "out/openmetrics.h"
#include "test_rand.h"

#define TEXT_BASE 0xffffffff81000000ull
#define PROBE "kprobe:vfs_read"

/* ------------------------------------------------------------------ */
/* Building results                                                    */

struct vals {			/* one key's values, for the oracle */
	int64_t v[256];
	size_t n;
};

static struct rp_agg_result *result_new(uint32_t key_words,
					uint32_t val_words, size_t n)
{
	struct rp_agg_result *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->key_words = key_words;
	r->val_words = val_words;
	r->n = r->cap = n;
	r->words = calloc(n ? n * (key_words + val_words) : 1,
			  sizeof(uint64_t));
	assert_non_null(r->words);
	r->start_ns = 1000;
	r->end_ns = 1000 + 1000000000ull;
	return r;
}

static void result_free(struct rp_agg_result *r)
{
	rp_agg_result_free(r);
	free(r);
}

/* A comm's two key words */
static void put_comm(uint64_t *w, const char *comm)
{
	char c[RAWPROBE_COMM_LEN] = { 0 };

	memcpy(c, comm, strnlen(comm, sizeof(c)));
	memcpy(w, c, sizeof(c));
}

/* The kernel's bucket of x (kmod/agg_core.h's rp_agg_bucket), restated */
static size_t ref_bucket(const struct rp_agg_view *v, size_t nb, int64_t x)
{
	size_t b = 0;

	if (v->hist == RAWPROBE_AGG_HIST_LOG2) {
		/* below 0, then 0, then [1, 2), [2, 4), ... */
		if (x < 0)
			return 0;
		while ((uint64_t)x >> b)
			b++;
		return b + 1;
	}
	if (x < v->lin_min)
		return 0;
	b = (size_t)(((uint64_t)x - (uint64_t)v->lin_min) / v->lin_step);
	return b < nb ? b : nb - 1;
}

/* Values val: count, sum, min, max, buckets, as the kernel counts them */
static void put_values(uint64_t *val, const struct rp_agg_view *v, size_t nb,
		       const struct vals *x)
{
	size_t i;

	val[RP_AGG_W_COUNT] = x->n;
	if (!v->stats)
		return;
	val[RP_AGG_W_MIN] = (uint64_t)INT64_MAX;
	val[RP_AGG_W_MAX] = (uint64_t)INT64_MIN;
	for (i = 0; i < x->n; i++) {
		val[RP_AGG_W_SUM] += (uint64_t)x->v[i];
		if (x->v[i] < (int64_t)val[RP_AGG_W_MIN])
			val[RP_AGG_W_MIN] = (uint64_t)x->v[i];
		if (x->v[i] > (int64_t)val[RP_AGG_W_MAX])
			val[RP_AGG_W_MAX] = (uint64_t)x->v[i];
		if (nb)
			val[RP_AGG_W_BUCKETS + ref_bucket(v, nb, x->v[i])]++;
	}
}

static char *render(const struct rp_agg_view *v, const struct rp_agg_result *r)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	rp_agg_print_openmetrics(f, v, r, NULL);
	assert_int_equal(fclose(f), 0);
	return s;
}

/* ------------------------------------------------------------------ */
/* promtool                                                             */

/* promtool check metrics on text: exit 0 and nothing said (no lint). */
static void promtool_accepts(const char *text)
{
	char in[] = "/tmp/rp_om_inXXXXXX", err[] = "/tmp/rp_om_errXXXXXX";
	char cmd[256], said[4096];
	int fi = mkstemp(in), fe = mkstemp(err), st;
	ssize_t n;

	assert_true(fi >= 0 && fe >= 0);
	assert_int_equal(write(fi, text, strlen(text)), (ssize_t)strlen(text));
	close(fi);
	if (system("command -v promtool >/dev/null")) {
		unlink(in);
		unlink(err);
		fail_msg("no promtool: tools/deps.sh installs it (Debian: prometheus)");
	}
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s > %s 2>&1",
		 in, err);
	st = system(cmd);
	n = read(fe, said, sizeof(said) - 1);
	close(fe);
	said[n > 0 ? n : 0] = '\0';
	if (st || n > 0)
		fprintf(stderr, "promtool (status %d) on:\n%s---\n%s---\n",
			st, text, said);
	unlink(in);
	unlink(err);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(n, 0);
}

/* ------------------------------------------------------------------ */
/* The oracle                                                          */

/* The exposition format's escaping of a label value, restated */
static void ref_om_escape(char *out, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 3 < len; s++) {
		if (*s == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
			continue;
		}
		if (*s == '\\' || *s == '"')
			out[n++] = '\\';
		out[n++] = *s;
	}
	out[n] = '\0';
}

/* probe="...",LABEL="..." for entry e: keys as count's text shows them */
static void ref_labels(char *out, size_t len, const struct rp_agg_view *v,
		       const char *const *lnames, const struct rp_agg_result *r,
		       size_t e)
{
	const uint64_t *w = rp_agg_entry(r, e);
	char cell[RP_AGG_CELL], esc[2 * RP_AGG_CELL];
	size_t n;
	unsigned int i;

	ref_om_escape(esc, sizeof(esc), v->probe);
	n = (size_t)snprintf(out, len, "probe=\"%s\"", esc);
	for (i = 0; i < v->nkeys; i++) {
		rp_agg_key_str(v, i, &w, cell, sizeof(cell));
		ref_om_escape(esc, sizeof(esc), cell);
		n += (size_t)snprintf(out + n, len - n, ",%s=\"%s\"",
				      lnames[i], esc);
		assert_true(n < len);
	}
}

/* The lines of text that begin with prefix (each once at most: counted) */
static size_t count_prefix(const char *text, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, len))
			n++;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return n;
}

/* The value of the one line "prefix VALUE" as a string (static buffer) */
static const char *sample(const char *text, const char *prefix)
{
	static char val[64];
	const char *p = text;
	size_t len = strlen(prefix), k;

	assert_int_equal(count_prefix(text, prefix), 1);
	while (strncmp(p, prefix, len))
		p = strchr(p, '\n') + 1;
	p += len;
	assert_true(*p == ' ');
	k = strcspn(++p, "\n");
	assert_true(k < sizeof(val));
	memcpy(val, p, k);
	val[k] = '\0';
	return val;
}

/* "1.5" (seconds, exactly) or "-3" as an integer: in ns if seconds */
static int64_t parse_num(const char *s, bool seconds)
{
	int64_t whole, frac = 0, scale = 100000000;
	bool neg = *s == '-';
	char *end;

	whole = strtoll(s + neg, &end, 10);
	if (seconds && *end == '.')
		for (end++; *end >= '0' && *end <= '9'; end++, scale /= 10) {
			assert_true(scale > 0);
			frac += (*end - '0') * scale;
		}
	assert_true(*end == '\0' || *end == '"');
	if (seconds)
		whole = whole * 1000000000 + frac;
	return neg ? -whole : whole;
}

/*
 * Entry e's histogram lines against its values: each bucket the number
 * of values at most its le, in increasing le; +Inf, _count, _sum right.
 * Returns how many bucket lines it had (the layout, for comparing keys).
 */
static size_t check_hist(const char *text, const char *family, bool seconds,
			 const char *labels, const struct vals *x)
{
	char prefix[1024];
	const char *p = text;
	int64_t le, prev = INT64_MIN, sum = 0;
	uint64_t got, want, last = 0;
	size_t n = 0, len, i;

	for (i = 0; i < x->n; i++)
		sum += x->v[i];
	len = (size_t)snprintf(prefix, sizeof(prefix), "%s_bucket{%s,le=\"",
			       family, labels);
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, prefix, len) || !strncmp(p + len, "+Inf", 4))
			continue;
		le = parse_num(p + len, seconds);
		assert_true(le > prev);		/* increasing */
		prev = le;
		got = strtoull(strstr(p + len, "} ") + 2, NULL, 10);
		for (want = 0, i = 0; i < x->n; i++)
			want += x->v[i] <= le;
		if (got != want)
			fail_msg("%s le=%" PRId64 ": %" PRIu64 ", want %" PRIu64,
				 labels, le, got, want);
		last = got;
		n++;
	}
	snprintf(prefix, sizeof(prefix), "%s_bucket{%s,le=\"+Inf\"}", family,
		 labels);
	got = strtoull(sample(text, prefix), NULL, 10);
	assert_int_equal(got, x->n);
	assert_true(last <= got);
	snprintf(prefix, sizeof(prefix), "%s_count{%s}", family, labels);
	assert_int_equal(strtoull(sample(text, prefix), NULL, 10), x->n);
	snprintf(prefix, sizeof(prefix), "%s_sum{%s}", family, labels);
	assert_int_equal(parse_num(sample(text, prefix), seconds), sum);
	return n;
}

/* Each family's HELP and TYPE once, and of that type */
static void check_family(const char *text, const char *name, const char *type)
{
	char line[256];

	snprintf(line, sizeof(line), "# HELP %s ", name);
	assert_int_equal(count_prefix(text, line), 1);
	snprintf(line, sizeof(line), "# TYPE %s %s\n", name, type);
	assert_int_equal(count_prefix(text, line), 1);
	snprintf(line, sizeof(line), "# TYPE %s ", name);
	assert_int_equal(count_prefix(text, line), 1);
}

/* ------------------------------------------------------------------ */
/* The tests                                                           */

static void test_label_names(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "comm", "comm" },
		{ "skb->len", "skb_len" },
		{ "file->f_pos", "file_f_pos" },
		{ "fooBar", "foo_bar" },
		{ "PID", "pid" },
		{ "arg2", "arg2" },
		{ "__x__", "x" },
		{ "a..b", "a_b" },
		{ "9lives", "key_9lives" },
		{ "le", "key_le" },
		{ "probe", "key_probe" },
		{ "quantile", "key_quantile" },
		{ "", "key" },
		{ "->", "key" },
		{ "caf\xc3\xa9", "caf" },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rp_om_label_name(buf, sizeof(buf), cases[i].in);
		if (strcmp(buf, cases[i].out))
			fail_msg("'%s': '%s', want '%s'", cases[i].in, buf,
				 cases[i].out);
	}
	/* too long: cut, never past the buffer */
	rp_om_label_name(buf, 8, "9abcdefghijkl");
	assert_string_equal(buf, "key_9ab");
}

/* Keys comm, pid, caller with hostile commands: labels as the oracle's */
static void test_counts_by_comm(void **state)
{
	static const char *const comms[] = {
		"bash", "say \"hi\"", "back\\slash", "new\nline", "\x1b]0;x\a",
		"caf\xc3\xa9", "bad\xff\xfe", "}{,=\"\\",
	};
	const size_t n = sizeof(comms) / sizeof(comms[0]);
	const char *const lnames[] = { "comm", "pid", "caller" };
	struct rp_agg_view v = {
		.probe = PROBE, .nkeys = 3,
		.keys = { RAWPROBE_AGG_KEY_COMM, RAWPROBE_AGG_KEY_PID,
			  RAWPROBE_AGG_KEY_CALLER },
		.names = { "comm", "pid", "caller" },
	};
	struct rp_agg_result *r = result_new(4, 1, n);
	char labels[1024], prefix[1100];
	uint64_t *w;
	size_t e;
	char *text;

	(void)state;
	for (e = 0; e < n; e++) {
		w = rp_agg_entry(r, e);
		put_comm(w, comms[e]);
		w[2] = 100 + e;
		w[3] = TEXT_BASE + 0x100 * e + 0x10;	/* fn_E+0x10 */
		w[4] = 1000 - e;			/* sorted by count */
	}
	r->dropped = 7;
	text = render(&v, r);
	promtool_accepts(text);
	check_family(text, "rawprobe_hits_total", "counter");
	check_family(text, "rawprobe_dropped_hits_total", "counter");
	assert_string_equal(sample(text, "rawprobe_dropped_hits_total{probe=\""
				   PROBE "\"}"), "7");
	for (e = 0; e < n; e++) {
		ref_labels(labels, sizeof(labels), &v, lnames, r, e);
		snprintf(prefix, sizeof(prefix), "rawprobe_hits_total{%s}",
			 labels);
		assert_int_equal(strtoull(sample(text, prefix), NULL, 10),
				 1000 - e);
	}
	/* a caller is a symbol, a control byte never raw */
	assert_non_null(strstr(text, "caller=\"fn_1+0x10\""));
	assert_null(strchr(text, '\x1b'));
	assert_null(strstr(text, "\xff"));
	assert_int_equal(count_prefix(text, "rawprobe_hits_total{"), n);
	free(text);

	v.top = 3;			/* --top */
	text = render(&v, r);
	promtool_accepts(text);
	assert_int_equal(count_prefix(text, "rawprobe_hits_total{"), 3);
	free(text);
	result_free(r);
}

/* Random values of nkeys keys into a result by pid, with the oracle's copy */
static struct rp_agg_result *random_hist(const struct rp_agg_view *v,
					 size_t nb, struct vals *x,
					 size_t nkeys, uint64_t seed,
					 int64_t lo, int64_t span)
{
	struct rp_agg_result *r = result_new(1, RP_AGG_W_BUCKETS + nb, nkeys);
	size_t e, i;

	for (e = 0; e < nkeys; e++) {
		x[e].n = 1 + splitmix64(&seed) % 200;
		for (i = 0; i < x[e].n; i++) {
			/* some of each magnitude: a log2 span of bits */
			if (lo >= 0 && span > 64)
				x[e].v[i] = (int64_t)(splitmix64(&seed) >>
					(64 - 1 - splitmix64(&seed) % 40));
			else
				x[e].v[i] = lo + (int64_t)(splitmix64(&seed) %
							   (uint64_t)span);
		}
		rp_agg_entry(r, e)[0] = 1000 + e;
		put_values(rp_agg_entry(r, e) + 1, v, nb, &x[e]);
	}
	rp_agg_sort_by_count(r);
	/* the oracle's values follow their entries */
	return r;
}

/* The oracle's values of entry e (pid 1000 + k is x[k]) */
static const struct vals *vals_of(const struct rp_agg_result *r, size_t e,
				  const struct vals *x)
{
	return &x[rp_agg_entry(r, e)[0] - 1000];
}

static void check_all_hist(const struct rp_agg_view *v,
			   const struct rp_agg_result *r, const struct vals *x,
			   const char *family, bool seconds)
{
	const char *const lnames[] = { "pid" };
	char labels[256], name[128];
	size_t e, layout = 0, n;
	char *text = render(v, r);

	promtool_accepts(text);
	check_family(text, family, "histogram");
	snprintf(name, sizeof(name), "%s_min", family);
	check_family(text, name, "gauge");
	snprintf(name, sizeof(name), "%s_max", family);
	check_family(text, name, "gauge");
	for (e = 0; e < r->n; e++) {
		ref_labels(labels, sizeof(labels), v, lnames, r, e);
		n = check_hist(text, family, seconds, labels, vals_of(r, e, x));
		if (e)
			assert_int_equal(n, layout);	/* one layout */
		layout = n;
	}
	free(text);
}

static void test_hist_log2_latency(void **state)
{
	struct rp_agg_view v = {
		.probe = "kretprobe:vfs_read", .nkeys = 1,
		.keys = { RAWPROBE_AGG_KEY_PID }, .names = { "pid" },
		.stats = true, .hist = RAWPROBE_AGG_HIST_LOG2,
		.value_kind = RAWPROBE_AGG_VALUE_LATENCY, .value = "latency",
	};
	static struct vals x[6];
	struct rp_agg_result *r = random_hist(&v, 65, x, 6, 42, 0, 1 << 20);

	(void)state;
	check_all_hist(&v, r, x, "rawprobe_latency_seconds", true);
	result_free(r);
}

static void test_hist_log2_retval(void **state)
{
	struct rp_agg_view v = {
		.probe = "kretprobe:vfs_read", .nkeys = 1,
		.keys = { RAWPROBE_AGG_KEY_PID }, .names = { "pid" },
		.stats = true, .hist = RAWPROBE_AGG_HIST_LOG2,
		.value_kind = RAWPROBE_AGG_VALUE_RETVAL, .value = "retval",
	};
	static struct vals x[5];
	struct rp_agg_result *r = random_hist(&v, 65, x, 5, 7, -20, 5000);

	(void)state;
	check_all_hist(&v, r, x, "rawprobe_retval", false);
	result_free(r);
}

static void test_hist_linear(void **state)
{
	struct rp_agg_view v = {
		.probe = "kprobe:vfs_read", .nkeys = 1,
		.keys = { RAWPROBE_AGG_KEY_PID }, .names = { "pid" },
		.stats = true, .hist = RAWPROBE_AGG_HIST_LINEAR,
		.lin_min = -50, .lin_step = 25,
		.value_kind = RAWPROBE_AGG_VALUE_ARG, .value = "skb->len",
	};
	static struct vals x[4];
	struct rp_agg_result *r = random_hist(&v, 8, x, 4, 3, -200, 600);

	(void)state;
	check_all_hist(&v, r, x, "rawprobe_arg_skb_len", false);
	result_free(r);
}

/* --stats alone: a summary (_sum, _count) and min, max gauges */
static void test_stats_summary(void **state)
{
	struct rp_agg_view v = {
		.probe = "kprobe:vfs_read", .nkeys = 1,
		.keys = { RAWPROBE_AGG_KEY_ARG }, .argtypes = { RAWPROBE_ARG_U64 },
		.names = { "fooBar" }, .stats = true,
		.value_kind = RAWPROBE_AGG_VALUE_ARG, .value = "arg2",
	};
	static struct vals x[3];
	struct rp_agg_result *r = random_hist(&v, 0, x, 3, 9, -1000, 3000);
	const char *const lnames[] = { "foo_bar" };
	char labels[256], prefix[300];
	int64_t sum, mn, mx;
	size_t e, i;
	char *text;

	(void)state;
	text = render(&v, r);
	promtool_accepts(text);
	check_family(text, "rawprobe_arg2", "summary");
	check_family(text, "rawprobe_arg2_min", "gauge");
	check_family(text, "rawprobe_arg2_max", "gauge");
	assert_null(strstr(text, "_bucket"));
	for (e = 0; e < r->n; e++) {
		const struct vals *vx = vals_of(r, e, x);

		for (sum = 0, mn = INT64_MAX, mx = INT64_MIN, i = 0;
		     i < vx->n; i++) {
			sum += vx->v[i];
			mn = vx->v[i] < mn ? vx->v[i] : mn;
			mx = vx->v[i] > mx ? vx->v[i] : mx;
		}
		ref_labels(labels, sizeof(labels), &v, lnames, r, e);
		snprintf(prefix, sizeof(prefix), "rawprobe_arg2_sum{%s}", labels);
		assert_int_equal(parse_num(sample(text, prefix), false), sum);
		snprintf(prefix, sizeof(prefix), "rawprobe_arg2_count{%s}", labels);
		assert_int_equal(strtoull(sample(text, prefix), NULL, 10), vx->n);
		snprintf(prefix, sizeof(prefix), "rawprobe_arg2_min{%s}", labels);
		assert_int_equal(parse_num(sample(text, prefix), false), mn);
		snprintf(prefix, sizeof(prefix), "rawprobe_arg2_max{%s}", labels);
		assert_int_equal(parse_num(sample(text, prefix), false), mx);
	}
	free(text);
	result_free(r);
}

/* Key names that clash with ours or each other: still one valid set */
static void test_label_clashes(void **state)
{
	struct rp_agg_view v = {
		.probe = "kprobe:x\"y\\z", .nkeys = 4,
		.keys = { RAWPROBE_AGG_KEY_ARG, RAWPROBE_AGG_KEY_ARG,
			  RAWPROBE_AGG_KEY_ARG, RAWPROBE_AGG_KEY_ARG },
		.argtypes = { RAWPROBE_ARG_S64, RAWPROBE_ARG_PTR,
			      RAWPROBE_ARG_U32, RAWPROBE_ARG_S64 },
		.names = { "le", "skb->len", "skb.len", "probe" },
	};
	struct rp_agg_result *r = result_new(4, 1, 2);
	const char *const lnames[] = { "key_le", "skb_len", "skb_len_3",
				       "key_probe" };
	char labels[512], prefix[600];
	size_t e;
	char *text;

	(void)state;
	for (e = 0; e < 2; e++) {
		rp_agg_entry(r, e)[0] = (uint64_t)-5 - e;
		rp_agg_entry(r, e)[1] = 0xffff888000000000ull + e;
		rp_agg_entry(r, e)[2] = e;
		rp_agg_entry(r, e)[3] = e;
		rp_agg_entry(r, e)[4] = 2 - e;
	}
	text = render(&v, r);
	promtool_accepts(text);
	for (e = 0; e < 2; e++) {
		ref_labels(labels, sizeof(labels), &v, lnames, r, e);
		snprintf(prefix, sizeof(prefix), "rawprobe_hits_total{%s}",
			 labels);
		assert_int_equal(strtoull(sample(text, prefix), NULL, 10), 2 - e);
	}
	assert_non_null(strstr(text, "probe=\"kprobe:x\\\"y\\\\z\""));
	free(text);
	result_free(r);
}

/* A keyless count with nothing counted yet: its one series, at 0 */
static void test_empty_keyless(void **state)
{
	struct rp_agg_view v = { .probe = PROBE };
	struct rp_agg_result *r = result_new(0, 1, 0);
	char *text;

	(void)state;
	text = render(&v, r);
	promtool_accepts(text);
	assert_int_equal(count_prefix(text, "rawprobe_hits_total{"), 1);
	assert_non_null(strstr(text, "\nrawprobe_hits_total{probe=\"" PROBE
				 "\"} 0\n"));
	free(text);
	result_free(r);
}

/* Nothing counted yet: the families, no sample but dropped's */
static void test_empty(void **state)
{
	struct rp_agg_view v = {
		.probe = PROBE, .nkeys = 1, .keys = { RAWPROBE_AGG_KEY_COMM },
		.names = { "comm" }, .stats = true,
		.hist = RAWPROBE_AGG_HIST_LOG2,
		.value_kind = RAWPROBE_AGG_VALUE_RETVAL, .value = "retval",
	};
	struct rp_agg_result *r = result_new(2, RP_AGG_W_BUCKETS + 64, 0);
	char *text;

	(void)state;
	text = render(&v, r);
	promtool_accepts(text);
	check_family(text, "rawprobe_retval", "histogram");
	assert_int_equal(count_prefix(text, "rawprobe_hits_total{"), 0);
	assert_int_equal(count_prefix(text, "rawprobe_dropped_hits_total{"), 1);
	/* an exposition ends with an empty line: a stream splits on it */
	assert_true(strlen(text) >= 2 &&
		    !strcmp(text + strlen(text) - 2, "\n\n"));
	free(text);
	result_free(r);
}

/* No --by: one entry of no key words, the probe label alone */
static void test_no_keys(void **state)
{
	struct rp_agg_view v = {
		.probe = PROBE, .stats = true, .hist = RAWPROBE_AGG_HIST_LINEAR,
		.lin_min = 0, .lin_step = 100,
		.value_kind = RAWPROBE_AGG_VALUE_ARG, .value = "count",
	};
	static struct vals x[1];
	struct rp_agg_result *r = result_new(0, RP_AGG_W_BUCKETS + 5, 1);
	uint64_t seed = 11;
	size_t i;
	char *text;

	(void)state;
	x[0].n = 100;
	for (i = 0; i < x[0].n; i++)
		x[0].v[i] = (int64_t)(splitmix64(&seed) % 700);
	put_values(rp_agg_entry(r, 0), &v, 5, &x[0]);
	text = render(&v, r);
	promtool_accepts(text);
	assert_string_equal(sample(text, "rawprobe_hits_total{probe=\"" PROBE
				   "\"}"), "100");
	assert_int_equal(check_hist(text, "rawprobe_arg_count", false,
				    "probe=\"" PROBE "\"", &x[0]), 4);
	free(text);
	result_free(r);
}

/* count -i's running totals: intervals added up by key */
static void test_accumulate(void **state)
{
	struct rp_agg_view v = {
		.probe = PROBE, .nkeys = 1, .keys = { RAWPROBE_AGG_KEY_PID },
		.names = { "pid" }, .stats = true,
		.hist = RAWPROBE_AGG_HIST_LINEAR, .lin_min = 0, .lin_step = 10,
		.value_kind = RAWPROBE_AGG_VALUE_ARG, .value = "len",
	};
	static struct vals x[3][4], all[4];
	struct rp_agg_result acc = { 0 }, *r;
	uint64_t seed = 5, hits = 0, hits_k, dropped = 0;
	size_t k, e, i, nb = 6;
	char *text;

	(void)state;
	for (k = 0; k < 3; k++) {
		/* interval k: keys k.. (one new each time, one gone) */
		r = result_new(1, RP_AGG_W_BUCKETS + nb, 2);
		hits_k = 0;
		for (e = 0; e < 2; e++) {
			struct vals *vx = &x[k][k + e];

			vx->n = 1 + splitmix64(&seed) % 50;
			for (i = 0; i < vx->n; i++)
				vx->v[i] = (int64_t)(splitmix64(&seed) % 80) - 10;
			rp_agg_entry(r, e)[0] = 1000 + k + e;
			put_values(rp_agg_entry(r, e) + 1, &v, nb, vx);
			memcpy(all[k + e].v + all[k + e].n, vx->v,
			       vx->n * sizeof(vx->v[0]));
			all[k + e].n += vx->n;
			hits_k += vx->n;
		}
		r->dropped = k;
		r->hits = hits_k + k;		/* the counts + dropped */
		dropped += k;
		hits += r->hits;
		assert_int_equal(rp_agg_accumulate(&acc, r), 0);
		result_free(r);
	}
	assert_int_equal(acc.n, 4);
	assert_int_equal(acc.dropped, dropped);
	assert_int_equal(acc.hits, hits);
	assert_int_equal(acc.start_ns, 1000);
	/* each key's values the union of its intervals' */
	for (e = 0; e < acc.n; e++) {
		uint64_t want[RP_AGG_W_BUCKETS + 6] = { 0 };
		const uint64_t *got = rp_agg_entry(&acc, e) + 1;

		put_values(want, &v, nb, &all[rp_agg_entry(&acc, e)[0] - 1000]);
		assert_memory_equal(got, want, sizeof(want));
	}
	rp_agg_sort_by_count(&acc);
	check_all_hist(&v, &acc, all, "rawprobe_arg_len", false);
	text = render(&v, &acc);
	assert_string_equal(sample(text, "rawprobe_dropped_hits_total{probe=\""
				   PROBE "\"}"), "3");
	free(text);
	/* a differently shaped interval is refused, not mixed in */
	r = result_new(1, 1, 1);
	assert_int_equal(rp_agg_accumulate(&acc, r), -EINVAL);
	result_free(r);
	rp_agg_result_free(&acc);
}

static char kallsyms_path[] = "/tmp/rp_om_kallsymsXXXXXX";

static int setup_kallsyms(void **state)
{
	int fd = mkstemp(kallsyms_path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	unsigned int i;

	(void)state;
	if (!f)
		return -1;
	for (i = 0; i < 16; i++)
		fprintf(f, "%llx t fn_%u%s\n", TEXT_BASE + i * 0x100ull, i,
			i % 3 ? "" : "\t[ext4]");
	fclose(f);
	setenv("RAWPROBE_KALLSYMS", kallsyms_path, 1);
	return 0;
}

static int teardown_kallsyms(void **state)
{
	(void)state;
	unlink(kallsyms_path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_names),
		cmocka_unit_test(test_counts_by_comm),
		cmocka_unit_test(test_hist_log2_latency),
		cmocka_unit_test(test_hist_log2_retval),
		cmocka_unit_test(test_hist_linear),
		cmocka_unit_test(test_stats_summary),
		cmocka_unit_test(test_label_clashes),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_empty_keyless),
		cmocka_unit_test(test_no_keys),
		cmocka_unit_test(test_accumulate),
	};

	rp_test_filter();
	return cmocka_run_group_tests(tests, setup_kallsyms, teardown_kallsyms);
}
