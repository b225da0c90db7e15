// SPDX-License-Identifier: GPL-2.0
/*
 * AGG_READ, the generic netlink family's (genl.c) read of an aggregating
 * probe's table: a dump whose rounds send the interval taken, its
 * entries and the stacks they name. Its request is a probe id, with the
 * policy of the probe commands (rp_id_policy, genl_probe.c).
 */
#include <net/genetlink.h>
#include "agg.h"
#include "core.h"
#include "compat.h"
#include "genl_int.h"

/* An interval of an aggregating probe (AGG_READ's first message). */
static int rp_agg_put_interval(struct sk_buff *skb,
			const struct rp_agg_snapshot *snap)
{
	struct nlattr *nest = nla_nest_start(skb, RAWPROBE_A_AGG_INTERVAL);

	if (!nest ||
	    nla_put_u64_64bit(skb, RAWPROBE_AGG_I_START_NS, snap->start_ns,
			      RAWPROBE_AGG_I_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_AGG_I_END_NS, snap->end_ns,
			      RAWPROBE_AGG_I_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_AGG_I_HITS, snap->hits,
			      RAWPROBE_AGG_I_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_AGG_I_DROPPED, snap->dropped,
			      RAWPROBE_AGG_I_PAD) ||
	    nla_put_u32(skb, RAWPROBE_AGG_I_KEY_WORDS, snap->key_words) ||
	    nla_put_u32(skb, RAWPROBE_AGG_I_VAL_WORDS, snap->val_words) ||
	    (snap->stack_word >= 0 &&
	     nla_put_u32(skb, RAWPROBE_AGG_I_STACK_WORD, snap->stack_word)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The entry at *pos: -EMSGSIZE when the skb is full, -ENOENT at the end */
static int rp_agg_put_entry(struct sk_buff *skb,
			    const struct rp_agg_snapshot *snap, u32 *pos)
{
	u32 words = snap->key_words + snap->val_words;

	if (*pos >= snap->n)
		return -ENOENT;
	if (nla_put(skb, RAWPROBE_A_AGG_ENTRY, words * sizeof(u64),
		    &snap->words[(size_t)*pos * words]))
		return -EMSGSIZE;
	(*pos)++;
	return 0;
}

/* The stack at *pos, as AGG_STACK has it: the id, then the frames. */
static int rp_agg_put_stack(struct sk_buff *skb,
			    const struct rp_agg_snapshot *snap, u32 *pos)
{
	const u64 *st = &snap->stacks[(size_t)*pos * RP_AGG_STACK_WORDS];
	u64 n;
	struct nlattr *a;

	if (*pos >= snap->nstacks)
		return -ENOENT;
	n = min_t(u64, st[1], RAWPROBE_STACK_MAX);
	a = nla_reserve(skb, RAWPROBE_A_AGG_STACK, (1 + n) * sizeof(u64));
	if (!a)
		return -EMSGSIZE;
	memcpy(nla_data(a), st, sizeof(u64));
	memcpy((u64 *)nla_data(a) + 1, st + 2, n * sizeof(u64));
	(*pos)++;
	return 0;
}

/*
 * Items from *pos on into nest (NULL: no room for it): -EMSGSIZE when
 * the message is full, -ENOENT when all are in.
 */
static int rp_agg_put_items(struct sk_buff *skb, struct nlattr *nest,
			    const struct rp_agg_snapshot *snap, u32 *pos,
			    int (*put)(struct sk_buff *skb,
				       const struct rp_agg_snapshot *snap,
				       u32 *pos))
{
	int err;

	if (!nest)
		return -EMSGSIZE;
	do {
		err = put(skb, snap, pos);
	} while (!err);
	nla_nest_end(skb, nest);
	return err;
}

/*
 * AGG_READ: the read ends the interval at .start, into a snapshot that
 * the rounds of the dump send (the interval first, then the entries,
 * then the stacks they name, as many as a message holds) and .done
 * frees. cb->args[0]: the next entry; cb->args[1]: the snapshot;
 * cb->args[2]: enum rp_agg_phase; cb->args[3]: the next stack.
 */
int rp_agg_dump_start(struct netlink_callback *cb)
{
	struct nlattr **a = rp_dump_attrs(cb);
	struct rp_agg_snapshot *snap;
	int err;

	err = rp_require_admin(cb->skb, cb->extack);
	if (err)
		return err;
	if (!a[RAWPROBE_A_PROBE_ID]) {
		NL_SET_ERR_MSG(cb->extack, "the probe id is missing");
		return -EINVAL;
	}
	err = rp_probe_agg_read(nla_get_u32(a[RAWPROBE_A_PROBE_ID]),
				NETLINK_CB(cb->skb).sk, &snap, cb->extack);
	if (!err)
		cb->args[1] = (long)snap;
	return err;
}

int rp_agg_dump_done(struct netlink_callback *cb)
{
	rp_agg_snapshot_free((struct rp_agg_snapshot *)cb->args[1]);
	return 0;
}

/* What an AGG_READ dump sends next (cb->args[2]). */
enum rp_agg_phase {
	RP_AGG_SEND_INTERVAL,
	RP_AGG_SEND_ENTRIES,		/* from cb->args[0] */
	RP_AGG_SEND_STACKS,		/* from cb->args[3] */
	RP_AGG_SENT,
};

/* This round's share of entries, then of stacks: the phase they end in */
static long rp_agg_dump_items(struct sk_buff *skb, struct netlink_callback *cb,
			      const struct rp_agg_snapshot *snap, long phase)
{
	u32 pos = cb->args[0], spos = cb->args[3];

	if (phase == RP_AGG_SEND_ENTRIES &&
	    rp_agg_put_items(skb, nla_nest_start(skb, RAWPROBE_A_AGG_ENTRIES),
			     snap, &pos, rp_agg_put_entry) == -ENOENT)
		phase = snap->nstacks ? RP_AGG_SEND_STACKS : RP_AGG_SENT;
	else if (phase == RP_AGG_SEND_STACKS &&
		 rp_agg_put_items(skb,
				  nla_nest_start(skb, RAWPROBE_A_AGG_STACKS),
				  snap, &spos, rp_agg_put_stack) == -ENOENT)
		phase = RP_AGG_SENT;
	cb->args[0] = pos;
	cb->args[3] = spos;
	return phase;
}

int rp_cmd_agg_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct rp_agg_snapshot *snap = (void *)cb->args[1];
	long phase = cb->args[2], prev;
	void *hdr;

	if (phase == RP_AGG_SENT)
		return 0;		/* all sent: the dump ends */
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &rp_family, NLM_F_MULTI, RAWPROBE_CMD_AGG_READ);
	if (!hdr)
		return -EMSGSIZE;
	if (phase == RP_AGG_SEND_INTERVAL) {
		if (rp_agg_put_interval(skb, snap)) {
			genlmsg_cancel(skb, hdr);
			return -EMSGSIZE;
		}
		phase = RP_AGG_SEND_ENTRIES;
	}
	/* on to the stacks in this message if the entries left room */
	do {
		prev = phase;
		phase = rp_agg_dump_items(skb, cb, snap, phase);
	} while (phase != prev && phase != RP_AGG_SENT);
	cb->args[2] = phase;
	genlmsg_end(skb, hdr);
	return skb->len;
}
