// SPDX-License-Identifier: GPL-2.0
/*
 * RAWPROBE_A_PAIR both ways, and a pair's counts (lib/pair_nl.h).
 */
#include <errno.h>
#include <string.h>
#include <netlink/attr.h>
#include "lib/pair_nl.h"

int rp_pair_put(struct nl_msg *msg, const struct rp_pair_req *p)
{
	struct nlattr *nest;

	if (!p->role)
		return 0;
	nest = nla_nest_start(msg, RAWPROBE_A_PAIR);
	if (!nest || nla_put_u8(msg, RAWPROBE_PAIR_ROLE, p->role) ||
	    nla_put_u8(msg, RAWPROBE_PAIR_KEY, p->key) ||
	    (p->key == RAWPROBE_AGG_KEY_ARG &&
	     nla_put_u8(msg, RAWPROBE_PAIR_KEY_ARG, p->key_arg)) ||
	    (p->max_keys &&
	     nla_put_u32(msg, RAWPROBE_PAIR_MAX_KEYS, p->max_keys)) ||
	    nla_put_u32(msg, RAWPROBE_PAIR_EXPIRE_MS, p->expire_ms) ||
	    (p->carry_args &&
	     nla_put_u8(msg, RAWPROBE_PAIR_CARRY_ARGS, p->carry_args)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static uint64_t rp_pair_stat(struct nlattr **s, int i)
{
	return s[i] ? nla_get_u64(s[i]) : 0;
}

void rp_pair_from_attrs(struct nlattr **a, struct rp_pair_req *p,
			struct rp_pair_stats *st)
{
	struct nlattr *tb[RAWPROBE_PAIR_MAX + 1];
	struct nlattr *s[RAWPROBE_PAIR_STAT_MAX + 1];

	memset(p, 0, sizeof(*p));
	memset(st, 0, sizeof(*st));
	if (a[RAWPROBE_A_PAIR] &&
	    !nla_parse_nested(tb, RAWPROBE_PAIR_MAX, a[RAWPROBE_A_PAIR], NULL) &&
	    tb[RAWPROBE_PAIR_ROLE] && tb[RAWPROBE_PAIR_KEY]) {
		p->role = nla_get_u8(tb[RAWPROBE_PAIR_ROLE]);
		p->key = nla_get_u8(tb[RAWPROBE_PAIR_KEY]);
		if (tb[RAWPROBE_PAIR_KEY_ARG])
			p->key_arg = nla_get_u8(tb[RAWPROBE_PAIR_KEY_ARG]);
		if (tb[RAWPROBE_PAIR_MAX_KEYS])
			p->max_keys = nla_get_u32(tb[RAWPROBE_PAIR_MAX_KEYS]);
		if (tb[RAWPROBE_PAIR_EXPIRE_MS])
			p->expire_ms = nla_get_u32(tb[RAWPROBE_PAIR_EXPIRE_MS]);
		if (tb[RAWPROBE_PAIR_CARRY_ARGS])
			p->carry_args = nla_get_u8(tb[RAWPROBE_PAIR_CARRY_ARGS]);
	}
	if (!a[RAWPROBE_A_PAIR_STATS] ||
	    nla_parse_nested(s, RAWPROBE_PAIR_STAT_MAX,
			     a[RAWPROBE_A_PAIR_STATS], NULL))
		return;
	st->set = true;
	st->starts = rp_pair_stat(s, RAWPROBE_PAIR_STAT_STARTS);
	st->matched = rp_pair_stat(s, RAWPROBE_PAIR_STAT_MATCHED);
	st->no_start = rp_pair_stat(s, RAWPROBE_PAIR_STAT_NO_START);
	st->full = rp_pair_stat(s, RAWPROBE_PAIR_STAT_FULL);
	st->expired = rp_pair_stat(s, RAWPROBE_PAIR_STAT_EXPIRED);
	st->replaced = rp_pair_stat(s, RAWPROBE_PAIR_STAT_REPLACED);
	st->pending = rp_pair_stat(s, RAWPROBE_PAIR_STAT_PENDING);
}
