// SPDX-License-Identifier: GPL-2.0
/*
 * A tracepoint in a probe module: sched:sched_switch, the scheduler's
 * event at each context switch, with the pids of the task switched out
 * (prev) and of the task switched in (next).
 *
 * A tracepoint is a call the kernel's developers put in the code, with a
 * prototype of its own (TP_PROTO in include/trace/events/sched.h):
 *
 *	TRACE_EVENT(sched_switch,
 *		TP_PROTO(bool preempt, struct task_struct *prev,
 *			 struct task_struct *next, unsigned int prev_state),
 *
 * the same on 6.1 and 6.12. The core attaches to it and calls the
 * handler with the event's arguments where a function's would be, so
 * rawprobe_arg(regs, 1) is prev, as it would be a function's second
 * parameter. No breakpoint and no ftrace hop: the tracepoint calls the
 * core, which calls us.
 *
 *	insmod tp_sched_switch.ko [comm=NAME]
 *	rawprobectl probe list          # ours: tracepoint sched:sched_switch
 *	rawprobectl stream              # args: prev pid, next pid, prev_state;
 *	                                # str: next's comm
 *	rmmod tp_sched_switch
 *
 * Without comm=, every switch on every CPU is a record: thousands a
 * second on a busy machine. The prototype is the running kernel's
 * (`rawprobectl btf show tracepoint:sched:sched_switch`): a wrong one
 * reads the wrong arguments, silently.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>
#include <rawprobe/api.h>

static char comm[TASK_COMM_LEN];
module_param_string(comm, comm, sizeof(comm), 0444);
MODULE_PARM_DESC(comm, "only switches from or to tasks with this name (default: all)");

static struct rawprobe_probe *switch_probe;

static bool comm_chosen(const struct task_struct *t)
{
	return !comm[0] || !strncmp(t->comm, comm, sizeof(comm));
}

/*
 * The scheduler calls it, preemption off, its run queue locked: take no
 * lock, sleep on nothing. prev is current still, so the record's
 * header (pid, comm) is prev's. Both tasks are the scheduler's to hand
 * over: reading their fields is safe.
 */
static int switch_entry(struct rawprobe_probe *probe, struct pt_regs *regs,
			void *data)
{
	struct task_struct *prev = (struct task_struct *)rawprobe_arg(regs, 1);
	struct task_struct *next = (struct task_struct *)rawprobe_arg(regs, 2);
	/* an unsigned int: its register's upper half is not its own */
	unsigned int prev_state = (unsigned int)rawprobe_arg(regs, 3);
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	if (!comm_chosen(prev) && !comm_chosen(next))
		return 0;
	rec = rawprobe_reserve(probe, &slot);
	if (!rec)
		return 0;	/* the ring is full: counted as lost */
	rec->args[0] = task_pid_nr(prev);
	rec->args[1] = task_pid_nr(next);
	rec->args[2] = prev_state;	/* 0: preempted, runnable still */
	rec->nargs = 3;
	rec->flags |= RAWPROBE_REC_ARGS;
	rawprobe_record_str(probe, rec, next->comm, false);
	rawprobe_commit(probe, &slot);
	return 0;
}

/* "SUBSYSTEM:EVENT" as tracefs names it: the colon is no module's. */
static const struct rawprobe_desc desc = {
	.name	= "tp_sched_switch",
	.symbol	= "sched:sched_switch",
	.kind	= RAWPROBE_KIND_TRACEPOINT,
	.entry	= switch_entry,
};

static int __init tp_sched_switch_init(void)
{
	switch_probe = rawprobe_register(&desc);
	if (IS_ERR(switch_probe))
		return PTR_ERR(switch_probe);	/* the core logged why */
	pr_info("probe %u on %s\n", rawprobe_id(switch_probe), desc.symbol);
	return 0;
}

static void __exit tp_sched_switch_exit(void)
{
	struct rawprobe_stats st;

	rawprobe_get_stats(switch_probe, &st);
	rawprobe_unregister(switch_probe);
	pr_info("%llu switches recorded, %llu lost\n", st.records, st.lost);
}

module_init(tp_sched_switch_init);
module_exit(tp_sched_switch_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe example: a tracepoint, sched:sched_switch");
