// SPDX-License-Identifier: GPL-2.0
/*
 * A pair's hit path (kmod/pair.h): a start stores the time under its key
 * in the table its pair shares; an end takes its key's start out and
 * counts the time since in its aggregation, as a kretprobe counts its
 * latency. Any context (an end often runs in an interrupt), preemption
 * off: no lock, no allocation; what a hit finds is counted by cause.
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
		rp_agg_hit_latency(p, regs, NULL, ns);
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

int rp_pair_end_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	u64 args[RAWPROBE_MAX_ARGS], ns;

	if (rp_emit_filtered(p, regs))
		return 0;
	if (rp_pair_hit_end(p->pair, rp_pair_key(p, regs, args), &ns))
		rp_agg_hit_latency(p, regs, args, ns);
	return 0;
}
NOKPROBE_SYMBOL(rp_pair_end_pre);
