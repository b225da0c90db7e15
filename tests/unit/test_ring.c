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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "test_filter.h"

/* One-shot hook run inside the writer, to nest a writer deterministically. */
static void test_hook(int point);
#define RP_HOST_HOOK(point) test_hook(point)
#include "ring_core_host.h"
#include "lib/ring_reader.h"
#include "lib/drain_log.h"

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

static void set_hook(int point, void (*fn)(void *arg), void *arg)
{
	hook_point = point;
	hook_arg = arg;
	hook_fn = fn;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static double scale = 1.0;

static __u64 scaled(__u64 n)
{
	__u64 v = (__u64)((double)n * scale);

	return v ? v : 1;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + (__u64)ts.tv_nsec;
}

static __u64 mix64(__u64 x)
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
static void make_record(struct rawprobe_record *r, __u32 writer, __u64 n,
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
static bool check_record(const struct rawprobe_record *r)
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
static void store_record(struct rawprobe_record *dst,
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

struct test_ring {
	struct rawprobe_ring_ctrl *ctrl;
	struct rawprobe_record *recs;
	struct rp_ring_core core;
	__u32 nr;
	__u32 cpu;
};

static void *zalloc(size_t align, size_t size)
{
	void *p = aligned_alloc(align, (size + align - 1) / align * align);

	assert_non_null(p);
	memset(p, 0, size);
	return p;
}

/* A ring set up by rp_ring_core_init() at position start. */
static void ring_init(struct test_ring *t, __u32 nr, __u32 mode, __u32 cpu,
		      __u64 start)
{
	t->ctrl = zalloc(4096, 4096);
	t->recs = zalloc(64, (size_t)nr * sizeof(*t->recs));
	t->nr = nr;
	t->cpu = cpu;
	rp_ring_core_init(&t->core, t->ctrl, t->recs, nr, mode, cpu, start);
}

/* A ring the way a kernel may set it up: zeroed memory, no init call. */
static void ring_zeroed(struct test_ring *t, __u32 nr, __u32 mode, __u32 cpu)
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

static void ring_free(struct test_ring *t)
{
	free(t->ctrl);
	free(t->recs);
}

/* n discard rings of nr records, ring i for cpu i */
static void rings_init(struct test_ring *t, unsigned int n, __u32 nr)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ring_init(&t[i], nr, RAWPROBE_RING_DISCARD, i, 0);
}

static struct rp_reader_ring reader_ring(const struct test_ring *t)
{
	struct rp_reader_ring rr = {
		.ctrl = t->ctrl, .recs = t->recs,
		.nr_records = t->nr, .mode = t->core.mode,
	};

	return rr;
}

static struct rp_reader *reader_for(const struct test_ring *t, unsigned int n,
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
static bool write_one(struct test_ring *t, __u32 writer, __u64 n, __u64 ts,
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

/* Collects what a drain delivers, checking every record. */
#define COLLECT_MAX 4096
struct collect {
	struct rawprobe_record recs[COLLECT_MAX];
	unsigned int cpu[COLLECT_MAX];
	size_t n;
	size_t bad;
	size_t stop_after;	/* 0: never stop the drain */
};

static int collect_cb(unsigned int cpu, const struct rawprobe_record *rec,
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

static struct collect *collect_new(void)
{
	struct collect *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	return c;
}

static struct rp_reader_cpu_stats stats_of(struct rp_reader *r,
					   unsigned int cpu)
{
	struct rp_reader_cpu_stats st;

	assert_int_equal(rp_reader_stats(r, cpu, &st), 0);
	return st;
}

/* ------------------------------------------------------------------ */
/* Single writer, single reader                                        */

static void test_basic_order(void **state)
{
	struct collect *c = collect_new();
	struct test_ring t;
	struct rp_reader *r;
	__u64 i;

	(void)state;
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 3, 0);
	r = reader_for(&t, 1, 0);

	for (i = 0; i < 10; i++)
		assert_true(write_one(&t, 7, i, 1000 + i, false));
	assert_int_equal(t.ctrl->head, 10);
	assert_int_equal(t.ctrl->seq, 10);
	assert_int_equal(t.ctrl->lost, 0);
	for (i = 0; i < 10; i++)	/* commit = (u32)(position + 1) */
		assert_int_equal(t.recs[i].commit, i + 1);
	assert_int_not_equal(t.recs[10].commit, 11);

	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 10);
	assert_int_equal(c->bad, 0);
	for (i = 0; i < 10; i++) {
		assert_int_equal(c->recs[i].args[0], i);
		assert_int_equal(c->recs[i].seq, i + 1);
		assert_int_equal(c->recs[i].ts_ns, 1000 + i);
		assert_int_equal(c->recs[i].cpu, 3);
		assert_int_equal(c->recs[i].probe_id, 7);
		assert_int_equal(c->recs[i].commit, i + 1);
		assert_int_equal(c->cpu[i], 0);
	}
	assert_int_equal(t.ctrl->consumer, 10);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 0);

	struct rp_reader_cpu_stats st = stats_of(r, 0);

	assert_int_equal(st.records, 10);
	assert_int_equal(st.seq_min, 1);
	assert_int_equal(st.seq_max, 10);
	assert_int_equal(st.seq_lost, 0);
	assert_int_equal(st.position, 10);

	rp_reader_free(r);
	ring_free(&t);
	free(c);
}

/*
 * Many laps with varying batch sizes, in both modes, starting at position
 * 0, just before the 32-bit commit word wraps, and just before the 64-bit
 * position wraps.
 */
static void test_wraparound_laps(void **state)
{
	static const __u64 starts[] = {
		0, (1ull << 32) - 100, UINT64_MAX - 100,
	};
	static const __u32 modes[] = {
		RAWPROBE_RING_DISCARD, RAWPROBE_RING_OVERWRITE,
	};
	struct collect *c = collect_new();
	unsigned int si, mi;

	(void)state;
	for (si = 0; si < 3; si++) {
		for (mi = 0; mi < 2; mi++) {
			struct test_ring t;
			struct rp_reader *r;
			__u64 n = 0, got = 0, lap;

			ring_init(&t, 64, modes[mi], 0, starts[si]);
			r = reader_for(&t, 1, 0);
			for (lap = 0; lap < 300; lap++) {
				__u64 k = 1 + (mix64(lap) % 64), j;

				for (j = 0; j < k; j++, n++)
					assert_true(write_one(&t, 1, n, n,
							      false));
				c->n = 0;
				assert_int_equal(rp_reader_drain_cpu(r, 0,
						 collect_cb, c), k);
				assert_int_equal(c->bad, 0);
				for (j = 0; j < k; j++) {
					__u64 pos = starts[si] + got + j;

					assert_int_equal(c->recs[j].args[0],
							 got + j);
					assert_int_equal(c->recs[j].commit,
							 (__u32)(pos + 1));
				}
				got += k;
				assert_int_equal(t.ctrl->consumer,
						 starts[si] + got);
			}
			assert_true(got > 8 * 64);	/* many laps */
			struct rp_reader_cpu_stats st = stats_of(r, 0);

			assert_int_equal(st.records, got);
			assert_int_equal(st.seq_lost, 0);
			assert_int_equal(st.overwritten, 0);
			assert_int_equal(st.torn, 0);
			assert_int_equal(t.ctrl->lost, 0);
			rp_reader_free(r);
			ring_free(&t);
		}
	}
	free(c);
}

/*
 * Reserved records are marked in progress with (u32)position, the reader
 * stops at the first uncommitted record even if later ones are committed,
 * and the position whose commit value is 0 is not mistaken for committed
 * while in progress (a 0 marker, as in the uapi text, would be).
 */
static void test_commit_marker(void **state)
{
	struct collect *c = collect_new();
	struct rawprobe_record tmp, *a, *b;
	__u64 pa, pb, sa, sb;
	struct test_ring t;
	struct rp_reader *r;

	(void)state;
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 0, 100);
	r = reader_for(&t, 1, 0);
	a = rp_ring_reserve(&t.core, &pa, &sa);
	b = rp_ring_reserve(&t.core, &pb, &sb);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(pa, 100);
	assert_int_equal(pb, 101);
	assert_int_equal(a->commit, 100);
	assert_int_equal(b->commit, 101);

	make_record(&tmp, 1, 1, sb, 0, 1);
	store_record(b, &tmp, false);
	rp_ring_commit(&t.core, b, pb);
	assert_int_equal(b->commit, 102);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 0);
	assert_int_equal(t.ctrl->consumer, 100);

	make_record(&tmp, 1, 0, sa, 0, 2);
	store_record(a, &tmp, false);
	rp_ring_commit(&t.core, a, pa);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 2);
	assert_int_equal(c->recs[0].args[0], 0);
	assert_int_equal(c->recs[1].args[0], 1);
	assert_int_equal(c->bad, 0);
	rp_reader_free(r);
	ring_free(&t);

	/* Position 2^32 - 1 commits as (u32)2^32 == 0. */
	c->n = 0;
	ring_init(&t, 64, RAWPROBE_RING_OVERWRITE, 0, (1ull << 32) - 1);
	r = reader_for(&t, 1, 0);
	a = rp_ring_reserve(&t.core, &pa, &sa);
	assert_non_null(a);
	assert_int_equal(pa, (1ull << 32) - 1);
	a->seq = ~0ull;			/* half written */
	memset(a->args, 0x5a, sizeof(a->args));
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 0);
	make_record(&tmp, 2, 0, sa, 0, 3);
	store_record(a, &tmp, false);
	rp_ring_commit(&t.core, a, pa);
	assert_int_equal(a->commit, 0);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 1);
	assert_int_equal(c->bad, 0);
	assert_int_equal(c->recs[0].probe_id, 2);
	assert_int_equal(t.ctrl->consumer, 1ull << 32);
	rp_reader_free(r);
	ring_free(&t);
	free(c);
}

/* ------------------------------------------------------------------ */
/* Discard mode                                                        */

static void test_discard_full(void **state)
{
	struct collect *c = collect_new();
	struct test_ring t;
	struct rp_reader *r;
	__u64 i, n = 0;

	(void)state;
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 0, 0);
	r = reader_for(&t, 1, 0);

	for (i = 0; i < 64; i++)
		assert_true(write_one(&t, 1, n++, i, false));
	for (i = 0; i < 10; i++) {
		__u64 pos = 12345, seq = 0;

		assert_null(rp_ring_reserve(&t.core, &pos, &seq));
		assert_int_equal(seq, 65 + i);	/* lost attempts take a seq */
	}
	assert_int_equal(t.ctrl->lost, 10);
	assert_int_equal(t.ctrl->head, 64);
	assert_int_equal(t.ctrl->seq, 74);

	/* Consuming 5 records frees exactly 5 slots. */
	c->stop_after = 5;
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 5);
	assert_int_equal(t.ctrl->consumer, 5);
	for (i = 0; i < 5; i++)
		assert_true(write_one(&t, 1, n++, 100 + i, false));
	assert_false(write_one(&t, 1, n, 200, false));
	assert_int_equal(t.ctrl->lost, 11);

	c->stop_after = 0;
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 64);
	assert_int_equal(c->n, 69);
	assert_int_equal(c->bad, 0);
	for (i = 0; i < 69; i++)	/* no record lost between */
		assert_int_equal(c->recs[i].args[0], i);

	/*
	 * The lost attempts lie between the records seen: the sequence gap
	 * matches ctrl->lost once a record after them has been read.
	 */
	assert_true(write_one(&t, 1, n++, 300, false));
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 1);
	struct rp_reader_cpu_stats st = stats_of(r, 0);

	assert_int_equal(st.records, 70);
	assert_int_equal(st.seq_min, 1);
	assert_int_equal(st.seq_max, 81);
	assert_int_equal(st.seq_lost, 11);
	assert_int_equal(st.ring_lost, 11);
	assert_int_equal(st.seq_lost, t.ctrl->lost);
	rp_reader_free(r);
	ring_free(&t);
	free(c);
}

/* ------------------------------------------------------------------ */
/* Deterministic nesting through the cmpxchg hook                      */

struct nested_args {
	struct test_ring *t;
	__u32 writer;
	__u64 n;		/* records to attempt */
	__u64 first;		/* counter of the first */
	__u64 ok;
	__u64 lost;
	bool atomic;
};

static void nested_writer(void *arg)
{
	struct nested_args *a = arg;
	__u64 i;

	for (i = 0; i < a->n; i++) {
		if (write_one(a->t, a->writer, a->first + a->ok, 0, a->atomic))
			a->ok++;
		else
			a->lost++;
	}
}

/*
 * A nested writer that runs between the outer writer's read of head and
 * its cmpxchg makes the cmpxchg fail: the outer writer retries and takes
 * the next position. Sequence numbers are taken once a slot is had, so
 * they follow positions here: no gap shows while the outer record is not
 * committed.
 */
static void test_nested_cmpxchg_retry(void **state)
{
	struct nested_args na = { .writer = 2, .n = 1 };
	struct collect *c = collect_new();
	struct rawprobe_record tmp, *rec;
	struct rp_reader_cpu_stats st;
	struct test_ring t;
	struct rp_reader *r;
	__u64 pos, seq;

	(void)state;
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 0, 0);
	r = reader_for(&t, 1, 0);
	na.t = &t;

	assert_true(write_one(&t, 1, 0, 0, false));	/* pos 0, seq 1 */

	set_hook(RP_HOOK_CMPXCHG, nested_writer, &na);
	rec = rp_ring_reserve(&t.core, &pos, &seq);
	assert_null(hook_fn);				/* it ran */
	assert_int_equal(na.ok, 1);			/* pos 1, seq 2 */
	assert_non_null(rec);
	assert_int_equal(seq, 3);
	assert_int_equal(pos, 2);
	assert_int_equal(t.ctrl->head, 3);

	/* Seen: seq 1 and 2, seq 3 still being written: no gap. */
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 2);
	st = stats_of(r, 0);
	assert_int_equal(st.seq_max, 2);
	assert_int_equal(st.seq_lost, 0);

	make_record(&tmp, 1, 1, seq, 0, 0);
	store_record(rec, &tmp, false);
	rp_ring_commit(&t.core, rec, pos);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 1);
	st = stats_of(r, 0);
	assert_int_equal(st.records, 3);
	assert_int_equal(st.seq_lost, 0);
	assert_int_equal(c->bad, 0);
	assert_int_equal(c->recs[0].seq, 1);
	assert_int_equal(c->recs[1].seq, 2);
	assert_int_equal(c->recs[1].probe_id, 2);
	assert_int_equal(c->recs[2].seq, 3);
	assert_int_equal(c->recs[2].probe_id, 1);
	rp_reader_free(r);
	ring_free(&t);

	/*
	 * Nested between the outer writer's reservation and its number,
	 * the nested writer numbers its later record first: the first
	 * record read has the higher sequence number.
	 */
	c->n = 0;
	na.ok = 0;
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 0, 0);
	r = reader_for(&t, 1, 0);
	set_hook(RP_HOOK_SEQ, nested_writer, &na);
	rec = rp_ring_reserve(&t.core, &pos, &seq);	/* seq 2, pos 0 */
	assert_non_null(rec);
	assert_int_equal(pos, 0);
	assert_int_equal(seq, 2);
	make_record(&tmp, 1, 0, seq, 0, 0);
	store_record(rec, &tmp, false);
	rp_ring_commit(&t.core, rec, pos);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 2);
	assert_int_equal(c->recs[0].seq, 2);
	assert_int_equal(c->recs[1].seq, 1);
	st = stats_of(r, 0);
	assert_int_equal(st.seq_min, 1);
	assert_int_equal(st.seq_max, 2);
	assert_int_equal(st.seq_lost, 0);
	rp_reader_free(r);
	ring_free(&t);
	free(c);
}

/*
 * A nested writer runs after the outer writer read head and before its
 * room check, and the reader consumes the nested record at once. The
 * outer writer then sees a consumer beyond its stale head (discard), or
 * a slot already one lap newer (overwrite): it must look at head again
 * rather than report the ring full.
 */
struct stale_args {
	struct test_ring *t;
	struct rp_reader *r;
	struct collect *c;
};

static void nested_write_and_read(void *arg)
{
	struct stale_args *a = arg;

	assert_true(write_one(a->t, 2, 0, 0, false));
	if (a->r)
		assert_int_equal(rp_reader_drain_cpu(a->r, 0, collect_cb,
						     a->c), 1);
}

static void test_nested_stale_head(void **state)
{
	struct collect *c = collect_new();
	struct stale_args sa = { .c = c };
	struct rawprobe_record *rec;
	struct test_ring t;
	__u64 i, pos, seq;

	(void)state;
	/* Discard: head 5, consumer 5; the reader moves consumer to 6. */
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 0, 0);
	sa.t = &t;
	sa.r = reader_for(&t, 1, 0);
	for (i = 0; i < 5; i++)
		assert_true(write_one(&t, 1, i, 0, false));
	assert_int_equal(rp_reader_drain_cpu(sa.r, 0, collect_cb, c), 5);
	set_hook(RP_HOOK_ACQUIRE, nested_write_and_read, &sa);
	rec = rp_ring_reserve(&t.core, &pos, &seq);
	assert_null(hook_fn);
	assert_non_null(rec);
	assert_int_equal(pos, 6);
	assert_int_equal(t.ctrl->consumer, 6);
	assert_int_equal(t.ctrl->lost, 0);
	rp_ring_commit(&t.core, rec, pos);
	rp_reader_free(sa.r);
	ring_free(&t);

	/* Overwrite: at head 64 the nested writer takes slot 0 first. */
	ring_init(&t, 64, RAWPROBE_RING_OVERWRITE, 0, 0);
	sa.t = &t;
	sa.r = NULL;
	for (i = 0; i < 64; i++)
		assert_true(write_one(&t, 1, i, 0, true));
	set_hook(RP_HOOK_ACQUIRE, nested_write_and_read, &sa);
	rec = rp_ring_reserve(&t.core, &pos, &seq);
	assert_null(hook_fn);
	assert_non_null(rec);
	assert_int_equal(pos, 65);
	assert_int_equal(t.ctrl->lost, 0);
	rp_ring_commit(&t.core, rec, pos);
	ring_free(&t);
	free(c);
}

/*
 * Discard mode: the outer writer passed the "ring full" check, then a
 * nested writer took the last free slot before the outer cmpxchg. The
 * outer writer must redo the check on retry and give up.
 */
static void test_nested_fills_ring(void **state)
{
	struct nested_args na = { .writer = 2, .n = 1, .first = 63 };
	struct collect *c = collect_new();
	struct test_ring t;
	struct rp_reader *r;
	__u64 i, pos = 999, seq;

	(void)state;
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 0, 0);
	r = reader_for(&t, 1, 0);
	na.t = &t;
	for (i = 0; i < 63; i++)
		assert_true(write_one(&t, 2, i, 0, false));

	set_hook(RP_HOOK_CMPXCHG, nested_writer, &na);
	assert_null(rp_ring_reserve(&t.core, &pos, &seq));
	assert_null(hook_fn);
	assert_int_equal(na.ok, 1);
	assert_int_equal(seq, 65);	/* after the nested writer's 64 */
	assert_int_equal(t.ctrl->head, 64);
	assert_int_equal(t.ctrl->lost, 1);

	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 64);
	assert_int_equal(c->bad, 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(c->recs[i].args[0], i);
	assert_true(write_one(&t, 2, 64, 0, false));
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 1);
	assert_int_equal(stats_of(r, 0).seq_lost, 1);
	rp_reader_free(r);
	ring_free(&t);
	free(c);
}

/* ------------------------------------------------------------------ */
/* Overwrite mode                                                      */

/* A zeroed ring (no init call) lapped many times by a lone writer. */
static void test_overwrite_lap_skip(void **state)
{
	struct collect *c = collect_new();
	struct rp_reader_cpu_stats st;
	struct test_ring t;
	struct rp_reader *r;
	__u64 i;

	(void)state;
	ring_zeroed(&t, 64, RAWPROBE_RING_OVERWRITE, 0);
	r = reader_for(&t, 1, 0);
	for (i = 0; i < 200; i++)
		assert_true(write_one(&t, 1, i, i, false));
	assert_int_equal(t.ctrl->lost, 0);
	assert_int_equal(t.ctrl->head, 200);

	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 64);
	assert_int_equal(c->bad, 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(c->recs[i].args[0], 136 + i);
	st = stats_of(r, 0);
	assert_int_equal(st.overwritten, 136);
	assert_int_equal(st.torn, 0);
	assert_int_equal(st.seq_min, 137);
	assert_int_equal(st.seq_lost, 0);
	assert_int_equal(t.ctrl->consumer, 200);

	for (i = 200; i < 210; i++)
		assert_true(write_one(&t, 1, i, i, false));
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 10);
	st = stats_of(r, 0);
	/* Every write is read, skipped, torn or lost: exactly once. */
	assert_int_equal(210, st.records + st.overwritten + st.torn +
			 st.ring_lost);
	assert_int_equal(c->bad, 0);
	rp_reader_free(r);
	ring_free(&t);
	free(c);
}

/*
 * Overwrite mode: a nested writer (an IRQ burst) writes more than a lap
 * while the outer writer it interrupted is between reserve and commit.
 * Taking the outer writer's slot would let the outer writer, once resumed,
 * scribble over a committed record behind a valid commit word; instead
 * those nested records are dropped and counted, and head stays put.
 */
static void test_overwrite_nested_lap(void **state)
{
	struct nested_args na = { .writer = 2, .n = 70 };
	struct collect *c = collect_new();
	struct rawprobe_record tmp, *rec;
	struct rp_reader_cpu_stats st;
	struct test_ring t;
	struct rp_reader *r;
	__u64 i, pos, seq;

	(void)state;
	ring_zeroed(&t, 64, RAWPROBE_RING_OVERWRITE, 0);
	r = reader_for(&t, 1, 0);
	na.t = &t;
	for (i = 0; i < 10; i++)
		assert_true(write_one(&t, 1, i, 0, false));

	rec = rp_ring_reserve(&t.core, &pos, &seq);	/* pos 10 */
	assert_non_null(rec);
	nested_writer(&na);			/* the IRQ burst */
	assert_int_equal(na.ok, 63);		/* positions 11..73 */
	assert_int_equal(na.lost, 7);		/* 74 would take slot 10 */
	assert_int_equal(t.ctrl->head, 74);
	assert_int_equal(t.ctrl->lost, 7);
	assert_int_equal(rec->commit, 10);	/* still ours, in progress */

	make_record(&tmp, 1, 10, seq, 0, 0);
	store_record(rec, &tmp, false);
	rp_ring_commit(&t.core, rec, pos);

	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 64);
	assert_int_equal(c->bad, 0);
	assert_int_equal(c->recs[0].probe_id, 1);
	assert_int_equal(c->recs[0].args[0], 10);
	for (i = 1; i < 64; i++) {
		assert_int_equal(c->recs[i].probe_id, 2);
		assert_int_equal(c->recs[i].args[0], i - 1);
	}
	st = stats_of(r, 0);
	assert_int_equal(st.overwritten, 10);

	/* Writing resumes once the outer record is committed. */
	assert_true(write_one(&t, 1, 11, 0, false));
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 1);
	st = stats_of(r, 0);
	assert_int_equal(st.seq_lost, 7);
	assert_int_equal(st.ring_lost, 7);
	rp_reader_free(r);
	ring_free(&t);
	free(c);
}

/* ------------------------------------------------------------------ */
/* Reader API                                                          */

static void test_reader_api(void **state)
{
	struct collect *c = collect_new();
	struct rp_reader_ring rr;
	struct rp_reader_cpu_stats st;
	struct test_ring t;
	struct rp_reader *r;
	__u64 i;

	(void)state;
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 0, 0);

	rr = reader_ring(&t);
	rr.nr_records = 48;
	errno = 0;
	assert_null(rp_reader_new(&rr, 1, 0));
	assert_int_equal(errno, EINVAL);
	rr = reader_ring(&t);
	assert_null(rp_reader_new(&rr, 1, 0x80));
	assert_null(rp_reader_new(&rr, 0, 0));

	/* A stale consumer beyond head is pulled back and republished. */
	t.ctrl->consumer = 1000;
	r = reader_for(&t, 1, 0);
	assert_int_equal(t.ctrl->consumer, 0);
	assert_int_equal(rp_reader_nr_rings(r), 1);
	assert_int_equal(rp_reader_drain_cpu(r, 1, collect_cb, c), -EINVAL);
	assert_int_equal(rp_reader_stats(r, 1, &st), -EINVAL);

	for (i = 0; i < 40; i++)
		assert_true(write_one(&t, 1, i, i, false));
	assert_int_equal(rp_reader_set_batch(r, 16), 0);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 16);
	assert_int_equal(t.ctrl->consumer, 16);
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 16);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), 8);
	assert_int_equal(c->n, 40);
	assert_int_equal(c->bad, 0);
	for (i = 0; i < 40; i++)
		assert_int_equal(c->recs[i].args[0], i);
	rp_reader_free(r);

	/* Merging readers only drain through drain_all. */
	r = reader_for(&t, 1, RP_READER_MERGE);
	assert_int_equal(rp_reader_drain_cpu(r, 0, collect_cb, c), -EINVAL);
	rp_reader_free(r);
	ring_free(&t);
	free(c);
}

/*
 * The drain log keeps at most max_kept passes: past that it writes them
 * out and marks the spot, losing none.
 */
static void test_drain_log_bounded(void **state)
{
	char path[] = "/tmp/rp-drain-log-XXXXXX", line[256];
	struct rp_drain_log log;
	struct rp_drain_pass pass = { 0 };
	unsigned int i, data = 0, marks = 0, ends = 0;
	struct test_ring t;
	struct rp_reader *r;
	uint64_t next = 0;
	FILE *f;
	int fd;

	(void)state;
	ring_init(&t, 64, RAWPROBE_RING_DISCARD, 0, 0);
	r = reader_for(&t, 1, 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(rp_drain_log_open(&log, path, r, 64), 0);
	log.max_kept = 4;
	for (i = 0; i < 10; i++) {
		pass.start_ns = i;
		rp_drain_log_add(&log, r, &pass);
		assert_true(log.len <= 4);
	}
	assert_int_equal(rp_drain_log_close(&log), 0);

	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start;

		if (!strcmp(line, "# written mid-stream\n"))
			marks++;
		else if (!strncmp(line, "# end ", 6))
			ends++;
		else if (line[0] != '#') {
			assert_int_equal(sscanf(line, "%llu", &start), 1);
			assert_int_equal(start, next++);
			data++;
		}
	}
	fclose(f);
	unlink(path);
	assert_int_equal(data, 10);
	assert_int_equal(marks, 2);
	assert_int_equal(ends, 1);
	rp_reader_free(r);
	ring_free(&t);
}

/* Unmerged drain_all: ring after ring; a stop request ends it all. */
static void test_drain_all_stop(void **state)
{
	struct collect *c = collect_new();
	struct test_ring t[3];
	struct rp_reader *r;
	unsigned int i, k;

	(void)state;
	for (i = 0; i < 3; i++) {
		ring_init(&t[i], 64, RAWPROBE_RING_DISCARD, i, 0);
		for (k = 0; k < 4; k++)
			assert_true(write_one(&t[i], i, k, k, false));
	}
	r = reader_for(t, 3, 0);
	c->stop_after = 6;
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 6);
	assert_int_equal(t[0].ctrl->consumer, 4);
	assert_int_equal(t[1].ctrl->consumer, 2);
	assert_int_equal(t[2].ctrl->consumer, 0);
	c->stop_after = 0;
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 6);
	for (i = 0; i < 12; i++) {
		assert_int_equal(c->cpu[i], i / 4);
		assert_int_equal(c->recs[i].args[0], i % 4);
	}
	rp_reader_free(r);
	for (i = 0; i < 3; i++)
		ring_free(&t[i]);
	free(c);
}

/* c->recs[from..to) are in merge order, (ts_ns, cpu, seq), each from its ring. */
static void assert_merged(const struct collect *c, size_t from, size_t to)
{
	size_t i;

	assert_true(to <= COLLECT_MAX);
	for (i = from; i < to; i++) {
		const struct rawprobe_record *b = &c->recs[i];
		const struct rawprobe_record *a = b - 1;

		assert_int_equal(c->cpu[i], b->cpu);
		if (i == from)
			continue;
		assert_true(a->ts_ns <= b->ts_ns);
		if (a->ts_ns == b->ts_ns) {
			assert_true(c->cpu[i - 1] <= c->cpu[i]);
			if (c->cpu[i - 1] == c->cpu[i])
				assert_true(a->seq < b->seq);
		}
	}
}

/*
 * Merged drain: records of all rings in (ts_ns, cpu, seq) order, ties on
 * ts broken by cpu, ties on both by seq (nested writers on one CPU), also
 * when the callback stops half way and the rest comes with the next call.
 */
static void test_merge_order(void **state)
{
	struct collect *c = collect_new();
	struct test_ring t[3];
	struct rp_reader *r;
	size_t total = 0;
	unsigned int cpu;

	(void)state;
	for (cpu = 0; cpu < 3; cpu++) {
		__u64 k;

		ring_init(&t[cpu], 256, RAWPROBE_RING_DISCARD, cpu, 0);
		for (k = 0; k < 100 + cpu * 30; k++) {
			/* Increasing on average, with local inversions. */
			__u64 ts = k * 3 + cpu + (k % 5 == 1 ? 7 : 0);

			if (k % 11 == 0)
				ts = 42;	/* ties across CPUs */
			assert_true(write_one(&t[cpu], cpu, k, ts, false));
			total++;
		}
	}
	r = reader_for(t, 3, RP_READER_MERGE);

	c->stop_after = 50;
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 50);
	for (cpu = 0; cpu < 3; cpu++)	/* everything was read out */
		assert_int_equal(t[cpu].ctrl->consumer, 100 + cpu * 30);
	/* made ready with records pending: they stay, in order */
	assert_int_equal(rp_reader_prepare(r), 0);
	assert_int_equal(rp_reader_prepare(NULL), -EINVAL);
	c->stop_after = 0;
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), total - 50);
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 0);
	assert_int_equal(c->n, total);
	assert_int_equal(c->bad, 0);
	assert_merged(c, 0, total);
	for (cpu = 0; cpu < 3; cpu++)
		assert_int_equal(stats_of(r, cpu).records, 100 + cpu * 30);
	rp_reader_free(r);
	for (cpu = 0; cpu < 3; cpu++)
		ring_free(&t[cpu]);
	free(c);
}

/*
 * A merging reader takes at most RP_READER_MERGE_BATCH records a ring per
 * call (its copies are that big), publishes each ring's consumer as it
 * goes, and delivers the rest, still merged, on the next calls.
 */
static void test_merge_batch(void **state)
{
	const unsigned int busy = RP_READER_MERGE_BATCH * 2 + 100;
	struct collect *c = collect_new();
	struct test_ring t[2];
	struct rp_reader *r;
	__u64 k;

	(void)state;
	rings_init(t, 2, 4096);
	for (k = 0; k < busy; k++)
		assert_true(write_one(&t[0], 0, k, 2 * k, false));
	for (k = 0; k < 10; k++)
		assert_true(write_one(&t[1], 1, k, 2 * k + 1, false));
	r = reader_for(t, 2, RP_READER_MERGE);

	assert_int_equal(rp_reader_drain_all(r, collect_cb, c),
			 RP_READER_MERGE_BATCH + 10);
	assert_int_equal(t[0].ctrl->consumer, RP_READER_MERGE_BATCH);
	assert_int_equal(t[1].ctrl->consumer, 10);
	assert_merged(c, 0, c->n);
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c),
			 RP_READER_MERGE_BATCH);
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 100);
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 0);
	assert_int_equal(c->n, busy + 10);
	assert_int_equal(c->bad, 0);
	for (k = RP_READER_MERGE_BATCH + 10; k < c->n; k++)
		assert_int_equal(c->recs[k].args[0], k - 10);

	/* 0: the ring's size, all of it in one call */
	for (k = 0; k < busy; k++)
		assert_true(write_one(&t[0], 0, busy + k, 2 * (busy + k),
				      false));
	c->n = 0;
	assert_int_equal(rp_reader_set_batch(r, 0), 0);
	assert_int_equal(rp_reader_prepare(r), 0);	/* runs a ring long */
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), busy);
	assert_merged(c, 0, c->n);
	rp_reader_free(r);
	ring_free(&t[0]);
	ring_free(&t[1]);
	free(c);
}

/* A record of the tsc clock: ts and latency in cycles (RAWPROBE_REC_TSC). */
static void write_tsc(struct test_ring *t, __u64 n, __u64 cycles,
		      __u64 latency)
{
	struct rawprobe_record tmp, *rec;
	__u64 pos, seq;

	rec = rp_ring_reserve(&t->core, &pos, &seq);
	assert_non_null(rec);
	make_record(&tmp, 0, n, seq, t->cpu, cycles);
	tmp.flags |= RAWPROBE_REC_TSC | RAWPROBE_REC_RETVAL;
	tmp.latency_ns = latency;
	store_record(rec, &tmp, false);
	rp_ring_commit(&t->core, rec, pos);
}

/*
 * The tsc clock: records flagged RAWPROBE_REC_TSC reach the callback in
 * CLOCK_MONOTONIC ns, before or after the anchor, flag cleared, latency
 * converted, and merged in order with records of the mono clock; a
 * reader told no rate leaves them as they are.
 */
static void test_tsc_clock(void **state)
{
	const __u64 t0 = 1000000000000ULL, n0 = 5000000000ULL;
	struct collect *c = collect_new();
	struct test_ring t[2];
	struct rp_reader *r;

	(void)state;
	rings_init(t, 2, 64);
	write_tsc(&t[0], 0, t0 - 2000, 400);	/* 2 GHz: 1 us before */
	write_tsc(&t[0], 1, t0 + 2000000000ULL, 0);	/* 1 s after */
	assert_true(write_one(&t[1], 1, 0, n0 + 500, false));
	r = reader_for(t, 2, RP_READER_MERGE);
	assert_int_equal(rp_reader_set_tsc_anchor(r, t0, n0), -EINVAL);
	assert_int_equal(rp_reader_set_tsc(r, 2000000), 0);
	assert_int_equal(rp_reader_set_tsc_anchor(r, t0, n0), 0);

	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 3);
	assert_int_equal(c->recs[0].ts_ns, n0 - 1000);
	assert_int_equal(c->recs[0].latency_ns, 200);
	assert_int_equal(c->recs[0].flags & RAWPROBE_REC_TSC, 0);
	assert_int_equal(c->recs[1].ts_ns, n0 + 500);	/* mono: as it was */
	assert_int_equal(c->recs[1].probe_id, 1);
	assert_int_equal(c->recs[2].ts_ns, n0 + 1000000000ULL);
	assert_int_equal(c->recs[2].latency_ns, 0);

	/* No rate: delivered raw, still flagged. */
	assert_int_equal(rp_reader_set_tsc(r, 0), 0);
	write_tsc(&t[0], 2, t0, 400);
	c->n = 0;
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 1);
	assert_int_equal(c->recs[0].ts_ns, t0);
	assert_int_equal(c->recs[0].latency_ns, 400);
	assert_true(c->recs[0].flags & RAWPROBE_REC_TSC);
	rp_reader_free(r);
	ring_free(&t[0]);
	ring_free(&t[1]);
	free(c);
}

/*
 * A writer interrupted between its reservation and its timestamp: the
 * nested writer's record (ts) is committed first, one position later than
 * the interrupted one's, which gets the later time ts + 1.
 */
static void write_nested(struct test_ring *t, __u32 writer, __u64 n, __u64 ts)
{
	struct rawprobe_record tmp, *outer, *inner;
	__u64 po, so, pi, si;

	outer = rp_ring_reserve(&t->core, &po, &so);
	inner = rp_ring_reserve(&t->core, &pi, &si);
	assert_non_null(outer);
	assert_non_null(inner);
	make_record(&tmp, writer, n + 1, si, t->cpu, ts);
	store_record(inner, &tmp, false);
	rp_ring_commit(&t->core, inner, pi);
	make_record(&tmp, writer, n, so, t->cpu, ts + 1);
	store_record(outer, &tmp, false);
	rp_ring_commit(&t->core, outer, po);
}

/* Runs with the local inversions of nested writers merge in order. */
static void test_merge_nested(void **state)
{
	struct collect *c = collect_new();
	struct test_ring t[4];
	struct rp_reader *r;
	unsigned int cpu;
	__u64 k;

	(void)state;
	for (cpu = 0; cpu < 4; cpu++) {
		ring_init(&t[cpu], 1024, RAWPROBE_RING_DISCARD, cpu, 0);
		for (k = 0; k < 600; k++) {
			__u64 ts = 1000 + k * 8 + cpu * 2;

			if (k % 10 == 3)
				write_nested(&t[cpu], cpu, k++, ts);
			else
				assert_true(write_one(&t[cpu], cpu, k, ts, false));
		}
	}
	r = reader_for(t, 4, RP_READER_MERGE);
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 2400);
	assert_int_equal(c->bad, 0);
	assert_merged(c, 0, 2400);
	for (cpu = 0; cpu < 4; cpu++) {
		assert_int_equal(stats_of(r, cpu).records, 600);
		assert_int_equal(stats_of(r, cpu).seq_lost, 0);
	}
	rp_reader_free(r);
	for (cpu = 0; cpu < 4; cpu++)
		ring_free(&t[cpu]);
	free(c);
}

/*
 * A ring far out of timestamp order (a clock stepping back) is more than
 * the insertion sort will do: the merge must still come out in order.
 */
static void test_merge_out_of_order(void **state)
{
	struct collect *c = collect_new();
	struct test_ring t[2];
	struct rp_reader *r;
	__u64 k;

	(void)state;
	rings_init(t, 2, 512);
	for (k = 0; k < 500; k++) {
		assert_true(write_one(&t[0], 0, k, 10000 - k * 3, false));
		assert_true(write_one(&t[1], 1, k, 8000 + (k * 7919) % 500,
				      false));
	}
	r = reader_for(t, 2, RP_READER_MERGE);
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 1000);
	assert_int_equal(c->bad, 0);
	assert_merged(c, 0, 1000);
	rp_reader_free(r);
	ring_free(&t[0]);
	ring_free(&t[1]);
	free(c);
}

/*
 * Sequence gaps are counted through a merging reader, and records the
 * callback did not take are merged with those of the next drain.
 */
static void test_merge_gaps_refill(void **state)
{
	struct collect *c = collect_new();
	struct test_ring t[2];
	struct rp_reader *r;
	__u64 k, n0 = 0;

	(void)state;
	ring_init(&t[0], 64, RAWPROBE_RING_DISCARD, 0, 0);
	ring_init(&t[1], 64, RAWPROBE_RING_DISCARD, 1, 0);
	r = reader_for(t, 2, RP_READER_MERGE);
	for (k = 0; k < 100; k++)	/* 64 fit, 36 lost: a gap to come */
		n0 += write_one(&t[0], 0, n0, 10 * k, false);
	for (k = 0; k < 10; k++)
		assert_true(write_one(&t[1], 1, k, 10 * k + 5, false));
	assert_int_equal(n0, 64);

	c->stop_after = 20;
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 20);
	c->stop_after = 0;
	assert_merged(c, 0, 20);
	/* the gap shows once a record after it is read */
	assert_int_equal(stats_of(r, 0).seq_lost, 0);

	for (k = 100; k < 110; k++)
		assert_true(write_one(&t[0], 0, n0++, 10 * k, false));
	for (k = 0; k < 5; k++)	/* earlier than ring 0's pending ones */
		assert_true(write_one(&t[1], 1, 10 + k, 100 + k, false));
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 64 + 10 + 15 - 20);
	assert_int_equal(c->bad, 0);
	assert_merged(c, 20, c->n);
	assert_int_equal(stats_of(r, 0).records, 74);
	assert_int_equal(stats_of(r, 0).seq_lost, 36);
	assert_int_equal(stats_of(r, 1).seq_lost, 0);
	assert_int_equal(rp_reader_drain_all(r, collect_cb, c), 0);
	rp_reader_free(r);
	ring_free(&t[0]);
	ring_free(&t[1]);
	free(c);
}

/* ------------------------------------------------------------------ */
/* Concurrent tests                                                    */

#define MAX_WRITERS 8

/* What the reader thread checks about the records of one writer. */
struct writer_track {
	__u64 next;		/* discard: counter expected next */
	__u64 seen;
	__u64 errors;		/* out of order or missing */
	bool any;
};

struct checker {
	struct writer_track w[MAX_WRITERS];
	__u64 bad;		/* failed check_record() */
	__u64 records;
	bool exact;		/* discard: counters must be consecutive */
	/* Merged drains: (ts, cpu, seq) of the last record of this drain. */
	bool merged;
	bool have_last;
	__u64 last_ts, last_seq;
	unsigned int last_cpu;
	__u64 order_errors;
};

/* Is (ts, cpu, seq) of rec after the previous record of this drain? */
static bool merge_in_order(struct checker *k, unsigned int cpu,
			   const struct rawprobe_record *rec)
{
	bool ok = !k->have_last || k->last_ts < rec->ts_ns ||
		  (k->last_ts == rec->ts_ns &&
		   (k->last_cpu < cpu ||
		    (k->last_cpu == cpu && k->last_seq < rec->seq)));

	k->have_last = true;
	k->last_ts = rec->ts_ns;
	k->last_cpu = cpu;
	k->last_seq = rec->seq;
	return ok;
}

static int checker_cb(unsigned int cpu, const struct rawprobe_record *rec,
		      void *ctx)
{
	struct checker *k = ctx;
	struct writer_track *w;

	k->records++;
	if (k->merged && !merge_in_order(k, cpu, rec))
		k->order_errors++;
	if (!check_record(rec) || rec->probe_id >= MAX_WRITERS) {
		k->bad++;
		return 0;
	}
	w = &k->w[rec->probe_id];
	if (k->exact ? rec->args[0] != w->next :
	    (w->any && rec->args[0] < w->next))
		w->errors++;
	w->next = rec->args[0] + 1;
	w->any = true;
	w->seen++;
	return 0;
}

/* Sentinel writer id: first and last record of each ring. */
#define SENTINEL 7

struct reader_thread {
	pthread_t tid;
	struct rp_reader *r;
	struct checker *k;
	int stop;		/* atomic */
	__u64 drains;
};

static void *reader_main(void *arg)
{
	struct reader_thread *rt = arg;

	while (!__atomic_load_n(&rt->stop, __ATOMIC_ACQUIRE)) {
		long n;

		rt->k->have_last = false;	/* order holds per drain */
		n = rp_reader_drain_all(rt->r, checker_cb, rt->k);

		rt->drains++;
		if (n <= 0)
			sched_yield();
	}
	return NULL;
}

static void reader_start(struct reader_thread *rt)
{
	__atomic_store_n(&rt->stop, 0, __ATOMIC_RELAXED);
	assert_int_equal(pthread_create(&rt->tid, NULL, reader_main, rt), 0);
}

static void reader_stop(struct reader_thread *rt)
{
	__atomic_store_n(&rt->stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(rt->tid, NULL), 0);
	/* Everything is committed now: drain to the end. */
	do {
		rt->k->have_last = false;
	} while (rp_reader_drain_all(rt->r, checker_cb, rt->k) > 0);
}

/*
 * Exact accounting of one ring after the last drain, with a sentinel
 * record written first and last so that the sequence range covers every
 * attempt: attempts = records + torn + overwritten + lost, and the
 * sequence gap equals everything that was not read.
 */
static void check_accounting(struct rp_reader *r, unsigned int cpu,
			     const struct test_ring *t, __u64 attempts)
{
	struct rp_reader_cpu_stats st = stats_of(r, cpu);

	print_message("  ring %u: attempts %llu read %llu lost %llu "
		      "overwritten %llu torn %llu\n", cpu,
		      (unsigned long long)attempts,
		      (unsigned long long)st.records,
		      (unsigned long long)st.ring_lost,
		      (unsigned long long)st.overwritten,
		      (unsigned long long)st.torn);
	assert_int_equal(st.position, t->ctrl->head);
	assert_int_equal(st.ring_lost, t->ctrl->lost);
	assert_int_equal(t->ctrl->seq, attempts);
	assert_int_equal(attempts, st.records + st.torn + st.overwritten +
			 st.ring_lost);
	assert_int_equal(st.seq_min, 1);
	assert_int_equal(st.seq_max, attempts);
	assert_int_equal(st.seq_lost, st.torn + st.overwritten + st.ring_lost);
	if (t->core.mode == RAWPROBE_RING_DISCARD) {
		assert_int_equal(st.torn, 0);
		assert_int_equal(st.overwritten, 0);
	}
}

/* Write the sentinel of a ring and read it (the ring must be empty). */
static void sentinel(struct test_ring *t, struct rp_reader *r,
		     unsigned int cpu, struct checker *k, __u64 n)
{
	struct writer_track *w = &k->w[SENTINEL];

	(void)cpu;
	assert_true(write_one(t, SENTINEL, n, now_ns(), false));
	k->have_last = false;
	/* Every other ring is empty at this point. */
	assert_int_equal(rp_reader_drain_all(r, checker_cb, k), 1);
	/* Sentinels of different rings share an id: no order check. */
	w->next = 0;
	w->any = false;
}

/* --- Writers nesting through a signal handler on one "CPU" --- */

struct nest_state {
	struct test_ring t;
	bool atomic;
	unsigned int burst;	/* records per handler run */
	bool throttle;		/* discard: never let the ring fill */
	/* Written by the writer thread and its signal handler only. */
	volatile sig_atomic_t in_reserve;
	volatile sig_atomic_t in_write;
	__u64 main_ok, main_lost;
	__u64 irq_ok, irq_lost;
	__u64 irq_runs, irq_in_write, irq_in_reserve;
	__u64 irq_handled;	/* atomic: read by the signalling thread */
	__u64 main_progress;	/* atomic: main_ok, for the signalling thread */
	int done;		/* atomic: set by the writer thread */
};

static struct nest_state *nest;

static __u64 ring_used(const struct test_ring *t)
{
	/* consumer first: it never passes head, so this never wraps. */
	__u64 consumer = __atomic_load_n(&t->ctrl->consumer, __ATOMIC_ACQUIRE);

	return __atomic_load_n(&t->ctrl->head, __ATOMIC_RELAXED) - consumer;
}

static void nest_irq(int sig)
{
	struct nest_state *s = nest;
	int saved = errno;
	unsigned int i;

	(void)sig;
	__atomic_add_fetch(&s->irq_handled, 1, __ATOMIC_RELEASE);
	s->irq_runs++;
	if (s->in_write)
		s->irq_in_write++;
	if (s->in_reserve)
		s->irq_in_reserve++;
	for (i = 0; i < s->burst; i++) {
		if (s->throttle && ring_used(&s->t) >= s->t.nr * 3 / 4)
			break;
		if (write_one(&s->t, 1, s->irq_ok, now_ns(), s->atomic))
			s->irq_ok++;
		else
			s->irq_lost++;
	}
	errno = saved;
}

struct nest_writer_args {
	__u64 min_records;
	__u64 min_nested;
	__u64 deadline;
};

static void *nest_writer_main(void *arg)
{
	struct nest_writer_args *a = arg;
	struct nest_state *s = nest;
	struct rawprobe_record tmp;

	while (s->main_ok < a->min_records || s->irq_in_write < a->min_nested) {
		struct rawprobe_record *rec;
		__u64 pos, seq;

		if (now_ns() > a->deadline)
			break;
		while (s->throttle && ring_used(&s->t) > s->t.nr / 2)
			sched_yield();
		s->in_reserve = 1;
		rec = rp_ring_reserve(&s->t.core, &pos, &seq);
		s->in_reserve = 0;
		if (!rec) {
			s->main_lost++;
			continue;
		}
		s->in_write = 1;
		make_record(&tmp, 0, s->main_ok, seq, s->t.cpu, now_ns());
		store_record(rec, &tmp, s->atomic);
		rp_ring_commit(&s->t.core, rec, pos);
		s->in_write = 0;
		s->main_ok++;
		__atomic_store_n(&s->main_progress, s->main_ok,
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A writer thread whose signal handler writes into the same ring: real
 * nesting on one "CPU", with the handler landing between reserve and
 * commit (and inside reserve) of the interrupted writer. A third thread
 * sends the signals, a fourth drains the ring meanwhile.
 */
static void run_signal_nesting(__u32 mode, __u32 nr, unsigned int burst)
{
	/*
	 * The writer stops once it has done enough; the deadline only keeps
	 * a broken ring from hanging the suite (a loaded host takes long).
	 */
	struct nest_writer_args wa = {
		.min_records = scaled(300000),
		.min_nested = 200,
		.deadline = now_ns() + 120000000000ull,
	};
	struct checker *k = calloc(1, sizeof(*k));
	struct nest_state *s = calloc(1, sizeof(*s));
	struct reader_thread rt = { 0 };
	struct sigaction sa = { 0 }, old;
	pthread_t writer;
	__u64 attempts, kicks = 0, last_progress = ~0ull, t0 = now_ns();

	assert_non_null(k);
	assert_non_null(s);
	nest = s;
	ring_init(&s->t, nr, mode, 0, 0);
	s->atomic = mode == RAWPROBE_RING_OVERWRITE;
	s->throttle = mode == RAWPROBE_RING_DISCARD;
	s->burst = burst;
	k->exact = mode == RAWPROBE_RING_DISCARD;
	rt.r = reader_for(&s->t, 1, 0);
	rt.k = k;
	sentinel(&s->t, rt.r, 0, k, 0);

	sa.sa_handler = nest_irq;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);

	reader_start(&rt);
	assert_int_equal(pthread_create(&writer, NULL, nest_writer_main, &wa),
			 0);
	while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 20000 };

		__u64 progress = __atomic_load_n(&s->main_progress,
						 __ATOMIC_RELAXED);

		/*
		 * One signal at a time, and only once the writer has written
		 * since the last: the handler's bursts never take all of the
		 * writer's time, however slow the build or busy the host.
		 * pthread_kill() fails once the writer has exited.
		 */
		if (__atomic_load_n(&s->irq_handled,
				    __ATOMIC_ACQUIRE) == kicks &&
		    progress != last_progress &&
		    !pthread_kill(writer, SIGUSR1)) {
			kicks++;
			last_progress = progress;
		}
		nanosleep(&ts, NULL);
	}
	assert_int_equal(pthread_join(writer, NULL), 0);
	reader_stop(&rt);
	assert_int_equal(sigaction(SIGUSR1, &old, NULL), 0);
	sentinel(&s->t, rt.r, 0, k, 1);

	print_message("  %.2f s: main %llu (+%llu lost), irq %llu (+%llu "
		      "lost) in %llu runs; %llu landed mid-write, %llu "
		      "mid-reserve; %llu signals\n",
		      (double)(now_ns() - t0) / 1e9,
		      (unsigned long long)s->main_ok,
		      (unsigned long long)s->main_lost,
		      (unsigned long long)s->irq_ok,
		      (unsigned long long)s->irq_lost,
		      (unsigned long long)s->irq_runs,
		      (unsigned long long)s->irq_in_write,
		      (unsigned long long)s->irq_in_reserve,
		      (unsigned long long)kicks);
	/* Real nesting happened, and enough of it. */
	assert_true(s->main_ok >= wa.min_records);
	assert_true(s->irq_in_write >= wa.min_nested);
	assert_true(s->irq_ok > 0);

	attempts = s->main_ok + s->main_lost + s->irq_ok + s->irq_lost + 2;
	check_accounting(rt.r, 0, &s->t, attempts);
	assert_int_equal(k->bad, 0);
	assert_int_equal(k->w[0].errors, 0);
	assert_int_equal(k->w[1].errors, 0);
	if (mode == RAWPROBE_RING_DISCARD) {
		/* Nothing lost, every record of both writers read. */
		assert_int_equal(s->main_lost + s->irq_lost, 0);
		assert_int_equal(stats_of(rt.r, 0).seq_lost, 0);
		assert_int_equal(k->w[0].seen, s->main_ok);
		assert_int_equal(k->w[1].seen, s->irq_ok);
	} else {
		/*
		 * Bursts longer than the ring landing mid-write must have
		 * hit the slot of the interrupted writer and been dropped.
		 */
		assert_true(burst > nr);
		assert_true(s->t.ctrl->lost > 0);
	}
	rp_reader_free(rt.r);
	ring_free(&s->t);
	nest = NULL;
	free(s);
	free(k);
}

static void test_signal_nesting_discard(void **state)
{
	(void)state;
	run_signal_nesting(RAWPROBE_RING_DISCARD, 4096, 8);
}

static void test_signal_nesting_overwrite(void **state)
{
	(void)state;
	run_signal_nesting(RAWPROBE_RING_OVERWRITE, 16, 24);
}

/* --- Threads standing in for CPUs --- */

struct stress_writer {
	pthread_t tid;
	struct test_ring *t;
	__u32 id;
	__u64 n;		/* attempts */
	__u64 ok, lost;
	bool atomic;
};

static void *stress_writer_main(void *arg)
{
	struct stress_writer *w = arg;
	__u64 i;

	for (i = 0; i < w->n; i++) {
		if (write_one(w->t, w->id, w->ok, now_ns(), w->atomic)) {
			w->ok++;
		} else {
			w->lost++;
			sched_yield();	/* let the reader catch up a bit */
		}
	}
	return NULL;
}

/*
 * Four writer threads with a ring each, two more sharing a fifth ring
 * (nested writers with every interleaving), one reader draining all five
 * concurrently. Small rings, so that discard mode loses and overwrite
 * mode laps a lot.
 */
static void run_stress(__u32 mode, __u32 nr, unsigned int reader_flags)
{
	enum { NR_RINGS = 5, NR_WRITERS = 6 };
	struct checker *k = calloc(1, sizeof(*k));
	struct stress_writer w[NR_WRITERS];
	struct reader_thread rt = { 0 };
	struct test_ring t[NR_RINGS];
	__u64 attempts[NR_RINGS], total = 0, t0 = now_ns();
	unsigned int i;

	assert_non_null(k);
	k->exact = mode == RAWPROBE_RING_DISCARD;
	k->merged = reader_flags & RP_READER_MERGE;
	for (i = 0; i < NR_RINGS; i++)
		ring_init(&t[i], nr, mode, i, 0);
	rt.r = reader_for(t, NR_RINGS, reader_flags);
	rt.k = k;
	for (i = 0; i < NR_RINGS; i++)
		sentinel(&t[i], rt.r, i, k, 0);

	reader_start(&rt);
	for (i = 0; i < NR_WRITERS; i++) {
		w[i] = (struct stress_writer){
			.t = &t[i < 4 ? i : 4], .id = i,
			.n = scaled(i < 4 ? 400000 : 200000),
			.atomic = mode == RAWPROBE_RING_OVERWRITE,
		};
		assert_int_equal(pthread_create(&w[i].tid, NULL,
						stress_writer_main, &w[i]), 0);
	}
	for (i = 0; i < NR_WRITERS; i++)
		assert_int_equal(pthread_join(w[i].tid, NULL), 0);
	reader_stop(&rt);
	for (i = 0; i < NR_RINGS; i++)
		sentinel(&t[i], rt.r, i, k, 1);

	print_message("  %llu drains, %.2f s\n", (unsigned long long)rt.drains,
		      (double)(now_ns() - t0) / 1e9);
	for (i = 0; i < NR_RINGS; i++)
		attempts[i] = 2;
	for (i = 0; i < NR_WRITERS; i++) {
		unsigned int ring = i < 4 ? i : 4;

		assert_int_equal(w[i].ok + w[i].lost, w[i].n);
		attempts[ring] += w[i].n;
		total += w[i].n;
		assert_int_equal(k->w[i].errors, 0);
		if (mode == RAWPROBE_RING_DISCARD)	/* all it wrote */
			assert_int_equal(k->w[i].seen, w[i].ok);
		else
			assert_true(k->w[i].seen <= w[i].ok);
	}
	assert_true(total >= scaled(2000000));
	for (i = 0; i < NR_RINGS; i++)
		check_accounting(rt.r, i, &t[i], attempts[i]);
	assert_int_equal(k->bad, 0);
	assert_int_equal(k->order_errors, 0);

	rp_reader_free(rt.r);
	for (i = 0; i < NR_RINGS; i++)
		ring_free(&t[i]);
	free(k);
}

static void test_threads_discard(void **state)
{
	(void)state;
	run_stress(RAWPROBE_RING_DISCARD, 1024, 0);
}

static void test_threads_overwrite(void **state)
{
	(void)state;
	/* With a merging reader: each drain must come out in ts order. */
	run_stress(RAWPROBE_RING_OVERWRITE, 256, RP_READER_MERGE);
}

/*
 * Overwrite mode, a writer thread that never stops and a reader on
 * another CPU: whatever the reader gets must be intact and in order, and
 * the accounting exact. Whether copies actually tear here depends on the
 * scheduler; test_overwrite_torn_signal makes sure they do.
 */
struct torn_writer {
	struct test_ring *t;
	int stop;		/* atomic */
	__u64 ok, lost;
};

static void *torn_writer_main(void *arg)
{
	struct torn_writer *w = arg;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		if (write_one(w->t, 0, w->ok, now_ns(), true))
			w->ok++;
		else
			w->lost++;
	}
	return NULL;
}

static void test_overwrite_torn(void **state)
{
	struct checker *k = calloc(1, sizeof(*k));
	struct torn_writer w = { 0 };
	struct rp_reader_cpu_stats st;
	__u64 t0 = now_ns(), now;
	struct test_ring t;
	struct rp_reader *r;
	pthread_t tid;

	(void)state;
	assert_non_null(k);
	ring_init(&t, 8, RAWPROBE_RING_OVERWRITE, 0, 0);
	r = reader_for(&t, 1, 0);
	sentinel(&t, r, 0, k, 0);
	w.t = &t;
	assert_int_equal(pthread_create(&tid, NULL, torn_writer_main, &w), 0);
	/* At least 0.5 s and 20000 records, at most 2 s. */
	do {
		rp_reader_drain_cpu(r, 0, checker_cb, k);
		st = stats_of(r, 0);
		now = now_ns();
	} while (now < t0 + 2000000000ull &&
		 (now < t0 + 500000000ull || st.records < scaled(20000)));
	__atomic_store_n(&w.stop, 1, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(tid, NULL), 0);
	while (rp_reader_drain_cpu(r, 0, checker_cb, k) > 0)
		;
	sentinel(&t, r, 0, k, 1);

	print_message("  %.2f s\n", (double)(now_ns() - t0) / 1e9);
	check_accounting(r, 0, &t, w.ok + w.lost + 2);
	assert_int_equal(k->bad, 0);
	assert_int_equal(k->w[0].errors, 0);
	assert_true(stats_of(r, 0).records > 2);
	rp_reader_free(r);
	ring_free(&t);
	free(k);
}

/*
 * Torn copies made to happen on any machine: the writer is a signal
 * handler on the reader's own thread, so it runs in the middle of the
 * reader's copy whenever the signal lands there. The reader thread also
 * refills the ring whenever it is empty, so that it spends its time
 * copying. Every torn copy must be detected and dropped.
 */
struct tear_state {
	struct test_ring t;
	struct rp_reader *r;
	struct checker *k;
	/* Reader thread and its handler only. */
	__u64 ok[2], lost[2];
	__u64 handled;		/* atomic */
	int done;		/* atomic */
	__u64 deadline;
};

static struct tear_state *tear;

static void tear_irq(int sig)
{
	struct tear_state *s = tear;
	int saved = errno;
	unsigned int i;

	(void)sig;
	for (i = 0; i < s->t.nr; i++) {	/* a whole lap */
		if (write_one(&s->t, 1, s->ok[1], now_ns(), true))
			s->ok[1]++;
		else
			s->lost[1]++;
	}
	__atomic_add_fetch(&s->handled, 1, __ATOMIC_RELEASE);
	errno = saved;
}

static void *tear_reader_main(void *arg)
{
	struct tear_state *s = arg;
	struct rp_reader_cpu_stats st;
	unsigned int i;

	do {
		if (!ring_used(&s->t)) {
			for (i = 0; i < s->t.nr; i++) {
				if (write_one(&s->t, 0, s->ok[0], now_ns(),
					      true))
					s->ok[0]++;
				else
					s->lost[0]++;
			}
		}
		rp_reader_drain_cpu(s->r, 0, checker_cb, s->k);
		rp_reader_stats(s->r, 0, &st);
	} while (st.torn < 50 && now_ns() < s->deadline);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_overwrite_torn_signal(void **state)
{
	struct tear_state *s = calloc(1, sizeof(*s));
	struct checker *k = calloc(1, sizeof(*k));
	struct sigaction sa = { 0 }, old;
	struct rp_reader_cpu_stats st;
	__u64 kicks = 0, t0 = now_ns();
	pthread_t tid;

	(void)state;
	assert_non_null(s);
	assert_non_null(k);
	tear = s;
	ring_init(&s->t, 64, RAWPROBE_RING_OVERWRITE, 0, 0);
	s->r = reader_for(&s->t, 1, 0);
	s->k = k;
	s->deadline = t0 + 10000000000ull;
	sentinel(&s->t, s->r, 0, k, 0);

	sa.sa_handler = tear_irq;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	assert_int_equal(sigaction(SIGUSR2, &sa, &old), 0);
	assert_int_equal(pthread_create(&tid, NULL, tear_reader_main, s), 0);
	while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 10000 };

		if (__atomic_load_n(&s->handled, __ATOMIC_ACQUIRE) == kicks &&
		    !pthread_kill(tid, SIGUSR2))
			kicks++;
		nanosleep(&ts, NULL);
	}
	assert_int_equal(pthread_join(tid, NULL), 0);
	assert_int_equal(sigaction(SIGUSR2, &old, NULL), 0);
	while (rp_reader_drain_cpu(s->r, 0, checker_cb, k) > 0)
		;
	sentinel(&s->t, s->r, 0, k, 1);

	print_message("  %.2f s, %llu signals\n",
		      (double)(now_ns() - t0) / 1e9, (unsigned long long)kicks);
	check_accounting(s->r, 0, &s->t,
			 s->ok[0] + s->ok[1] + s->lost[0] + s->lost[1] + 2);
	assert_int_equal(k->bad, 0);
	assert_int_equal(k->w[0].errors, 0);
	assert_int_equal(k->w[1].errors, 0);
	st = stats_of(s->r, 0);
	assert_true(st.torn >= 50);
	assert_true(st.records > 0);
	rp_reader_free(s->r);
	ring_free(&s->t);
	tear = NULL;
	free(s);
	free(k);
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
