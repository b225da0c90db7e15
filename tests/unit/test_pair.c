// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of a pair's table of starts (kmod/pair_core.h): a
 * start is found by its end once, with its own time and what it carried;
 * a key's second start replaces the first; starts expire, by an end, a sweep or a start
 * that needs the slot; a full table says so; and, under threads that
 * put and take on other threads' keys (the end on another CPU than its
 * start) and threads that fight over a few keys, no start is lost or
 * found twice and no time is another start's (run under TSan and ASan
 * too, as every suite here is).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <cmocka.h>

static inline __u64 host_cmpxchg(__u64 *p, __u64 old, __u64 new)
{
	__atomic_compare_exchange_n(p, &old, new, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}

#define rp_pair_load_acquire(p)		__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define rp_pair_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define rp_pair_cmpxchg(p, o, n)	host_cmpxchg(p, o, n)
#define rp_pair_read(p)			__atomic_load_n(p, __ATOMIC_RELAXED)
#define rp_pair_write(p, v)		__atomic_store_n(p, v, __ATOMIC_RELAXED)
#define rp_pair_walk			__attribute__((__noinline__))
#define RP_PAIR_WALK_DONE(fn)		struct rp_pair_walk_done_##fn
#define RP_PAIR_PRIMITIVES 1	/* (__always_inline: glibc's cdefs.h) */
#include "pair_core.h"
#include "test_rand.h"

static double scale = 1.0;

/* A table of slots whose starts carry carry words each */
static struct rp_pair_table *table_new(__u32 slots, __u64 expire,
				       __u32 carry)
{
	struct rp_pair_table *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	__u64 *v = calloc((size_t)slots * (RP_PAIR_SLOT_WORDS + carry),
			  sizeof(__u64));

	assert_non_null(v);
	rp_pair_table_init(t, v, slots, RP_PAIR_SLOT_WORDS + carry, expire);
	return t;
}

static void table_free(struct rp_pair_table *t)
{
	free(t->slots);
	free(t);
}

static void test_match_once(void **state)
{
	struct rp_pair_table *t = table_new(64, 0, 0);
	__u64 ts = 0, pending;

	(void)state;
	assert_int_equal(rp_pair_put(t, 5, 100), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put(t, 6, 110), RP_PAIR_STORED);
	assert_int_equal(rp_pair_take(t, 5, 150, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 100);
	assert_int_equal(rp_pair_take(t, 5, 160, &ts), RP_PAIR_NO_START);
	assert_int_equal(rp_pair_take(t, 7, 160, &ts), RP_PAIR_NO_START);
	assert_int_equal(rp_pair_sweep(t, 200, &pending), 0);
	assert_int_equal(pending, 1);	/* key 6 */
	assert_int_equal(rp_pair_take(t, 6, 170, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 110);
	table_free(t);
}

/* A key stands in one slot: the second start replaces the first. */
static void test_replace(void **state)
{
	struct rp_pair_table *t = table_new(64, 0, 0);
	__u64 ts = 0, pending;

	(void)state;
	assert_int_equal(rp_pair_put(t, 9, 10), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put(t, 9, 20), RP_PAIR_REPLACED);
	assert_int_equal(rp_pair_sweep(t, 30, &pending), 0);
	assert_int_equal(pending, 1);
	assert_int_equal(rp_pair_take(t, 9, 30, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 20);
	assert_int_equal(rp_pair_take(t, 9, 30, &ts), RP_PAIR_NO_START);
	table_free(t);
}

/* A start's carried words reach its end: the latest start's, whole. */
static void test_carry(void **state)
{
	struct rp_pair_table *t = table_new(8, 0, 3);
	struct rp_pair_carry a = { .w = { 1, 2, 3, 99 } };
	struct rp_pair_carry b = { .w = { 4, 5, 6, 99 } }, got;
	__u64 ts = 0;

	(void)state;
	assert_int_equal(rp_pair_put_carry(t, 7, 10, &a), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put_carry(t, 8, 11, &a), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put_carry(t, 7, 12, &b), RP_PAIR_REPLACED);
	memset(&got, 0, sizeof(got));
	assert_int_equal(rp_pair_take_carry(t, 7, 20, &ts, &got),
			 RP_PAIR_MATCHED);
	assert_int_equal(ts, 12);
	/* three words carried, the fourth not the table's */
	assert_memory_equal(got.w, b.w, 3 * sizeof(__u64));
	assert_int_equal(got.w[3], 0);
	assert_int_equal(rp_pair_take_carry(t, 8, 21, &ts, &got),
			 RP_PAIR_MATCHED);
	assert_memory_equal(got.w, a.w, 3 * sizeof(__u64));
	table_free(t);
}

/* Expired starts leave by an end, a sweep, or a start needing room. */
static void test_expire(void **state)
{
	struct rp_pair_table *t = table_new(8, 50, 0);
	__u64 ts = 0, pending, k;

	(void)state;
	assert_int_equal(rp_pair_put(t, 1, 0), RP_PAIR_STORED);
	assert_int_equal(rp_pair_take(t, 1, 51, &ts), RP_PAIR_TOO_OLD);
	assert_int_equal(rp_pair_take(t, 1, 52, &ts), RP_PAIR_NO_START);
	assert_int_equal(rp_pair_put(t, 2, 0), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put(t, 3, 40), RP_PAIR_STORED);
	assert_int_equal(rp_pair_sweep(t, 60, &pending), 1);
	assert_int_equal(pending, 1);
	assert_int_equal(rp_pair_take(t, 3, 60, &ts), RP_PAIR_MATCHED);
	/* all 8 slots old: a new start takes one of them */
	for (k = 100; k < 108; k++)
		assert_int_equal(rp_pair_put(t, k, 100), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put(t, 200, 120), RP_PAIR_FULL);
	assert_int_equal(rp_pair_put(t, 200, 151), RP_PAIR_RECLAIMED);
	assert_int_equal(rp_pair_take(t, 200, 152, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 151);
	table_free(t);
}

/* No expiry: a full table refuses, and takes again once emptied. */
static void test_full(void **state)
{
	struct rp_pair_table *t = table_new(8, 0, 0);
	__u64 ts, k;

	(void)state;
	for (k = 1; k <= 8; k++)
		assert_int_equal(rp_pair_put(t, k << 12, k), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put(t, 999, 9), RP_PAIR_FULL);
	assert_int_equal(rp_pair_take(t, 3 << 12, 10, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 3);
	assert_int_equal(rp_pair_put(t, 999, 11), RP_PAIR_STORED);
	table_free(t);
}

/* n keys whose hashes start at slot home of a table of 8 */
static void chain_keys(__u64 *k, unsigned int n, __u32 home)
{
	unsigned int i = 0;
	__u64 c;

	for (c = 1; i < n; c++)
		if ((rp_pair_hash(c) & 7) == home)
			k[i++] = c;
}

/*
 * Keys of one chain (their hashes start at one slot): one taken leaves a
 * used, free slot, which the others' searches pass and a new start
 * takes; the search stops only at a slot never used.
 */
static void test_chain(void **state)
{
	struct rp_pair_table *t = table_new(8, 0, 0);
	__u64 k[4], ts = 0;

	(void)state;
	chain_keys(k, 4, 3);
	assert_int_equal(rp_pair_put(t, k[0], 10), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put(t, k[1], 11), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put(t, k[2], 12), RP_PAIR_STORED);
	assert_int_equal(rp_pair_take(t, k[0], 20, &ts), RP_PAIR_MATCHED);
	/* past the freed slot: the third is found, and replaced not doubled */
	assert_int_equal(rp_pair_put(t, k[2], 13), RP_PAIR_REPLACED);
	assert_int_equal(rp_pair_put(t, k[3], 14), RP_PAIR_STORED);
	assert_int_equal(rp_pair_take(t, k[2], 21, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 13);
	assert_int_equal(rp_pair_take(t, k[2], 22, &ts), RP_PAIR_NO_START);
	assert_int_equal(rp_pair_take(t, k[3], 23, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 14);	/* in the first slot, freed before */
	assert_int_equal(t->slots[3 * RP_PAIR_SLOT_WORDS + 2], 14);
	assert_int_equal(rp_pair_take(t, k[1], 24, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 11);
	table_free(t);
}

/*
 * A freed slot keeps its key: that key's next start takes it back without
 * looking further (its state word: free, used, the key's hash), another
 * key of the chain passes it to its own slot, and a slot freed by one key
 * is no one else's until the chain has no other free slot.
 */
static void test_own_slot(void **state)
{
	struct rp_pair_table *t = table_new(8, 0, 0);
	__u64 k[3], ts = 0, w;

	(void)state;
	chain_keys(k, 3, 5);
	assert_int_equal(rp_pair_put(t, k[0], 10), RP_PAIR_STORED);
	assert_int_equal(rp_pair_put(t, k[1], 11), RP_PAIR_STORED);
	assert_int_equal(rp_pair_take(t, k[0], 20, &ts), RP_PAIR_MATCHED);
	w = t->slots[5 * RP_PAIR_SLOT_WORDS];
	assert_true(w & RP_PAIR_USED);
	assert_false(w & (RP_PAIR_READY | RP_PAIR_BUSY));
	assert_int_equal((__u32)w, rp_pair_hash(k[0]));
	/* k[1] passes k[0]'s free slot to its own, and replaces its start */
	assert_int_equal(rp_pair_put(t, k[1], 12), RP_PAIR_REPLACED);
	/* k[0] takes its own slot back: the first, its start there */
	assert_int_equal(rp_pair_put(t, k[0], 13), RP_PAIR_STORED);
	assert_int_equal(t->slots[5 * RP_PAIR_SLOT_WORDS + 2], 13);
	assert_int_equal(rp_pair_take(t, k[1], 21, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 12);
	/* a new key takes the first free slot of the chain: k[1]'s */
	assert_int_equal(rp_pair_put(t, k[2], 14), RP_PAIR_STORED);
	assert_int_equal(t->slots[6 * RP_PAIR_SLOT_WORDS + 2], 14);
	assert_int_equal(rp_pair_take(t, k[0], 22, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 13);
	assert_int_equal(rp_pair_take(t, k[2], 23, &ts), RP_PAIR_MATCHED);
	assert_int_equal(ts, 14);
	table_free(t);
}

/*
 * Threads put their own keys and take the next thread's: every stored
 * start is matched exactly once, with the time its start gave it (the
 * key times 3), and the table ends empty.
 */
#define NTHREADS 4

struct cross_arg {
	struct rp_pair_table *t;
	unsigned int id;
	unsigned long n;
	unsigned long stored, full, matched, wrong, gave_up;
};

static void *cross_thread(void *p)
{
	struct cross_arg *a = p;
	unsigned int next = (a->id + 1) % NTHREADS;
	__u64 ts, key, tries;
	unsigned long i;

	for (i = 0; i < a->n; i++) {
		key = ((__u64)a->id << 40) | i;
		if (rp_pair_put(a->t, key, key * 3) == RP_PAIR_FULL)
			a->full++;
		else
			a->stored++;
		key = ((__u64)next << 40) | i;
		for (tries = 0; tries < 100000; tries++) {
			enum rp_pair_take_res r = rp_pair_take(a->t, key, 0, &ts);

			if (r == RP_PAIR_MATCHED) {
				a->matched++;
				a->wrong += ts != key * 3;
				break;
			}
			if (tries > 50)
				sched_yield();
		}
		if (tries == 100000)
			a->gave_up++;
	}
	return NULL;
}

static void test_threads_cross(void **state)
{
	struct rp_pair_table *t = table_new(1024, 0, 0);
	struct cross_arg a[NTHREADS];
	pthread_t th[NTHREADS];
	unsigned long stored = 0, matched = 0, full = 0, gave_up = 0;
	__u64 pending;
	unsigned int i;

	(void)state;
	memset(a, 0, sizeof(a));
	for (i = 0; i < NTHREADS; i++) {
		a[i] = (struct cross_arg){ .t = t, .id = i,
					   .n = (unsigned long)(20000 * scale) };
		assert_int_equal(pthread_create(&th[i], NULL, cross_thread,
						&a[i]), 0);
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		stored += a[i].stored;
		matched += a[i].matched;
		full += a[i].full;
		gave_up += a[i].gave_up;
		assert_int_equal(a[i].wrong, 0);
	}
	assert_int_equal(full, 0);
	assert_int_equal(gave_up, 0);
	assert_int_equal(matched, stored);
	assert_int_equal(rp_pair_sweep(t, 0, &pending), 0);
	assert_int_equal(pending, 0);
	table_free(t);
}

/*
 * Threads fight over 4 keys, putting and taking at random: each take's
 * time is one a start of its key wrote (the key in its high bits), what
 * it carried that same start's (never half of another's), and at rest
 * the starts add up: stored = matched + replaced + pending.
 */
struct fight_arg {
	struct rp_pair_table *t;
	uint64_t seed;
	unsigned long n;
	unsigned long stored, replaced, matched, wrong;
};

static void *fight_thread(void *p)
{
	struct fight_arg *a = p;
	unsigned long i;
	struct rp_pair_carry c;
	__u64 r, key, ts;

	for (i = 0; i < a->n; i++) {
		r = splitmix64(&a->seed);
		key = 1 + (r & 3);
		ts = key << 48 | (i & 0xffff) << 16 | (a->seed & 0xffff);
		c = (struct rp_pair_carry){ .w = { ~ts, ts * 3 } };
		if (r & 4) {
			switch (rp_pair_put_carry(a->t, key, ts, &c)) {
			case RP_PAIR_REPLACED:
				a->replaced++;
				/* fall through */
			case RP_PAIR_STORED:
				a->stored++;
				break;
			default:
				break;
			}
		} else if (rp_pair_take_carry(a->t, key, 0, &ts, &c) ==
			   RP_PAIR_MATCHED) {
			a->matched++;
			a->wrong += (ts >> 48) != key || c.w[0] != ~ts ||
				    c.w[1] != ts * 3;
		}
	}
	return NULL;
}

static void test_threads_fight(void **state)
{
	struct rp_pair_table *t = table_new(64, 0, 2);
	struct fight_arg a[NTHREADS];
	pthread_t th[NTHREADS];
	unsigned long stored = 0, replaced = 0, matched = 0;
	__u64 pending;
	unsigned int i;

	(void)state;
	for (i = 0; i < NTHREADS; i++) {
		a[i] = (struct fight_arg){ .t = t, .seed = 7 + i,
					   .n = (unsigned long)(100000 * scale) };
		assert_int_equal(pthread_create(&th[i], NULL, fight_thread,
						&a[i]), 0);
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		stored += a[i].stored;
		replaced += a[i].replaced;
		matched += a[i].matched;
		assert_int_equal(a[i].wrong, 0);
	}
	rp_pair_sweep(t, 0, &pending);
	assert_true(matched > 0 && replaced > 0);
	assert_int_equal(stored, matched + replaced + pending);
	table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_once),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_carry),
		cmocka_unit_test(test_expire),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_own_slot),
		cmocka_unit_test(test_threads_cross),
		cmocka_unit_test(test_threads_fight),
	};
	const char *env = getenv("RP_TEST_SCALE");

	if (env && atof(env) > 0)
		scale = atof(env);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
