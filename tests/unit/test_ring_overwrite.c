// SPDX-License-Identifier: GPL-2.0
/*
 * The ring suite's overwrite mode (test_ring.c has the overview): a ring
 * lapped many times by a lone writer, and a nested burst of more than a
 * lap that must not take the slot of the writer it interrupted.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include "test_ring.h"

/* ------------------------------------------------------------------ */
/* Overwrite mode                                                      */

/* A zeroed ring (no init call) lapped many times by a lone writer. */
void test_overwrite_lap_skip(void **state)
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
void test_overwrite_nested_lap(void **state)
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
