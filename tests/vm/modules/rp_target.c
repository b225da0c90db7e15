// SPDX-License-Identifier: GPL-2.0
/*
 * A probe target for the tests: reading /proc/rp_target calls
 * rp_target_hit() once, a module function that rawprobe can probe as
 * "rp_target:rp_target_hit" and that goes away with the module, and
 * fires the module's tracepoint of the same name (rp_target_trace.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include "rp_target.h"

#define CREATE_TRACE_POINTS
#include "rp_target_trace.h"

static unsigned long rp_target_calls;

noinline int rp_target_hit(int value, const char *label)
{
	rp_target_calls++;
	trace_rp_target_hit(value, rp_target_calls);
	return value * 2;
}

static int rp_target_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d %lu\n", rp_target_hit(21, "rp-target-label"),
		   rp_target_calls);
	return 0;
}

static struct proc_dir_entry *rp_target_entry;

static int __init rp_target_init(void)
{
	rp_target_entry = proc_create_single("rp_target", 0444, NULL,
					     rp_target_show);
	return rp_target_entry ? 0 : -ENOMEM;
}

static void __exit rp_target_exit(void)
{
	proc_remove(rp_target_entry);
}

module_init(rp_target_init);
module_exit(rp_target_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe test target");
