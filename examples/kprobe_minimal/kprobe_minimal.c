// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest probe module on rawprobe, after the kernel's
 * samples/kprobes/kprobe_example.c: a kprobe on kernel_clone() (every
 * fork, clone and thread creation) that writes one record per hit.
 *
 *	insmod rawprobe.ko && insmod kprobe_minimal.ko [symbol=NAME]
 *	rawprobectl probe list          # our probe, with its name and module
 *	rawprobectl stream              # one line per fork
 *	rmmod kprobe_minimal
 *
 * Copy this directory to start your own: rename the file and obj-m in
 * the Makefile, change the symbol and what the handler records.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <rawprobe/api.h>

static char symbol[KSYM_NAME_LEN] = "kernel_clone";
module_param_string(symbol, symbol, sizeof(symbol), 0444);
MODULE_PARM_DESC(symbol, "function to probe (default kernel_clone)");

static struct rawprobe_probe *probe;

/*
 * Runs each time the probed instruction is about to execute, with the
 * CPU's registers in regs. We are in probe context: no sleeping, no
 * locks, no allocation. rawprobe_emit() reserves a record on this CPU's
 * ring, fills the header (time, CPU, pid, comm, probe id) and the values
 * given, and commits it; if the ring is full it counts a loss instead.
 */
static int handler_entry(struct rawprobe_probe *p, struct pt_regs *regs,
			 void *data)
{
	/* At a function entry, argument 0 is the first parameter. */
	rawprobe_emit(p, instruction_pointer(regs), rawprobe_arg(regs, 0));
	return 0;	/* 0: let the probed instruction run */
}

static struct rawprobe_desc desc = {
	.name	= "kprobe_minimal",
	.kind	= RAWPROBE_KIND_KPROBE,
	.entry	= handler_entry,
};

static int __init kprobe_minimal_init(void)
{
	desc.symbol = symbol;
	probe = rawprobe_register(&desc);
	if (IS_ERR(probe))
		return PTR_ERR(probe);	/* the core logged why */
	pr_info("probe %u on %s\n", rawprobe_id(probe), symbol);
	return 0;
}

static void __exit kprobe_minimal_exit(void)
{
	struct rawprobe_stats st;

	rawprobe_get_stats(probe, &st);
	rawprobe_unregister(probe);
	pr_info("%llu hits, %llu records, %llu lost\n", st.hits, st.records,
		st.lost);
}

module_init(kprobe_minimal_init);
module_exit(kprobe_minimal_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe example: a minimal kprobe writing records");
