// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the aggregation tables' writer (kmod/agg_core.h,
 * through ring_core_host.h): every hit counted exactly once, in a slot
 * of its key or in dropped; values (sum, min, max, buckets) as an oracle
 * computes them; and the same under writers that interrupt each other
 * (a hook inside the writer, a signal handler, threads sharing a table
 * as stand-ins for nested writers with more interleavings).
 *
 * The threaded tests scale with RP_TEST_SCALE (default 1.0), which the
 * Makefile lowers for the ThreadSanitizer build.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <cmocka.h>
#include "test_filter.h"

static void test_hook(int point);
#define RP_HOST_HOOK(point) test_hook(point)
#include "ring_core_host.h"
#include "test_rand.h"

static __thread void (*hook_fn)(void *arg);
static __thread void *hook_arg;
static __thread int hook_point;

static void test_hook(int point)
{
	void (*fn)(void *arg) = hook_fn;

	if (point == hook_point && fn) {
		hook_fn = NULL;		/* the nested writer must not recurse */
		fn(hook_arg);
	}
}

static double scale = 1.0;

static struct rp_agg_table *table_new(__u32 nr_slots, __u16 key_words,
				      __u32 flags, __u16 nbuckets)
{
	struct rp_agg_table *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->shape.flags = flags;
	t->shape.key_words = key_words;
	t->shape.nbuckets = nbuckets;
	t->shape.lin_min = 0;
	t->shape.lin_step = 10;
	t->slot_words = rp_agg_slot_words(&t->shape);
	t->mask = nr_slots - 1;
	t->slots = calloc((size_t)nr_slots * t->slot_words, sizeof(__u64));
	assert_non_null(t->slots);
	return t;
}

static void table_free(struct rp_agg_table *t)
{
	free(t->slots);
	free(t);
}

/* What a reader makes of a table: equal keys added up, as user space does. */
struct merged {
	__u64 key;		/* one-word keys in these tests */
	__u64 count, sum;
	__s64 min, max;
	__u64 buckets[RP_AGG_LOG2_BUCKETS];
};

static size_t table_merge(const struct rp_agg_table *t, struct merged *out,
			  size_t max)
{
	__u32 k = t->shape.key_words, nb = t->shape.nbuckets, i, b;
	size_t n = 0, m;

	for (i = 0; i <= t->mask; i++) {
		const __u64 *s = t->slots + (size_t)i * t->slot_words;
		const __u64 *v = s + 1 + k;

		if (!s[0])
			continue;
		assert_false(s[0] & RP_AGG_BUSY);	/* writers all done */
		for (m = 0; m < n && out[m].key != s[1]; m++)
			;
		if (m == n) {
			assert_true(n < max);
			memset(&out[n], 0, sizeof(out[n]));
			out[n].key = s[1];
			out[n].min = INT64_MAX;
			out[n].max = INT64_MIN;
			n++;
		}
		out[m].count += v[RP_AGG_COUNT];
		if (rp_agg_val_words(&t->shape) == 1)
			continue;
		out[m].sum += v[RP_AGG_SUM];
		if ((__s64)v[RP_AGG_MIN] < out[m].min)
			out[m].min = (__s64)v[RP_AGG_MIN];
		if ((__s64)v[RP_AGG_MAX] > out[m].max)
			out[m].max = (__s64)v[RP_AGG_MAX];
		for (b = 0; b < nb; b++)
			out[m].buckets[b] += v[RP_AGG_BUCKETS + b];
	}
	return n;
}

static __u64 merged_total(const struct merged *m, size_t n)
{
	__u64 total = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += m[i].count;
	return total;
}

static const struct merged *merged_find(const struct merged *m, size_t n,
					__u64 key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (m[i].key == key)
			return &m[i];
	return NULL;
}

/* ------------------------------------------------------------------ */

/* Counts by key, exact; hits = counts + dropped. */
static void test_count_keys(void **state)
{
	struct rp_agg_table *t = table_new(64, 1, 0, 0);
	struct merged m[64];
	__u64 key, i;
	size_t n;

	(void)state;
	for (key = 1; key <= 20; key++)
		for (i = 0; i < key; i++)
			assert_int_equal(rp_agg_add(t, &key, 0), 0);
	n = table_merge(t, m, 64);
	assert_int_equal(n, 20);
	for (key = 1; key <= 20; key++)
		assert_int_equal(merged_find(m, n, key)->count, key);
	assert_int_equal(t->hits, 210);
	assert_int_equal(t->dropped, 0);
	assert_int_equal(merged_total(m, n), t->hits);
	table_free(t);
}

/* A full table counts what it cannot place in dropped, never silently. */
static void test_overflow_counted(void **state)
{
	struct rp_agg_table *t = table_new(8, 1, 0, 0);
	struct merged m[8];
	__u64 key, placed = 0;
	size_t n;

	(void)state;
	for (key = 100; key < 120; key++) {
		int rc = rp_agg_add(t, &key, 0), again = rp_agg_add(t, &key, 0);

		assert_int_equal(rc, again);	/* a key is placed or not */
		placed += !rc;
	}
	n = table_merge(t, m, 8);
	assert_int_equal(placed, 8);		/* every slot, then none */
	assert_int_equal(n, 8);
	assert_int_equal(t->hits, 40);
	assert_int_equal(t->dropped, 24);
	assert_int_equal(merged_total(m, n) + t->dropped, t->hits);
	table_free(t);
}

/* Two-word keys: equal hashes' neighbours, different keys apart. */
static void test_wide_keys(void **state)
{
	struct rp_agg_table *t = table_new(32, 3, 0, 0);
	__u64 a[3] = { 1, 2, 3 }, b[3] = { 1, 2, 4 }, i, found = 0;

	(void)state;
	for (i = 0; i < 5; i++)
		rp_agg_add(t, a, 0);
	rp_agg_add(t, b, 0);
	for (i = 0; i <= t->mask; i++) {
		const __u64 *s = t->slots + i * t->slot_words;

		if (!s[0])
			continue;
		found++;
		if (s[3] == 3)
			assert_int_equal(s[4 + RP_AGG_COUNT], 5);
		else
			assert_int_equal(s[4 + RP_AGG_COUNT], 1);
	}
	assert_int_equal(found, 2);
	table_free(t);
}

/* Stats and log2 buckets against an oracle, negative values included. */
static void test_stats_log2(void **state)
{
	struct rp_agg_table *t = table_new(16, 1, RP_AGG_VAL_STATS |
					   RP_AGG_VAL_LOG2,
					   RP_AGG_LOG2_BUCKETS);
	static const __s64 vals[] = { 0, 1, 2, 3, 4, 1000, -5, INT64_MAX,
				      1LL << 40 };
	__u64 buckets[RP_AGG_LOG2_BUCKETS] = { 0 }, key = 7, sum = 0;
	struct merged m[4];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		rp_agg_add(t, &key, vals[i]);
		sum += (__u64)vals[i];
	}
	/* < 0 | 0 | [1,2) | [2,4) | [4,8) ... | [2^62, 2^63) */
	buckets[0] = 1;
	buckets[1] = 1;
	buckets[2] = 1;
	buckets[3] = 2;
	buckets[4] = 1;
	buckets[11] = 1;	/* 1000 in [512, 1024) */
	buckets[42] = 1;	/* 2^40 */
	buckets[64] = 1;	/* INT64_MAX */
	assert_int_equal(table_merge(t, m, 4), 1);
	assert_int_equal(m[0].count, 9);
	assert_int_equal(m[0].sum, sum);
	assert_int_equal(m[0].min, -5);
	assert_int_equal(m[0].max, INT64_MAX);
	assert_memory_equal(m[0].buckets, buckets, sizeof(buckets));
	table_free(t);
}

/* Linear buckets: [min + i*step, min + (i+1)*step), clamped at both ends. */
static void test_linear_clamped(void **state)
{
	struct rp_agg_table *t = table_new(16, 1, RP_AGG_VAL_LINEAR, 5);
	struct merged m[2];
	__u64 key = 1;

	(void)state;
	t->shape.lin_min = 100;
	rp_agg_add(t, &key, 50);	/* below: the first */
	rp_agg_add(t, &key, 100);
	rp_agg_add(t, &key, 109);
	rp_agg_add(t, &key, 110);
	rp_agg_add(t, &key, 149);
	rp_agg_add(t, &key, 1000);	/* above: the last */
	assert_int_equal(table_merge(t, m, 2), 1);
	assert_int_equal(m[0].buckets[0], 3);
	assert_int_equal(m[0].buckets[1], 1);
	assert_int_equal(m[0].buckets[4], 2);
	assert_int_equal(m[0].min, 50);
	assert_int_equal(m[0].max, 1000);
	table_free(t);
}

/* --- nested writers ---------------------------------------------- */

struct nest {
	struct rp_agg_table *t;
	__u64 key;
	__s64 v;
};

static void nested_add(void *arg)
{
	struct nest *n = arg;

	rp_agg_add(n->t, &n->key, n->v);
}

/*
 * A writer interrupted just before it claims a free slot, by a writer of
 * the same key that claims it: the first one's claim fails, it looks
 * again and counts in that slot. One slot, count 2.
 */
static void test_nested_same_key_claim(void **state)
{
	struct rp_agg_table *t = table_new(16, 1, RP_AGG_VAL_STATS, 0);
	struct nest n = { t, 42, -3 };
	__u64 key = 42;
	struct merged m[2];
	__u32 i, used = 0;

	(void)state;
	hook_point = RP_HOOK_CMPXCHG;
	hook_arg = &n;
	hook_fn = nested_add;
	rp_agg_add(t, &key, 9);
	assert_null(hook_fn);			/* the nested writer ran */
	for (i = 0; i <= t->mask; i++)
		used += t->slots[i * t->slot_words] != 0;
	assert_int_equal(used, 1);
	assert_int_equal(table_merge(t, m, 2), 1);
	assert_int_equal(m[0].count, 2);
	assert_int_equal(m[0].sum, 6);
	assert_int_equal(m[0].min, -3);
	assert_int_equal(m[0].max, 9);
	assert_int_equal(t->hits, 2);
	table_free(t);
}

/*
 * Interrupted inside min's cmpxchg loop by a writer that lowers min
 * further: both values end up counted, min the lower.
 */
static void test_nested_extreme(void **state)
{
	struct rp_agg_table *t = table_new(16, 1, RP_AGG_VAL_STATS, 0);
	struct nest n = { t, 5, -100 };
	__u64 key = 5;
	struct merged m[2];

	(void)state;
	rp_agg_add(t, &key, 10);		/* the slot exists */
	hook_point = RP_HOOK_CMPXCHG;
	hook_arg = &n;
	hook_fn = nested_add;
	rp_agg_add(t, &key, 1);			/* lowers min: a cmpxchg */
	assert_null(hook_fn);
	assert_int_equal(table_merge(t, m, 2), 1);
	assert_int_equal(m[0].count, 3);
	assert_int_equal(m[0].min, -100);
	assert_int_equal(m[0].max, 10);
	assert_int_equal(m[0].sum, (__u64)(10 + 1 - 100));
	table_free(t);
}

/* The slot of a key, or NULL. */
static __u64 *slot_of(const struct rp_agg_table *t, __u64 key)
{
	__u32 i;

	for (i = 0; i <= t->mask; i++)
		if (t->slots[i * t->slot_words] &&
		    t->slots[i * t->slot_words + 1] == key)
			return &t->slots[i * t->slot_words];
	return NULL;
}

/*
 * The last hit's slot: a run of one key counts there, another key moves
 * it, and a key equal to what a free slot holds (0) never counts in one.
 */
static void test_last_slot(void **state)
{
	struct rp_agg_table *t = table_new(16, 1, 0, 0);
	__u64 a = 7, b = 8, zero = 0;
	struct merged m[4];

	(void)state;
	assert_null(t->last);
	rp_agg_add(t, &zero, 0);		/* the table is all zeros */
	assert_ptr_equal(t->last, slot_of(t, 0));
	rp_agg_add(t, &a, 0);
	assert_ptr_equal(t->last, slot_of(t, a));
	rp_agg_add(t, &a, 0);
	rp_agg_add(t, &b, 0);
	assert_ptr_equal(t->last, slot_of(t, b));
	rp_agg_add(t, &a, 0);
	rp_agg_add(t, &zero, 0);
	assert_int_equal(table_merge(t, m, 4), 3);
	assert_int_equal(slot_of(t, a)[2 + RP_AGG_COUNT], 3);
	assert_int_equal(slot_of(t, b)[2 + RP_AGG_COUNT], 1);
	assert_int_equal(slot_of(t, 0)[2 + RP_AGG_COUNT], 2);
	assert_int_equal(t->hits, 6);
	table_free(t);
}

/*
 * Interrupted between its read of the last slot and its compare, by a
 * writer of another key that moves it: the first still counts under its
 * own key, in the slot it read.
 */
static void test_nested_moves_last(void **state)
{
	struct rp_agg_table *t = table_new(16, 1, RP_AGG_VAL_STATS, 0);
	struct nest n = { t, 99, 5 };
	__u64 key = 42;
	struct merged m[4];

	(void)state;
	rp_agg_add(t, &key, 1);
	hook_point = RP_HOOK_LAST;
	hook_arg = &n;
	hook_fn = nested_add;
	rp_agg_add(t, &key, 2);
	assert_null(hook_fn);
	assert_ptr_equal(t->last, slot_of(t, 99));
	assert_int_equal(table_merge(t, m, 4), 2);
	assert_int_equal(slot_of(t, 42)[2 + RP_AGG_COUNT], 2);
	assert_int_equal(slot_of(t, 42)[2 + RP_AGG_SUM], 3);
	assert_int_equal(slot_of(t, 99)[2 + RP_AGG_COUNT], 1);
	/* an empty table: the outer read NULL, the nested writer claims */
	memset(t->slots, 0, 16 * t->slot_words * sizeof(__u64));
	t->last = NULL;
	n.key = 42;
	hook_fn = nested_add;
	rp_agg_add(t, &key, 2);
	assert_null(hook_fn);
	assert_int_equal(table_merge(t, m, 4), 1);
	assert_int_equal(m[0].count, 2);
	assert_int_equal(m[0].sum, 7);
	table_free(t);
}

/* A signal handler writing into the table the main thread writes into. */
static struct rp_agg_table *sig_table;
static volatile __u64 sig_hits;

static void on_alarm(int sig)
{
	__u64 key = 1000 + (sig_hits & 3);

	(void)sig;
	rp_agg_add(sig_table, &key, (__s64)sig_hits);
	sig_hits++;
}

static void test_signal_nesting(void **state)
{
	struct itimerval it = { { 0, 50 }, { 0, 50 } };
	struct sigaction sa = { .sa_handler = on_alarm };
	__u64 i, n = (__u64)(2000000 * scale) + 1000, key;
	uint64_t seed = 1;
	struct merged m[64];
	size_t nm, k;

	(void)state;
	sig_table = table_new(256, 1, RP_AGG_VAL_STATS | RP_AGG_VAL_LOG2,
			      RP_AGG_LOG2_BUCKETS);
	sig_hits = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (i = 0; i < n; i++) {
		key = splitmix64(&seed) % 16;
		rp_agg_add(sig_table, &key, (__s64)i);
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	signal(SIGALRM, SIG_DFL);
	nm = table_merge(sig_table, m, 64);
	assert_int_equal(sig_table->dropped, 0);
	assert_int_equal(sig_table->hits, n + sig_hits);
	assert_int_equal(merged_total(m, nm), sig_table->hits);
	for (k = 0; k < nm; k++) {
		__u64 b, in_buckets = 0;

		for (b = 0; b < RP_AGG_LOG2_BUCKETS; b++)
			in_buckets += m[k].buckets[b];
		assert_int_equal(in_buckets, m[k].count);
	}
	printf("# signal nesting: %llu hits from the handler among %llu\n",
	       (unsigned long long)sig_hits, (unsigned long long)n);
	table_free(sig_table);
}

/* Threads sharing one table: exact counts and sums per key. */
#define THREADS 4
#define KEYS 32

struct worker {
	struct rp_agg_table *t;
	__u64 n;
	uint64_t seed;
	__u64 count[KEYS], sum[KEYS];
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	__u64 i, key;

	for (i = 0; i < w->n; i++) {
		key = splitmix64(&w->seed) % KEYS;
		rp_agg_add(w->t, &key, (__s64)i);
		w->count[key]++;
		w->sum[key] += i;
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct rp_agg_table *t = table_new(128, 1, RP_AGG_VAL_STATS, 0);
	struct worker w[THREADS];
	pthread_t th[THREADS];
	struct merged m[KEYS * 2];
	__u64 key, count, sum;
	size_t nm;
	int i;

	(void)state;
	for (i = 0; i < THREADS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].t = t;
		w[i].n = (__u64)(500000 * scale) + 1000;
		w[i].seed = (__u64)i + 1;
		assert_int_equal(pthread_create(&th[i], NULL, worker_run,
						&w[i]), 0);
	}
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	nm = table_merge(t, m, KEYS * 2);
	assert_int_equal(t->dropped, 0);
	assert_int_equal(merged_total(m, nm), t->hits);
	for (key = 0; key < KEYS; key++) {
		const struct merged *mk = merged_find(m, nm, key);

		count = sum = 0;
		for (i = 0; i < THREADS; i++) {
			count += w[i].count[key];
			sum += w[i].sum[key];
		}
		assert_non_null(mk);
		assert_int_equal(mk->count, count);
		assert_int_equal(mk->sum, sum);
	}
	table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_keys),
		cmocka_unit_test(test_overflow_counted),
		cmocka_unit_test(test_wide_keys),
		cmocka_unit_test(test_stats_log2),
		cmocka_unit_test(test_linear_clamped),
		cmocka_unit_test(test_nested_same_key_claim),
		cmocka_unit_test(test_nested_extreme),
		cmocka_unit_test(test_last_slot),
		cmocka_unit_test(test_nested_moves_last),
		cmocka_unit_test(test_signal_nesting),
		cmocka_unit_test(test_threads),
	};
	const char *env = getenv("RP_TEST_SCALE");

	if (env)
		scale = atof(env);
	rp_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
