// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 9: a tracepoint in your own probe module. The scheduler's
 * sched:sched_process_exec event fires once per successful execve(2),
 * once the new program is loaded: one record per exec, with the pid
 * that exec'd (old_pid) and the file the program came from.
 *
 *	insmod lab9_exec.ko
 *	/bin/true
 *	rawprobectl stream          # ... args=(1234) str="/bin/true"
 *	rmmod lab9_exec             # lab9_exec: 1 hits, 1 records
 *
 * Started from examples/tp_sched_switch; the TODOs are yours.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/binfmts.h>
#include <linux/err.h>
#include <rawprobe/api.h>

static struct rawprobe_probe *exec_probe;

/*
 * include/trace/events/sched.h, the same on 6.1 and 6.12:
 *
 *	TRACE_EVENT(sched_process_exec,
 *		TP_PROTO(struct task_struct *p, pid_t old_pid,
 *			 struct linux_binprm *bprm),
 *
 * The handler gets them as a function's arguments: rawprobe_arg(regs, N)
 * is the event's argument N, from 0. bprm->filename is a kernel string,
 * the path execve(2) was given.
 */
static int exec_entry(struct rawprobe_probe *probe, struct pt_regs *regs,
		      void *data)
{
	struct linux_binprm *bprm;
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;
	pid_t old_pid;

	/* TODO 4: old_pid and bprm, from the event's arguments */
	/* BEGIN SOLUTION */
	old_pid = (pid_t)rawprobe_arg(regs, 1);
	bprm = (struct linux_binprm *)rawprobe_arg(regs, 2);
	/* END SOLUTION */
	/* SKELETON: old_pid = 0; */
	/* SKELETON: bprm = NULL; */

	rec = rawprobe_reserve(probe, &slot);
	if (!rec)
		return 0;	/* ring full: counted as lost */
	rec->args[0] = old_pid;
	rec->nargs = 1;
	rec->flags |= RAWPROBE_REC_ARGS;
	/* TODO 5: copy bprm->filename into the record (a kernel string) */
	/* BEGIN SOLUTION */
	rawprobe_record_str(probe, rec, bprm->filename, false);
	/* END SOLUTION */
	rawprobe_commit(probe, &slot);
	return 0;
}

static const struct rawprobe_desc desc = {
	.name	= "lab9_exec",
	/*
	 * TODO 3: the probe's kind and its target: a tracepoint, named as
	 * tracefs names it, SUBSYSTEM:EVENT
	 */
	/* BEGIN SOLUTION */
	.symbol	= "sched:sched_process_exec",
	.kind	= RAWPROBE_KIND_TRACEPOINT,
	/* END SOLUTION */
	.entry	= exec_entry,
};

static int __init lab9_exec_init(void)
{
	exec_probe = rawprobe_register(&desc);
	if (IS_ERR(exec_probe))
		return PTR_ERR(exec_probe);	/* the core logged why */
	return 0;
}

static void __exit lab9_exec_exit(void)
{
	struct rawprobe_stats st;

	rawprobe_get_stats(exec_probe, &st);
	rawprobe_unregister(exec_probe);
	pr_info("%llu hits, %llu records\n", st.hits, st.records);
}

module_init(lab9_exec_init);
module_exit(lab9_exec_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe lab 9: the programs exec'd, from sched_process_exec");
