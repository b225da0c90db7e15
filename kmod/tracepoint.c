// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on kernel tracepoints (RAWPROBE_KIND_TRACEPOINT): registered
 * with tracepoint_probe_register(), their handlers the entry probes'.
 *
 * Why a pt_regs: a tracepoint calls its probes with its event's
 * arguments (TP_PROTO), as a function is called. rp_tp_probe() takes
 * them as words and lays them out where a function's entry has its
 * arguments (di, si, dx, cx, r8, r9), so every entry handler (records,
 * counts, filters, arguments by position) runs unchanged on them. Only
 * what the handlers read is written: zeroing all of it (168 bytes, as
 * INIT_STACK_ALL_ZERO would) cost a third of an empty kprobe.
 * Arguments past an event's own count are whatever the caller left in
 * those registers (or, the sixth, on its stack): the CLI asks for no
 * more than the event has.
 *
 * A tracepoint calls its probes with preemption off (on 6.1 and 6.12,
 * RT too); rp_tp_probe() disables it again, not to depend on that.
 * Probes may nest (a tracepoint in an interrupt while a handler runs): a
 * nested hit on the CPU is counted as missed, as kprobes count theirs.
 *
 * Disarming clears a flag the probe tests (it cannot fail, as a probe's
 * disarm must not); removal unregisters, which may fail for want of
 * memory (the tracepoint's new array of probes): the probe then stays,
 * disarmed, and the caller tries again, as it does for kprobes.
 *
 * The event names the tracepoint (trace_get_event_file()), so the same
 * name in two subsystems is no ambiguity. Only vmlinux's tracepoints
 * for now: they live as long as the kernel.
 * Everything but the probe runs under rp_registry_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include "registry.h"

static DEFINE_PER_CPU(int, rp_tp_nest);

static void notrace rp_tp_probe(void *data, u64 a0, u64 a1, u64 a2, u64 a3,
				u64 a4, u64 a5)
{
	struct rawprobe_probe *p = data;
	struct pt_regs regs __uninitialized;	/* (INIT_STACK_ALL_ZERO) */

	if (!READ_ONCE(p->tp_armed))
		return;
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
NOKPROBE_SYMBOL(rp_tp_probe);

static void rp_tp_is_vmlinux(struct tracepoint *tp, void *priv)
{
	struct tracepoint **want = priv;

	if (tp == *want)
		*want = NULL;	/* found among vmlinux's */
}

/*
 * The event's tracepoint, as ftrace has it: the event of that subsystem
 * and name (two subsystems may name an event alike), or an error.
 */
static struct tracepoint *rp_tp_of_event(const char *sys, const char *name)
{
	struct trace_event_file *file = trace_get_event_file(NULL, sys, name);
	struct tracepoint *tp = ERR_PTR(-EOPNOTSUPP);

	if (IS_ERR(file))
		return ERR_PTR(-ENOENT);
	if (file->event_call->flags & TRACE_EVENT_FL_TRACEPOINT)
		tp = file->event_call->tp;
	trace_put_event_file(file);
	return tp;
}

/**
 * rp_tp_find() - a vmlinux tracepoint by its event
 * @event: "SUBSYSTEM:EVENT", as tracefs names it
 *
 * Return: the tracepoint; ERR_PTR(-ENOENT): no such event;
 * -EOPNOTSUPP: an ftrace event with no tracepoint (syscalls:*);
 * -EXDEV: a module's tracepoint, which could go with its module.
 */
struct tracepoint *rp_tp_find(const char *event)
{
	const char *colon = strchr(event, ':');
	char sys[MODULE_NAME_LEN];
	struct tracepoint *tp, *left;

	if (!colon || colon - event >= sizeof(sys))
		return ERR_PTR(-ENOENT);
	memcpy(sys, event, colon - event);
	sys[colon - event] = '\0';
	tp = rp_tp_of_event(sys, colon + 1);
	if (IS_ERR(tp))
		return tp;
	left = tp;
	for_each_kernel_tracepoint(rp_tp_is_vmlinux, &left);
	return left ? ERR_PTR(-EXDEV) : tp;
}

/**
 * rp_tp_register() - attach a prepared tracepoint probe
 * @p: a probe whose kind found its tracepoint (p->tp)
 *
 * Return: 0, or tracepoint_probe_register()'s error.
 */
int rp_tp_register(struct rawprobe_probe *p)
{
	int err;

	p->tp_armed = !(p->spec.flags & RAWPROBE_F_DISABLED);
	err = tracepoint_probe_register(p->tp, rp_tp_probe, p);
	if (!err)
		p->registered = true;
	return err;
}

/**
 * rp_tp_set_armed() - let the probe's handler run at its hits, or not
 * @p: a registered tracepoint probe
 * @on: arm or disarm
 *
 * Return: 0: a flag, which cannot fail.
 */
int rp_tp_set_armed(struct rawprobe_probe *p, bool on)
{
	WRITE_ONCE(p->tp_armed, on);
	return 0;
}

/**
 * rp_tp_unregister() - detach the tracepoint probes of v, one grace
 *	period for all of them
 * @v: probes; those of other kinds, or not registered, are left alone
 * @n: how many
 *
 * A probe the kernel could not detach stays registered, disarmed.
 */
void rp_tp_unregister(struct rawprobe_probe **v, unsigned int n)
{
	unsigned int i;
	bool any = false;
	int err;

	for (i = 0; i < n; i++) {
		if (!v[i]->tp || !v[i]->registered)
			continue;
		WRITE_ONCE(v[i]->tp_armed, false);
		err = tracepoint_probe_unregister(v[i]->tp, rp_tp_probe, v[i]);
		if (err) {
			pr_warn_ratelimited("probe %u on %s: the kernel could not detach it (%d); it stays, disarmed\n",
					    v[i]->id, v[i]->target, err);
			continue;
		}
		v[i]->registered = false;
		any = true;
	}
	/* no hit still in a handler once the probes may be freed */
	if (any)
		tracepoint_synchronize_unregister();
}
