// SPDX-License-Identifier: GPL-2.0
/*
 * An NMI-context probe target for the stress runs:
 * writing N to /proc/rp_nmi sends N NMIs to the other CPUs, one at a
 * time; the NMI handler calls rp_nmi_hit(), which rawprobe can probe as
 * "rp_nmi:rp_nmi_hit", so the probe's handler runs in NMI context.
 * Reading /proc/rp_nmi gives the calls made in NMI context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include "rp_nmi.h"

static atomic_t rp_nmi_pending = ATOMIC_INIT(0);
static atomic_long_t rp_nmi_calls = ATOMIC_LONG_INIT(0);

noinline void rp_nmi_hit(long n)
{
	if (in_nmi())
		atomic_long_inc(&rp_nmi_calls);
	barrier();	/* keep the call */
}

/* Every NMI comes here: claim only those this module sent. */
static int rp_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (atomic_add_unless(&rp_nmi_pending, -1, 0)) {
		rp_nmi_hit(atomic_long_read(&rp_nmi_calls));
		return NMI_HANDLED;
	}
	return NMI_DONE;
}

static int rp_nmi_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%ld\n", atomic_long_read(&rp_nmi_calls));
	return 0;
}

static int rp_nmi_open(struct inode *inode, struct file *file)
{
	return single_open(file, rp_nmi_show, NULL);
}

/*
 * One NMI at a time, each waited for (up to a second: a TCG vCPU can be
 * slow to take it), so none is left unclaimed.
 */
static ssize_t rp_nmi_write(struct file *file, const char __user *buf,
			    size_t len, loff_t *pos)
{
	unsigned int n, i, waited;
	int err;

	err = kstrtouint_from_user(buf, len, 0, &n);
	if (err)
		return err;
	if (num_online_cpus() < 2)
		return -ENODEV;
	for (i = 0; i < n && !fatal_signal_pending(current); i++) {
		atomic_set(&rp_nmi_pending, 1);
		apic->send_IPI_allbutself(NMI_VECTOR);
		for (waited = 0; atomic_read(&rp_nmi_pending) && waited < 10000;
		     waited++)
			usleep_range(100, 200);
		if (atomic_xchg(&rp_nmi_pending, 0))
			return -ETIMEDOUT;
	}
	return len;
}

static const struct proc_ops rp_nmi_ops = {
	.proc_open	= rp_nmi_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
	.proc_write	= rp_nmi_write,
};

static struct proc_dir_entry *rp_nmi_entry;

static int __init rp_nmi_init(void)
{
	int err;

	err = register_nmi_handler(NMI_LOCAL, rp_nmi_handler, 0, "rp_nmi");
	if (err)
		return err;
	rp_nmi_entry = proc_create("rp_nmi", 0600, NULL, &rp_nmi_ops);
	if (!rp_nmi_entry) {
		unregister_nmi_handler(NMI_LOCAL, "rp_nmi");
		return -ENOMEM;
	}
	return 0;
}

static void __exit rp_nmi_exit(void)
{
	proc_remove(rp_nmi_entry);
	unregister_nmi_handler(NMI_LOCAL, "rp_nmi");
}

module_init(rp_nmi_init);
module_exit(rp_nmi_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe test target called in NMI context");
