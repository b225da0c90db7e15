/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tracepoint.c and tracepoint_sys.c share: the hit's handler, with
 * the event's arguments laid out as a function's entry has them, and
 * the lookup of an event's tracepoint.
 */
#ifndef _RAWPROBE_TRACEPOINT_H
#define _RAWPROBE_TRACEPOINT_H

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include "registry.h"

DECLARE_PER_CPU(int, rp_tp_nest);

/*
 * The probe's entry handler on the event's arguments. A nested hit on
 * the CPU (a tracepoint in an interrupt while a handler runs) is
 * counted as missed, as kprobes count theirs.
 */
static __always_inline void rp_tp_run(struct rawprobe_probe *p, u64 a0,
				      u64 a1, u64 a2, u64 a3, u64 a4, u64 a5)
{
	struct pt_regs regs __uninitialized;	/* (INIT_STACK_ALL_ZERO) */

	preempt_disable_notrace();
	if (this_cpu_inc_return(rp_tp_nest) != 1) {
		p->kp.nmissed++;
		goto out;
	}
	/*
	 * What the entry handlers read: the argument registers, ip (the
	 * record's address), sp, cs and flags (kernel mode), and orig_ax,
	 * which says a stack is walked from the handler (probes/stack.c).
	 */
	regs.di = a0;
	regs.si = a1;
	regs.dx = a2;
	regs.cx = a3;
	regs.r8 = a4;
	regs.r9 = a5;
	regs.ip = (unsigned long)p->kp.addr;
	regs.sp = current_stack_pointer;
	regs.cs = __KERNEL_CS;
	regs.flags = 0;
	regs.orig_ax = RP_REGS_TRACEPOINT;	/* a stack is walked from here */
	p->kp.pre_handler(&p->kp, &regs);
out:
	this_cpu_dec(rp_tp_nest);
	preempt_enable_notrace();
}

struct tracepoint *rp_tp_of(const char *sys, const char *name,
			    struct module **mod);

/* tracepoint_sys.c: the syscalls:* events */
int rp_sys_find(struct rawprobe_probe *p, const char *name);
int rp_sys_register(struct rawprobe_probe *p);
int rp_sys_unregister(struct rawprobe_probe *p);

#endif
