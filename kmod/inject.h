/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Return override and targeted fault injection: the state a batch's
 * override probes and its call chain's steps share (kmod/inject.c sets it
 * up, probes/override.c reads it on every hit).
 *
 * A call chain is BCC inject.py's model: an override fires only while
 * the task is inside every step's function, entered in order and not yet
 * returned. Each task inside the chain holds a slot: its depth, the last
 * step it entered in order. Only the task itself writes its slot (steps
 * and overrides act in task context only); a free slot is claimed by a
 * cmpxchg of its task word, so no lock is taken on any path.
 *
 * Only a step's return takes its depth back; a step that stops firing
 * (disabled, removed, its module gone) would leave the tasks inside it
 * with a depth nothing lowers, and their allocations failing anywhere,
 * for their whole lives. So the chain has a generation, moved on each
 * time a step is disarmed, and a slot's depth counts only in the
 * generation it was reached in.
 */
#ifndef _RAWPROBE_INJECT_H
#define _RAWPROBE_INJECT_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/refcount.h>
#include "core.h"

#define RP_CHAIN_SLOTS	1024	/* tasks inside a chain at once */
#define RP_CHAIN_PROBE	16	/* slots a task's hash may use */

struct rp_chain_slot {
	unsigned long task;	/* the task_struct; 0: free */
	u64 born;		/* its start_time: a reused task_struct
				 * finds a dead task's slot stale
				 */
	u32 depth;		/* steps entered in order */
	u32 gen;		/* the chain's generation of depth */
};

struct rp_inject {
	refcount_t ref;			/* one per probe that uses it */
	u8 chain_len;			/* 0: no chain */
	u8 probability;			/* percent, 1..100 */
	u32 interval;			/* 0 or 1: every eligible hit */
	atomic_t calls;			/* eligible hits, for interval */
	atomic_t left;			/* --times: fires left; -1: no limit */
	atomic_t chain_full;		/* tasks that found no slot */
	atomic_t gen;			/* moved on when a step is disarmed */
	struct rnd_state __percpu *rnd;	/* probability's dice */
	struct rp_chain_slot slots[];	/* RP_CHAIN_SLOTS with a chain */
};

/* What a permitted place returns, so what an override may make it return */
enum rp_ovr_type {
	RP_OVR_ANY,		/* a system call: any long */
	RP_OVR_ERRNO,		/* -MAX_ERRNO..-1 */
	RP_OVR_NULL,		/* 0: an allocator's NULL */
	RP_OVR_TRUE,		/* 1: "fail" */
};

/* kmod/inject.c */
bool rp_ovr_value_ok(u8 type, s64 value);
int rp_ovr_permitted(const struct rp_probe_spec *spec, u8 *type,
		     s8 *gfp_arg, struct netlink_ext_ack *extack);
int rp_ovr_check(const struct rp_probe_spec *spec, u8 *type, s8 *gfp_arg,
		 struct netlink_ext_ack *extack);
int rp_inject_setup(struct rawprobe_probe **v, unsigned int n,
		    struct netlink_ext_ack *extack, int *failed);
void rp_inject_put(struct rp_inject *inj);
void rp_inject_log(struct rawprobe_probe **v, unsigned int n);
void rp_chain_step_disarmed(struct rawprobe_probe *p);

/* probes/override.c: the hit path */
void rp_override(struct pt_regs *regs, unsigned long rc);
bool rp_ovr_take(struct rawprobe_probe *p, struct pt_regs *regs);
void rp_ovr_apply(struct rawprobe_probe *p, struct pt_regs *regs);
int rp_chain_enter(struct rawprobe_probe *p);
void rp_chain_leave(struct rawprobe_probe *p);

#endif /* _RAWPROBE_INJECT_H */
