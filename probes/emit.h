/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot path every probe kind shares: count the hit, reserve a record,
 * fill what is common, commit and count it. Inline: it runs on every hit.
 */
#ifndef _RAWPROBE_EMIT_H
#define _RAWPROBE_EMIT_H

#include <linux/cgroup.h>
#include <linux/sched.h>
#include "core.h"
#include "record.h"

/*
 * The task is in the cgroup or below it: its cgroup's ancestor at the
 * filter's depth is that cgroup. A handler runs with preemption off, an
 * RCU read-side section, which keeps the css_set and cgroups alive.
 */
static __always_inline bool rp_in_cgroup(const struct rp_filter *f)
{
	struct cgroup *cgrp = task_dfl_cgroup(current);

	return cgrp->level >= f->cgroup_level &&
	       cgroup_id(cgrp->ancestors[f->cgroup_level]) == f->cgroup_id;
}

static __always_inline bool rp_filter_match(const struct rp_filter *f)
{
	struct task_struct *task = current;

	if ((f->mask & RP_FILTER_PID) && task->pid != f->pid)
		return false;
	if ((f->mask & RP_FILTER_TGID) && task->tgid != f->tgid)
		return false;
	if ((f->mask & RP_FILTER_CPU) && smp_processor_id() != f->cpu)
		return false;
	if ((f->mask & RP_FILTER_CGROUP) && !rp_in_cgroup(f))
		return false;
	/* Both NUL-padded: one fixed-size compare, no string walk. */
	if ((f->mask & RP_FILTER_COMM) &&
	    memcmp(task->comm, f->comm, sizeof(f->comm)))
		return false;
	return true;
}

/*
 * Every time the probe fires is a hit, as ftrace's kprobe_profile counts
 * them, filtered or not: for every probe hits == records + lost_ring +
 * filtered (a kretprobe's at its entry; its records come at return).
 */
static __always_inline void rp_emit_hit(struct rawprobe_probe *p)
{
	this_cpu_inc(p->stats->hits);
}

/*
 * The hit, counted; then the filters. Value filters read arguments:
 * entry probes pass their registers; kretprobes pass NULL at entry and
 * test values at return (rp_emit_value_filtered). The first test is the
 * one a command's probes need, leaving its own process out; a probe with
 * no such filter has RP_NO_TGID there, which no task has. Its own work
 * only: an interrupt or softirq that runs while it is on the CPU (a
 * retransmit timer, another's packet) is kept. in_task() is read only
 * when the tgid matches, off the path of every other hit.
 */
static __always_inline bool rp_emit_filtered(struct rawprobe_probe *p,
					     struct pt_regs *regs)
{
	const struct rp_filter *f = &p->spec.filter;

	rp_emit_hit(p);
	if (unlikely(current->tgid == f->excl_tgid) && in_task())
		goto filtered;
	if (likely(!f->other_mask))
		return false;
	if (rp_filter_match(f) &&
	    (!(f->mask & RP_FILTER_VALUE) || !regs ||
	     rp_value_filter_entry(p, regs)))
		return false;
filtered:
	this_cpu_inc(p->stats->filtered);
	return true;
}

/* A kretprobe's value filter, at return: entry registers and retval. */
static __always_inline bool rp_emit_value_filtered(struct rawprobe_probe *p,
						   const u64 *raw, u64 retval)
{
	if (likely(!(p->spec.filter.mask & RP_FILTER_VALUE)) ||
	    rp_value_filter_pass(p, raw, retval))
		return false;
	this_cpu_inc(p->stats->filtered);
	return true;
}

/*
 * A probe whose records hold the header and nothing else (a kretprobe's
 * return value and latency besides), what `stream -e kprobe:X` and
 * `probe add kprobe X` ask for: its kind gives it handlers that test
 * nothing it does not do.
 */
static inline bool rp_emit_plain(const struct rawprobe_probe *p)
{
	const struct rp_probe_spec *s = &p->spec;

	return !p->agg && !s->nargs && !s->nterms && !s->ovr.set &&
	       !s->chain_step && !(s->flags & RAWPROBE_F_STACK) &&
	       !(s->filter.mask & RP_FILTER_VALUE);
}

/* Returns the record to fill, or NULL when the ring is full (counted). */
static __always_inline struct rawprobe_record *
rp_emit_begin(struct rawprobe_probe *p, struct rawprobe_slot *slot,
	      unsigned long addr)
{
	struct rawprobe_record *rec;
	u64 ts;

	if (RP_BENCH_CUT(1))
		return NULL;
	/*
	 * The time first, the hit's, while little else is live: the
	 * monotonic clock is a call, and what lives across it costs saved
	 * registers.
	 */
	ts = rp_clock();
	/* Resized rings replace these a grace period before they go. */
	rec = rp_record_reserve(rcu_dereference_sched(p->rings), slot,
				p->rec_hdr, ts);
	if (unlikely(!rec)) {
		this_cpu_inc(p->stats->lost_ring);
		return NULL;
	}
	rec->addr = addr;
	return rec;
}

/* Entry arguments, already fetched into args, then typed. */
static __always_inline void rp_emit_args(struct rawprobe_probe *p,
					 struct rawprobe_record *rec)
{
	rec->nargs = p->spec.nargs;
	rec->flags |= RAWPROBE_REC_ARGS;
	rp_args_decode(p, rec);
}

/* An entry probe's arguments (and strings), fetched into its record. */
static __always_inline void rp_emit_entry_args(struct rawprobe_probe *p,
					       struct pt_regs *regs,
					       struct rawprobe_record *rec)
{
	if (unlikely(p->spec.nfetch))
		rp_fetch_entry(p, regs, rec);
	else
		rp_args_fetch(p, regs, rec->args, p->spec.nargs);
	rp_emit_args(p, rec);
}

static __always_inline void rp_emit_end(struct rawprobe_probe *p,
					struct rawprobe_slot *slot)
{
	rp_record_commit(slot);
	this_cpu_inc(p->stats->records);
}

/*
 * A reserved record its writer decided against: published as a hole the
 * reader skips (it keeps its sequence number, so no gap shows), and the
 * hit counts as filtered, so hits == records + lost_ring + filtered
 * still holds. Left uncommitted, the slot would stop the reader at it for
 * good.
 */
static __always_inline void rp_emit_discard(struct rawprobe_probe *p,
					    struct rawprobe_slot *slot)
{
	slot->rec->flags = RAWPROBE_REC_DISCARD;
	rp_record_commit(slot);
	this_cpu_inc(p->stats->filtered);
}

#endif /* _RAWPROBE_EMIT_H */
