// SPDX-License-Identifier: GPL-2.0
/*
 * The ring suite's deterministic nesting (test_ring.c has the overview):
 * a writer run through the hook (set_hook()) at a chosen point of
 * another's reserve, in the cmpxchg retry, a stale head and a ring the
 * nested writer fills; nested_writer() serves overwrite mode's too.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include "test_ring.h"

/* ------------------------------------------------------------------ */
/* Deterministic nesting through the cmpxchg hook                      */

/* (struct nested_args: test_ring.h) */

void nested_writer(void *arg)
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
void test_nested_cmpxchg_retry(void **state)
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

void test_nested_stale_head(void **state)
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
void test_nested_fills_ring(void **state)
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
