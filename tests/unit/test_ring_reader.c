// SPDX-License-Identifier: GPL-2.0
/*
 * The ring suite's reader (test_ring.c has the overview): its API and
 * argument checks, the drain log, drain_all unmerged, and the merging
 * reader: order, batches, the tsc clock, nested writers' inversions,
 * rings out of order, gaps and refills.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test_ring.h"

/* ------------------------------------------------------------------ */
/* Reader API                                                          */

void test_reader_api(void **state)
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
void test_drain_log_bounded(void **state)
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
void test_drain_all_stop(void **state)
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
void test_merge_order(void **state)
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
void test_merge_batch(void **state)
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
void test_tsc_clock(void **state)
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
void test_merge_nested(void **state)
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
void test_merge_out_of_order(void **state)
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
void test_merge_gaps_refill(void **state)
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
