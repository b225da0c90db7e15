/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ring suite's files share: the writer under test (built with
 * the nesting hook), the reader, and the helpers of test_ring.c that make
 * rings, write and check records and collect what a drain delivers.
 * The suite is test_ring.c (the overview, the helpers, main) and its
 * groups of tests:
 *   test_ring_basic.c      one writer and reader, laps, the commit
 *                          marker, discard mode's full ring
 *   test_ring_nest.c       writers nested deterministically (the hook)
 *   test_ring_overwrite.c  overwrite mode's laps and nested bursts
 *   test_ring_reader.c     the reader's API, drain log, merging, tsc
 *   test_ring_threads.c    signal nesting, threads, torn copies
 */
#ifndef RP_TEST_RING_H
#define RP_TEST_RING_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* One-shot hook run inside the writer, to nest a writer deterministically. */
void test_hook(int point);
#define RP_HOST_HOOK(point) test_hook(point)
#include "ring_core_host.h"
#include "lib/ring_reader.h"
#include "lib/drain_log.h"

/* fn(arg) once, at the writer's next hook point; NULL once it ran. */
extern __thread void (*hook_fn)(void *arg);
void set_hook(int point, void (*fn)(void *arg), void *arg);

/* n scaled by RP_TEST_SCALE, at least 1. */
__u64 scaled(__u64 n);
__u64 now_ns(void);		/* CLOCK_MONOTONIC */
__u64 mix64(__u64 x);

/* The record writer 'writer' writes as its n-th record. */
void make_record(struct rawprobe_record *r, __u32 writer, __u64 n,
		 __u64 seq, __u32 cpu, __u64 ts);
/* Is this a record some writer wrote, intact? */
bool check_record(const struct rawprobe_record *r);
/* Fill a reserved slot (step 4): relaxed atomic stores if atomic. */
void store_record(struct rawprobe_record *dst,
		  const struct rawprobe_record *src, bool atomic);

struct test_ring {
	struct rawprobe_ring_ctrl *ctrl;
	struct rawprobe_record *recs;
	struct rp_ring_core core;
	__u32 nr;
	__u32 cpu;
};

/* A ring set up by rp_ring_core_init() at position start. */
void ring_init(struct test_ring *t, __u32 nr, __u32 mode, __u32 cpu,
	       __u64 start);
/* A ring the way a kernel may set it up: zeroed memory, no init call. */
void ring_zeroed(struct test_ring *t, __u32 nr, __u32 mode, __u32 cpu);
void ring_free(struct test_ring *t);
/* n discard rings of nr records, ring i for cpu i */
void rings_init(struct test_ring *t, unsigned int n, __u32 nr);
struct rp_reader_ring reader_ring(const struct test_ring *t);
/* A reader of the n rings t[0..n), asserted made. */
struct rp_reader *reader_for(const struct test_ring *t, unsigned int n,
			     unsigned int flags);
/* Write one complete record; false if it was lost. */
bool write_one(struct test_ring *t, __u32 writer, __u64 n, __u64 ts,
	       bool atomic);

/* Collects what a drain delivers, checking every record. */
#define COLLECT_MAX 4096
struct collect {
	struct rawprobe_record recs[COLLECT_MAX];
	unsigned int cpu[COLLECT_MAX];
	size_t n;
	size_t bad;
	size_t stop_after;	/* 0: never stop the drain */
};

int collect_cb(unsigned int cpu, const struct rawprobe_record *rec,
	       void *ctx);
struct collect *collect_new(void);
/* rp_reader_stats() of a ring, asserted to succeed. */
struct rp_reader_cpu_stats stats_of(struct rp_reader *r,
				    unsigned int cpu);

/* --- test_ring_basic.c --- */

void test_basic_order(void **state);
void test_wraparound_laps(void **state);
void test_commit_marker(void **state);
void test_discard_full(void **state);

/* --- test_ring_nest.c --- */

struct nested_args {
	struct test_ring *t;
	__u32 writer;
	__u64 n;		/* records to attempt */
	__u64 first;		/* counter of the first */
	__u64 ok;
	__u64 lost;
	bool atomic;
};

/* a->n records by a->writer, counted in a->ok and a->lost */
void nested_writer(void *arg);

void test_nested_cmpxchg_retry(void **state);
void test_nested_stale_head(void **state);
void test_nested_fills_ring(void **state);

/* --- test_ring_overwrite.c --- */

void test_overwrite_lap_skip(void **state);
void test_overwrite_nested_lap(void **state);

/* --- test_ring_reader.c --- */

void test_reader_api(void **state);
void test_drain_log_bounded(void **state);
void test_drain_all_stop(void **state);
void test_merge_order(void **state);
void test_merge_batch(void **state);
void test_tsc_clock(void **state);
void test_merge_nested(void **state);
void test_merge_out_of_order(void **state);
void test_merge_gaps_refill(void **state);

/* --- test_ring_threads.c --- */

void test_signal_nesting_discard(void **state);
void test_signal_nesting_overwrite(void **state);
void test_threads_discard(void **state);
void test_threads_overwrite(void **state);
void test_overwrite_torn(void **state);
void test_overwrite_torn_signal(void **state);

#endif
