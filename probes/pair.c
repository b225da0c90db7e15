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
 * The stack of a start, interned in its pair's stack table: the start's
 * function first, as the innermost frame (a tracepoint's walk begins at
 * the function that hit it), so that the ends' folded stacks show where
 * each began.
 */
static noinline u64 rp_pair_stack_id(struct rawprobe_probe *p,
				     struct pt_regs *regs)
{
	u64 frames[RAWPROBE_STACK_MAX];
	unsigned int n = 0;

	if (regs->orig_ax != RP_REGS_TRACEPOINT)
		frames[n++] = (unsigned long)p->kp.addr;
	n += rp_stack_save_max(regs, frames + n, RAWPROBE_STACK_MAX - n);
	return rp_agg_stack_intern(&p->pair->stacks, frames, n);
}
NOKPROBE_SYMBOL(rp_pair_stack_id);

/* An argument as its type reads it: s32 and u32 cut to 32 bits. */
static u64 rp_pair_arg_word(const struct rawprobe_probe *p, const u64 *args,
			    unsigned int i)
{
	switch (p->spec.argtypes[i]) {
	case RAWPROBE_ARG_S32:
		return (s64)(s32)args[i];
	case RAWPROBE_ARG_U32:
		return (u32)args[i];
	default:
		return args[i];
	}
}

/*
 * A start whose ends need it carries its task: an end runs in whichever
 * task ends it (an interrupt, a waker), and a row of tcplife's names the
 * process that opened the session. Where the ends count by the start's
 * stack or arguments, those too. Not inlined: its carry array would give
 * every start handler a stack canary to check.
 */
static noinline void rp_pair_start_carry(struct rawprobe_probe *p,
					 struct pt_regs *regs, const u64 *args,
					 u64 key, u64 now)
{
	struct rawprobe_pair *pair = p->pair;
	u32 words = pair->t.stride - RP_PAIR_SLOT_WORDS, i;
	struct rp_pair_carry c;

	c.w[0] = (u64)current->tgid << 32 | (u32)current->pid;
	memcpy(&c.w[1], current->comm, RAWPROBE_COMM_LEN);
	if (words > RP_PAIR_CARRY_TASK) {
		c.w[RP_PAIR_CARRY_STACK] = pair->stacks.slots ?
					   rp_pair_stack_id(p, regs) : 0;
		for (i = 0; RP_PAIR_CARRY_ARG0 + i < words; i++)
			c.w[RP_PAIR_CARRY_ARG0 + i] =
				args && i < p->spec.pair.carry_args ?
				rp_pair_arg_word(p, args, i) : 0;
	}
	rp_pair_count_start(pair, rp_pair_put_carry(&pair->t, key, now, &c));
}
NOKPROBE_SYMBOL(rp_pair_start_carry);

/* A start of key: stored (or not), carrying what its ends need. */
static __always_inline void rp_pair_start(struct rawprobe_probe *p,
					  struct pt_regs *regs,
					  const u64 *args, u64 key)
{
	struct rawprobe_pair *pair = p->pair;

	if (unlikely(pair->t.stride != RP_PAIR_SLOT_WORDS))
		rp_pair_start_carry(p, regs, args, key, rp_pair_clock(pair));
	else
		rp_pair_hit_start(pair, key);
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
		rp_pair_start(p, regs, NULL, rp_pair_task_key(p));
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
		rp_pair_start(p, regs, args, rp_pair_key(p, regs, args));
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
