// SPDX-License-Identifier: GPL-2.0
/*
 * The ring commands of the generic netlink family (genl.c): RING_GET and
 * RING_SET (size, mode, clock), with their policy. The rings' geometry
 * in attributes (rp_put_ring()) is genl.c's: GET_INFO's answer has it too.
 */
#include <linux/capability.h>
#include <net/genetlink.h>
#include "core.h"
#include "genl_int.h"

/* Not const: 6.1's nla_policy.range is a plain pointer. */
static struct netlink_range_validation rp_ring_range = {
	.min = RAWPROBE_RING_MIN,
	.max = RAWPROBE_RING_MAX,
};

const struct nla_policy rp_ring_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_RING_RECORDS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &rp_ring_range),
	[RAWPROBE_A_RING_MODE]	= NLA_POLICY_MAX(NLA_U32,
						 RAWPROBE_RING_OVERWRITE),
	[RAWPROBE_A_RING_CLOCK]	= NLA_POLICY_MAX(NLA_U32, RAWPROBE_CLOCK_TSC),
};

int rp_cmd_ring_get(struct sk_buff *skb, struct genl_info *info)
{
	return rp_reply_simple(info, RAWPROBE_CMD_RING_GET, rp_put_ring);
}

static int rp_ring_set_geometry(struct nlattr **a,
				struct netlink_ext_ack *extack)
{
	u32 records = RP_RING_KEEP, mode = RP_RING_KEEP;
	int err;

	/* What is not asked for is read under the resize's lock, not here. */
	if (a[RAWPROBE_A_RING_RECORDS])
		records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
	if (a[RAWPROBE_A_RING_MODE])
		mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	err = rp_ring_resize(records, mode);
	if (err == -EBUSY)
		NL_SET_ERR_MSG(extack,
			       "a reader has the rings mapped; stop it first");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG(extack, "ring size must be a power of two");
	else if (err == -E2BIG)
		NL_SET_ERR_MSG(extack,
			       "the rings of all CPUs would take more than a quarter of RAM: ask for fewer records");
	else if (err == -ENOMEM)
		NL_SET_ERR_MSG(extack,
			       "not enough memory for the rings (or over the caller's memory cgroup limit); the old rings are kept");
	else if (err == -EINTR)
		NL_SET_ERR_MSG(extack, "interrupted; the old rings are kept");
	return err;
}

/* Only with no probe: a kretprobe's entry and return read one clock. */
static int rp_ring_set_clock(u32 clock, struct netlink_ext_ack *extack)
{
	if (clock == rp_clock_get())
		return 0;
	return rp_registry_while_empty(rp_clock_set, clock, extack);
}

int rp_cmd_ring_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct rp_answer ans;
	int err;

	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "changing the rings needs CAP_SYS_ADMIN: they take memory on every CPU");
		return -EPERM;
	}
	if (a[RAWPROBE_A_RING_CLOCK] &&
	    (a[RAWPROBE_A_RING_RECORDS] || a[RAWPROBE_A_RING_MODE])) {
		/* Two conditions: one change could fail after the other. */
		NL_SET_ERR_MSG(info->extack,
			       "set the clock in a request of its own");
		return -EINVAL;
	}
	err = rp_answer_prepare(info, NLMSG_GOODSIZE, &ans);
	if (err)
		return err;
	if (a[RAWPROBE_A_RING_CLOCK])
		err = rp_ring_set_clock(nla_get_u32(a[RAWPROBE_A_RING_CLOCK]),
					info->extack);
	else
		err = rp_ring_set_geometry(a, info->extack);
	if (err) {
		rp_answer_drop(&ans);
		return err;
	}
	rp_put_ring(ans.skb);	/* a few words in a fresh NLMSG_GOODSIZE */
	return rp_answer_send(info, &ans);
}
