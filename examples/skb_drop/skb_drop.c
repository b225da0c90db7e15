// SPDX-License-Identifier: GPL-2.0
/*
 * A packet drop monitor: every socket buffer freed as a drop, with the
 * kernel's reason and the code location that dropped it, like
 * `perf trace -e skb:kfree_skb` or dropwatch.
 *
 * The function changed in 6.11: kfree_skb_reason(skb, reason) became an
 * inline wrapper around sk_skb_reason_drop(sk, skb, reason). A probe
 * module is built for one kernel, so the choice is made at build time.
 *
 * The drop location is the caller of that function: at its entry the
 * return address is on top of the stack. The kernel formats it as
 * symbol+offset (%pS) right into the record's string.
 *
 * Record: args = reason (enum skb_drop_reason, see
 * include/net/dropreason-core.h of your kernel), location address,
 * protocol; str = location, e.g. "__udp4_lib_rcv+0x9c5/0xc20".
 *
 *	insmod skb_drop.ko
 *	echo x > /dev/udp/127.0.0.1/9     # to a closed port: NO_SOCKET
 *	rawprobectl stream
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/skbuff.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <rawprobe/api.h>

static struct rawprobe_probe *drop_probe;

static int record_drop(struct rawprobe_probe *probe, struct pt_regs *regs,
		       struct sk_buff *skb, unsigned int reason)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;
	unsigned long caller;

	if (get_kernel_nofault(caller,
			       (unsigned long *)kernel_stack_pointer(regs)))
		caller = 0;

	rec = rawprobe_reserve(probe, &slot);
	if (!rec)
		return 0;
	rec->args[0] = reason;
	rec->args[1] = caller;
	rec->args[2] = ntohs(skb->protocol);
	rec->nargs = 3;
	rec->flags |= RAWPROBE_REC_ARGS;
	rec->str_len = scnprintf(rec->str, sizeof(rec->str), "%pS",
				 (void *)caller);
	rec->flags |= RAWPROBE_REC_STR;
	rawprobe_commit(probe, &slot);
	return 0;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define DROP_FUNCTION "sk_skb_reason_drop"
RAWPROBE_JPROBE(drop_entry, struct sock *, sk, struct sk_buff *, skb,
		unsigned int, reason)
{
	/* Since 6.3 a packet that was used, not dropped, passes here too. */
	if (reason == SKB_CONSUMED)
		return 0;
	return record_drop(probe, regs, skb, reason);
}
#else
#define DROP_FUNCTION "kfree_skb_reason"
RAWPROBE_JPROBE(drop_entry, struct sk_buff *, skb, unsigned int, reason)
{
	return record_drop(probe, regs, skb, reason);
}
#endif

static const struct rawprobe_desc desc = {
	.name	= "skb_drop",
	.symbol	= DROP_FUNCTION,
	.kind	= RAWPROBE_KIND_JPROBE,
	.entry	= drop_entry,
};

static int __init skb_drop_init(void)
{
	drop_probe = rawprobe_register(&desc);
	return PTR_ERR_OR_ZERO(drop_probe);
}

static void __exit skb_drop_exit(void)
{
	rawprobe_unregister(drop_probe);
}

module_init(skb_drop_init);
module_exit(skb_drop_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe example: packet drops with reason and location");
