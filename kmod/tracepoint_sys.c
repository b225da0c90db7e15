// SPDX-License-Identifier: GPL-2.0
/*
 * The syscalls:sys_enter_NAME and sys_exit_NAME events: ftrace's, with
 * no tracepoint of their own. ftrace builds them on raw_syscalls'
 * sys_enter and sys_exit, one probe each that looks the syscall's
 * number up in a table; so does rawprobe. One dispatcher per raw
 * tracepoint, registered with the first probe of its direction and
 * removed with the last, walks the probes of the syscall's number (an
 * RCU list per number): a glob of every syscall (about 360 events) is
 * one call and a lookup a syscall, not 360 calls.
 *
 * A probe's arguments are the syscall's own, read from the user's
 * registers as its function is called (sys_enter_NAME), or its return
 * value (sys_exit_NAME), as ftrace records them; a 32-bit task's
 * syscalls are left out, as ftrace leaves them (their numbers are
 * another table's). The number comes from the metadata ftrace keeps in
 * the event, so an event is here exactly when ftrace has it
 * (CONFIG_FTRACE_SYSCALLS).
 *
 * The lists change under rp_registry_lock; a probe leaves its list
 * before the batch's tracepoint_synchronize_unregister() (tracepoint.c),
 * after which no dispatcher still walks past it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/rculist.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <trace/syscall.h>
#include "tracepoint.h"

struct rp_sys_dir {
	struct tracepoint *tp;		/* raw_syscalls:sys_enter or _exit */
	void *fn;			/* its dispatcher */
	unsigned int probes;		/* on the lists */
	bool registered;		/* fn is on tp */
	struct hlist_head heads[NR_syscalls];	/* by syscall number */
};

static struct rp_sys_dir rp_sys_dirs[2];	/* enter, exit */

/* A syscall the syscalls:* events leave out, as trace_syscalls.c does */
static bool rp_sys_ignored(struct pt_regs *uregs)
{
#ifdef ARCH_TRACE_IGNORE_COMPAT_SYSCALLS
	return arch_trace_is_compat_syscall(uregs);
#else
	return false;
#endif
}

/* The probes of syscall nr in d, or NULL: none, or not one of the events' */
static struct hlist_head *rp_sys_heads(struct rp_sys_dir *d, long nr,
				       struct pt_regs *uregs)
{
	if ((unsigned long)nr >= NR_syscalls ||
	    hlist_empty(&d->heads[nr]) || rp_sys_ignored(uregs))
		return NULL;
	return &d->heads[nr];
}

/* raw_syscalls:sys_enter: the syscall's arguments, to its probes */
static void notrace rp_sys_enter(void *data, struct pt_regs *uregs, long id)
{
	struct hlist_head *head = rp_sys_heads(data, id, uregs);
	struct rawprobe_probe *p;
	unsigned long a[6];

	if (!head)
		return;
	syscall_get_arguments(current, uregs, a);
	preempt_disable_notrace();	/* RCU: the list (tracepoint.c) */
	hlist_for_each_entry_rcu(p, head, tp_sys_node,
				 rcu_read_lock_sched_held())
		if (READ_ONCE(p->tp_armed))
			rp_tp_run(p, a[0], a[1], a[2], a[3], a[4], a[5]);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rp_sys_enter);

/* raw_syscalls:sys_exit: its return value, to its probes */
static void notrace rp_sys_exit(void *data, struct pt_regs *uregs, long ret)
{
	struct hlist_head *head;
	struct rawprobe_probe *p;

	head = rp_sys_heads(data, syscall_get_nr(current, uregs), uregs);
	if (!head)
		return;
	preempt_disable_notrace();
	hlist_for_each_entry_rcu(p, head, tp_sys_node,
				 rcu_read_lock_sched_held())
		if (READ_ONCE(p->tp_armed))
			rp_tp_run(p, ret, 0, 0, 0, 0, 0);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rp_sys_exit);

/*
 * The syscall's number, from the metadata ftrace keeps in its event:
 * -ENOENT if there is no such event, -EOPNOTSUPP if ftrace's table has
 * no number for it here.
 */
static int rp_sys_nr(const char *name)
{
	struct trace_event_file *file;
	struct syscall_metadata *meta;
	int nr = -ENOENT;

	file = trace_get_event_file(NULL, "syscalls", name);
	if (IS_ERR(file))
		return -ENOENT;
	meta = file->event_call->data;
	if (meta && (meta->enter_event == file->event_call ||
		     meta->exit_event == file->event_call))
		nr = meta->syscall_nr >= 0 && meta->syscall_nr < NR_syscalls ?
		     meta->syscall_nr : -EOPNOTSUPP;
	trace_put_event_file(file);
	return nr;
}

/**
 * rp_sys_find() - the raw tracepoint and syscall of a syscalls:* event
 * @p: the probe, whose tp, tp_sys and tp_sys_dir it sets
 * @name: "sys_enter_NAME" or "sys_exit_NAME"
 *
 * Return: 0; -ENOENT: no such event; -EOPNOTSUPP: no number for it.
 */
int rp_sys_find(struct rawprobe_probe *p, const char *name)
{
	bool enter = str_has_prefix(name, "sys_enter_");
	struct tracepoint *tp;
	int nr;

	if (!enter && !str_has_prefix(name, "sys_exit_"))
		return -ENOENT;
	nr = rp_sys_nr(name);
	if (nr < 0)
		return nr;
	tp = rp_tp_of("raw_syscalls", enter ? "sys_enter" : "sys_exit",
		      &p->tp_mod_ref);
	if (IS_ERR(tp))
		return PTR_ERR(tp);
	p->tp = tp;
	p->tp_sys = nr;
	p->tp_sys_dir = enter ? RP_SYS_ENTER : RP_SYS_EXIT;
	return 0;
}

static struct rp_sys_dir *rp_sys_dir_of(const struct rawprobe_probe *p)
{
	return &rp_sys_dirs[p->tp_sys_dir == RP_SYS_EXIT];
}

/**
 * rp_sys_register() - put a syscalls:* probe on its syscall's list, the
 *	direction's dispatcher on its tracepoint first if it is not there
 * @p: a probe rp_sys_find() prepared; under rp_registry_lock
 *
 * Return: 0, or tracepoint_probe_register()'s error.
 */
int rp_sys_register(struct rawprobe_probe *p)
{
	struct rp_sys_dir *d = rp_sys_dir_of(p);
	int err;

	if (!d->registered) {
		d->fn = p->tp_sys_dir == RP_SYS_EXIT ? (void *)rp_sys_exit :
						       (void *)rp_sys_enter;
		err = tracepoint_probe_register(p->tp, d->fn, d);
		if (err)
			return err;
		d->tp = p->tp;
		d->registered = true;
	}
	p->tp_armed = !(p->spec.flags & RAWPROBE_F_DISABLED);
	hlist_add_head_rcu(&p->tp_sys_node, &d->heads[p->tp_sys]);
	d->probes++;
	p->registered = true;
	return 0;
}

/**
 * rp_sys_unregister() - take a syscalls:* probe off its list, and the
 *	dispatcher off its tracepoint with the direction's last probe
 * @p: a registered probe; under rp_registry_lock
 *
 * The caller waits for the hits in flight before @p is freed.
 *
 * Return: 0, or the error of a dispatcher the kernel could not detach:
 * its last probe then stays, disarmed, to be removed again.
 */
int rp_sys_unregister(struct rawprobe_probe *p)
{
	struct rp_sys_dir *d = rp_sys_dir_of(p);
	int err;

	WRITE_ONCE(p->tp_armed, false);
	if (d->probes == 1 && d->registered) {
		err = tracepoint_probe_unregister(d->tp, d->fn, d);
		if (err)
			return err;
		d->registered = false;
	}
	hlist_del_rcu(&p->tp_sys_node);
	d->probes--;
	p->registered = false;
	return 0;
}
