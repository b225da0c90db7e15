// SPDX-License-Identifier: GPL-2.0
/*
 * A pair's hit path (kmod/pair.h): a start stores the time under its key
 * in the table its pair shares; an end takes its key's start out and
 * counts the time since in its aggregation, as a kretprobe counts its
 * latency, or writes a record of the pair. Any context (an end often
 * runs in an interrupt), preemption off: no lock, no allocation; what a
 * hit finds is counted by cause.
 */
#include <linux/kprobes.h>
#include <linux/sched.h>
#include "agg.h"
#include "emit.h"
#include "pair.h"

/*
 * The key: the task's, or the argument the probe computes into args
 * (fetched here, for the key and for the end's aggregation keys).
 */
static __always_inline u64 rp_pair_key(struct rawprobe_probe *p,
				       struct pt_regs *regs, u64 *args)
{
	const struct rp_pair_spec *ps = &p->spec.pair;
	u64 raw[RAWPROBE_MAX_ARGS];
	u8 faults = 0;

	if (p->spec.nfetch) {
		rp_args_fetch(p, regs, raw, p->nraw);
		rp_fetch_args(p, raw, 0, args, &faults);
	} else if (p->spec.nargs) {
		rp_args_fetch(p, regs, args, p->spec.nargs);
	}
	switch (ps->key) {
	case RAWPROBE_AGG_KEY_PID:
		return current->pid;
	case RAWPROBE_AGG_KEY_TGID:
		return current->tgid;
	default:
		return args[ps->key_arg];
	}
}

/* The task's key, for a probe that computes no argument */
static __always_inline u64 rp_pair_task_key(const struct rawprobe_probe *p)
{
	return p->spec.pair.key == RAWPROBE_AGG_KEY_TGID ? current->tgid :
							   current->pid;
}

/*
 * A pair's probe keyed by the task, with no argument to compute (the
 * commonest: a pid from a system call to a wakeup): no argument arrays,
 * which the kernel would zero at every hit (INIT_STACK_ALL_ZERO).
 */
int rp_pair_start_task_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);

	if (!rp_emit_filtered(p, regs))
		rp_pair_hit_start(p->pair, rp_pair_task_key(p));
	return 0;
}
NOKPROBE_SYMBOL(rp_pair_start_task_pre);

int rp_pair_end_task_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	u64 ns;

	if (rp_emit_filtered(p, regs) ||
	    !rp_pair_hit_end(p->pair, rp_pair_task_key(p), &ns))
		return 0;
	/* the latency alone, as a kretprobe's (rp_agg_latency_add()) */
	if (!p->spec.agg.nkeys)
		rp_agg_add(rp_agg_table_now(p->agg), NULL, (s64)ns);
	else
		rp_agg_hit_latency(p, regs, NULL, ns, NULL);
	return 0;
}
NOKPROBE_SYMBOL(rp_pair_end_task_pre);

int rp_pair_start_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	u64 args[RAWPROBE_MAX_ARGS];

	if (!rp_emit_filtered(p, regs))
		rp_pair_hit_start(p->pair, rp_pair_key(p, regs, args));
	return 0;
}
NOKPROBE_SYMBOL(rp_pair_start_pre);

/* (an end that counts by its start's task takes it from the table) */
int rp_pair_end_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	bool carry = p->pair->t.stride != RP_PAIR_SLOT_WORDS;
	u64 args[RAWPROBE_MAX_ARGS], d;
	struct rp_pair_carry c;

	if (rp_emit_filtered(p, regs))
		return 0;
	if (rp_pair_hit_end_raw(p->pair, rp_pair_key(p, regs, args), &d,
				carry ? &c : NULL))
		rp_agg_hit_latency(p, regs, args, rp_pair_ns(p->pair, d),
				   carry ? c.w : NULL);
	return 0;
}
NOKPROBE_SYMBOL(rp_pair_end_pre);

/*
 * A start whose end writes records carries its task there: the end runs
 * in whichever task ends it (an interrupt, a waker), and a row of
 * tcplife's names the process that opened the session. Not inlined: its
 * carry array would give every start handler a stack canary to check.
 */
noinline enum rp_pair_put_res rp_pair_put_task(struct rawprobe_pair *pair,
					       u64 key, u64 now)
{
	struct rp_pair_carry c;

	c.w[0] = (u64)current->tgid << 32 | (u32)current->pid;
	memcpy(&c.w[1], current->comm, RAWPROBE_COMM_LEN);
	return rp_pair_put_carry(&pair->t, key, now, &c);
}
NOKPROBE_SYMBOL(rp_pair_put_task);

/*
 * The record of a completed pair: the end's own (its time, CPU and
 * arguments), the start's task in the header, the end's in end_task,
 * and the latency in the rings' clock, as a kretprobe's record has it
 * (the pair's clock is the TSC whenever the rings' can be).
 */
static void rp_pair_emit(struct rawprobe_probe *p, struct pt_regs *regs,
			 u64 d, const struct rp_pair_carry *c)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	rec = rp_emit_begin(p, &slot, (unsigned long)p->kp.addr);
	if (unlikely(!rec))
		return;
	if (p->spec.nargs)
		rp_emit_entry_args(p, regs, rec);
	rec->end_task = (u64)current->tgid << 32 | (u32)current->pid;
	rec->pid = (u32)c->w[0];
	rec->tgid = c->w[0] >> 32;
	memcpy(rec->comm, &c->w[1], RAWPROBE_COMM_LEN);
	rec->latency_ns = (rec->flags & RAWPROBE_REC_TSC) ? d :
			  rp_pair_ns(p->pair, d);
	rec->flags |= RAWPROBE_REC_RETVAL;
	rp_emit_end(p, &slot);
}

/* Does the filter's terms on the latency, if any, take it? */
static __always_inline bool rp_pair_latency_ok(struct rawprobe_probe *p,
					       u64 d)
{
	return !(p->spec.filter.mask & RP_FILTER_VALUE) ||
	       rp_value_filter_latency(p, rp_pair_ns(p->pair, d));
}

/*
 * An end that writes a record per completed pair. An end with no start,
 * or whose latency its filter refuses, writes none: it counts as
 * filtered, so hits = records + lost + filtered still holds. (The
 * filter's terms on the arguments were tested at entry: they choose the
 * ends, and an end they refuse leaves its start for another; one whose
 * latency is refused has taken its start out.)
 */
int rp_pair_end_rec_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	u64 args[RAWPROBE_MAX_ARGS], d;
	struct rp_pair_carry c;

	if (rp_emit_filtered(p, regs))
		return 0;
	if (rp_pair_hit_end_raw(p->pair, rp_pair_key(p, regs, args), &d, &c) &&
	    rp_pair_latency_ok(p, d))
		rp_pair_emit(p, regs, d, &c);
	else
		this_cpu_inc(p->stats->filtered);
	return 0;
}
NOKPROBE_SYMBOL(rp_pair_end_rec_pre);
