// SPDX-License-Identifier: GPL-2.0
/*
 * A pair's attributes, both ways (genl_probe_attrs.c calls here):
 * RAWPROBE_A_PAIR's nested policy and parsing into the spec, and, in a
 * probe's description, the pair as it was given and its table's counts
 * (RAWPROBE_A_PAIR_STATS). What a pair may be is pair.c's to check.
 */
#include <net/genetlink.h>
#include "genl_int.h"
#include "pair.h"

/* Not const: 6.1's nla_policy.range is a plain pointer. */
static struct netlink_range_validation rp_pair_keys_range = {
	.min = 1,
	.max = RAWPROBE_AGG_KEYS_MAX,
};

const struct nla_policy rp_pair_policy[RAWPROBE_PAIR_MAX + 1] = {
	[RAWPROBE_PAIR_ROLE]	= NLA_POLICY_RANGE(NLA_U8, RAWPROBE_PAIR_START,
						   RAWPROBE_PAIR_END),
	[RAWPROBE_PAIR_KEY]	= NLA_POLICY_RANGE(NLA_U8, 1,
						   __RAWPROBE_AGG_KEY_MAX - 1),
	[RAWPROBE_PAIR_KEY_ARG]	= NLA_POLICY_MAX(NLA_U8, RAWPROBE_MAX_ARGS - 1),
	[RAWPROBE_PAIR_MAX_KEYS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							 &rp_pair_keys_range),
	[RAWPROBE_PAIR_EXPIRE_MS] = { .type = NLA_U32 },
	[RAWPROBE_PAIR_CARRY_ARGS] = NLA_POLICY_MAX(NLA_U8,
						    RAWPROBE_PAIR_CARRY_ARGS_MAX),
};

int rp_parse_pair(struct nlattr **a, struct netlink_ext_ack *extack,
		  struct rp_probe_spec *s)
{
	struct nlattr *tb[RAWPROBE_PAIR_MAX + 1];
	struct rp_pair_spec *ps = &s->pair;
	int err;

	if (!a[RAWPROBE_A_PAIR])
		return 0;
	err = nla_parse_nested(tb, RAWPROBE_PAIR_MAX, a[RAWPROBE_A_PAIR],
			       rp_pair_policy, extack);
	if (err)
		return err;
	if (!tb[RAWPROBE_PAIR_ROLE] || !tb[RAWPROBE_PAIR_KEY]) {
		NL_SET_ERR_ATTR_MISS(extack, a[RAWPROBE_A_PAIR],
				     tb[RAWPROBE_PAIR_ROLE] ? RAWPROBE_PAIR_KEY :
				     RAWPROBE_PAIR_ROLE);
		NL_SET_ERR_MSG(extack, "a pair's probe needs its role and its key");
		return -EINVAL;
	}
	ps->role = nla_get_u8(tb[RAWPROBE_PAIR_ROLE]);
	ps->key = nla_get_u8(tb[RAWPROBE_PAIR_KEY]);
	if (tb[RAWPROBE_PAIR_KEY_ARG])
		ps->key_arg = nla_get_u8(tb[RAWPROBE_PAIR_KEY_ARG]);
	if (tb[RAWPROBE_PAIR_MAX_KEYS])
		ps->max_keys = nla_get_u32(tb[RAWPROBE_PAIR_MAX_KEYS]);
	ps->expire_ms = tb[RAWPROBE_PAIR_EXPIRE_MS] ?
			nla_get_u32(tb[RAWPROBE_PAIR_EXPIRE_MS]) :
			RAWPROBE_PAIR_EXPIRE_DEFAULT;
	if (tb[RAWPROBE_PAIR_CARRY_ARGS])
		ps->carry_args = nla_get_u8(tb[RAWPROBE_PAIR_CARRY_ARGS]);
	return 0;
}

/*
 * Each count a call of its own, with its attribute in it: what
 * tests/ynl/check-spec.py reads to check the spec's types against.
 */
static int rp_put_pair_stats(struct sk_buff *skb, struct rawprobe_pair *pair)
{
	struct rp_pair_stats s;
	struct nlattr *nest;
	u64 pending;

	rp_pair_read_stats(pair, &s, &pending);
	nest = nla_nest_start(skb, RAWPROBE_A_PAIR_STATS);
	if (!nest ||
	    nla_put_u64_64bit(skb, RAWPROBE_PAIR_STAT_STARTS, s.starts,
			      RAWPROBE_PAIR_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_PAIR_STAT_MATCHED, s.matched,
			      RAWPROBE_PAIR_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_PAIR_STAT_NO_START, s.no_start,
			      RAWPROBE_PAIR_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_PAIR_STAT_FULL, s.full,
			      RAWPROBE_PAIR_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_PAIR_STAT_EXPIRED, s.expired,
			      RAWPROBE_PAIR_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_PAIR_STAT_REPLACED, s.replaced,
			      RAWPROBE_PAIR_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_PAIR_STAT_PENDING, pending,
			      RAWPROBE_PAIR_STAT_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The pair as it was given, and its table's counts. */
int rp_put_pair(struct sk_buff *skb, struct rawprobe_probe *p)
{
	const struct rp_pair_spec *ps = &p->spec.pair;
	struct nlattr *nest;

	if (!ps->role)
		return 0;
	nest = nla_nest_start(skb, RAWPROBE_A_PAIR);
	if (!nest ||
	    nla_put_u8(skb, RAWPROBE_PAIR_ROLE, ps->role) ||
	    nla_put_u8(skb, RAWPROBE_PAIR_KEY, ps->key) ||
	    (ps->key == RAWPROBE_AGG_KEY_ARG &&
	     nla_put_u8(skb, RAWPROBE_PAIR_KEY_ARG, ps->key_arg)) ||
	    (ps->max_keys &&
	     nla_put_u32(skb, RAWPROBE_PAIR_MAX_KEYS, ps->max_keys)) ||
	    nla_put_u32(skb, RAWPROBE_PAIR_EXPIRE_MS, ps->expire_ms) ||
	    (ps->carry_args &&
	     nla_put_u8(skb, RAWPROBE_PAIR_CARRY_ARGS, ps->carry_args))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return p->pair ? rp_put_pair_stats(skb, p->pair) : 0;
}
