// SPDX-License-Identifier: GPL-2.0
/*
 * The ring suite's basics (test_ring.c has the overview): one writer,
 * one reader, records in order, laps across the wrap of the commit word
 * and of the position, the commit marker; discard mode's full ring and
 * its lost attempts, accounted for in the sequence gap.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "test_ring.h"

/* ------------------------------------------------------------------ */
/* Single writer, single reader                                        */

void test_basic_order(void **state)
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
void test_wraparound_laps(void **state)
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
void test_commit_marker(void **state)
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

void test_discard_full(void **state)
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
