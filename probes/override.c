// SPDX-License-Identifier: GPL-2.0
/*
 * Return override on the hit path: whether this hit fires (the call
 * chain, the interval, the probability, the times left, an allocation
 * that must not fail), and making the function return. Also the call
 * chain's steps: kretprobes that track, per task, how deep in the chain
 * it is. No lock, no allocation, no sleep (kmod/inject.h).
 */
#include <linux/gfp.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <linux/sched.h>
#include "inject.h"

/*
 * At a function's ftrace site the kprobe handler runs before the
 * function has touched the stack: the caller's return address is on top.
 * Resuming at a bare "ret" returns to the caller with rc in the return
 * register, as the kernel's own override (just_return_func, not
 * exported, and absent when FUNCTION_ERROR_INJECTION is off) does.
 */
asmlinkage void rp_just_return(void);
asm(
	".text\n"
	".type rp_just_return, @function\n"
	"rp_just_return:\n"
	ANNOTATE_NOENDBR
	ASM_RET
	".size rp_just_return, .-rp_just_return\n"
);

void rp_override(struct pt_regs *regs, unsigned long rc)
{
	regs_set_return_value(regs, rc);
	instruction_pointer_set(regs, (unsigned long)&rp_just_return);
}
NOKPROBE_SYMBOL(rp_override);

static void rp_chain_release(struct rp_chain_slot *s)
{
	s->born = 0;
	/* After born and depth: a claimer must not see them change later. */
	smp_store_release(&s->task, 0);
}
NOKPROBE_SYMBOL(rp_chain_release);

/* The slot is the current task's, at depth 0 in the chain's generation. */
static void rp_chain_reset(struct rp_inject *inj, struct rp_chain_slot *s)
{
	s->born = current->start_time;
	s->gen = atomic_read(&inj->gen);
	s->depth = 0;
}
NOKPROBE_SYMBOL(rp_chain_reset);

/*
 * The current task's slot, if it holds one; with claim, a free one
 * otherwise. Its own is looked for first over the whole window: a slot
 * freed earlier in the window must not give a task a second one.
 */
static struct rp_chain_slot *rp_chain_slot(struct rp_inject *inj, bool claim)
{
	unsigned long me = (unsigned long)current;
	u32 h = hash_ptr(current, ilog2(RP_CHAIN_SLOTS));
	struct rp_chain_slot *s;
	unsigned int i;

	for (i = 0; i < RP_CHAIN_PROBE; i++) {
		s = &inj->slots[(h + i) & (RP_CHAIN_SLOTS - 1)];
		if (READ_ONCE(s->task) != me)
			continue;
		/*
		 * A task that died inside the chain left it, and a depth of
		 * a generation gone counts no more: start over.
		 */
		if (s->born != current->start_time ||
		    s->gen != atomic_read(&inj->gen))
			rp_chain_reset(inj, s);
		return s;
	}
	for (i = 0; claim && i < RP_CHAIN_PROBE; i++) {
		s = &inj->slots[(h + i) & (RP_CHAIN_SLOTS - 1)];
		if (!READ_ONCE(s->task) && !cmpxchg(&s->task, 0, me)) {
			rp_chain_reset(inj, s);
			return s;
		}
	}
	if (claim)
		atomic_inc(&inj->chain_full);
	return NULL;
}
NOKPROBE_SYMBOL(rp_chain_slot);

/*
 * A step's entry: it advances the task's depth only when every step
 * before it is entered and it is not (recursion stays at its depth).
 * Returns 0 when it advanced, so that its return takes the step back;
 * non-zero makes kprobes skip the return handler.
 */
int rp_chain_enter(struct rawprobe_probe *p)
{
	u8 step = p->spec.chain_step;
	struct rp_chain_slot *s;

	if (!in_task())
		return 1;
	s = rp_chain_slot(p->inj, step == 1);
	if (!s || s->depth != step - 1)
		return 1;
	s->depth = step;
	return 0;
}
NOKPROBE_SYMBOL(rp_chain_enter);

void rp_chain_leave(struct rawprobe_probe *p)
{
	struct rp_chain_slot *s = rp_chain_slot(p->inj, false);

	if (!s)
		return;
	/*
	 * Only a depth this step reached is taken back: one reset since (a
	 * step was disarmed) must not be raised again by a return, with no
	 * return left to lower it.
	 */
	if (s->depth >= p->spec.chain_step)
		s->depth = p->spec.chain_step - 1;
	if (!s->depth)
		rp_chain_release(s);
}
NOKPROBE_SYMBOL(rp_chain_leave);

static bool rp_chain_inside(struct rp_inject *inj)
{
	struct rp_chain_slot *s;

	if (!in_task())
		return false;
	s = rp_chain_slot(inj, false);
	return s && s->depth == inj->chain_len;
}
NOKPROBE_SYMBOL(rp_chain_inside);

/* The dice: a per-CPU generator, safe in any context; 0..99. */
static u32 rp_ovr_roll(struct rp_inject *inj)
{
	u32 r = prandom_u32_state(this_cpu_ptr(inj->rnd));

	return ((u64)r * 100) >> 32;
}
NOKPROBE_SYMBOL(rp_ovr_roll);

/*
 * Does this hit, which passed the probe's filters, fire? The checks are
 * the kernel's fault attributes' (should_fail_ex()), in their order, after
 * the two that keep the kernel safe: the probe is on its ftrace site (the
 * only place a return can be faked), and an allocation that must not fail
 * (__GFP_NOFAIL) does not.
 */
bool rp_ovr_take(struct rawprobe_probe *p, struct pt_regs *regs)
{
	struct rp_inject *inj = p->inj;

	if (unlikely(!kprobe_ftrace(&p->kp)))
		return false;
	if (p->ovr_gfp_arg >= 0 &&
	    (regs_get_kernel_argument(regs, p->ovr_gfp_arg) & __GFP_NOFAIL))
		return false;
	if (inj->chain_len && !rp_chain_inside(inj))
		return false;
	if (inj->interval > 1 &&
	    atomic_inc_return(&inj->calls) % inj->interval)
		return false;
	if (inj->probability < 100 && rp_ovr_roll(inj) >= inj->probability)
		return false;
	return atomic_read(&inj->left) < 0 ||
	       atomic_dec_if_positive(&inj->left) >= 0;
}
NOKPROBE_SYMBOL(rp_ovr_take);

void rp_ovr_apply(struct rawprobe_probe *p, struct pt_regs *regs)
{
	this_cpu_inc(p->stats->overridden);
	rp_override(regs, (unsigned long)p->spec.ovr.value);
}
NOKPROBE_SYMBOL(rp_ovr_apply);
