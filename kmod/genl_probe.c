// SPDX-License-Identifier: GPL-2.0
/*
 * The probe commands of the generic netlink family (genl.c): PROBE_ADD,
 * PROBE_ADD_BATCH, PROBE_DEL, PROBE_ENABLE and PROBE_DISABLE, PROBE_GET
 * and its dump, STATS_RESET, with the policies of those that name probes
 * by id (AGG_READ's request shares rp_id_policy); and the registry's
 * probe events, multicast to the family's group. A probe's attributes,
 * both ways, are genl_probe_attrs.c's.
 */
#include <net/genetlink.h>
#include "core.h"
#include "genl_int.h"
#include "session.h"

const struct nla_policy rp_id_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_PROBE_ID]	= NLA_POLICY_MIN(NLA_U32, 1),
	[RAWPROBE_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, RAWPROBE_F_ALL),
};

const struct nla_policy rp_del_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_PROBE_ID]	= NLA_POLICY_MIN(NLA_U32, 1),
	[RAWPROBE_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, RAWPROBE_F_ALL),
	[RAWPROBE_A_PROBE_IDS]	= { .type = NLA_BINARY,
				    .len = RAWPROBE_MAX_BATCH * sizeof(u32) },
};

static int rp_fill_probe(struct sk_buff *skb, struct rawprobe_probe *p, u32 portid,
			 u32 seq, int flags, u8 cmd)
{
	void *hdr = genlmsg_put(skb, portid, seq, &rp_family, flags, cmd);

	if (!hdr)
		return -EMSGSIZE;
	if (rp_put_probe_attrs(skb, p)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The registry's events (rp_probe_events_register()), to the group. */
static int rp_genl_notify(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	struct rawprobe_probe *p = data;
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&rp_family, &init_net, 0))
		return NOTIFY_DONE;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NOTIFY_DONE;
	hdr = genlmsg_put(skb, 0, 0, &rp_family, 0, RAWPROBE_CMD_EVENT);
	if (!hdr || nla_put_u8(skb, RAWPROBE_A_EVENT, event) ||
	    rp_put_probe_attrs(skb, p)) {
		nlmsg_free(skb);
		return NOTIFY_DONE;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&rp_family, skb, 0, 0, GFP_KERNEL);
	return NOTIFY_DONE;
}

struct notifier_block rp_genl_events_nb = {
	.notifier_call = rp_genl_notify,
};

static int rp_reply_probe(struct rawprobe_probe *p, void *ctx)
{
	struct genl_info *info = ctx;
	struct sk_buff *skb;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	if (rp_fill_probe(skb, p, info->snd_portid, info->snd_seq, 0,
			  info->genlhdr->cmd)) {
		nlmsg_free(skb);
		return -EMSGSIZE;
	}
	return genlmsg_reply(skb, info);
}

/* The sender's owner record, if any of the specs is not persistent. */
static int rp_sender_owner(const struct sk_buff *skb, struct genl_info *info,
			   const struct rp_probe_spec *specs, unsigned int n,
			   struct rp_owner **owner)
{
	unsigned int i;

	*owner = NULL;
	for (i = 0; i < n; i++)
		if (!(specs[i].flags & RAWPROBE_F_PERSISTENT))
			break;
	if (i == n)
		return 0;
	*owner = rp_owner_get(NETLINK_CB(skb).sk, info->snd_portid);
	if (*owner)
		return 0;
	NL_SET_ERR_MSG(info->extack, "out of memory");
	return -ENOMEM;
}

static bool rp_spec_same_session(const struct rp_probe_spec *a,
				 const struct rp_probe_spec *b)
{
	return a->session_id == b->session_id &&
	       !strcmp(a->session_name, b->session_name);
}

/*
 * The sessions the specs name, referenced in spec->sess: a caller adds
 * probes into its own sessions (an administrator into anyone's); the
 * default session is everyone's. rp_specs_sessions_put() after the add.
 */
static int rp_specs_sessions(const struct sk_buff *skb,
			     struct rp_probe_spec *specs, unsigned int n,
			     struct netlink_ext_ack *extack, int *failed)
{
	bool admin = netlink_capable(skb, CAP_SYS_ADMIN);
	struct rp_probe_spec *sp;
	struct rp_session *s;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sp = &specs[i];
		if (!sp->session_id && !sp->session_name[0])
			continue;
		if (i && specs[i - 1].sess &&
		    rp_spec_same_session(sp, &specs[i - 1])) {
			sp->sess = specs[i - 1].sess;
			rp_session_get(sp->sess);
			continue;
		}
		*failed = i;
		s = rp_session_find(sp->session_id, sp->session_name[0] ?
				    sp->session_name : NULL, extack);
		if (IS_ERR(s))
			return PTR_ERR(s);
		sp->sess = s;
		if (!rp_session_may_use(s, admin)) {
			NL_SET_ERR_MSG(extack,
				       "the session is another user's: only its owner or CAP_SYS_ADMIN may add probes into it");
			return -EPERM;
		}
	}
	*failed = -1;
	return 0;
}

static void rp_specs_sessions_put(struct rp_probe_spec *specs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		rp_session_put(specs[i].sess);
		specs[i].sess = NULL;
	}
}

static int rp_put_probe_answer(struct rawprobe_probe *p, void *skb)
{
	return rp_put_probe_attrs(skb, p);
}

/* A spec is over 1 KiB (its fetch programs): not for the stack. */
static int rp_probe_add_one(struct sk_buff *skb, struct genl_info *info,
			    struct rp_answer *ans, u32 *id)
{
	struct rp_probe_spec *spec;
	struct rp_owner *owner;
	int err, failed;

	spec = kzalloc(sizeof(*spec), GFP_KERNEL);
	if (!spec) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	err = rp_parse_spec(info->attrs, NULL, info->extack, spec) ?:
	      rp_require_read_caps(skb, spec, 1, info->extack) ?:
	      rp_require_override_caps(skb, spec, 1, info->extack) ?:
	      rp_specs_sessions(skb, spec, 1, info->extack, &failed) ?:
	      rp_sender_owner(skb, info, spec, 1, &owner) ?:
	      rp_answer_prepare(info, NLMSG_GOODSIZE, ans);
	if (!err) {
		err = rp_probe_add(spec, owner, info->extack, id);
		if (err)
			rp_answer_drop(ans);
	}
	rp_specs_sessions_put(spec, 1);
	kfree(spec);
	return err;
}

int rp_cmd_probe_add(struct sk_buff *skb, struct genl_info *info)
{
	struct rp_answer ans;
	u32 id;
	int err;

	err = rp_require_admin(skb, info->extack) ?:
	      rp_probe_add_one(skb, info, &ans, &id);
	if (err)
		return err;
	/*
	 * Deleted already by another caller, or the caller was killed
	 * waiting to look: answered by its id alone.
	 */
	err = rp_probe_with(id, rp_put_probe_answer, ans.skb);
	if (err == -ENOENT || err == -EINTR)
		nla_put_u32(ans.skb, RAWPROBE_A_PROBE_ID, id);
	return rp_answer_send(info, &ans);
}

/* Room for the ids of a batch, in an answer prepared before the adds. */
static size_t rp_ids_size(unsigned int n)
{
	return nla_total_size(0) + n * nla_total_size(sizeof(u32));
}

static void rp_put_ids(struct sk_buff *skb, const u32 *ids, unsigned int n)
{
	struct nlattr *nest = nla_nest_start(skb, RAWPROBE_A_BATCH);
	unsigned int i;

	for (i = 0; i < n; i++)
		nla_put_u32(skb, RAWPROBE_A_PROBE_ID, ids[i]);
	nla_nest_end(skb, nest);
}

int rp_cmd_probe_add_batch(struct sk_buff *skb, struct genl_info *info)
{
	struct rp_probe_spec *specs;
	struct rp_owner *owner;
	struct rp_answer ans;
	struct nlattr *entry;
	unsigned int n = 0;
	int err, failed, count, rem;
	u32 *ids;

	err = rp_require_admin(skb, info->extack);
	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, RAWPROBE_A_BATCH)) {
		NL_SET_ERR_MSG(info->extack, "the batch of probes is missing");
		return -EINVAL;
	}
	count = 0;
	nla_for_each_nested(entry, info->attrs[RAWPROBE_A_BATCH], rem)
		count++;
	if (count < 1 || count > RAWPROBE_MAX_BATCH) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RAWPROBE_A_BATCH],
				    "a batch holds 1 to 1024 probes");
		return -EINVAL;
	}
	specs = kvcalloc(count, sizeof(*specs), GFP_KERNEL);
	ids = kvcalloc(count, sizeof(*ids), GFP_KERNEL);
	err = -ENOMEM;
	if (!specs || !ids)
		goto out;
	n = 0;
	err = rp_parse_batch(info, specs, &n) ?:
	      rp_require_read_caps(skb, specs, n, info->extack) ?:
	      rp_require_override_caps(skb, specs, n, info->extack);
	if (!err) {
		err = rp_specs_sessions(skb, specs, n, info->extack, &failed);
		rp_batch_blame(info->extack, failed);
	}
	err = err ?: rp_sender_owner(skb, info, specs, n, &owner) ?:
	      rp_answer_prepare(info, rp_ids_size(n), &ans);
	if (err)
		goto out;
	/* Ownership is each spec's own: a batch may mix persistent ones. */
	err = rp_probe_add_batch(specs, n, owner, info->extack, ids, &failed);
	if (err) {
		rp_batch_blame(info->extack, failed);
		rp_answer_drop(&ans);
		goto out;
	}
	rp_put_ids(ans.skb, ids, n);
	err = rp_answer_send(info, &ans);
out:
	if (specs)
		rp_specs_sessions_put(specs, n);
	kvfree(specs);
	kvfree(ids);
	return err;
}

static int rp_get_id(struct genl_info *info, u32 *id)
{
	if (GENL_REQ_ATTR_CHECK(info, RAWPROBE_A_PROBE_ID)) {
		NL_SET_ERR_MSG(info->extack, "a probe id is required");
		return -EINVAL;
	}
	*id = nla_get_u32(info->attrs[RAWPROBE_A_PROBE_ID]);
	return 0;
}

static bool rp_flag_all(struct genl_info *info)
{
	struct nlattr *a = info->attrs[RAWPROBE_A_FLAGS];

	return a && (nla_get_u32(a) & RAWPROBE_F_ALL);
}

/* Exactly one of: PROBE_ID, PROBE_IDS, FLAGS all. */
static int rp_del_request_check(struct genl_info *info)
{
	int given = !!info->attrs[RAWPROBE_A_PROBE_ID] +
		    !!info->attrs[RAWPROBE_A_PROBE_IDS] + rp_flag_all(info);

	if (given == 1)
		return 0;
	NL_SET_ERR_MSG(info->extack,
		       "give one of: a probe id, a list of probe ids, the all flag");
	return -EINVAL;
}

static int rp_probe_del_listed(struct genl_info *info,
			       const struct rp_caller *who)
{
	struct nlattr *list = info->attrs[RAWPROBE_A_PROBE_IDS];
	int err, failed;
	u32 id;

	if (!list) {
		id = nla_get_u32(info->attrs[RAWPROBE_A_PROBE_ID]);
		return rp_probe_del_many(&id, 1, who, info->extack, &failed);
	}
	/* The policy bounds the length; attributes are 4-byte aligned. */
	if (!nla_len(list) || nla_len(list) % sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(info->extack, list,
				    "probe ids: an array of 1 to RAWPROBE_MAX_BATCH u32");
		return -EINVAL;
	}
	err = rp_probe_del_many(nla_data(list), nla_len(list) / sizeof(u32),
				who, info->extack, &failed);
	if (err)
		rp_batch_blame(info->extack, failed);
	return err;
}

/*
 * "all" removes what the caller may remove and answers how many probes
 * it left to others (NR_PROBES), rather than refuse the lot: a user's
 * own persistent probes still go while root's trace runs.
 */
int rp_cmd_probe_del(struct sk_buff *skb, struct genl_info *info)
{
	struct rp_caller who;
	struct rp_answer ans;
	u32 skipped;
	int err;

	err = rp_require_admin(skb, info->extack) ?:
	      rp_del_request_check(info) ?:
	      rp_answer_prepare(info, nla_total_size(sizeof(u32)), &ans);
	if (err)
		return err;
	rp_caller_of(skb, &who);
	if (!rp_flag_all(info)) {
		err = rp_probe_del_listed(info, &who);
	} else {
		err = rp_probe_del_all(&who, &skipped);
		if (err > 0) {
			NL_SET_ERR_MSG(info->extack,
				       "the kernel could not unregister some probes (out of memory): they stay; try again");
			err = -ENOMEM;
		} else if (!err && skipped) {
			/* the room was allocated with the answer */
			nla_put_u32(ans.skb, RAWPROBE_A_NR_PROBES, skipped);
		}
	}
	return rp_answer_done(info, &ans, err);
}

int rp_cmd_probe_get(struct sk_buff *skb, struct genl_info *info)
{
	u32 id;
	int err;

	err = rp_require_admin(skb, info->extack) ?: rp_get_id(info, &id);
	if (err)
		return err;
	err = rp_probe_with(id, rp_reply_probe, info);
	if (err == -ENOENT)
		NL_SET_ERR_MSG(info->extack, "no probe with this id");
	return err;
}

struct rp_dump_ctx {
	struct sk_buff *skb;
	struct netlink_callback *cb;
};

static int rp_dump_one(struct rawprobe_probe *p, void *ctx)
{
	struct rp_dump_ctx *d = ctx;

	return rp_fill_probe(d->skb, p, NETLINK_CB(d->cb->skb).portid,
			     d->cb->nlh->nlmsg_seq, NLM_F_MULTI,
			     RAWPROBE_CMD_PROBE_GET);
}

/* The dump's privilege check, once, before its first round. */
int rp_probe_dump_start(struct netlink_callback *cb)
{
	return rp_require_admin(cb->skb, cb->extack);
}

int rp_cmd_probe_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct rp_dump_ctx d = { .skb = skb, .cb = cb };
	u32 pos = cb->args[0] ?: 1;
	int err;

	err = rp_probe_walk(&pos, rp_dump_one, &d);
	cb->args[0] = pos;
	/* A full skb ends this round; the core calls us again. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

int rp_cmd_probe_enable(struct sk_buff *skb, struct genl_info *info)
{
	bool enable = info->genlhdr->cmd == RAWPROBE_CMD_PROBE_ENABLE;
	struct rp_caller who;
	struct rp_answer ans;
	u32 id;
	int err;

	err = rp_require_admin(skb, info->extack) ?: rp_get_id(info, &id) ?:
	      rp_answer_prepare(info, 0, &ans);
	if (err)
		return err;
	rp_caller_of(skb, &who);
	err = rp_probe_set_enabled(id, enable, &who, info->extack);
	return rp_answer_done(info, &ans, err);
}

int rp_cmd_stats_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct rp_answer ans;
	u32 id = 0;
	int err;

	err = rp_require_admin(skb, info->extack);
	if (!err && !rp_flag_all(info))
		err = rp_get_id(info, &id);
	if (!err)
		err = rp_answer_prepare(info, 0, &ans);
	if (err)
		return err;
	err = rp_probe_reset_stats(id, rp_flag_all(info));
	if (err == -ENOENT)
		NL_SET_ERR_MSG(info->extack, "no probe with this id");
	return rp_answer_done(info, &ans, err);
}
