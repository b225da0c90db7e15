// SPDX-License-Identifier: GPL-2.0
/*
 * Entry probes: plain kprobes (symbol[+offset], mod:symbol or address)
 * and jprobe-style probes (function entry, typed arguments, one string).
 * Both are a kprobe whose pre-handler writes one record per hit.
 */
#include <linux/kprobes.h>
#include "core.h"

static int rp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rp_probe *p = container_of(kp, struct rp_probe, kp);
	struct rawprobe_record *rec;
	struct rp_slot slot;

	this_cpu_inc(p->stats->hits);
	rec = rp_record_reserve(&slot, p->id, p->spec.kind);
	if (unlikely(!rec)) {
		this_cpu_inc(p->stats->lost_ring);
		return 0;
	}
	rec->addr = (unsigned long)kp->addr;
	rec->retval = 0;
	rec->latency_ns = 0;
	if (p->spec.nargs) {
		rp_args_fetch(p, regs, rec->args);
		rec->nargs = p->spec.nargs;
		rec->flags |= RAWPROBE_REC_ARGS;
		rp_args_decode(p, rec);
	}
	rp_record_commit(&slot);
	this_cpu_inc(p->stats->records);
	return 0;
}

void rp_kprobe_prepare(struct rp_probe *p)
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
