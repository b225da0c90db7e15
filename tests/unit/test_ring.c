// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the per-CPU ring: the writer in kmod/ring_core.h
 * (through ring_core_host.h) against the reader in userctl/lib/ring_reader.c.
 *
 * Every record carries a payload derived from (writer id, counter) plus a
 * checksum over all its fields, so a torn or misplaced record is caught by
 * check_record(). Writers bump their counter only for records that got a
 * slot, so in discard mode a writer's records must reach the reader with
 * consecutive counters, and in overwrite mode with increasing ones.
 *
 * The threaded tests scale with RP_TEST_SCALE (default 1.0), which the
 * Makefile lowers for the ThreadSanitizer build.
 *
 * This file has the helpers and main; the tests are in test_ring_*.c, a
 * file a group (test_ring.h lists them), one suite all the same.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "test_ring.h"
#include "test_filter.h"

__thread void (*hook_fn)(void *arg);
static __thread void *hook_arg;
static __thread int hook_point;

void test_hook(int point)
{
	void (*fn)(void *arg) = hook_fn;

	if (point == hook_point && fn) {
		hook_fn = NULL;		/* the nested writer must not recurse */
		fn(hook_arg);
	}
}

void set_hook(int point, void (*fn)(void *arg), void *arg)
{
	hook_point = point;
	hook_arg = arg;
	hook_fn = fn;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static double scale = 1.0;

__u64 scaled(__u64 n)
{
	__u64 v = (__u64)((double)n * scale);

	return v ? v : 1;
}

__u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + (__u64)ts.tv_nsec;
}

__u64 mix64(__u64 x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Checksum of every field but retval (where it is kept) and commit. */
static __u64 record_sum(const struct rawprobe_record *r)
{
	struct rawprobe_record tmp = *r;
	__u64 w, h = 0;
	size_t i;

	tmp.retval = 0;
	tmp.commit = 0;
	for (i = 0; i < sizeof(tmp); i += 8) {
		memcpy(&w, (const char *)&tmp + i, 8);
		h = mix64(h ^ w);
	}
	return h;
}

/* The record writer 'writer' writes as its n-th record. */
void make_record(struct rawprobe_record *r, __u32 writer, __u64 n,
		 __u64 seq, __u32 cpu, __u64 ts)
{
	__u64 w, k = mix64(((__u64)writer << 48) ^ n);
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->ts_ns = ts;
	r->seq = seq;
	r->probe_id = writer;
	r->kind = RAWPROBE_KIND_CUSTOM;
	r->flags = RAWPROBE_REC_ARGS | RAWPROBE_REC_STR;
	r->cpu = (__u16)cpu;
	r->pid = (__u32)k;
	r->tgid = (__u32)(k >> 32);
	for (i = 0; i < RAWPROBE_COMM_LEN; i += 8) {
		w = mix64(k + i);
		memcpy(r->comm + i, &w, 8);
	}
	r->comm[RAWPROBE_COMM_LEN - 1] = 0;
	r->addr = k;
	r->args[0] = n;
	for (i = 1; i < RAWPROBE_MAX_ARGS; i++)
		r->args[i] = mix64(k ^ i);
	r->latency_ns = ~k;
	r->nargs = RAWPROBE_MAX_ARGS;
	r->str_arg = (__u8)(k & 7);
	r->str_len = RAWPROBE_STR_LEN - 1;
	for (i = 0; i < RAWPROBE_STR_LEN; i += 8) {
		w = mix64(k * 31 + i);
		memcpy(r->str + i, &w, 8);
	}
	r->str[RAWPROBE_STR_LEN - 1] = 0;
	r->retval = (__s64)record_sum(r);
}

/* Is this a record some writer wrote, intact? */
bool check_record(const struct rawprobe_record *r)
{
	struct rawprobe_record want;

	make_record(&want, r->probe_id, r->args[0], r->seq, r->cpu, r->ts_ns);
	want.commit = r->commit;
	return !memcmp(&want, r, sizeof(want));
}

typedef __u64 __attribute__((may_alias)) word_t;
typedef __u32 __attribute__((may_alias)) word32_t;

/*
 * Fill a reserved slot (step 4). The kernel uses plain stores; so does
 * this in discard mode, where the contract orders them against the reader
 * (and ThreadSanitizer checks that). In overwrite mode a reader may copy
 * the slot while it is being refilled, a race the contract detects rather
 * than prevents, so the stores are relaxed atomics there, matching the
 * reader's relaxed atomic loads.
 */
void store_record(struct rawprobe_record *dst,
		  const struct rawprobe_record *src, bool atomic)
{
	const size_t cw = offsetof(struct rawprobe_record, commit) / 8;
	const word_t *s = (const word_t *)src;
	word_t *d = (word_t *)dst;
	size_t i;

	if (!atomic) {
		memcpy(dst, src, offsetof(struct rawprobe_record, commit));
		memcpy(dst->str, src->str, sizeof(src->str));
		return;
	}
	for (i = 0; i < sizeof(*src) / 8; i++) {
		if (i == cw)	/* the word holding commit: skip commit */
			__atomic_store_n((word32_t *)&d[i],
					 *(const word32_t *)&s[i],
					 __ATOMIC_RELAXED);
		else
			__atomic_store_n(&d[i], s[i], __ATOMIC_RELAXED);
	}
}

static void *zalloc(size_t align, size_t size)
{
	void *p = aligned_alloc(align, (size + align - 1) / align * align);

	assert_non_null(p);
	memset(p, 0, size);
	return p;
}

/* A ring set up by rp_ring_core_init() at position start. */
void ring_init(struct test_ring *t, __u32 nr, __u32 mode, __u32 cpu,
	       __u64 start)
{
	t->ctrl = zalloc(4096, 4096);
	t->recs = zalloc(64, (size_t)nr * sizeof(*t->recs));
	t->nr = nr;
	t->cpu = cpu;
	rp_ring_core_init(&t->core, t->ctrl, t->recs, nr, mode, cpu, start);
}

/* A ring the way a kernel may set it up: zeroed memory, no init call. */
void ring_zeroed(struct test_ring *t, __u32 nr, __u32 mode, __u32 cpu)
{
	t->ctrl = zalloc(4096, 4096);
	t->recs = zalloc(64, (size_t)nr * sizeof(*t->recs));
	t->nr = nr;
	t->cpu = cpu;
	t->ctrl->nr_records = nr;
	t->ctrl->mode = mode;
	t->ctrl->cpu = cpu;
	t->core.ctrl = t->ctrl;
	t->core.recs = t->recs;
	t->core.mask = nr - 1;
	t->core.mode = mode;
}

void ring_free(struct test_ring *t)
{
	free(t->ctrl);
	free(t->recs);
}

/* n discard rings of nr records, ring i for cpu i */
void rings_init(struct test_ring *t, unsigned int n, __u32 nr)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ring_init(&t[i], nr, RAWPROBE_RING_DISCARD, i, 0);
}

struct rp_reader_ring reader_ring(const struct test_ring *t)
{
	struct rp_reader_ring rr = {
		.ctrl = t->ctrl, .recs = t->recs,
		.nr_records = t->nr, .mode = t->core.mode,
	};

	return rr;
}

struct rp_reader *reader_for(const struct test_ring *t, unsigned int n,
			     unsigned int flags)
{
	struct rp_reader_ring rr[16];
	struct rp_reader *r;
	unsigned int i;

	assert_true(n <= 16);
	for (i = 0; i < n; i++)
		rr[i] = reader_ring(&t[i]);
	r = rp_reader_new(rr, n, flags);
	assert_non_null(r);
	return r;
}

/* Write one complete record; false if it was lost. */
bool write_one(struct test_ring *t, __u32 writer, __u64 n, __u64 ts,
	       bool atomic)
{
	struct rawprobe_record tmp, *rec;
	__u64 pos, seq;

	rec = rp_ring_reserve(&t->core, &pos, &seq);
	if (!rec)
		return false;
	make_record(&tmp, writer, n, seq, t->cpu, ts);
	store_record(rec, &tmp, atomic);
	rp_ring_commit(&t->core, rec, pos);
	return true;
}

int collect_cb(unsigned int cpu, const struct rawprobe_record *rec,
	       void *ctx)
{
	struct collect *c = ctx;

	if (!check_record(rec))
		c->bad++;
	if (c->n < COLLECT_MAX) {
		c->recs[c->n] = *rec;
		c->cpu[c->n] = cpu;
	}
	c->n++;
	return c->stop_after && c->n >= c->stop_after;
}

struct collect *collect_new(void)
{
	struct collect *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	return c;
}

struct rp_reader_cpu_stats stats_of(struct rp_reader *r,
				    unsigned int cpu)
{
	struct rp_reader_cpu_stats st;

	assert_int_equal(rp_reader_stats(r, cpu, &st), 0);
	return st;
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_order),
		cmocka_unit_test(test_wraparound_laps),
		cmocka_unit_test(test_commit_marker),
		cmocka_unit_test(test_discard_full),
		cmocka_unit_test(test_nested_cmpxchg_retry),
		cmocka_unit_test(test_nested_fills_ring),
		cmocka_unit_test(test_nested_stale_head),
		cmocka_unit_test(test_overwrite_lap_skip),
		cmocka_unit_test(test_overwrite_nested_lap),
		cmocka_unit_test(test_reader_api),
		cmocka_unit_test(test_drain_log_bounded),
		cmocka_unit_test(test_drain_all_stop),
		cmocka_unit_test(test_merge_order),
		cmocka_unit_test(test_merge_batch),
		cmocka_unit_test(test_tsc_clock),
		cmocka_unit_test(test_merge_nested),
		cmocka_unit_test(test_merge_out_of_order),
		cmocka_unit_test(test_merge_gaps_refill),
		cmocka_unit_test(test_signal_nesting_discard),
		cmocka_unit_test(test_signal_nesting_overwrite),
		cmocka_unit_test(test_threads_discard),
		cmocka_unit_test(test_threads_overwrite),
		cmocka_unit_test(test_overwrite_torn),
		cmocka_unit_test(test_overwrite_torn_signal),
	};
	const char *env = getenv("RP_TEST_SCALE");

	if (env && atof(env) > 0)
		scale = atof(env);
	rp_test_filter();
	return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
