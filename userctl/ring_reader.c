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
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ring_reader.h"

/* Words of a record, read with atomic loads: they may race with a writer. */
typedef __u64 __attribute__((may_alias)) rp_word_t;

#define RP_RECORD_WORDS (sizeof(struct rawprobe_record) / sizeof(rp_word_t))

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
	__u64 torn;
	__u64 overwritten;
	__u64 seq_min;
	__u64 seq_max;
	__u32 mode;
};

struct rp_merge_ent {
	struct rawprobe_record rec;
	unsigned int cpu;
};

struct rp_reader {
	unsigned int nr_rings;
	unsigned int flags;
	unsigned int batch;		/* 0: ring size */
	struct rp_ring_state *rings;
	/* Merge buffer: records read but not delivered yet. */
	struct rp_merge_ent *ents;
	struct rp_merge_ent *spare;	/* same capacity, for compaction */
	struct rp_merge_ent **order;
	size_t nr_ents;
	size_t cap_ents;
};

/*
 * Where a drain puts each copy. Returns 0 to go on, > 0 to stop after this
 * record, < 0 (an errno) to stop without consuming it.
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
	 */
	for (i = 0; i < RP_RECORD_WORDS; i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
}

static void account_seq(struct rp_ring_state *st, __u64 seq)
{
	/*
	 * Min and max, not "previous + 1": nested writers commit out of
	 * sequence order, and a record below the last one seen fills a gap
	 * rather than opening one.
	 */
	if (!st->records) {
		st->seq_min = seq;
		st->seq_max = seq;
	} else if (seq < st->seq_min) {
		st->seq_min = seq;
	} else if (seq > st->seq_max) {
		st->seq_max = seq;
	}
	st->records++;
}

/*
 * Copy out up to max committed records of one ring into sink, then publish
 * the consumer position. Returns the number of records taken, or an errno
 * from the sink (records taken before it are still consumed).
 */
static long drain_ring(struct rp_reader *reader, unsigned int cpu,
		       unsigned long max, rp_sink_fn sink, void *ctx)
{
	struct rp_ring_state *st = &reader->rings[cpu];
	struct rawprobe_ring_ctrl *ctrl = st->ctrl;
	struct rawprobe_record copy;
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

		copy_record(&copy, rec);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&rec->commit, __ATOMIC_RELAXED) != c) {
			st->torn++;
			p++;
			continue;
		}
		copy.commit = c;	/* the copied word may be newer */

		r = sink(reader, cpu, &copy, ctx);
		if (r < 0) {
			ret = r;
			break;
		}
		account_seq(st, copy.seq);
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

static int merge_grow(struct rp_reader *reader)
{
	size_t cap = reader->cap_ents ? reader->cap_ents * 2 : 1024;
	struct rp_merge_ent *ents, *spare;
	struct rp_merge_ent **order;

	ents = realloc(reader->ents, cap * sizeof(*ents));
	if (!ents)
		return -ENOMEM;
	reader->ents = ents;
	spare = realloc(reader->spare, cap * sizeof(*spare));
	if (!spare)
		return -ENOMEM;
	reader->spare = spare;
	order = realloc(reader->order, cap * sizeof(*order));
	if (!order)
		return -ENOMEM;
	reader->order = order;
	reader->cap_ents = cap;
	return 0;
}

static int sink_merge(struct rp_reader *reader, unsigned int cpu,
		      const struct rawprobe_record *rec, void *ctx)
{
	struct rp_merge_ent *e;

	(void)ctx;
	if (reader->nr_ents == reader->cap_ents && merge_grow(reader))
		return -ENOMEM;
	e = &reader->ents[reader->nr_ents++];
	e->rec = *rec;
	e->cpu = cpu;
	return 0;
}

static int merge_cmp(const void *a, const void *b)
{
	const struct rp_merge_ent *x = *(const struct rp_merge_ent * const *)a;
	const struct rp_merge_ent *y = *(const struct rp_merge_ent * const *)b;

	if (x->rec.ts_ns != y->rec.ts_ns)
		return x->rec.ts_ns < y->rec.ts_ns ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->rec.seq != y->rec.seq)
		return x->rec.seq < y->rec.seq ? -1 : 1;
	return 0;
}

static unsigned long batch_of(const struct rp_reader *reader,
			      const struct rp_ring_state *st)
{
	if (reader->batch && reader->batch < st->nr)
		return reader->batch;
	return (unsigned long)st->nr;
}

static long drain_merged(struct rp_reader *reader, rp_reader_fn fn, void *ctx)
{
	struct rp_merge_ent *tmp;
	size_t i, n, done = 0;
	unsigned int cpu;
	long err = 0;

	for (cpu = 0; cpu < reader->nr_rings; cpu++) {
		err = drain_ring(reader, cpu,
				 batch_of(reader, &reader->rings[cpu]),
				 sink_merge, NULL);
		if (err < 0)
			break;
	}
	/* On -ENOMEM, still deliver what was read. */

	n = reader->nr_ents;
	for (i = 0; i < n; i++)
		reader->order[i] = &reader->ents[i];
	qsort(reader->order, n, sizeof(*reader->order), merge_cmp);

	while (done < n) {
		const struct rp_merge_ent *e = reader->order[done++];

		if (fn(e->cpu, &e->rec, ctx))
			break;
	}

	/* Keep what the callback did not take, in sorted order. */
	for (i = done; i < n; i++)
		reader->spare[i - done] = *reader->order[i];
	tmp = reader->ents;
	reader->ents = reader->spare;
	reader->spare = tmp;
	reader->nr_ents = n - done;

	return err < 0 && !done ? err : (long)done;
}

long rp_reader_drain_cpu(struct rp_reader *reader, unsigned int cpu,
			 rp_reader_fn fn, void *ctx)
{
	struct cb_ctx cb = { .fn = fn, .ctx = ctx };

	if (!reader || cpu >= reader->nr_rings || !fn ||
	    (reader->flags & RP_READER_MERGE))
		return -EINVAL;
	return drain_ring(reader, cpu, batch_of(reader, &reader->rings[cpu]),
			  sink_callback, &cb);
}

long rp_reader_drain_all(struct rp_reader *reader, rp_reader_fn fn, void *ctx)
{
	struct cb_ctx cb = { .fn = fn, .ctx = ctx };
	unsigned int cpu;
	long n, total = 0;

	if (!reader || !fn)
		return -EINVAL;
	if (reader->flags & RP_READER_MERGE)
		return drain_merged(reader, fn, ctx);

	for (cpu = 0; cpu < reader->nr_rings && !cb.stopped; cpu++) {
		n = drain_ring(reader, cpu,
			       batch_of(reader, &reader->rings[cpu]),
			       sink_callback, &cb);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
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
	__u64 span;

	if (!reader || cpu >= reader->nr_rings || !stats)
		return -EINVAL;
	st = &reader->rings[cpu];

	memset(stats, 0, sizeof(*stats));
	stats->records = st->records;
	stats->torn = st->torn;
	stats->overwritten = st->overwritten;
	if (st->records) {
		stats->seq_min = st->seq_min;
		stats->seq_max = st->seq_max;
		span = st->seq_max - st->seq_min + 1;
		/* Only a writer that reuses sequence numbers breaks this. */
		stats->seq_lost = span > st->records ? span - st->records : 0;
	}
	stats->ring_lost = __atomic_load_n(&st->ctrl->lost, __ATOMIC_RELAXED);
	stats->position = st->pos;
	stats->head = __atomic_load_n(&st->ctrl->head, __ATOMIC_RELAXED);
	return 0;
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

void rp_reader_free(struct rp_reader *reader)
{
	if (!reader)
		return;
	free(reader->ents);
	free(reader->spare);
	free(reader->order);
	free(reader->rings);
	free(reader);
}
