// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of hist's output (userctl/out/histogram.c): the stats
 * line of a histogram (count, sum, avg, min, max), in text and JSON, of
 * unsigned values (pointers, u64 arguments) and of signed ones; and
 * histograms counted elsewhere (the kernel's, rp_hist_put()), printed
 * as hist prints its own, an interval at a time.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "test_filter.h"

#include "out/histogram.h"

static const struct rp_probe_desc desc_args = {
	.id = 7, .kind = RAWPROBE_KIND_KPROBE, .nargs = 2,
	.argtypes = { RAWPROBE_ARG_PTR, RAWPROBE_ARG_S64 },
	.name = "kprobe:vfs_read",
};

static void arg_record(struct rawprobe_record *r, uint64_t a0, int64_t a1)
{
	memset(r, 0, sizeof(*r));
	r->probe_id = 7;
	r->kind = RAWPROBE_KIND_KPROBE;
	r->flags = RAWPROBE_REC_ARGS;
	r->nargs = 2;
	r->args[0] = a0;
	r->args[1] = (uint64_t)a1;
	strcpy(r->comm, "cat");
}

/* What hist prints of records recs[n] (argument arg), as a string. */
static char *hist_of(const struct rawprobe_record *recs, size_t n,
		     unsigned int arg, bool json)
{
	struct rp_hist_opts o = { .value = RP_HIST_ARG, .arg = arg };
	struct rp_sink s;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(rp_hist_sink_init(&s, &o, f, json, false), 0);
	for (i = 0; i < n; i++)
		s.ops->record(&s, &recs[i], &desc_args);
	s.ops->end(&s);
	s.ops->free(&s);
	fclose(f);
	return text;
}

/*
 * Kernel pointers are above 2^63: as unsigned values their min, max and
 * avg lie between the smallest and the largest, and the sum is theirs
 * (it was: avg of the unsigned values, min and max of signed ones).
 */
static void test_unsigned_stats(void **state)
{
	const uint64_t p[] = { 0xff11000012345000ull, 0xff1100001234f000ull,
			       0xffff888000001000ull };
	struct rawprobe_record r[3];
	unsigned __int128 sum = 0;
	char want[256], *text;
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		arg_record(&r[i], p[i], 0);
		sum += p[i];
		lo = p[i] < lo ? p[i] : lo;
		hi = p[i] > hi ? p[i] : hi;
	}
	text = hist_of(r, 3, 0, false);
	snprintf(want, sizeof(want), ", min %" PRIu64 ", max %" PRIu64 "\n",
		 lo, hi);
	assert_non_null(strstr(text, want));
	/* the sum, exactly: 3 values of 2^64 each overflow a u64 */
	snprintf(want, sizeof(want), "count 3, sum %" PRIu64 "%019" PRIu64
		 ", avg ", (uint64_t)(sum / 10000000000000000000ull),
		 (uint64_t)(sum % 10000000000000000000ull));
	assert_non_null(strstr(text, want));
	free(text);

	text = hist_of(r, 3, 0, true);
	snprintf(want, sizeof(want), "\"min\":%" PRIu64 ",\"max\":%" PRIu64
		 ",", lo, hi);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\"sum\":%" PRIu64 "%019" PRIu64 ",",
		 (uint64_t)(sum / 10000000000000000000ull),
		 (uint64_t)(sum % 10000000000000000000ull));
	assert_non_null(strstr(text, want));
	free(text);
}

/* Signed arguments keep their sign: min below 0, the sum may be too. */
static void test_signed_stats(void **state)
{
	const int64_t v[] = { -7, 3, INT64_MIN, 12 };
	struct rawprobe_record r[4];
	char want[256], *text;
	__int128 sum = 0;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		arg_record(&r[i], 0, v[i]);
		sum += v[i];
	}
	text = hist_of(r, 4, 1, false);
	snprintf(want, sizeof(want), ": count 4, sum %" PRId64 ", avg %.0f, min %"
		 PRId64 ", max %" PRId64 "\n", (int64_t)sum,
		 (double)sum / 4, (int64_t)INT64_MIN, (int64_t)12);
	assert_non_null(strstr(text, want));
	free(text);
}

/*
 * Linear buckets counted in the kernel: the last holds everything past
 * its low end, shown as the open bucket; an interval forgets what it
 * printed.
 */
static void test_put_linear(void **state)
{
	struct rp_hist_opts o = { .value = RP_HIST_LATENCY, .step = 10,
				  .by_comm = true };
	uint64_t b[4] = { 2, 0, 5, 0 };
	struct rp_hist_counts c = {
		.probe = "kretprobe:vfs_read", .comm = "dd\0\0\0\0\0\0\0\0\0\0\0\0\0",
		.count = 10, .over = 3, .over_at = 4 * 10, .sum = 377,
		.min = 1, .max = 99, .b = b, .nb = 4,
	};
	char want[128], *text = NULL;
	size_t len = 0;
	struct rp_sink s;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(rp_hist_sink_init(&s, &o, f, false, false), 0);
	assert_int_equal(rp_hist_put(&s, &c), 0);
	rp_hist_print(&s);
	rp_hist_print(&s);	/* nothing put since: a time line only */
	s.ops->free(&s);
	fclose(f);
	snprintf(want, sizeof(want), "@%s[dd], latency_ns (linear): count %"
		 PRIu64 ", sum %" PRId64 ", avg %.0f, min %" PRId64 ", max %"
		 PRId64 "\n", c.probe, c.count, c.sum,
		 (double)c.sum / (double)c.count, c.min, c.max);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\n%-20s %8" PRIu64 " |", "[0, 10)", b[0]);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\n%-20s %8" PRIu64 " |", "[20, 30)", b[2]);
	assert_non_null(strstr(text, want));
	snprintf(want, sizeof(want), "\n[%" PRIu64 ", ...)", c.over_at);
	assert_non_null(strstr(text, want));
	assert_null(strstr(strstr(text, want) + 1, "@kretprobe"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unsigned_stats),
		cmocka_unit_test(test_signed_stats),
		cmocka_unit_test(test_put_linear),
	};

	rp_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
