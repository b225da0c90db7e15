// SPDX-License-Identifier: GPL-2.0
/*
 * A jprobe-style handler: it receives do_sys_openat2()'s arguments typed,
 * with the function's own prototype, as the old jprobes did (removed in
 * 4.15). RAWPROBE_JPROBE() declares the handler and reads each argument
 * from the registers of the calling convention at the function's entry.
 *
 * The record holds the directory fd, the open flags and mode, and the
 * file name, copied from user memory without faulting.
 *
 *	insmod jprobe_openat2.ko
 *	cat /etc/hostname
 *	rawprobectl stream              # ... str="/etc/hostname"
 *
 * The prototype must be the kernel's own (fs/open.c in your kernel's
 * source): a wrong one reads the wrong registers, silently.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/openat2.h>
#include <rawprobe/api.h>

static struct rawprobe_probe *openat2_probe;

/*
 * static long do_sys_openat2(int dfd, const char __user *filename,
 *			      struct open_how *how);
 * In the body, probe (this probe) and regs are in scope too.
 */
RAWPROBE_JPROBE(openat2_entry, int, dfd, const char __user *, filename,
		struct open_how *, how)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	rec = rawprobe_reserve(probe, &slot);
	if (!rec)
		return 0;
	rec->args[0] = (s64)dfd;	/* AT_FDCWD is -100 */
	/* how is the kernel's copy of the user's struct: safe to read. */
	rec->args[1] = how->flags;
	rec->args[2] = how->mode;
	rec->nargs = 3;
	rec->flags |= RAWPROBE_REC_ARGS;
	/* Sets str, str_len and the STR / STR_TRUNC / STR_FAULT flags. */
	rawprobe_record_str(probe, rec, (const void __force *)filename, true);
	rawprobe_commit(probe, &slot);
	return 0;
}

static const struct rawprobe_desc desc = {
	.name	= "jprobe_openat2",
	.symbol	= "do_sys_openat2",
	.kind	= RAWPROBE_KIND_JPROBE,
	.entry	= openat2_entry,
};

static int __init jprobe_openat2_init(void)
{
	openat2_probe = rawprobe_register(&desc);
	return PTR_ERR_OR_ZERO(openat2_probe);
}

static void __exit jprobe_openat2_exit(void)
{
	rawprobe_unregister(openat2_probe);
}

module_init(jprobe_openat2_init);
module_exit(jprobe_openat2_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe example: typed arguments of do_sys_openat2");
