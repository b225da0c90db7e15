/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record writer: reserve a record on this CPU's ring with its common
 * header filled, then commit it. Every built-in handler inlines these
 * (probes/emit.h): a hit then costs no call besides the clock read, which
 * under TCG, where each return is a lookup, measurably matters. Modules
 * reach the same code through the exported wrappers in module/api.c.
 *
 * Any context, preemption disabled (probe handlers always are).
 */
#ifndef _RAWPROBE_RECORD_H
#define _RAWPROBE_RECORD_H

#include <linux/irq_work.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <asm/msr.h>
#include "ring_core_kernel.h"
#include <rawprobe/api.h>

struct rp_session;

struct rp_rings;

struct rp_ring {
	struct rp_ring_core core;
	struct rp_rings *set;		/* the set it belongs to */
	struct irq_work wakeup;		/* queued by this CPU's writers */
	struct page *ctrl_page;
	struct page **data_pages;
	unsigned int nr_data_pages;
};

/* A session's rings (ring.c), one per possible CPU. */
struct rp_rings {
	u32 nr_rings;
	u32 nr_records;
	u32 mode;
	u32 watermark;			/* the backlog that wakes a reader */
	struct rp_session *sess;	/* whose reader a wakeup wakes */
	/*
	 * See rp_ring_poll(). Written by the reader at every poll(): a
	 * cache line of its own, so that the read-mostly words every writer
	 * loads stay shared.
	 */
	bool reader_sleeping ____cacheline_aligned_in_smp;
	struct rp_ring ring[] ____cacheline_aligned_in_smp;
};

/*
 * make bench's staircase (docs/performance.md) builds copies of the
 * module with the record path cut short at a step, so that each step's
 * instructions can be counted; 0, the module as shipped, compiles every
 * test below away.
 *   1: count the hit and return   2: + reserve and commit
 *   3: + the header               0: + the clock (as shipped)
 */
#ifndef RP_BENCH_STEP
#define RP_BENCH_STEP 0
#endif
#define RP_BENCH_CUT(step) (RP_BENCH_STEP && RP_BENCH_STEP <= (step))

/* clock.c: the rings' clock is the TSC (uapi enum rawprobe_clock). */
DECLARE_STATIC_KEY_FALSE(rp_clock_tsc);

static __always_inline bool rp_clock_is_tsc(void)
{
	return static_branch_unlikely(&rp_clock_tsc);
}

/*
 * A record's time (the uapi's ts_ns), NMI-safe: CLOCK_MONOTONIC
 * nanoseconds, or the TSC (records say so with RAWPROBE_REC_TSC).
 */
static __always_inline u64 rp_clock(void)
{
	if (RP_BENCH_CUT(3))
		return 0;
	if (rp_clock_is_tsc())
		return rdtsc_ordered();
	return ktime_get_mono_fast_ns();
}

/*
 * pid and tgid: one 8-byte copy where task_struct has them side by side,
 * as the record does (every kernel without a randomized layout).
 */
static __always_inline void rp_record_ids(struct rawprobe_record *rec,
					  struct task_struct *task)
{
	if (offsetof(struct task_struct, tgid) ==
	    offsetof(struct task_struct, pid) + sizeof(task->pid)) {
		/* x86_64 only: no alignment to mind; -fno-strict-aliasing */
		*(u64 *)&rec->pid = *(const u64 *)&task->pid;
	} else {
		rec->pid = task->pid;
		rec->tgid = task->tgid;
	}
}

/*
 * Returns a record with its common header filled, or NULL when the ring
 * is full (the loss is already counted in the control page).
 *
 * Only what every reader needs is written: fields that flags marks valid
 * (args, retval and latency, the string) are left to the kinds that fill
 * them, except the small ones in the commit word's cache line, which cost
 * nothing to clear. str[] is another cache line: it is written only when a
 * string is captured (RAWPROBE_REC_STR).
 */
static __always_inline struct rawprobe_record *
rp_record_reserve(struct rp_rings *rings, struct rawprobe_slot *slot,
		  u32 probe_id, u8 kind)
{
	struct task_struct *task = current;
	unsigned int cpu = smp_processor_id();
	struct rawprobe_record *rec;
	u64 seq;

	slot->ring = &rings->ring[cpu].core;
	rec = rp_ring_reserve(slot->ring, &slot->pos, &seq);
	if (unlikely(!rec))
		return NULL;

	rec->seq = seq;
	slot->rec = rec;
	if (RP_BENCH_CUT(2))
		return rec;
	/*
	 * One test of the clock for both stores: the default pays a nop.
	 * (WRITE_ONCE: plain stores of flags were merged with kind's after
	 * the branch, into a 16-bit value built in four instructions.)
	 */
	if (rp_clock_is_tsc()) {
		rec->ts_ns = RP_BENCH_CUT(3) ? 0 : rdtsc_ordered();
		WRITE_ONCE(rec->flags, RAWPROBE_REC_TSC);
	} else {
		rec->ts_ns = RP_BENCH_CUT(3) ? 0 : ktime_get_mono_fast_ns();
		WRITE_ONCE(rec->flags, 0);
	}
	rec->probe_id = probe_id;
	rec->kind = kind;
	rec->cpu = cpu;
	rp_record_ids(rec, task);
	memcpy(rec->comm, task->comm, sizeof(rec->comm));
	rec->retval = 0;
	rec->latency_ns = 0;
	rec->nargs = 0;
	rec->str_len = 0;
	rec->fault_mask = 0;
	rec->str_arg = RAWPROBE_STR_ARG_NONE;
	return rec;
}

static __always_inline void rp_record_commit(struct rawprobe_slot *slot)
{
	struct rp_ring *ring = container_of(slot->ring, struct rp_ring, core);
	struct rp_rings *rings = ring->set;

	rp_ring_commit(slot->ring, slot->rec, slot->pos);
	/*
	 * Wake a sleeping reader once the unread backlog reaches the
	 * watermark; a reader that is awake needs no interrupt from us.
	 * (The control page is looked up only then: a record with no
	 * reader asleep pays for none of it.)
	 */
	if (unlikely(READ_ONCE(rings->reader_sleeping)) &&
	    slot->pos + 1 - READ_ONCE(slot->ring->ctrl->consumer) >=
	    rings->watermark) {
		WRITE_ONCE(rings->reader_sleeping, false);
		irq_work_queue(&ring->wakeup);
	}
}

#endif /* _RAWPROBE_RECORD_H */
