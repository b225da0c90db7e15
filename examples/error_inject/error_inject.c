// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection lab: make a system call fail with an error of your
 * choice, for one command only, without touching its code, as the
 * kernel's fail_function and bpf_override_return() do.
 *
 * DANGER: this changes what the kernel does. It is opt-in twice: the
 * module refuses to load without comm=, and the core accepts the
 * override only on system call entry points (__x64_sys_*), which the
 * kernel marks safe for error injection: every caller of a system call
 * is ready for any -errno. Never on a production machine.
 *
 *	insmod error_inject.ko comm=cat errno=5 [func=__x64_sys_openat]
 *	cat /etc/hostname        # cat: /etc/hostname: Input/output error
 *	rawprobectl stream       # one record per injected fault, ret=-5
 *	rmmod error_inject
 *
 * How: the probe's entry handler runs before the function's first
 * instruction. rawprobe_override_return() sets the return value and
 * resumes at a bare "return", so the function body never runs and the
 * caller sees the error.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <rawprobe/api.h>

static char func[KSYM_NAME_LEN] = "__x64_sys_openat";
module_param_string(func, func, sizeof(func), 0444);
MODULE_PARM_DESC(func, "system call entry point to fail (__x64_sys_*)");

static char comm[TASK_COMM_LEN];
module_param_string(comm, comm, sizeof(comm), 0444);
MODULE_PARM_DESC(comm, "only this command fails (required)");

static int errno_to_inject = 5;	/* EIO */
module_param_named(errno, errno_to_inject, int, 0444);
MODULE_PARM_DESC(errno, "the error to return, positive (default 5, EIO)");

static struct rawprobe_probe *inject_probe;

static int inject_entry(struct rawprobe_probe *p, struct pt_regs *regs,
			void *data)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;
	long rc = -errno_to_inject;

	if (strncmp(current->comm, comm, TASK_COMM_LEN))
		return 0;	/* someone else: run the function */

	rec = rawprobe_reserve(p, &slot);
	if (rec) {
		rec->retval = rc;
		rec->flags |= RAWPROBE_REC_RETVAL;
		rawprobe_commit(p, &slot);
	}
	/* Returns 1: the function does not run, its caller gets rc. */
	return rawprobe_override_return(p, regs, rc);
}

static struct rawprobe_desc desc = {
	.name	= "error_inject",
	.kind	= RAWPROBE_KIND_KPROBE,
	.entry	= inject_entry,
	.flags	= RAWPROBE_DESC_OVERRIDE,
};

static int __init error_inject_init(void)
{
	if (!comm[0]) {
		pr_err("refusing to load: say which command fails, comm=NAME\n");
		return -EINVAL;
	}
	if (errno_to_inject <= 0 || errno_to_inject >= MAX_ERRNO) {
		pr_err("errno must be in 1..%d\n", MAX_ERRNO - 1);
		return -EINVAL;
	}
	desc.symbol = func;
	inject_probe = rawprobe_register(&desc);
	if (IS_ERR(inject_probe))
		return PTR_ERR(inject_probe);
	pr_warn("*** FAULT INJECTION ACTIVE: %s returns -%d for \"%s\" ***\n",
		func, errno_to_inject, comm);
	return 0;
}

static void __exit error_inject_exit(void)
{
	rawprobe_unregister(inject_probe);
	pr_warn("fault injection on %s stopped\n", func);
}

module_init(error_inject_init);
module_exit(error_inject_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe example: fail a system call for one command");
