// SPDX-License-Identifier: GPL-2.0
/*
 * Entry probes: plain kprobes (symbol[+offset], mod:symbol or address)
 * and jprobe-style probes (function entry, typed arguments, one string).
 * Both are a kprobe whose pre-handler writes one record per hit.
 */
#include <linux/kprobes.h>
#include "agg.h"
#include "emit.h"

static int rp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	if (rp_emit_filtered(p, regs))
		return 0;
	if (unlikely(p->agg)) {
		if (!rp_agg_count_fast(p))
			rp_agg_hit_entry(p, regs);
		return 0;
	}
	rec = rp_emit_begin(p, &slot, p->spec.kind, (unsigned long)kp->addr);
	if (unlikely(!rec))
		return 0;
	if (p->spec.nargs) {
		if (unlikely(p->spec.nfetch))
			rp_fetch_entry(p, regs, rec);
		else
			rp_args_fetch(p, regs, rec->args, p->spec.nargs);
		rp_emit_args(p, rec);
	}
	if (unlikely(p->spec.flags & RAWPROBE_F_STACK))
		rp_stack_emit(regs, rec);
	rp_emit_end(p, &slot);
	return 0;
}
NOKPROBE_SYMBOL(rp_kprobe_pre);

void rp_kprobe_prepare(struct rawprobe_probe *p)
{
	memset(&p->kp, 0, sizeof(p->kp));
	if (p->target[0]) {
		p->kp.symbol_name = p->target;
		p->kp.offset = p->spec.offset;
	} else {
		p->kp.addr = (kprobe_opcode_t *)(unsigned long)p->spec.addr;
	}
	p->kp.pre_handler = rp_kprobe_pre;
}
