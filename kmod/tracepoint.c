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
 * name in two subsystems is no ambiguity. A module's tracepoint goes
 * with its module: the probe holds the module from the lookup until it
 * is registered, so that the tracepoint cannot go in between, and
 * modules.c detaches it when the module goes (before the kernel checks
 * that nothing is left on its tracepoints) and attaches it again when
 * the module comes back.
 *
 * The syscalls:* events, which have no tracepoint of their own, are
 * tracepoint_sys.c's.
 * Everything but the probe runs under rp_registry_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include "tracepoint.h"

DEFINE_PER_CPU(int, rp_tp_nest);

static void notrace rp_tp_probe(void *data, u64 a0, u64 a1, u64 a2, u64 a3,
				u64 a4, u64 a5)
{
	struct rawprobe_probe *p = data;

	if (READ_ONCE(p->tp_armed))
		rp_tp_run(p, a0, a1, a2, a3, a4, a5);
}
NOKPROBE_SYMBOL(rp_tp_probe);

static void rp_tp_is_vmlinux(struct tracepoint *tp, void *priv)
{
	struct tracepoint **want = priv;

	if (tp == *want)
		*want = NULL;	/* found among vmlinux's */
}

/*
 * The tracepoint of the event SYS:NAME, or an ERR_PTR(); a module's
 * with *mod holding its module (a static event's module is its call's).
 */
struct tracepoint *rp_tp_of(const char *sys, const char *name,
			    struct module **mod)
{
	struct trace_event_file *file = trace_get_event_file(NULL, sys, name);
	struct tracepoint *tp = ERR_PTR(-EOPNOTSUPP), *left;

	if (IS_ERR(file))
		return ERR_PTR(-ENOENT);
	if (file->event_call->flags & TRACE_EVENT_FL_TRACEPOINT) {
		tp = file->event_call->tp;
		left = tp;
		for_each_kernel_tracepoint(rp_tp_is_vmlinux, &left);
		*mod = left ? file->event_call->module : NULL;
		if (*mod && !try_module_get(*mod)) {
			*mod = NULL;
			tp = ERR_PTR(-ENOENT);	/* going */
		}
	}
	trace_put_event_file(file);
	return tp;
}

/*
 * Where the tracepoint's iterator is, whose frame the caller key skips:
 * kallsyms' size of it, as sprint_symbol() writes it ("name+0x0/0x90").
 */
static void rp_tp_iter_bounds(struct rawprobe_probe *p)
{
	char sym[KSYM_SYMBOL_LEN], *size, *end;
	unsigned long n;

	p->tp_iter = (unsigned long)p->tp->iterator;
	p->tp_iter_end = p->tp_iter;
	sprint_symbol(sym, p->tp_iter);
	size = strrchr(sym, '/');
	if (!size)
		return;
	end = strchr(size, ' ');	/* " [module]" */
	if (end)
		*end = '\0';
	if (!kstrtoul(size + 1, 0, &n))
		p->tp_iter_end = p->tp_iter + n;
}

/**
 * rp_tp_find() - the vmlinux tracepoint of an event, for a probe
 * @p: the probe, whose tp (and a syscall's, tp_sys) it sets
 * @event: "SUBSYSTEM:EVENT", as tracefs names it
 *
 * A module's tracepoint holds its module until rp_tp_register() or
 * rp_tp_release().
 *
 * Return: 0; -ENOENT: no such event (or its module is going);
 * -EOPNOTSUPP: an ftrace event with no tracepoint.
 */
int rp_tp_find(struct rawprobe_probe *p, const char *event)
{
	const char *colon = strchr(event, ':');
	char sys[MODULE_NAME_LEN];
	struct tracepoint *tp;
	int err;

	if (!colon || colon - event >= sizeof(sys))
		return -ENOENT;
	memcpy(sys, event, colon - event);
	sys[colon - event] = '\0';
	if (!strcmp(sys, "syscalls")) {
		err = rp_sys_find(p, colon + 1);
	} else {
		tp = rp_tp_of(sys, colon + 1, &p->tp_mod_ref);
		err = PTR_ERR_OR_ZERO(tp);
		if (!err)
			p->tp = tp;
	}
	if (!err)
		rp_tp_iter_bounds(p);
	return err;
}

/**
 * rp_tp_release() - let a module's tracepoint go, for a probe that
 *	holds it (prepared, not registered)
 * @p: the probe
 */
void rp_tp_release(struct rawprobe_probe *p)
{
	if (p->tp_mod_ref)
		module_put(p->tp_mod_ref);
	p->tp_mod_ref = NULL;
}

/**
 * rp_tp_register() - attach a prepared tracepoint probe (and let its
 *	module go: detached when it goes, under rp_registry_lock)
 * @p: a probe whose kind found its tracepoint (p->tp)
 *
 * Return: 0, or tracepoint_probe_register()'s error.
 */
int rp_tp_register(struct rawprobe_probe *p)
{
	int err;

	if (p->tp_sys_dir) {
		err = rp_sys_register(p);
	} else {
		p->tp_armed = !(p->spec.flags & RAWPROBE_F_DISABLED);
		err = tracepoint_probe_register(p->tp, rp_tp_probe, p);
		if (!err)
			p->registered = true;
	}
	rp_tp_release(p);	/* modules.c detaches it when it goes */
	return err;
}

/**
 * rp_tp_rearm() - attach a probe whose module's tracepoint went to the
 *	tracepoint of that name in the module come back
 * @p: the probe, gone with its module
 * @mod: the module, coming (the tracepoints' module notifier)
 *
 * Found among the module's own tracepoints, not through its event:
 * ftrace's lookup takes locks that must not nest in the notifier's.
 * An event's name is its tracepoint's.
 *
 * Return: 0, -ENOENT if the module has no such tracepoint now, or
 * tracepoint_probe_register()'s error.
 */
int rp_tp_rearm(struct rawprobe_probe *p, struct module *mod)
{
	const char *name = strchr(p->spec.symbol, ':') + 1;
	struct tracepoint *tp;
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);
		if (strcmp(tp->name, name))
			continue;
		p->tp = tp;
		p->kp.addr = (kprobe_opcode_t *)tp;
		rp_tp_iter_bounds(p);
		return rp_tp_register(p);
	}
	return -ENOENT;
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
		err = v[i]->tp_sys_dir ? rp_sys_unregister(v[i]) :
		      tracepoint_probe_unregister(v[i]->tp, rp_tp_probe, v[i]);
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
