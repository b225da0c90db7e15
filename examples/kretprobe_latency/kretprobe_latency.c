// SPDX-License-Identifier: GPL-2.0
/*
 * A kretprobe that measures how long a function takes, after the
 * kernel's samples/kprobes/kretprobe_example.c: vfs_read() by default.
 *
 * A kretprobe has two handlers. The entry handler runs when the function
 * is called and may stash what it needs in per-call "instance data"
 * (struct read_call below, desc.data_size bytes). The return handler
 * runs when that same call returns, finds the data again, and writes one
 * record: return value, latency, and the size that was asked for.
 *
 *	insmod kretprobe_latency.ko [func=NAME] [maxactive=N]
 *	rawprobectl stream              # ret=bytes read, lat=time taken
 *	rawprobectl hist                # latency histogram (kretprobes)
 *
 * maxactive bounds the calls that can be in flight at once (sleeping
 * reads count); a call that finds no free instance is not seen and is
 * counted as "missed (maxactive)" in `rawprobectl probe list`.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <rawprobe/api.h>

static char func[KSYM_NAME_LEN] = "vfs_read";
module_param_string(func, func, sizeof(func), 0444);
MODULE_PARM_DESC(func, "function to time (default vfs_read)");

static unsigned int maxactive;
module_param(maxactive, uint, 0444);
MODULE_PARM_DESC(maxactive, "calls in flight at once (0: kernel default)");

static struct rawprobe_probe *probe;

/* Per-call data, kept by the kretprobe from entry to return. */
struct read_call {
	u64 start_ns;
	u64 count;
};

static int read_entry(struct rawprobe_probe *p, struct pt_regs *regs,
		      void *data)
{
	struct read_call *call = data;

	/* The clock of record timestamps, so latency = ts - start. */
	call->start_ns = rawprobe_clock();
	/* vfs_read(file, buf, count, pos): the size asked for. */
	call->count = rawprobe_arg(regs, 2);
	return 0;	/* non-zero would skip the return handler */
}

static int read_return(struct rawprobe_probe *p, struct pt_regs *regs,
		       void *data)
{
	struct read_call *call = data;
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	rec = rawprobe_reserve(p, &slot);
	if (!rec)
		return 0;	/* ring full: counted as lost */
	rec->retval = (s64)regs_return_value(regs);
	rec->latency_ns = rec->ts_ns - call->start_ns;
	rec->args[0] = call->count;
	rec->nargs = 1;
	/* The flags tell readers which fields hold data. */
	rec->flags |= RAWPROBE_REC_RETVAL | RAWPROBE_REC_ARGS;
	rawprobe_commit(p, &slot);
	return 0;
}

static struct rawprobe_desc desc = {
	.name		= "kretprobe_latency",
	.kind		= RAWPROBE_KIND_KRETPROBE,
	.entry		= read_entry,
	.ret		= read_return,
	.data_size	= sizeof(struct read_call),
};

static int __init kretprobe_latency_init(void)
{
	desc.symbol = func;
	desc.maxactive = maxactive;
	probe = rawprobe_register(&desc);
	if (IS_ERR(probe))
		return PTR_ERR(probe);
	pr_info("probe %u times %s\n", rawprobe_id(probe), func);
	return 0;
}

static void __exit kretprobe_latency_exit(void)
{
	rawprobe_unregister(probe);
}

module_init(kretprobe_latency_init);
module_exit(kretprobe_latency_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe example: function latency with a kretprobe");
