// SPDX-License-Identifier: GPL-2.0
/*
 * Entry probes: plain kprobes (symbol[+offset], mod:symbol or address)
 * and jprobe-style probes (function entry, typed arguments, one string).
 * Both are a kprobe whose pre-handler writes one record per hit. With an
 * override, only the hits that fire are recorded (the others count as
 * filtered), and the function returns at once.
 */
#include <linux/kprobes.h>
#include "agg.h"
#include "emit.h"
#include "inject.h"
#include "pair.h"

static __always_inline void rp_kprobe_hit(struct rawprobe_probe *p,
					  struct kprobe *kp,
					  struct pt_regs *regs)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	if (unlikely(p->agg)) {
		if (!rp_agg_count_fast(p))
			rp_agg_hit_entry(p, regs);
		return;
	}
	rec = rp_emit_begin(p, &slot, (unsigned long)kp->addr);
	if (unlikely(!rec))
		return;
	if (p->spec.nargs)
		rp_emit_entry_args(p, regs, rec);
	if (unlikely(p->spec.flags & RAWPROBE_F_STACK))
		rp_stack_emit(regs, rec);
	rp_emit_end(p, &slot);
}

/* Non-zero: the override moved the ip, kprobes must not single-step. */
static noinline int rp_kprobe_override(struct rawprobe_probe *p,
				       struct kprobe *kp, struct pt_regs *regs)
{
	if (!rp_ovr_take(p, regs)) {
		this_cpu_inc(p->stats->filtered);
		return 0;
	}
	rp_kprobe_hit(p, kp, regs);
	rp_ovr_apply(p, regs);
	return 1;
}
NOKPROBE_SYMBOL(rp_kprobe_override);

static int rp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);

	if (rp_emit_filtered(p, regs))
		return 0;
	if (unlikely(p->inj))
		return rp_kprobe_override(p, kp, regs);
	rp_kprobe_hit(p, kp, regs);
	return 0;
}
NOKPROBE_SYMBOL(rp_kprobe_pre);

/* A plain record (rp_emit_plain()): the filters, the header, no other test. */
static int rp_kprobe_rec_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	struct rawprobe_slot slot;

	if (!rp_emit_filtered(p, regs) &&
	    rp_emit_begin(p, &slot, (unsigned long)kp->addr))
		rp_emit_end(p, &slot);
	return 0;
}
NOKPROBE_SYMBOL(rp_kprobe_rec_pre);

/*
 * A count with no key and no override, the commonest question ("how
 * often?"): the filters and the table's hit counter, no other test.
 */
static int rp_kprobe_count_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);

	if (!rp_emit_filtered(p, regs))
		rp_agg_count_hit(p->agg);
	return 0;
}
NOKPROBE_SYMBOL(rp_kprobe_count_pre);

/* A pair's start or end: by its key, the task's or an argument. */
static void rp_pair_prepare(struct rawprobe_probe *p)
{
	bool task = rp_pair_task_only(p);

	if (p->spec.pair.role == RAWPROBE_PAIR_START)
		p->kp.pre_handler = task ? rp_pair_start_task_pre :
					   rp_pair_start_pre;
	else if (!(p->spec.flags & RAWPROBE_F_AGG))	/* a record a pair */
		p->kp.pre_handler = rp_pair_end_rec_pre;
	else
		p->kp.pre_handler = task ? rp_pair_end_task_pre :
					   rp_pair_end_pre;
}

void rp_kprobe_prepare(struct rawprobe_probe *p)
{
	memset(&p->kp, 0, sizeof(p->kp));
	if (p->target[0]) {
		p->kp.symbol_name = p->target;
		p->kp.offset = p->spec.offset;
	} else {
		p->kp.addr = (kprobe_opcode_t *)(unsigned long)p->spec.addr;
	}
	if (p->spec.pair.role)
		rp_pair_prepare(p);
	else if (rp_emit_plain(p))
		p->kp.pre_handler = rp_kprobe_rec_pre;
	else if (rp_agg_count_only_ok(p))
		p->kp.pre_handler = rp_kprobe_count_pre;
	else if (rp_agg_comm_key_ok(p))
		p->kp.pre_handler = rp_agg_kprobe_comm_pre;
	else if (rp_agg_task_keys_ok(p))
		p->kp.pre_handler = rp_agg_kprobe_task_pre;
	else
		p->kp.pre_handler = rp_kprobe_pre;
}

static int rp_kprobe_kind_prepare(struct rawprobe_probe *p,
				  struct netlink_ext_ack *extack)
{
	int err = rp_probe_prepare(p, extack);

	if (!err)
		rp_kprobe_prepare(p);
	return err;
}

/* A jprobe is a kprobe at a function's entry that records its arguments. */
static const struct rp_kind_ops rp_kprobe_ops = {
	.prepare	= rp_kprobe_kind_prepare,
};

void rp_kprobe_kind_init(void)
{
	rp_kind_register(RAWPROBE_KIND_KPROBE, &rp_kprobe_ops);
	rp_kind_register(RAWPROBE_KIND_JPROBE, &rp_kprobe_ops);
}
