/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family's own interfaces, between its files:
 *   genl.c              the family: operations table, multicast group,
 *                       init/exit, GET_INFO; the helpers every handler
 *                       uses (privileges, answers, the extack cookie)
 *   genl_probe.c        the probe commands (add, batch, del, enable,
 *                       disable, get and dump, stats reset) and the
 *                       probe events
 *   genl_probe_attrs.c  a probe in attributes, both ways: PROBE_ADD's
 *                       policies and their parsing into struct
 *                       rp_probe_spec, and a probe's description for
 *                       answers and events
 *   genl_pair.c         a pair's attributes, both ways (called by
 *                       genl_probe_attrs.c)
 *   genl_ring.c         the sessions: RING_NEW, RING_DEL, RING_GET (and
 *                       its dump), RING_SET
 *   genl_agg.c          AGG_READ's dump: an aggregating probe's interval
 *
 * Calls go one way: the command files call genl.c's helpers and the core
 * below (core.h), genl_probe.c calls genl_probe_attrs.c, which calls
 * genl_pair.c, and no other
 * command file calls another. genl.c names their functions in one place only,
 * the operations table (and the events notifier it registers at init).
 */
#ifndef _RAWPROBE_GENL_INT_H
#define _RAWPROBE_GENL_INT_H

#include <net/genetlink.h>
#include "core.h"

/* genl.c: the family, and what every handler uses */
extern struct genl_family rp_family;

int rp_require_admin(const struct sk_buff *skb,
		     struct netlink_ext_ack *extack);
int rp_require_read_caps(const struct sk_buff *skb,
			 const struct rp_probe_spec *specs,
			 unsigned int n, struct netlink_ext_ack *extack);
int rp_require_override_caps(const struct sk_buff *skb,
			     const struct rp_probe_spec *specs,
			     unsigned int n,
			     struct netlink_ext_ack *extack);
void rp_caller_of(const struct sk_buff *skb, struct rp_caller *who);

int rp_put_ring(struct sk_buff *skb, struct rp_session *s);
int rp_reply_simple(struct genl_info *info, u8 cmd,
		    int (*put)(struct sk_buff *skb));

/*
 * The answer to a change is allocated before the change is made, so that
 * a change once made is always answered and a caller that gets no answer
 * knows nothing changed. (The ack that follows may still be lost to
 * memory pressure: the answer is the verdict; userctl/lib/nl.c reads it so.)
 */
struct rp_answer {
	struct sk_buff *skb;
	void *hdr;
};

int rp_answer_prepare(struct genl_info *info, size_t size,
		      struct rp_answer *ans);
void rp_answer_drop(struct rp_answer *ans);
int rp_answer_send(struct genl_info *info, struct rp_answer *ans);
int rp_answer_done(struct genl_info *info, struct rp_answer *ans, int err);
void rp_batch_blame(struct netlink_ext_ack *extack, int failed);

/* genl_probe_attrs.c: a probe in attributes, both ways */
extern const struct nla_policy rp_add_policy[RAWPROBE_A_MAX + 1];
extern const struct nla_policy rp_batch_policy[RAWPROBE_A_MAX + 1];

int rp_parse_spec(struct nlattr **a, struct nlattr *where,
		  struct netlink_ext_ack *extack, struct rp_probe_spec *s);
int rp_parse_batch(struct genl_info *info, struct rp_probe_spec *specs,
		   unsigned int *n);
int rp_put_probe_attrs(struct sk_buff *skb, struct rawprobe_probe *p);

/* genl_pair.c: RAWPROBE_A_PAIR and RAWPROBE_A_PAIR_STATS */
extern const struct nla_policy rp_pair_policy[RAWPROBE_PAIR_MAX + 1];

int rp_parse_pair(struct nlattr **a, struct netlink_ext_ack *extack,
		  struct rp_probe_spec *s);
int rp_put_pair(struct sk_buff *skb, struct rawprobe_probe *p);

/* genl_probe.c: the probe commands and events */
extern const struct nla_policy rp_id_policy[RAWPROBE_A_MAX + 1];
extern const struct nla_policy rp_del_policy[RAWPROBE_A_MAX + 1];
extern struct notifier_block rp_genl_events_nb;

int rp_cmd_probe_add(struct sk_buff *skb, struct genl_info *info);
int rp_cmd_probe_add_batch(struct sk_buff *skb, struct genl_info *info);
int rp_cmd_probe_del(struct sk_buff *skb, struct genl_info *info);
int rp_cmd_probe_get(struct sk_buff *skb, struct genl_info *info);
int rp_probe_dump_start(struct netlink_callback *cb);
int rp_cmd_probe_dump(struct sk_buff *skb, struct netlink_callback *cb);
int rp_cmd_probe_enable(struct sk_buff *skb, struct genl_info *info);
int rp_cmd_stats_reset(struct sk_buff *skb, struct genl_info *info);

/* genl_ring.c */
extern const struct nla_policy rp_ring_policy[RAWPROBE_A_MAX + 1];
extern const struct nla_policy rp_ring_new_policy[RAWPROBE_A_MAX + 1];

int rp_cmd_ring_get(struct sk_buff *skb, struct genl_info *info);
int rp_cmd_ring_set(struct sk_buff *skb, struct genl_info *info);
int rp_ring_dump_start(struct netlink_callback *cb);
int rp_cmd_ring_dump(struct sk_buff *skb, struct netlink_callback *cb);
int rp_cmd_ring_new(struct sk_buff *skb, struct genl_info *info);
int rp_cmd_ring_del(struct sk_buff *skb, struct genl_info *info);

/* genl_agg.c */
int rp_agg_dump_start(struct netlink_callback *cb);
int rp_cmd_agg_dump(struct sk_buff *skb, struct netlink_callback *cb);
int rp_agg_dump_done(struct netlink_callback *cb);

#endif /* _RAWPROBE_GENL_INT_H */
