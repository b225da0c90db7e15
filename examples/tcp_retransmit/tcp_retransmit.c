// SPDX-License-Identifier: GPL-2.0
/*
 * Who is retransmitting? A jprobe-style probe on tcp_retransmit_skb()
 * that decodes the socket's addresses and ports into the record, like
 * the tcp:tcp_retransmit_skb tracepoint or bcc's tcpretrans.
 *
 * Record: str = "saddr:sport -> daddr:dport", args = family, sport,
 * dport, TCP state (include/net/tcp_states.h), segments.
 *
 *	insmod tcp_retransmit.ko
 *	rawprobectl stream
 *
 * A SYN to an address nobody answers is retransmitted after a second:
 *	ip addr add 10.9.9.1/24 dev lo; nc -w 3 10.9.9.2 80
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <net/sock.h>
#include <rawprobe/api.h>

static struct rawprobe_probe *retrans_probe;

/* sock_common keeps both families' addresses; pick by family. */
static bool format_addrs(struct rawprobe_record *rec,
			 const struct sock_common *skc, u16 sport, u16 dport)
{
	int len;

	if (skc->skc_family == AF_INET)
		len = scnprintf(rec->str, sizeof(rec->str),
				"%pI4:%u -> %pI4:%u", &skc->skc_rcv_saddr,
				sport, &skc->skc_daddr, dport);
#if IS_ENABLED(CONFIG_IPV6)
	else if (skc->skc_family == AF_INET6)
		len = scnprintf(rec->str, sizeof(rec->str),
				"[%pI6c]:%u -> [%pI6c]:%u",
				&skc->skc_v6_rcv_saddr, sport,
				&skc->skc_v6_daddr, dport);
#endif
	else
		return false;
	rec->str_len = len;
	rec->flags |= RAWPROBE_REC_STR;
	return true;
}

/* int tcp_retransmit_skb(struct sock *sk, struct sk_buff *skb, int segs); */
RAWPROBE_JPROBE(retransmit_entry, struct sock *, sk, struct sk_buff *, skb,
		int, segs)
{
	/* The caller holds the socket: its fields are stable to read. */
	const struct sock_common *skc = &sk->__sk_common;
	u16 sport = skc->skc_num;		/* host order */
	u16 dport = ntohs(skc->skc_dport);	/* network order */
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	rec = rawprobe_reserve(probe, &slot);
	if (!rec)
		return 0;
	rec->args[0] = skc->skc_family;
	rec->args[1] = sport;
	rec->args[2] = dport;
	rec->args[3] = skc->skc_state;
	rec->args[4] = segs;
	rec->nargs = 5;
	rec->flags |= RAWPROBE_REC_ARGS;
	if (!format_addrs(rec, skc, sport, dport)) {
		/*
		 * Not an IP socket after all. A reserved record is always
		 * committed or discarded, never just left: an abandoned one
		 * would stop the reader at it.
		 */
		rawprobe_discard(probe, &slot);
		return 0;
	}
	rawprobe_commit(probe, &slot);
	return 0;
}

static const struct rawprobe_desc desc = {
	.name	= "tcp_retransmit",
	.symbol	= "tcp_retransmit_skb",
	.kind	= RAWPROBE_KIND_JPROBE,
	.entry	= retransmit_entry,
};

static int __init tcp_retransmit_init(void)
{
	retrans_probe = rawprobe_register(&desc);
	return PTR_ERR_OR_ZERO(retrans_probe);
}

static void __exit tcp_retransmit_exit(void)
{
	rawprobe_unregister(retrans_probe);
}

module_init(tcp_retransmit_init);
module_exit(tcp_retransmit_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe example: TCP retransmissions with addresses");
