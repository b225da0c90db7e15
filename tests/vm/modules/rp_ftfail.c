// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: makes the kernel fail to disarm an ftrace-based kprobe, as
 * memory pressure can. Debian's kernels have no fail_function, so a
 * kprobe on unregister_ftrace_function() overrides its return: the next
 * fail_count calls return -ENOMEM without running. kprobes calls it to
 * disarm the last armed ftrace-based kprobe and, when it fails, returns
 * the error with its own state unchanged (after a WARN: "Failed to
 * unregister kprobe-ftrace"). unregister_kretprobes() has by then freed
 * the rethook of the kretprobe it could not remove: what the tests
 * provoke.
 *
 * Why not ftrace_set_filter_ip(), which fails for memory more often:
 * kprobes decrements its count of armed ftrace kprobes before calling it
 * and does not undo that on failure, so every later ftrace-based kprobe
 * of the boot would misfire, whatever rawprobe does.
 *
 *	insmod rp_ftfail.ko
 *	echo 1 > /sys/module/rp_ftfail/parameters/fail_count
 *
 * "injected" counts the calls failed. The line this module logs first is
 * what tests/vm/run takes as leave to allow the kernel's warning.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>

static int fail_count;
module_param(fail_count, int, 0600);
MODULE_PARM_DESC(fail_count, "how many more calls fail");

static int injected;
module_param(injected, int, 0400);
MODULE_PARM_DESC(injected, "calls failed so far");

/* Where the probed call "returns" from: what it would on ENOMEM. */
static noinline int rp_ftfail_enomem(void)
{
	return -ENOMEM;
}

/* Take one of fail_count, if any is left. */
static bool rp_ftfail_take(void)
{
	int n = READ_ONCE(fail_count);

	while (n > 0) {
		int old = cmpxchg(&fail_count, n, n - 1);

		if (old == n)
			return true;
		n = old;
	}
	return false;
}

static int rp_ftfail_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (!rp_ftfail_take())
		return 0;
	pr_info("injected -ENOMEM into unregister_ftrace_function(%ps)\n",
		(void *)regs->di);
	WRITE_ONCE(injected, injected + 1);
	/* At the entry: the return address is on top, as for the stub. */
	instruction_pointer_set(regs, (unsigned long)rp_ftfail_enomem);
	return 1;	/* regs changed: do not single-step the original */
}

/*
 * A post handler keeps the probe a breakpoint: an optimized probe's
 * handler cannot change where execution goes on.
 */
static void rp_ftfail_post(struct kprobe *kp, struct pt_regs *regs,
			   unsigned long flags)
{
}

static struct kprobe rp_ftfail_kp = {
	.symbol_name	= "unregister_ftrace_function",
	.pre_handler	= rp_ftfail_pre,
	.post_handler	= rp_ftfail_post,
};

static int __init rp_ftfail_init(void)
{
	return register_kprobe(&rp_ftfail_kp);
}

static void __exit rp_ftfail_exit(void)
{
	unregister_kprobe(&rp_ftfail_kp);
}

module_init(rp_ftfail_init);
module_exit(rp_ftfail_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe test: the kernel fails to disarm an ftrace-based kprobe");
