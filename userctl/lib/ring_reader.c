// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobe ring reader; see ring_reader.h and the "Per-CPU ring" contract
 * in uapi/rawprobe.h.
 *
 * Reading one position p of a ring:
 *   c = load-acquire(rec->commit)
 *   c != (u32)(p + 1): not committed yet, or overwritten by a later lap;
 *       ctrl->head tells which (a later lap means head > p + nr_records)
 *   copy the record word by word (relaxed atomic loads), acquire fence,
 *   re-read commit: a different value means a writer started on the slot
 *       while we copied, so the copy may be torn and is dropped.
 * This is the read side of a seqlock, the writer's "in progress" marker
 * and smp_wmb() being the write side. In discard mode the writer cannot
 * touch a slot before we publish a consumer past it, so the re-check
 * never fires there; it costs one load and keeps the code mode-blind.
 */
#include <stddef.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define RP_HAVE_TSC 1
#endif
#include <string.h>

#include "lib/ring_reader.h"

/* Words of a record, read with atomic loads: they may race with a writer. */
typedef __u64 __attribute__((may_alias)) rp_word_t;

#define RP_RECORD_WORDS (sizeof(struct rawprobe_record) / sizeof(rp_word_t))
#define RP_HEAD_WORDS (offsetof(struct rawprobe_record, str) / sizeof(rp_word_t))

_Static_assert(sizeof(struct rawprobe_record) == RAWPROBE_RECORD_SIZE,
	       "record size");
_Static_assert(sizeof(struct rawprobe_record) % sizeof(rp_word_t) == 0,
	       "record is copied by 8-byte words");

struct rp_ring_state {
	struct rawprobe_ring_ctrl *ctrl;
	const struct rawprobe_record *recs;
	__u64 nr;		/* nr_records */
	__u64 pos;		/* next position to read */
	__u64 records;
	__u64 discarded;	/* RAWPROBE_REC_DISCARD: skipped */
	__u64 torn;
	__u64 overwritten;
	__u64 seq_min;
	__u64 seq_max;
	__u32 mode;
};

/*
 * The records of one ring that a merging drain read and has not delivered
 * yet, recs[start..len): in ring order as read, in (ts_ns, seq) order once
 * sorted. The array is allocated at the ring's first records, a batch
 * long, and kept: refilling it touches no fresh page. (Grown drain by
 * drain instead, it made a stream that started behind a busy ring fault
 * in a page every 16 records just when it could least afford it.)
 */
struct rp_run {
	struct rawprobe_record *recs;
	size_t start, len, cap;
};

/* A run in the merge heap, with the sort key of its first record. */
struct rp_heap_ent {
	__u64 ts_ns;
	__u64 seq;
	unsigned int cpu;
};

/*
 * Converts RAWPROBE_REC_TSC records (uapi enum rawprobe_clock):
 * ns = anchor_ns + (tsc - anchor_tsc) * mult >> 32, mult being
 * nanoseconds per cycle in 32.32 fixed point (at 3 GHz, 1.4e9: a relative
 * error of 1e-9, against the TSC rate's own tens of ppm).
 */
struct rp_tsc_conv {
	__u64 mult;		/* 0: leave TSC records as they are */
	__u64 anchor_tsc;
	__u64 anchor_ns;
	__u64 window_ns;	/* the anchor's uncertainty */
	int fixed;		/* anchor set by the caller, not re-read */
};

struct rp_reader {
	struct rp_tsc_conv tsc;
	unsigned int nr_rings;
	unsigned int flags;
	unsigned int batch;		/* 0: ring size */
	struct rp_ring_state *rings;
	/* Merging readers: one run per ring, a heap of the non-empty runs. */
	struct rp_run *runs;
	struct rp_heap_ent *heap;
};

/*
 * Where a drain hands each copy: returns 0 to go on, > 0 to stop after
 * this record, < 0 (an errno) to stop without consuming it.
 */
typedef int (*rp_sink_fn)(struct rp_reader *reader, unsigned int cpu,
			  const struct rawprobe_record *rec, void *ctx);

static void copy_record(struct rawprobe_record *dst,
			const struct rawprobe_record *src)
{
	const rp_word_t *s = (const rp_word_t *)src;
	rp_word_t *d = (rp_word_t *)dst;
	size_t i;

	/*
	 * Atomic, so that racing with a writer that overwrites the slot is
	 * defined behaviour (and not a report under ThreadSanitizer); relaxed,
	 * because the fence after the loop orders them all before the
	 * commit re-check at once.
	 * str[] only when flags says it holds something, a string or a stack
	 * (uapi: otherwise it is an older record's): half the copy for most
	 * records. A torn flags byte is caught by the same commit re-check.
	 * Unrolled: the loop's counting was half of the copy's instructions.
	 */
#pragma GCC unroll 16
	for (i = 0; i < RP_HEAD_WORDS; i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
	if (dst->flags & (RAWPROBE_REC_STR | RAWPROBE_REC_STR_FAULT |
			  RAWPROBE_REC_STACK))
		for (; i < RP_RECORD_WORDS; i++)
			d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
}

static __u64 tsc_cycles_to_ns(const struct rp_tsc_conv *t, __u64 cycles)
{
	return (__u64)(((unsigned __int128)cycles * t->mult) >> 32);
}

/* A copy's TSC values to CLOCK_MONOTONIC ns, and its flag cleared. */
static void tsc_convert(const struct rp_tsc_conv *t, struct rawprobe_record *r)
{
	__s64 d = (__s64)(r->ts_ns - t->anchor_tsc);
	__u64 ns = tsc_cycles_to_ns(t, d < 0 ? -(__u64)d : (__u64)d);

	r->ts_ns = d < 0 ? t->anchor_ns - ns : t->anchor_ns + ns;
	if (r->flags & RAWPROBE_REC_RETVAL)
		r->latency_ns = tsc_cycles_to_ns(t, r->latency_ns);
	r->flags &= ~RAWPROBE_REC_TSC;
}

/*
 * The anchor, read at each drain: records are converted a drain's time
 * after they were written at most (unless the ring held them before the
 * reader came), so the TSC's rate error barely shows. clock_gettime()
 * read the TSC somewhere between the two rdtsc: the narrowest of a few
 * tries wins, as a preempted try (a vCPU descheduled, an interrupt)
 * would put the anchor up to half its window off.
 */
#define RP_TSC_ANCHOR_TRIES	4

static void tsc_anchor(struct rp_tsc_conv *t)
{
#ifdef RP_HAVE_TSC
	__u64 a, b, best = ~0ULL;
	struct timespec ts;
	int i;

	if (!t->mult || t->fixed)
		return;
	for (i = 0; i < RP_TSC_ANCHOR_TRIES; i++) {
		a = __rdtsc();
		clock_gettime(CLOCK_MONOTONIC, &ts);
		b = __rdtsc();
		if (b - a >= best)
			continue;
		best = b - a;
		t->anchor_tsc = a + best / 2;
		t->anchor_ns = (__u64)ts.tv_sec * 1000000000ULL +
			       (__u64)ts.tv_nsec;
	}
	t->window_ns = tsc_cycles_to_ns(t, best);
#else
	(void)t;
#endif
}

__u64 rp_reader_tsc_window_ns(const struct rp_reader *reader)
{
	return reader ? reader->tsc.window_ns : 0;
}

static void account_seq(struct rp_ring_state *st, __u64 seq)
{
	/*
	 * Min and max, not "previous + 1": nested writers commit out of
	 * sequence order, and a record below the last one seen fills a gap
	 * rather than opening one.
	 */
	if (!st->records && !st->discarded) {
		st->seq_min = seq;
		st->seq_max = seq;
	} else if (seq < st->seq_min) {
		st->seq_min = seq;
	} else if (seq > st->seq_max) {
		st->seq_max = seq;
	}
}

/*
 * Copy out up to max committed records of one ring, then publish the
 * consumer position. The copies go to buf[0..max) when buf is given (a
 * merging drain sorts them later), else one at a time to sink. Returns the
 * number of records taken, or an errno from the sink (records taken
 * before it are still consumed).
 */
static long drain_ring(struct rp_reader *reader, unsigned int cpu,
		       unsigned long max, struct rawprobe_record *buf,
		       rp_sink_fn sink, void *ctx)
{
	struct rp_ring_state *st = &reader->rings[cpu];
	struct rawprobe_ring_ctrl *ctrl = st->ctrl;
	struct rawprobe_record scratch, *copy;
	__u64 p = st->pos;
	__u64 head = __atomic_load_n(&ctrl->head, __ATOMIC_ACQUIRE);
	/* Bounds the work against a writer that keeps lapping us. */
	__u64 budget = max + st->nr;
	unsigned long taken = 0;
	long ret = 0;

	while (taken < max && budget--) {
		const struct rawprobe_record *rec;
		__u32 c, want;
		int r;

		if (head - p > st->nr) {
			/*
			 * The writer has reserved position head - 1, so every
			 * position before head - nr has been reserved over
			 * (overwrite mode; discard mode never gets here).
			 */
			st->overwritten += head - st->nr - p;
			p = head - st->nr;
		}
		if (p == head)
			break;

		rec = &st->recs[p & (st->nr - 1)];
		want = (__u32)(p + 1);
		c = __atomic_load_n(&rec->commit, __ATOMIC_ACQUIRE);
		if (c != want) {
			/*
			 * Either the writer of p has not committed (stop and
			 * retry on the next drain) or a later lap took the slot
			 * since we read head (skip ahead).
			 */
			head = __atomic_load_n(&ctrl->head, __ATOMIC_ACQUIRE);
			if (head - p > st->nr)
				continue;
			break;
		}

		copy = buf ? &buf[taken] : &scratch;
		copy_record(copy, rec);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&rec->commit, __ATOMIC_RELAXED) != c) {
			st->torn++;
			p++;
			continue;
		}
		copy->commit = c;	/* the copied word may be newer */
		if ((copy->flags & RAWPROBE_REC_TSC) && reader->tsc.mult)
			tsc_convert(&reader->tsc, copy);
		account_seq(st, copy->seq);
		if (copy->flags & RAWPROBE_REC_DISCARD) {
			/* Abandoned by its writer: its seq is used, no more. */
			st->discarded++;
			p++;
			continue;
		}

		r = buf ? 0 : sink(reader, cpu, copy, ctx);
		if (r < 0) {
			ret = r;
			break;
		}
		st->records++;
		taken++;
		p++;
		if (r > 0)
			break;
	}

	if (p != st->pos) {
		st->pos = p;
		/*
		 * Release: every copy above is complete before the writer
		 * can see the slots as free (it loads consumer with acquire).
		 */
		__atomic_store_n(&ctrl->consumer, p, __ATOMIC_RELEASE);
	}
	return ret < 0 ? ret : (long)taken;
}

struct cb_ctx {
	rp_reader_fn fn;
	void *ctx;
	int stopped;
};

static int sink_callback(struct rp_reader *reader, unsigned int cpu,
			 const struct rawprobe_record *rec, void *ctx)
{
	struct cb_ctx *cb = ctx;

	(void)reader;
	if (cb->fn(cpu, rec, cb->ctx)) {
		cb->stopped = 1;
		return 1;
	}
	return 0;
}

static unsigned long batch_of(const struct rp_reader *reader,
			      const struct rp_ring_state *st)
{
	if (reader->batch && reader->batch < st->nr)
		return reader->batch;
	return (unsigned long)st->nr;
}

/*
 * Room for n more records at the end of run, and for a batch at least;
 * keeps what is pending.
 */
static int run_reserve(struct rp_run *run, size_t n, size_t batch)
{
	struct rawprobe_record *recs;
	size_t cap;

	if (run->start) {	/* the callback stopped a drain half way */
		memmove(run->recs, run->recs + run->start,
			(run->len - run->start) * sizeof(*run->recs));
		run->len -= run->start;
		run->start = 0;
	}
	if (run->cap - run->len >= n)
		return 0;
	cap = run->cap * 2 > run->len + n ? run->cap * 2 : run->len + n;
	if (cap < batch)
		cap = batch;
	recs = realloc(run->recs, cap * sizeof(*recs));
	if (!recs)
		return -ENOMEM;
	run->recs = recs;
	run->cap = cap;
	return 0;
}

/* Copy the committed records of ring cpu to the end of its run. */
static long drain_to_run(struct rp_reader *reader, unsigned int cpu)
{
	struct rp_ring_state *st = &reader->rings[cpu];
	struct rp_run *run = &reader->runs[cpu];
	__u64 head = __atomic_load_n(&st->ctrl->head, __ATOMIC_ACQUIRE);
	unsigned long max = batch_of(reader, st);
	long n;

	/* What the ring holds now, not its size: the run grows no further. */
	if (head - st->pos < max)
		max = (unsigned long)(head - st->pos);
	if (!max)
		return 0;
	if (run_reserve(run, max, batch_of(reader, st)))
		return -ENOMEM;
	n = drain_ring(reader, cpu, max, run->recs + run->len, NULL, NULL);
	if (n > 0)
		run->len += (size_t)n;
	return n;
}

/* Order within a run (one ring: seq tells records of equal ts apart). */
static int run_before(const struct rawprobe_record *a,
		      const struct rawprobe_record *b)
{
	return a->ts_ns != b->ts_ns ? a->ts_ns < b->ts_ns : a->seq < b->seq;
}

static int run_cmp(const void *a, const void *b)
{
	return run_before(a, b) ? -1 : run_before(b, a);
}

/*
 * Sort a run by (ts_ns, seq). A ring is in timestamp order but for
 * nested writers (an interrupt between a writer's timestamp and its
 * reservation puts the interrupting, later records before it), so an insertion
 * sort moves a few records a short way: near-linear. Should the
 * timestamps be far out of order (a clock stepping back), it gives up
 * after a few moves per record and leaves the run to qsort.
 */
static void run_sort(struct rp_run *run)
{
	struct rawprobe_record *v = run->recs + run->start, tmp;
	size_t n = run->len - run->start, i, j;
	size_t budget = 4 * n + 64;

	for (i = 1; i < n; i++) {
		if (!run_before(&v[i], &v[i - 1]))
			continue;
		tmp = v[i];
		for (j = i; j > 0 && run_before(&tmp, &v[j - 1]); j--) {
			if (!budget--) {
				v[j] = tmp;
				qsort(v, n, sizeof(*v), run_cmp);
				return;
			}
			v[j] = v[j - 1];
		}
		v[j] = tmp;
	}
}

/* The merge order of the runs' first records: (ts_ns, cpu, seq). */
static int heap_before(const struct rp_heap_ent *a, const struct rp_heap_ent *b)
{
	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu;
	return a->seq < b->seq;
}

/*
 * Key e by the first record of its run: the keys live in the heap, not in
 * the records, so that sifting compares one small array.
 */
static void heap_key(const struct rp_reader *reader, struct rp_heap_ent *e)
{
	const struct rp_run *run = &reader->runs[e->cpu];
	const struct rawprobe_record *rec = &run->recs[run->start];

	e->ts_ns = rec->ts_ns;
	e->seq = rec->seq;
}

/* Restore the heap below slot i (a min-heap of runs by their head). */
static void heap_down(struct rp_heap_ent *h, unsigned int n, unsigned int i)
{
	struct rp_heap_ent top = h[i];
	unsigned int child;

	while ((child = 2 * i + 1) < n) {
		if (child + 1 < n && heap_before(&h[child + 1], &h[child]))
			child++;
		if (!heap_before(&h[child], &top))
			break;
		h[i] = h[child];
		i = child;
	}
	h[i] = top;
}

/* Sort every run with something pending and heap them; returns how many. */
static unsigned int heap_runs(struct rp_reader *reader)
{
	unsigned int cpu, n = 0, i;

	for (cpu = 0; cpu < reader->nr_rings; cpu++) {
		struct rp_run *run = &reader->runs[cpu];

		if (run->start == run->len)
			continue;
		run_sort(run);
		reader->heap[n].cpu = cpu;
		heap_key(reader, &reader->heap[n++]);
	}
	for (i = n / 2; i-- > 0;)
		heap_down(reader->heap, n, i);
	return n;
}

/* The rest of one run, in order, until fn stops; returns how many. */
static size_t deliver_run(unsigned int cpu, struct rp_run *run,
			  rp_reader_fn fn, void *ctx)
{
	size_t done = 0;
	int stop = 0;

	while (!stop && run->start < run->len) {
		stop = fn(cpu, &run->recs[run->start++], ctx);
		done++;
	}
	if (run->start == run->len)
		run->start = run->len = 0;
	return done;
}

/*
 * k-way merge of the runs: each record is compared with the heads of
 * about log2(rings) others, and delivered from where it was copied to.
 */
static size_t merge_runs(struct rp_reader *reader, rp_reader_fn fn, void *ctx)
{
	unsigned int n = heap_runs(reader);
	size_t done = 0;
	int stop = 0;

	while (n > 1 && !stop) {
		unsigned int cpu = reader->heap[0].cpu;
		struct rp_run *run = &reader->runs[cpu];

		stop = fn(cpu, &run->recs[run->start++], ctx);
		done++;
		if (run->start == run->len) {
			run->start = run->len = 0;
			reader->heap[0] = reader->heap[--n];
		} else {
			heap_key(reader, &reader->heap[0]);
		}
		if (n > 1)
			heap_down(reader->heap, n, 0);
	}
	if (n == 1 && !stop)	/* the last run, or one busy CPU's: no heap */
		done += deliver_run(reader->heap[0].cpu,
				    &reader->runs[reader->heap[0].cpu], fn, ctx);
	return done;
}

static long drain_merged(struct rp_reader *reader, rp_reader_fn fn, void *ctx)
{
	unsigned int cpu;
	size_t done;
	long err = 0;

	for (cpu = 0; cpu < reader->nr_rings; cpu++) {
		err = drain_to_run(reader, cpu);
		if (err < 0)
			break;
	}
	/* On -ENOMEM, still deliver what was read. */
	done = merge_runs(reader, fn, ctx);
	return err < 0 && !done ? err : (long)done;
}

long rp_reader_drain_cpu(struct rp_reader *reader, unsigned int cpu,
			 rp_reader_fn fn, void *ctx)
{
	struct cb_ctx cb = { .fn = fn, .ctx = ctx };

	if (!reader || cpu >= reader->nr_rings || !fn ||
	    (reader->flags & RP_READER_MERGE))
		return -EINVAL;
	tsc_anchor(&reader->tsc);
	return drain_ring(reader, cpu, batch_of(reader, &reader->rings[cpu]),
			  NULL, sink_callback, &cb);
}

long rp_reader_drain_all(struct rp_reader *reader, rp_reader_fn fn, void *ctx)
{
	struct cb_ctx cb = { .fn = fn, .ctx = ctx };
	unsigned int cpu;
	long n, total = 0;

	if (!reader || !fn)
		return -EINVAL;
	tsc_anchor(&reader->tsc);
	if (reader->flags & RP_READER_MERGE)
		return drain_merged(reader, fn, ctx);

	for (cpu = 0; cpu < reader->nr_rings && !cb.stopped; cpu++) {
		n = drain_ring(reader, cpu,
			       batch_of(reader, &reader->rings[cpu]), NULL,
			       sink_callback, &cb);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

int rp_reader_set_tsc(struct rp_reader *reader, __u32 tsc_khz)
{
	if (!reader)
		return -EINVAL;
#ifndef RP_HAVE_TSC
	if (tsc_khz)
		return -EOPNOTSUPP;
#endif
	reader->tsc.mult = tsc_khz ? (1000000ULL << 32) / tsc_khz : 0;
	reader->tsc.fixed = 0;
	return 0;
}

int rp_reader_set_tsc_anchor(struct rp_reader *reader, __u64 tsc, __u64 ns)
{
	if (!reader || !reader->tsc.mult)
		return -EINVAL;
	reader->tsc.anchor_tsc = tsc;
	reader->tsc.anchor_ns = ns;
	reader->tsc.fixed = 1;
	return 0;
}

int rp_reader_prepare(struct rp_reader *reader)
{
	size_t batch, left = RP_READER_PREPARE_MAX;
	unsigned int cpu;

	if (!reader)
		return -EINVAL;
	if (!(reader->flags & RP_READER_MERGE))
		return 0;
	for (cpu = 0; cpu < reader->nr_rings; cpu++) {
		struct rp_run *run = &reader->runs[cpu];

		batch = batch_of(reader, &reader->rings[cpu]);
		if (batch * sizeof(*run->recs) > left)
			break;
		left -= batch * sizeof(*run->recs);
		if (run_reserve(run, batch, batch))
			return -ENOMEM;
		/* fault the pages in now, not in the first drain */
		memset(run->recs + run->len, 0,
		       (run->cap - run->len) * sizeof(*run->recs));
	}
	return 0;
}

int rp_reader_set_batch(struct rp_reader *reader, unsigned int max_records)
{
	if (!reader)
		return -EINVAL;
	reader->batch = max_records;
	return 0;
}

unsigned int rp_reader_nr_rings(const struct rp_reader *reader)
{
	return reader ? reader->nr_rings : 0;
}

int rp_reader_stats(const struct rp_reader *reader, unsigned int cpu,
		    struct rp_reader_cpu_stats *stats)
{
	const struct rp_ring_state *st;
	__u64 span, seen;

	if (!reader || cpu >= reader->nr_rings || !stats)
		return -EINVAL;
	st = &reader->rings[cpu];

	memset(stats, 0, sizeof(*stats));
	stats->records = st->records;
	stats->discarded = st->discarded;
	stats->torn = st->torn;
	stats->overwritten = st->overwritten;
	seen = st->records + st->discarded;
	if (seen) {
		stats->seq_min = st->seq_min;
		stats->seq_max = st->seq_max;
		span = st->seq_max - st->seq_min + 1;
		/* Only a writer that reuses sequence numbers breaks this. */
		stats->seq_lost = span > seen ? span - seen : 0;
	}
	stats->ring_lost = __atomic_load_n(&st->ctrl->lost, __ATOMIC_RELAXED);
	stats->position = st->pos;
	stats->head = __atomic_load_n(&st->ctrl->head, __ATOMIC_RELAXED);
	return 0;
}

__u64 rp_reader_ring_lost(const struct rp_reader *reader)
{
	__u64 lost = 0;
	unsigned int cpu;

	for (cpu = 0; reader && cpu < reader->nr_rings; cpu++)
		lost += __atomic_load_n(&reader->rings[cpu].ctrl->lost,
					__ATOMIC_RELAXED);
	return lost;
}

__u64 rp_reader_unread(const struct rp_reader *reader)
{
	const struct rp_ring_state *st;
	__u64 unread = 0;
	unsigned int cpu;

	for (cpu = 0; reader && cpu < reader->nr_rings; cpu++) {
		st = &reader->rings[cpu];
		unread += __atomic_load_n(&st->ctrl->head, __ATOMIC_RELAXED) -
			  st->pos;
	}
	return unread;
}

struct rp_reader *rp_reader_new(const struct rp_reader_ring *rings,
				unsigned int nr_rings, unsigned int flags)
{
	struct rp_reader *reader;
	unsigned int i;

	if (!rings || !nr_rings || (flags & ~RP_READER_MERGE)) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < nr_rings; i++) {
		__u32 nr = rings[i].nr_records;

		if (!rings[i].ctrl || !rings[i].recs || nr < 2 ||
		    (nr & (nr - 1))) {
			errno = EINVAL;
			return NULL;
		}
	}

	reader = calloc(1, sizeof(*reader));
	if (!reader)
		return NULL;
	reader->rings = calloc(nr_rings, sizeof(*reader->rings));
	if (!reader->rings) {
		free(reader);
		return NULL;
	}
	reader->nr_rings = nr_rings;
	reader->flags = flags;
	if (flags & RP_READER_MERGE) {
		reader->batch = RP_READER_MERGE_BATCH;
		reader->runs = calloc(nr_rings, sizeof(*reader->runs));
		reader->heap = calloc(nr_rings, sizeof(*reader->heap));
		if (!reader->runs || !reader->heap) {
			rp_reader_free(reader);
			errno = ENOMEM;
			return NULL;
		}
	}

	for (i = 0; i < nr_rings; i++) {
		struct rp_ring_state *st = &reader->rings[i];
		__u64 head, consumer;

		st->ctrl = rings[i].ctrl;
		st->recs = rings[i].recs;
		st->nr = rings[i].nr_records;
		st->mode = rings[i].mode;

		head = __atomic_load_n(&st->ctrl->head, __ATOMIC_ACQUIRE);
		consumer = __atomic_load_n(&st->ctrl->consumer,
					   __ATOMIC_RELAXED);
		/*
		 * A consumer past head can only be left over from a bogus
		 * earlier reader; start with what the writer has.
		 */
		if ((__s64)(head - consumer) < 0) {
			consumer = head;
			__atomic_store_n(&st->ctrl->consumer, consumer,
					 __ATOMIC_RELEASE);
		}
		st->pos = consumer;
	}
	return reader;
}

__u64 rp_reader_skip_to_head(struct rp_reader *reader)
{
	__u64 skipped = 0, head;
	unsigned int i;

	for (i = 0; i < reader->nr_rings; i++) {
		struct rp_ring_state *st = &reader->rings[i];

		head = __atomic_load_n(&st->ctrl->head, __ATOMIC_ACQUIRE);
		if ((__s64)(head - st->pos) <= 0)
			continue;
		skipped += head - st->pos;
		st->pos = head;
		__atomic_store_n(&st->ctrl->consumer, head, __ATOMIC_RELEASE);
	}
	return skipped;
}

void rp_reader_free(struct rp_reader *reader)
{
	unsigned int cpu;

	if (!reader)
		return;
	for (cpu = 0; reader->runs && cpu < reader->nr_rings; cpu++)
		free(reader->runs[cpu].recs);
	free(reader->runs);
	free(reader->heap);
	free(reader->rings);
	free(reader);
}
