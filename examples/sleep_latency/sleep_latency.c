// SPDX-License-Identifier: GPL-2.0
/*
 * A pair in a probe module: how long a task sleeps, from its
 * clock_nanosleep() system call to the wakeup that ends the sleep, as
 * bpftrace's @start[tid] = nsecs ... nsecs - @start[args->p->pid]. Two
 * probes share a table of starts (rawprobe_pair_create()): the start
 * handler stores the time under the sleeper's pid, the end handler, on
 * whichever CPU wakes it, takes that pid's start out and writes one
 * record: the sleeper's pid and how long it slept.
 *
 *	insmod sleep_latency.ko [comm=NAME]
 *	rawprobectl stream              # args: pid, ns slept (comm: the waker)
 *	sleep 0.05
 *
 * The same, without a module: `rawprobectl latency --key pid --from
 * kprobe:__x64_sys_clock_nanosleep --to kprobe:try_to_wake_up --to-key
 * 'p->pid'`. A module does what the command does not: here, a record
 * per sleep, with what both handlers know.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <rawprobe/api.h>

static char comm[TASK_COMM_LEN];
module_param_string(comm, comm, sizeof(comm), 0444);
MODULE_PARM_DESC(comm, "only sleeps of tasks with this name (default: all)");

static struct rawprobe_pair *pair;
static struct rawprobe_probe *start, *end;

/*
 * The start chooses what is measured: the end runs in the waker's
 * context (a timer interrupt, mostly), where current is someone else.
 */
static int sleep_start(struct rawprobe_probe *p, struct pt_regs *regs,
		       void *data)
{
	if (!comm[0] || !strncmp(current->comm, comm, sizeof(comm)))
		rawprobe_pair_start(pair, current->pid);
	return 0;
}

/*
 * try_to_wake_up(p, state, wake_flags) is called for tasks asleep or
 * not: an end whose key has no start (another task, or not a sleep we
 * chose) is counted as such by the pair and writes nothing.
 */
RAWPROBE_JPROBE(sleep_end, struct task_struct *, task, unsigned int, state,
		int, wake_flags)
{
	u64 ns;

	if (!rawprobe_pair_end(pair, task->pid, &ns))
		rawprobe_emit(probe, task->pid, ns);
	return 0;
}

static const struct rawprobe_desc start_desc = {
	.name	= "sleep_latency_start",
	.symbol	= "__x64_sys_clock_nanosleep",
	.kind	= RAWPROBE_KIND_KPROBE,
	.entry	= sleep_start,
};

static const struct rawprobe_desc end_desc = {
	.name	= "sleep_latency",
	.symbol	= "try_to_wake_up",
	.kind	= RAWPROBE_KIND_JPROBE,
	.entry	= sleep_end,
};

static int __init sleep_latency_init(void)
{
	int err;

	/* room for 1024 sleepers; a start older than 60 s is dropped */
	pair = rawprobe_pair_create(1024, 60000);
	if (IS_ERR(pair))
		return PTR_ERR(pair);
	end = rawprobe_register(&end_desc);
	if (IS_ERR(end)) {
		err = PTR_ERR(end);
		goto err_pair;
	}
	start = rawprobe_register(&start_desc);
	if (IS_ERR(start)) {
		err = PTR_ERR(start);
		goto err_end;
	}
	pr_info("probes %u and %u time sleeps\n", rawprobe_id(start),
		rawprobe_id(end));
	return 0;

err_end:
	rawprobe_unregister(end);
err_pair:
	rawprobe_pair_destroy(pair);
	return err;
}

static void __exit sleep_latency_exit(void)
{
	struct rawprobe_pair_stats st;

	/* no handler may use the pair once it is destroyed */
	rawprobe_unregister(start);
	rawprobe_unregister(end);
	rawprobe_pair_get_stats(pair, &st);
	pr_info("%llu sleeps timed, %llu wakeups of no sleep we timed\n",
		st.matched, st.no_start);
	rawprobe_pair_destroy(pair);
}

module_init(sleep_latency_init);
module_exit(sleep_latency_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe example: sleep latency with a pair of probes");
