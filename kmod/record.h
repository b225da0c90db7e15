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

/*
 * One CPU's ring. 64 bytes, so that a writer finds its CPU's ring with a
 * shift; the hit path reads core and wake_at, the pages behind
 * them only the mapping and the free.
 */
struct rp_ring {
	struct rp_ring_core core;
	/*
	 * The position whose record wakes the reader, the one that brings
	 * the backlog to the watermark: set in every ring when the reader
	 * sleeps (rp_ring_poll()), so that a writer tests it where its ring
	 * already is; U64_MAX while the reader is awake. One compare, asleep
	 * or not: a reader asleep below the watermark cost every record a
	 * call.
	 */
	u64 wake_at;
	struct rp_rings *set;		/* the set it belongs to */
	struct page *ctrl_page;
	struct page **data_pages;
	unsigned int nr_data_pages;
} ____cacheline_aligned;

/* A session's rings (ring.c), one per possible CPU. */
struct rp_rings {
	u32 nr_rings;
	u32 nr_records;
	u32 mode;
	u32 watermark;			/* the backlog that wakes a reader */
	struct rp_session *sess;	/* whose reader a wakeup wakes */
	/*
	 * One for all CPUs: a writer that finds it pending has nothing to
	 * add, the reader it will wake reads every ring.
	 */
	struct irq_work wakeup;
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

/* Likely: the TSC is the default wherever the kernel trusts it. */
static __always_inline bool rp_clock_is_tsc(void)
{
	return static_branch_likely(&rp_clock_tsc);
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
 * What the two wide stores below assume of the uapi layout: the header's
 * word at offset 16 (probe_id, kind, flags, cpu) is a probe's rec_hdr
 * with the CPU added.
 */
static_assert(offsetof(struct rawprobe_record, probe_id) == 16 &&
	      offsetof(struct rawprobe_record, kind) == 20 &&
	      offsetof(struct rawprobe_record, flags) == 21 &&
	      offsetof(struct rawprobe_record, cpu) == 22);
static_assert(offsetof(struct rawprobe_record, str_len) == 120 &&
	      offsetof(struct rawprobe_record, fault_mask) == 121 &&
	      offsetof(struct rawprobe_record, str_arg) == 122 &&
	      offsetof(struct rawprobe_record, nargs) == 123);

/*
 * Returns a record with its common header filled, or NULL when the ring
 * is full (the loss is already counted in the control page).
 *
 * Only what every reader needs is written: fields that flags marks valid
 * (args, retval and latency, the string) are left to the kinds that fill
 * them; readers look at flags first. The word behind the arguments
 * (nargs, str_len, fault_mask, str_arg) is one store. str[] is another
 * cache line: it is written only when a string is captured
 * (RAWPROBE_REC_STR).
 */
static __always_inline struct rawprobe_record *
rp_record_reserve(struct rp_rings *rings, struct rawprobe_slot *slot, u64 hdr,
		  u64 ts)
{
	struct task_struct *task = current;
	unsigned int cpu = smp_processor_id();
	struct rawprobe_record *rec;
	struct rp_ring *ring;
	u64 seq;

	ring = &rings->ring[cpu];
	/* one register for both uses: gcc would compute it twice */
	OPTIMIZER_HIDE_VAR(ring);
	slot->ring = ring;
	rec = rp_ring_reserve(&ring->core, &slot->pos, &seq);
	if (unlikely(!rec))
		return NULL;

	rec->seq = seq;
	slot->rec = rec;
	if (RP_BENCH_CUT(2))
		return rec;
	rec->ts_ns = ts;
	*(u64 *)&rec->probe_id = hdr | (u64)cpu << 48;
	rp_record_ids(rec, task);
	memcpy(rec->comm, task->comm, sizeof(rec->comm));
	/* nargs 0, str_len 0, fault_mask 0, str_arg RAWPROBE_STR_ARG_NONE */
	*(u32 *)&rec->str_len = (u32)RAWPROBE_STR_ARG_NONE << 16;
	return rec;
}

/* ring.c: wake the sleeping reader, the backlog at the watermark */
void rp_record_wake(struct rp_ring *ring);

static __always_inline void rp_record_commit(struct rawprobe_slot *slot)
{
	struct rp_ring *ring = slot->ring;

	rp_ring_commit(&ring->core, slot->rec, slot->pos);
	/*
	 * A reader that is awake, or asleep below the watermark, needs no
	 * interrupt from us: a record pays for one compare.
	 */
	if (unlikely(slot->pos >= READ_ONCE(ring->wake_at)))
		rp_record_wake(ring);
}

#endif /* _RAWPROBE_RECORD_H */
