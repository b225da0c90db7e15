// SPDX-License-Identifier: GPL-2.0
/*
 * The ring commands of the generic netlink family (genl.c), on sessions
 * (session.h): RING_NEW and RING_DEL make and end them, RING_GET
 * describes one (or, dumped, all), RING_SET resizes one or changes the
 * clock. The rings' geometry in attributes (rp_put_ring()) is genl.c's:
 * GET_INFO's answer has the default session's.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <net/genetlink.h>
#include "core.h"
#include "genl_int.h"
#include "session.h"

/* Not const: 6.1's nla_policy.range is a plain pointer. */
static struct netlink_range_validation rp_ring_range = {
	.min = RAWPROBE_RING_MIN,
	.max = RAWPROBE_RING_MAX,
};

#define RP_SESSION_POLICY						\
	[RAWPROBE_A_SESSION]	= { .type = NLA_U32 },			\
	[RAWPROBE_A_SESSION_NAME] = { .type = NLA_NUL_STRING,		\
				      .len = RAWPROBE_SESSION_NAME_LEN - 1 }

const struct nla_policy rp_ring_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_RING_RECORDS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &rp_ring_range),
	[RAWPROBE_A_RING_MODE]	= NLA_POLICY_MAX(NLA_U32,
						 RAWPROBE_RING_OVERWRITE),
	[RAWPROBE_A_RING_CLOCK]	= NLA_POLICY_MAX(NLA_U32, RAWPROBE_CLOCK_AUTO),
	RP_SESSION_POLICY,
};

/* RING_NEW: records 0 is the automatic size. */
static struct netlink_range_validation rp_ring_new_range = {
	.min = 0,
	.max = RAWPROBE_RING_MAX,
};

const struct nla_policy rp_ring_new_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_RING_RECORDS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &rp_ring_new_range),
	[RAWPROBE_A_RING_MODE]	= NLA_POLICY_MAX(NLA_U32,
						 RAWPROBE_RING_OVERWRITE),
	RP_SESSION_POLICY,
};

/* A session in attributes: RING_GET's and RING_NEW's answers. */
static int rp_put_session(struct sk_buff *skb, struct rp_session *s)
{
	struct rp_ring_geometry geo;

	rp_ring_geometry(s, &geo);
	if (rp_put_ring(skb, s) ||
	    nla_put_u32(skb, RAWPROBE_A_SESSION, s->id) ||
	    nla_put_u32(skb, RAWPROBE_A_SESSION_UID,
			from_kuid_munged(current_user_ns(), s->uid)) ||
	    nla_put_u32(skb, RAWPROBE_A_NR_PROBES, geo.nr_probes) ||
	    nla_put_u32(skb, RAWPROBE_A_SESSION_READERS, geo.readers) ||
	    nla_put_u64_64bit(skb, RAWPROBE_A_SESSION_LOST, geo.lost,
			      RAWPROBE_A_PAD))
		return -EMSGSIZE;
	if (s->name[0] &&
	    nla_put_string(skb, RAWPROBE_A_SESSION_NAME, s->name))
		return -EMSGSIZE;
	return 0;
}

/*
 * The session a request names (SESSION or SESSION_NAME; neither: the
 * default one), referenced. Only its owner or an administrator may
 * change it or use it, when use is set.
 */
static struct rp_session *rp_session_of(const struct sk_buff *skb,
					struct genl_info *info, bool use)
{
	struct nlattr **a = info->attrs;
	struct rp_session *s;

	if (a[RAWPROBE_A_SESSION] && a[RAWPROBE_A_SESSION_NAME]) {
		NL_SET_ERR_MSG(info->extack,
			       "name a session by id or by name, not both");
		return ERR_PTR(-EINVAL);
	}
	s = rp_session_find(a[RAWPROBE_A_SESSION] ?
			    nla_get_u32(a[RAWPROBE_A_SESSION]) :
			    RAWPROBE_SESSION_DEFAULT,
			    a[RAWPROBE_A_SESSION_NAME] ?
			    nla_data(a[RAWPROBE_A_SESSION_NAME]) : NULL,
			    info->extack);
	if (IS_ERR(s) || !use ||
	    rp_session_may_use(s, netlink_capable(skb, CAP_SYS_ADMIN)))
		return s;
	rp_session_put(s);
	NL_SET_ERR_MSG(info->extack,
		       "the session is another user's: only its owner or CAP_SYS_ADMIN may use it");
	return ERR_PTR(-EPERM);
}

static int rp_reply_session(struct genl_info *info, struct rp_session *s)
{
	struct rp_answer ans;
	int err;

	err = rp_answer_prepare(info, NLMSG_GOODSIZE, &ans);
	if (err)
		return err;
	if (rp_put_session(ans.skb, s)) {
		rp_answer_drop(&ans);
		return -EMSGSIZE;
	}
	return rp_answer_send(info, &ans);
}

int rp_cmd_ring_get(struct sk_buff *skb, struct genl_info *info)
{
	struct rp_session *s;
	int err;

	/* The default session's geometry is everyone's; others' are not. */
	if ((info->attrs[RAWPROBE_A_SESSION] ||
	     info->attrs[RAWPROBE_A_SESSION_NAME]) &&
	    rp_require_admin(skb, info->extack))
		return -EPERM;
	s = rp_session_of(skb, info, false);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = rp_reply_session(info, s);
	rp_session_put(s);
	return err;
}

int rp_ring_dump_start(struct netlink_callback *cb)
{
	return rp_require_admin(cb->skb, cb->extack);
}

struct rp_ring_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
};

static int rp_ring_dump_one(struct rp_session *s, void *ctx)
{
	struct rp_ring_dump *d = ctx;
	void *hdr;

	hdr = genlmsg_put(d->skb, NETLINK_CB(d->cb->skb).portid,
			  d->cb->nlh->nlmsg_seq, &rp_family, NLM_F_MULTI,
			  RAWPROBE_CMD_RING_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (rp_put_session(d->skb, s)) {
		genlmsg_cancel(d->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(d->skb, hdr);
	return 0;
}

int rp_cmd_ring_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct rp_ring_dump d = { .skb = skb, .cb = cb };
	u32 pos = cb->args[0];
	int err;

	err = rp_session_walk(&pos, rp_ring_dump_one, &d);
	cb->args[0] = pos;
	/* A full skb ends this round; the core calls us again. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/*
 * A named session outlives its maker and holds memory on every CPU, as
 * `ring set` does: CAP_SYS_ADMIN's. An unnamed one is a command's, gone
 * with its socket: whoever may add probes may make one.
 */
int rp_cmd_ring_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	const char *name = NULL;
	struct rp_owner *own = NULL;
	struct rp_session *s;
	struct rp_answer ans;
	u32 records = 0, mode = RP_RING_KEEP;
	int err;

	err = rp_require_admin(skb, info->extack);
	if (err)
		return err;
	if (a[RAWPROBE_A_SESSION]) {
		NL_SET_ERR_MSG(info->extack,
			       "a new session gets its id from the kernel");
		return -EINVAL;
	}
	if (a[RAWPROBE_A_SESSION_NAME]) {
		name = nla_data(a[RAWPROBE_A_SESSION_NAME]);
		if (!name[0]) {
			NL_SET_ERR_MSG(info->extack, "a session name is not empty");
			return -EINVAL;
		}
		if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
			NL_SET_ERR_MSG(info->extack,
				       "a named session stays after its maker and takes memory on every CPU: it needs CAP_SYS_ADMIN");
			return -EPERM;
		}
	} else {
		own = rp_owner_get(NETLINK_CB(skb).sk, info->snd_portid);
		if (!own) {
			NL_SET_ERR_MSG(info->extack, "out of memory");
			return -ENOMEM;
		}
	}
	if (a[RAWPROBE_A_RING_RECORDS])
		records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
	if (records && rp_ring_check_size(records) == -EINVAL) {
		NL_SET_ERR_MSG(info->extack,
			       "ring size must be a power of two of at least a page");
		return -EINVAL;
	}
	if (a[RAWPROBE_A_RING_MODE])
		mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	/* The answer before the change: made, it is always answered. */
	err = rp_answer_prepare(info, NLMSG_GOODSIZE, &ans);
	if (err)
		return err;
	s = rp_session_new(name, records, mode, own, info->extack);
	if (IS_ERR(s)) {
		rp_answer_drop(&ans);
		return PTR_ERR(s);
	}
	rp_put_session(ans.skb, s);	/* a few words in NLMSG_GOODSIZE */
	err = rp_answer_send(info, &ans);
	rp_session_put(s);	/* the table keeps its own */
	return err;
}

int rp_cmd_ring_del(struct sk_buff *skb, struct genl_info *info)
{
	struct rp_session *s;
	struct rp_answer ans;
	int err;

	err = rp_require_admin(skb, info->extack);
	if (err)
		return err;
	if (!info->attrs[RAWPROBE_A_SESSION] &&
	    !info->attrs[RAWPROBE_A_SESSION_NAME]) {
		NL_SET_ERR_MSG(info->extack, "which session?");
		return -EINVAL;
	}
	s = rp_session_of(skb, info, true);
	if (IS_ERR(s))
		return PTR_ERR(s);
	if (s->id == RAWPROBE_SESSION_DEFAULT) {
		NL_SET_ERR_MSG(info->extack, "the default session stays until rmmod");
		err = -EINVAL;
		goto out;
	}
	if (!s->name[0]) {
		NL_SET_ERR_MSG(info->extack,
			       "a command's session ends with the command");
		err = -EINVAL;
		goto out;
	}
	err = rp_answer_prepare(info, NLMSG_GOODSIZE, &ans);
	if (err)
		goto out;
	err = rp_answer_done(info, &ans,
			     rp_session_del_unused(s, info->extack));
out:
	rp_session_put(s);
	return err;
}

static int rp_ring_set_geometry(struct rp_session *s, struct nlattr **a,
				struct netlink_ext_ack *extack)
{
	u32 records = RP_RING_KEEP, mode = RP_RING_KEEP;
	int err;

	/* What is not asked for is read under the resize's lock, not here. */
	if (a[RAWPROBE_A_RING_RECORDS])
		records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
	if (a[RAWPROBE_A_RING_MODE])
		mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	err = rp_ring_resize(s, records, mode);
	if (err == -EBUSY)
		NL_SET_ERR_MSG(extack,
			       "a reader has the rings mapped; stop it first");
	else if (err == -EADDRINUSE)
		NL_SET_ERR_MSG(extack,
			       "probes write into these rings; remove them first");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG(extack, "ring size must be a power of two");
	else if (err == -E2BIG)
		NL_SET_ERR_MSG(extack,
			       "the rings would take more than is left of the sixteenth of RAM that rings, kretprobe instances and tables share: ask for fewer records");
	else if (err == -ENOMEM)
		NL_SET_ERR_MSG(extack,
			       "not enough memory for the rings (or over the caller's memory cgroup limit); the old rings are kept");
	else if (err == -EINTR)
		NL_SET_ERR_MSG(extack, "interrupted; the old rings are kept");
	return err == -EADDRINUSE ? -EBUSY : err;
}

/* Only with no probe: a kretprobe's entry and return read one clock. */
static int rp_ring_set_clock(u32 clock, struct netlink_ext_ack *extack)
{
	if (rp_clock_resolve(clock) == rp_clock_get())
		return 0;
	return rp_registry_while_empty(rp_clock_set, clock, extack);
}

int rp_cmd_ring_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct rp_session *s;
	struct rp_answer ans;
	int err;

	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "changing the rings needs CAP_SYS_ADMIN: they take memory on every CPU");
		return -EPERM;
	}
	if (a[RAWPROBE_A_RING_CLOCK] &&
	    (a[RAWPROBE_A_RING_RECORDS] || a[RAWPROBE_A_RING_MODE] ||
	     a[RAWPROBE_A_SESSION] || a[RAWPROBE_A_SESSION_NAME])) {
		/* Two conditions: one change could fail after the other. */
		NL_SET_ERR_MSG(info->extack,
			       "set the clock, every session's, in a request of its own");
		return -EINVAL;
	}
	s = rp_session_of(skb, info, true);
	if (IS_ERR(s))
		return PTR_ERR(s);
	err = rp_answer_prepare(info, NLMSG_GOODSIZE, &ans);
	if (err)
		goto out;
	if (a[RAWPROBE_A_RING_CLOCK])
		err = rp_ring_set_clock(nla_get_u32(a[RAWPROBE_A_RING_CLOCK]),
					info->extack);
	else
		err = rp_ring_set_geometry(s, a, info->extack);
	if (err) {
		rp_answer_drop(&ans);
		goto out;
	}
	rp_put_session(ans.skb, s);	/* a few words in NLMSG_GOODSIZE */
	err = rp_answer_send(info, &ans);
out:
	rp_session_put(s);
	return err;
}
