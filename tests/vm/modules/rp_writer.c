// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for the exported record writer's contract:
 *  - a handler that reserves and then gives up (every other hit on
 *    getpgid) discards with rawprobe_discard(): the reader skips those
 *    and goes on, nothing is wedged;
 *  - records written from process context, from a work item queued at
 *    load: rawprobe_reserve() must leave the writer unpreemptible until
 *    the commit. The work counts the records it wrote while
 *    still preemptible in the parameter preemptible_writes.
 */
#include <linux/module.h>
#include <linux/err.h>
#include <linux/preempt.h>
#include <linux/workqueue.h>
#include <rawprobe/api.h>

static unsigned int process_records = 100;
module_param(process_records, uint, 0444);
MODULE_PARM_DESC(process_records, "records the work item writes at load");

static unsigned int process_written;
module_param(process_written, uint, 0444);
static unsigned int preemptible_writes;
module_param(preemptible_writes, uint, 0444);

static struct rawprobe_probe *writer_probe;
static atomic_t writer_hits = ATOMIC_INIT(0);

static int writer_entry(struct rawprobe_probe *probe, struct pt_regs *regs,
			void *data)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	rec = rawprobe_reserve(probe, &slot);
	if (!rec)
		return 0;
	rec->args[0] = atomic_inc_return(&writer_hits);
	if (rec->args[0] & 1) {
		rawprobe_discard(probe, &slot);	/* the early return */
		return 0;
	}
	rec->nargs = 1;
	rec->flags |= RAWPROBE_REC_ARGS;
	rawprobe_commit(probe, &slot);
	return 0;
}

static void writer_work_fn(struct work_struct *work)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;
	unsigned int i;

	for (i = 0; i < process_records; i++) {
		rec = rawprobe_reserve(writer_probe, &slot);
		if (!rec)
			continue;
		if (preemptible())
			preemptible_writes++;
		rec->args[0] = 1000000 + i;
		rec->nargs = 1;
		rec->flags |= RAWPROBE_REC_ARGS;
		rawprobe_commit(writer_probe, &slot);
		WRITE_ONCE(process_written, process_written + 1);
		cond_resched();
	}
}

static DECLARE_WORK(writer_work, writer_work_fn);

static const struct rawprobe_desc writer_desc = {
	.name	= "writer",
	.symbol	= "__x64_sys_getpgid",
	.kind	= RAWPROBE_KIND_KPROBE,
	.entry	= writer_entry,
};

static int __init rp_writer_init(void)
{
	writer_probe = rawprobe_register(&writer_desc);
	if (IS_ERR(writer_probe))
		return PTR_ERR(writer_probe);
	schedule_work(&writer_work);
	return 0;
}

static void __exit rp_writer_exit(void)
{
	flush_work(&writer_work);
	rawprobe_unregister(writer_probe);
}

module_init(rp_writer_init);
module_exit(rp_writer_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe test: discard and process-context writers");
