// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 5: return override. Make one command's openat() fail on purpose,
 * every Nth call, with the error of your choice, as the kernel's
 * fail_function does with its "interval".
 *
 *	insmod lab5_inject.ko comm=victim errno=28 every=2 [path=/etc/hostname]
 *	victim cat /etc/hostname     # works
 *	victim cat /etc/hostname     # cat: /etc/hostname: No space left on device
 *	rawprobectl stream           # one record per injected fault
 *
 * Only for a lab guest: this changes what the kernel does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/atomic.h>
#include <linux/uaccess.h>
#include <rawprobe/api.h>

static char comm[TASK_COMM_LEN];
module_param_string(comm, comm, sizeof(comm), 0444);
MODULE_PARM_DESC(comm, "only this command's calls fail (required)");

static int errno_to_inject = 5;	/* EIO */
module_param_named(errno, errno_to_inject, int, 0444);
MODULE_PARM_DESC(errno, "the error to return, positive (default 5, EIO)");

static unsigned int every = 1;
module_param(every, uint, 0444);
MODULE_PARM_DESC(every, "fail every Nth call of the command (default 1: all)");

static char path[64];
module_param_string(path, path, sizeof(path), 0444);
MODULE_PARM_DESC(path, "only the calls that open this file fail (default: any)");

static struct rawprobe_probe *inject_probe;
static atomic_t calls = ATOMIC_INIT(0);

/*
 * Runs at the entry of __x64_sys_openat(), before its first instruction:
 * on the function's ftrace site, where the stack still holds the
 * caller's return address and nothing else.
 */
static int inject_entry(struct rawprobe_probe *p, struct pt_regs *regs,
			void *data)
{
	/* (declare what your code below needs) */
	/* BEGIN SOLUTION */
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;
	long rc = -errno_to_inject;
	char name[sizeof(path)];

	/* END SOLUTION */
	/* TODO 1: another command's call runs untouched: return 0 */
	/* BEGIN SOLUTION */
	if (strncmp(current->comm, comm, TASK_COMM_LEN))
		return 0;
	/* END SOLUTION */

	/*
	 * TODO 5: with path=, only the calls that open the file named path
	 * fail, the others run untouched. __x64_sys_openat() is passed the
	 * user's registers; the name is a user pointer, read without
	 * faulting (copy_from_user_nofault(): modules do not have
	 * strncpy_from_user_nofault())
	 */
	/* BEGIN SOLUTION */
	if (path[0]) {
		const struct pt_regs *user = (const struct pt_regs *)rawprobe_arg(regs, 0);
		size_t len = strlen(path) + 1;

		if (copy_from_user_nofault(name, (const char __user *)user->si, len) ||
		    memcmp(name, path, len))
			return 0;
	}
	/* END SOLUTION */

	/* TODO 2: only every Nth call of the command fails (count in calls) */
	/* BEGIN SOLUTION */
	if (atomic_inc_return(&calls) % every)
		return 0;
	/* END SOLUTION */

	/* TODO 3: one record per fault: the error as its return value */
	/* BEGIN SOLUTION */
	rec = rawprobe_reserve(p, &slot);
	if (rec) {
		rec->retval = rc;
		rec->flags |= RAWPROBE_REC_RETVAL;
		rawprobe_commit(p, &slot);
	}
	/* END SOLUTION */

	/*
	 * TODO 4: skip the function: its caller gets rc. The handler
	 * returns what the override returns (1: do not run the function)
	 */
	/* BEGIN SOLUTION */
	return rawprobe_override_return(p, regs, rc);
	/* END SOLUTION */
	/* SKELETON: return 0; */
}

static struct rawprobe_desc desc = {
	.name	= "lab5_inject",
	.symbol	= "__x64_sys_openat",
	.kind	= RAWPROBE_KIND_KPROBE,
	.entry	= inject_entry,
	.flags	= RAWPROBE_DESC_OVERRIDE,	/* the core checks the target */
};

static int __init lab5_inject_init(void)
{
	if (!comm[0]) {
		pr_err("refusing to load: say which command fails, comm=NAME\n");
		return -EINVAL;
	}
	if (errno_to_inject <= 0 || errno_to_inject >= MAX_ERRNO || !every) {
		pr_err("errno must be in 1..%d, every at least 1\n", MAX_ERRNO - 1);
		return -EINVAL;
	}
	inject_probe = rawprobe_register(&desc);
	if (IS_ERR(inject_probe))
		return PTR_ERR(inject_probe);
	pr_warn("*** FAULT INJECTION ACTIVE: openat returns -%d for \"%s\", every %u calls ***\n",
		errno_to_inject, comm, every);
	return 0;
}

static void __exit lab5_inject_exit(void)
{
	rawprobe_unregister(inject_probe);
	pr_warn("fault injection stopped after %d calls of \"%s\"\n",
		atomic_read(&calls), comm);
}

module_init(lab5_inject_init);
module_exit(lab5_inject_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe lab 5: fail one command's openat, every Nth call");
