/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobe per-CPU ring: the writer side, shared by the kernel module and
 * the host unit tests (tests/unit/test_ring.c).
 *
 * This file includes nothing but the uapi header. The includer first maps
 * a handful of primitives onto its environment, makes bool available and
 * defines RP_RING_PRIMITIVES; kmod/ring_core_kernel.h (local_t, smp_*) and
 * tests/unit/ring_core_host.h (__atomic builtins) do exactly that and then
 * include this file, so include one of those, not this file directly.
 *
 *   __u64 rp_local_read(__u64 *p)
 *   __u64 rp_local_cmpxchg(__u64 *p, __u64 old, __u64 new)  returns the
 *                                               value found at *p
 *   __u64 rp_local_inc_return(__u64 *p)
 *   void  rp_local_inc(__u64 *p)
 *   __u64 rp_load_acquire_u64(const __u64 *p)
 *   __u32 rp_load_acquire_u32(const __u32 *p)
 *   void  rp_store_release_u32(__u32 *p, __u32 v)
 *   void  rp_write_once_u32(__u32 *p, __u32 v)
 *   void  rp_smp_wmb(void)
 *   rp_likely(x), rp_unlikely(x)
 *
 * The rp_local_* operations only need to be atomic against writers nested
 * on the same CPU (IRQ, NMI): every writer of a ring runs on the CPU that
 * owns it, with preemption disabled (kprobe handlers always are; custom
 * writers must be). The reader on another CPU never relies on their
 * ordering: it synchronises on the commit word of each record only.
 *
 * The writer protocol, as the uapi text has it (see rp_ring_has_room()
 * and rp_ring_reserve() for why each step is so):
 *   1. reserve p = head with a cmpxchg loop, giving up (++ctrl->lost),
 *      if head has not moved meanwhile,
 *      - discard mode: when p - consumer >= nr_records;
 *      - overwrite mode: when the record at p - nr_records, in the slot
 *        we would take, has not been committed yet;
 *   2. commit = (u32)p (not 0) marks the slot in progress, smp_wmb();
 *   3. seq = ++ctrl->seq, for every attempt, lost ones too, so that
 *      they leave a gap;
 *   4. the caller fills the record;
 *   5. store-release commit = (u32)(p + 1).
 */
#ifndef _RAWPROBE_RING_CORE_H
#define _RAWPROBE_RING_CORE_H

#ifndef RP_RING_PRIMITIVES
#error "include ring_core_kernel.h or ring_core_host.h, not ring_core.h"
#endif

#include "rawprobe.h"

/*
 * One ring as its writers see it. mask and mode are copies kept in kernel
 * memory: the control page is mapped writable into user space, so nothing
 * that bounds a memory access may be read from it.
 */
struct rp_ring_core {
	struct rawprobe_ring_ctrl *ctrl;
	struct rawprobe_record *recs;
	__u32 mask;			/* nr_records - 1 (a power of 2) */
	__u32 mode;			/* enum rawprobe_ring_mode */
};

/*
 * Set up a ring for positions starting at @start (0 for a fresh ring).
 * Every slot is made to look as if the record one lap before @start had
 * been committed: the reader then finds nothing to read, and overwrite-mode
 * writers find every slot free. With @start == 0 and a zeroed record array
 * that is already the case for the first lap, so calling this is optional
 * there; it is required whenever a ring is reset to a non-zero position or
 * its records are not zeroed.
 */
static inline void rp_ring_core_init(struct rp_ring_core *r,
				     struct rawprobe_ring_ctrl *ctrl,
				     struct rawprobe_record *recs,
				     __u32 nr_records, __u32 mode, __u32 cpu,
				     __u64 start)
{
	__u32 i;

	r->ctrl = ctrl;
	r->recs = recs;
	r->mask = nr_records - 1;
	r->mode = mode;

	ctrl->head = start;
	ctrl->seq = 0;
	ctrl->lost = 0;
	ctrl->nr_records = nr_records;
	ctrl->mode = mode;
	ctrl->cpu = cpu;
	ctrl->consumer = start;
	for (i = 0; i < nr_records; i++)
		recs[(start + i) & r->mask].commit =
			(__u32)(start + i - nr_records + 1);
}

/*
 * Can the writer take position head, whose slot is rec? (Step 2.)
 *
 * Discard: the reader releases slots by publishing consumer; the acquire
 * pairs with that store so that its last copy of a slot is done before we
 * write to it.
 *
 * Overwrite: the slot must hold the committed record of one lap back. If
 * its writer has not committed it, we interrupted that writer (or it is
 * between its cmpxchg and its marker): overwriting would let it scribble
 * over our record once it resumes, behind a valid commit word, so the new
 * record is dropped instead. head then stays put until the interrupted
 * writer commits, so no writer can ever lap another. The first lap
 * (head < nr_records) has no older record, which lets a zeroed ring work
 * without rp_ring_core_init() (positions never wrap 64 bits in practice).
 */
static inline bool rp_ring_has_room(const struct rp_ring_core *r,
				    const struct rawprobe_ring_ctrl *ctrl,
				    __u32 mask, struct rawprobe_record *rec,
				    __u64 head)
{
	/* (the default mode, a reader's: laid out first) */
	if (rp_likely(r->mode == RAWPROBE_RING_DISCARD))
		return head - rp_load_acquire_u64(&ctrl->consumer) <= mask;
	return head <= mask ||
	       rp_load_acquire_u32(&rec->commit) == (__u32)(head - mask);
}

/*
 * Reserve the next record of the ring (steps 1 to 3 above). Returns the
 * record to fill, its position in *pos and its sequence number in *seq, or
 * NULL when the record is lost (counted in ctrl->lost; *seq is still the
 * attempt's sequence number, *pos is meaningless).
 * Never blocks; loops only while nested writers keep moving head.
 */
static inline struct rawprobe_record *
rp_ring_reserve(struct rp_ring_core *r, __u64 *pos, __u64 *seq)
{
	/*
	 * The ring's constants, read once: the acquire loads below are
	 * compiler barriers, which would otherwise reload them.
	 */
	struct rawprobe_ring_ctrl *ctrl = r->ctrl;
	struct rawprobe_record *recs = r->recs;
	__u32 mask = r->mask;
	struct rawprobe_record *rec;
	__u64 head, old;

	head = rp_local_read(&ctrl->head);
	for (;;) {
		rec = &recs[head & mask];
		if (rp_unlikely(!rp_ring_has_room(r, ctrl, mask, rec, head))) {
			/*
			 * Give up only if head has not moved since we read it.
			 * If a nested writer moved it, the reader may already
			 * have consumed past our stale head (head - consumer
			 * wraps) or the slot may already be reused: look again.
			 */
			old = rp_local_read(&ctrl->head);
			if (old == head)
				goto lost;
			head = old;
			continue;
		}
		old = rp_local_cmpxchg(&ctrl->head, head, head + 1);
		if (rp_likely(old == head))
			break;
		head = old;	/* a nested writer took it: try the next */
	}

	/*
	 * Mark the slot in progress before touching its contents, so that a
	 * reader copying the previous record sees the commit word change.
	 * The marker is (u32)head rather than 0: (u32)(p + 1) is 0 for one
	 * position in every 2^32, and a 0 marker would then read as that
	 * position's commit. (u32)head differs from every commit value this
	 * slot can expect, as those are all congruent to head + 1 modulo
	 * nr_records.
	 */
	rp_write_once_u32(&rec->commit, (__u32)head);
	rp_smp_wmb();
	/*
	 * Every attempt takes a sequence number, lost ones too (below), so
	 * that they leave a gap. Taken once the slot is ours, not held across
	 * the loop: a nested writer may then number its record below ours
	 * from a later position, which the reader's span of numbers counts
	 * the same.
	 */
	*seq = rp_local_inc_return(&ctrl->seq);
	*pos = head;
	/* The callers' NULL test then costs nothing on this path. */
	if (!rec)
		__builtin_unreachable();
	return rec;

lost:
	*seq = rp_local_inc_return(&ctrl->seq);
	rp_local_inc(&ctrl->lost);
	*pos = head;	/* meaningless, but never uninitialised */
	return NULL;
}

/*
 * Publish a record filled after rp_ring_reserve() (step 5). The release
 * orders every store to the record before the commit word that the reader
 * loads with acquire.
 */
static inline void rp_ring_commit(struct rp_ring_core *r,
				  struct rawprobe_record *rec, __u64 pos)
{
	(void)r;
	rp_store_release_u32(&rec->commit, (__u32)(pos + 1));
}

#endif /* _RAWPROBE_RING_CORE_H */
