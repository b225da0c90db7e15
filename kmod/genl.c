// SPDX-License-Identifier: GPL-2.0
/*
 * The control plane: generic netlink family "rawprobe".
 *
 * Every operation has its own policy, so an attribute that does not
 * belong to it is rejected by the netlink core (strict validation) with
 * an extended-ack message naming it. Bounds (symbol length, maxactive,
 * nargs, ring size) live in the policies, not in ad hoc checks.
 *
 * Privileges, judged on the netlink socket's opener as well as the
 * sender: probes (add, delete, enable, and reading them back, since a
 * probe list shows others' targets, filters and counters) need
 * CAP_PERFMON or CAP_SYS_ADMIN; the rings, memory on every CPU, need
 * CAP_SYS_ADMIN to change; the events group needs CAP_SYS_ADMIN to join
 * (the only capability a multicast group can ask for). GET_INFO (versions
 * and geometry) is open to all, for `rawprobectl version` and `doctor`.
 *
 * Operations run in parallel (no genl_mutex): a ring resize or a
 * thousand probes' registration must not stall every other generic
 * netlink family; the registry and the rings have locks of their own.
 *
 * This file is the family itself (its operations table, with each
 * operation's policy, its multicast group, init and exit, GET_INFO) and
 * what every handler uses: the privilege checks, the answers, the
 * extack cookie. The handlers and their policies are in a file per
 * object (genl_int.h lists them); the table is the one place this file
 * names them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/utsname.h>
#include <linux/capability.h>
#include <net/genetlink.h>
#include "core.h"
#include "genl_int.h"
#include "session.h"

static const struct nla_policy rp_info_policy[RAWPROBE_A_MAX + 1] = {};

static bool rp_admin(const struct sk_buff *skb)
{
	return netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

int rp_require_admin(const struct sk_buff *skb,
		     struct netlink_ext_ack *extack)
{
	if (rp_admin(skb))
		return 0;
	NL_SET_ERR_MSG(extack,
			   "needs CAP_PERFMON or CAP_SYS_ADMIN (run as root)");
	return -EPERM;
}

/*
 * A probe that loads from memory (rp_spec_reads_memory()) reads any
 * address a process passes it. Upstream asks the same power for that:
 * CAP_PERFMON with CAP_BPF (BPF's probe_read helpers) or CAP_SYS_ADMIN
 * (kprobe_events' fetchargs are root's). CAP_PERFMON alone keeps what
 * perf gives it: registers, counts, stacks.
 */
int rp_require_read_caps(const struct sk_buff *skb,
			 const struct rp_probe_spec *specs,
			 unsigned int n, struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (netlink_capable(skb, CAP_SYS_ADMIN) ||
	    (netlink_capable(skb, CAP_PERFMON) &&
	     netlink_capable(skb, CAP_BPF)))
		return 0;
	for (i = 0; i < n; i++) {
		if (!rp_spec_reads_memory(&specs[i]))
			continue;
		NL_SET_ERR_MSG(extack,
			       "reading memory through a pointer (a string, a field path, a filter on a field) needs CAP_SYS_ADMIN, or CAP_PERFMON with CAP_BPF");
		return -EPERM;
	}
	return 0;
}

/*
 * Return override changes what the kernel does, as fail_function and
 * bpf_override_return() do: root's, in the initial user namespace
 * (netlink_capable() asks it there, of the socket's opener too).
 */
int rp_require_override_caps(const struct sk_buff *skb,
			     const struct rp_probe_spec *specs,
			     unsigned int n,
			     struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	for (i = 0; i < n; i++) {
		if (!specs[i].ovr.set && !specs[i].chain_step)
			continue;
		NL_SET_ERR_MSG(extack,
			       "return override and fault injection change what the kernel does: they need CAP_SYS_ADMIN in the initial user namespace");
		return -EPERM;
	}
	return 0;
}

/*
 * What the sender may do to probes already there: registry.c judges
 * each probe under its lock (rp_caller_may()). CAP_SYS_ADMIN is asked
 * in the initial user namespace, as for adding an override.
 */
void rp_caller_of(const struct sk_buff *skb, struct rp_caller *who)
{
	who->sk = NETLINK_CB(skb).sk;
	who->sys_admin = netlink_capable(skb, CAP_SYS_ADMIN);
}

/* A session's rings: in GET_INFO's answer and the ring commands'. */
int rp_put_ring(struct sk_buff *skb, struct rp_session *s)
{
	struct rp_ring_geometry geo;

	rp_ring_geometry(s, &geo);
	if (nla_put_u32(skb, RAWPROBE_A_NR_RINGS, geo.nr_rings) ||
	    nla_put_u32(skb, RAWPROBE_A_RING_RECORDS, geo.nr_records) ||
	    nla_put_u32(skb, RAWPROBE_A_RING_MODE, geo.mode) ||
	    nla_put_u64_64bit(skb, RAWPROBE_A_RING_BYTES, geo.bytes,
			      RAWPROBE_A_PAD) ||
	    nla_put_u32(skb, RAWPROBE_A_RING_CLOCK, rp_clock_get()) ||
	    nla_put_u32(skb, RAWPROBE_A_TSC_KHZ, rp_clock_tsc_khz()))
		return -EMSGSIZE;
	return 0;
}

int rp_reply_simple(struct genl_info *info, u8 cmd,
		    int (*put)(struct sk_buff *skb))
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put_reply(skb, info, &rp_family, 0, cmd);
	if (!hdr || put(skb)) {
		nlmsg_free(skb);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);
}

int rp_answer_prepare(struct genl_info *info, size_t size,
		      struct rp_answer *ans)
{
	ans->skb = genlmsg_new(size, GFP_KERNEL);
	if (!ans->skb) {
		NL_SET_ERR_MSG(info->extack, "out of memory; nothing changed");
		return -ENOMEM;
	}
	ans->hdr = genlmsg_put_reply(ans->skb, info, &rp_family, 0,
				     info->genlhdr->cmd);
	if (!ans->hdr) {
		nlmsg_free(ans->skb);
		return -EMSGSIZE;
	}
	return 0;
}

void rp_answer_drop(struct rp_answer *ans)
{
	nlmsg_free(ans->skb);
}

/*
 * The change is made: success, even in the unlikely case that the answer
 * does not fit the caller's full receive queue.
 */
int rp_answer_send(struct genl_info *info, struct rp_answer *ans)
{
	genlmsg_end(ans->skb, ans->hdr);
	genlmsg_reply(ans->skb, info);
	return 0;
}

/* An answer that says only "done": drop it if the change failed. */
int rp_answer_done(struct genl_info *info, struct rp_answer *ans,
		   int err)
{
	if (err) {
		rp_answer_drop(ans);
		return err;
	}
	return rp_answer_send(info, ans);
}

/* The index of the spec that failed rides in the extack cookie. */
void rp_batch_blame(struct netlink_ext_ack *extack, int failed)
{
	u32 idx = failed;

	if (failed < 0 || !extack)
		return;
	memcpy(extack->cookie, &idx, sizeof(idx));
	extack->cookie_len = sizeof(idx);
}

static int rp_put_info(struct sk_buff *skb)
{
	if (nla_put_u32(skb, RAWPROBE_A_ABI_VERSION, RAWPROBE_ABI_VERSION) ||
	    nla_put_string(skb, RAWPROBE_A_MODULE_VERSION, RAWPROBE_VERSION) ||
	    nla_put_string(skb, RAWPROBE_A_KERNEL_RELEASE,
			   init_utsname()->release) ||
	    nla_put_u32(skb, RAWPROBE_A_NR_PROBES, rp_probe_count()))
		return -EMSGSIZE;
	return rp_put_ring(skb, rp_session_default());
}

static int rp_cmd_get_info(struct sk_buff *skb, struct genl_info *info)
{
	return rp_reply_simple(info, RAWPROBE_CMD_GET_INFO, rp_put_info);
}

static const struct genl_ops rp_ops[] = {
	{
		.cmd	= RAWPROBE_CMD_GET_INFO,
		.doit	= rp_cmd_get_info,
		.policy	= rp_info_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_PROBE_ADD,
		.doit	= rp_cmd_probe_add,
		.policy	= rp_add_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_PROBE_ADD_BATCH,
		.doit	= rp_cmd_probe_add_batch,
		.policy	= rp_batch_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_PROBE_DEL,
		.doit	= rp_cmd_probe_del,
		.policy	= rp_del_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_PROBE_GET,
		.doit	= rp_cmd_probe_get,
		.start	= rp_probe_dump_start,
		.dumpit	= rp_cmd_probe_dump,
		.policy	= rp_id_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_PROBE_ENABLE,
		.doit	= rp_cmd_probe_enable,
		.policy	= rp_id_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_PROBE_DISABLE,
		.doit	= rp_cmd_probe_enable,
		.policy	= rp_id_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_STATS_RESET,
		.doit	= rp_cmd_stats_reset,
		.policy	= rp_id_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_RING_GET,
		.doit	= rp_cmd_ring_get,
		.start	= rp_ring_dump_start,
		.dumpit	= rp_cmd_ring_dump,
		.policy	= rp_ring_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_RING_NEW,
		.doit	= rp_cmd_ring_new,
		.policy	= rp_ring_new_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_RING_DEL,
		.doit	= rp_cmd_ring_del,
		.policy	= rp_ring_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_RING_SET,
		.doit	= rp_cmd_ring_set,
		.policy	= rp_ring_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
	{
		.cmd	= RAWPROBE_CMD_AGG_READ,
		.start	= rp_agg_dump_start,
		.dumpit	= rp_cmd_agg_dump,
		.done	= rp_agg_dump_done,
		.policy	= rp_id_policy,
		.maxattr = RAWPROBE_A_MAX,
	},
};

static const struct genl_multicast_group rp_mcgrps[] = {
	{ .name = RAWPROBE_GENL_MCGRP, .flags = GENL_MCAST_CAP_SYS_ADMIN },
};

struct genl_family rp_family __ro_after_init = {
	.name		= RAWPROBE_GENL_NAME,
	.version	= RAWPROBE_GENL_VERSION,
	.maxattr	= RAWPROBE_A_MAX,
	.module		= THIS_MODULE,
	.parallel_ops	= true,
	.ops		= rp_ops,
	.n_ops		= ARRAY_SIZE(rp_ops),
	.mcgrps		= rp_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(rp_mcgrps),
};

int rp_genl_init(void)
{
	int err = genl_register_family(&rp_family);

	if (err)
		return err;
	/* the probe events' notifier is genl_probe.c's: it describes a probe */
	err = rp_probe_events_register(&rp_genl_events_nb);
	if (err)
		genl_unregister_family(&rp_family);
	return err;
}

void rp_genl_exit(void)
{
	rp_probe_events_unregister(&rp_genl_events_nb);
	genl_unregister_family(&rp_family);
}
