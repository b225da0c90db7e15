// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 4: your own probe module. A jprobe-style probe on do_unlinkat(),
 * the function behind unlink(2), unlinkat(2) and rmdir's cousin: one
 * record per file removed, with the directory fd and the name, and an
 * optional prefix= to keep only the names under a directory, comm= only
 * the files one command removes.
 *
 *	insmod lab4_unlink.ko [prefix=/tmp/] [comm=rm]
 *	rm /tmp/x
 *	rawprobectl stream          # ... jprobe ... (-100) "/tmp/x"
 *	rmmod lab4_unlink           # lab4_unlink: 1 hits, 1 records, 2 filtered
 *
 * Started from examples/jprobe_openat2; the TODOs are yours.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/fs.h>
#include <linux/err.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <rawprobe/api.h>

static char prefix[RAWPROBE_STR_LEN];
module_param_string(prefix, prefix, sizeof(prefix), 0444);
MODULE_PARM_DESC(prefix, "record only names that start with this");

static char comm[TASK_COMM_LEN];
module_param_string(comm, comm, sizeof(comm), 0444);
MODULE_PARM_DESC(comm, "record only the files this command removes");

static struct rawprobe_probe *unlink_probe;
static atomic64_t discarded;

/*
 * int do_unlinkat(int dfd, struct filename *name);	(fs/namei.c)
 *
 * name is the kernel's copy of the path the user gave, made by getname();
 * it may be an ERR_PTR() when that copy failed: do_unlinkat() copes with
 * it, and so must we. name->name is a kernel string.
 */
RAWPROBE_JPROBE(unlink_entry, int, dfd, struct filename *, name)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	rec = rawprobe_reserve(probe, &slot);
	if (!rec)
		return 0;	/* ring full: counted as lost */

	/*
	 * TODO 1: store dfd as the record's one argument: args[0], nargs,
	 * and the flag that says args[] holds data
	 */
	/* BEGIN SOLUTION */
	rec->args[0] = (s64)dfd;	/* AT_FDCWD is -100 */
	rec->nargs = 1;
	rec->flags |= RAWPROBE_REC_ARGS;
	/* END SOLUTION */

	/*
	 * TODO 2: copy the file name into the record; an ERR_PTR() name
	 * has none (IS_ERR_OR_NULL)
	 */
	/* BEGIN SOLUTION */
	if (!IS_ERR_OR_NULL(name))
		rawprobe_record_str(probe, rec, name->name, false);
	/* END SOLUTION */

	/*
	 * TODO 3: with a prefix, a name that does not start with it is not
	 * recorded: give the record up, count it in discarded, return 0
	 */
	/* BEGIN SOLUTION */
	if (prefix[0] && ((rec->flags & RAWPROBE_REC_STR) == 0 ||
			  strncmp(rec->str, prefix, strlen(prefix)))) {
		rawprobe_discard(probe, &slot);
		atomic64_inc(&discarded);
		return 0;
	}
	/* END SOLUTION */

	/*
	 * TODO 6: with comm=, a file another command removes is given up
	 * in the same way: the command is the task's, the one running the
	 * handler; its name must equal comm, not start with it
	 */
	/* BEGIN SOLUTION */
	if (comm[0] && strncmp(current->comm, comm, TASK_COMM_LEN)) {
		rawprobe_discard(probe, &slot);
		atomic64_inc(&discarded);
		return 0;
	}
	/* END SOLUTION */

	rawprobe_commit(probe, &slot);
	return 0;
}

static const struct rawprobe_desc desc = {
	.name	= "lab4_unlink",
	.symbol	= "do_unlinkat",
	.kind	= RAWPROBE_KIND_JPROBE,
	.entry	= unlink_entry,
};

static int __init lab4_unlink_init(void)
{
	/* TODO 4: register the probe described by desc; on failure, return the error */
	/* BEGIN SOLUTION */
	unlink_probe = rawprobe_register(&desc);
	if (IS_ERR(unlink_probe))
		return PTR_ERR(unlink_probe);	/* the core logged why */
	/* END SOLUTION */
	pr_info("probing do_unlinkat%s%s\n", prefix[0] ? ", names under " : "",
		prefix);
	return 0;
}

static void __exit lab4_unlink_exit(void)
{
	struct rawprobe_stats st = {};

	/*
	 * TODO 5: read the probe's statistics into st, then unregister it
	 * (the core would do it for you, and complain in the log)
	 */
	/* BEGIN SOLUTION */
	rawprobe_get_stats(unlink_probe, &st);
	rawprobe_unregister(unlink_probe);
	/* END SOLUTION */
	pr_info("%llu hits, %llu records, %lld filtered\n", st.hits, st.records,
		(long long)atomic64_read(&discarded));
}

module_init(lab4_unlink_init);
module_exit(lab4_unlink_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe lab 4: the files unlinked, with do_unlinkat's arguments");
