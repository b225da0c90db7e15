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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/utsname.h>
#include <linux/capability.h>
#include <linux/cgroup.h>
#include <linux/ctype.h>
#include <net/genetlink.h>
#include "agg.h"
#include "core.h"
#include "compat.h"

static struct genl_family rp_family;

/* Not const: 6.1's nla_policy.range is a plain pointer. */
static struct netlink_range_validation rp_ring_range = {
	.min = RAWPROBE_RING_MIN,
	.max = RAWPROBE_RING_MAX,
};

static struct netlink_range_validation rp_agg_keys_range = {
	.min = 1,
	.max = RAWPROBE_AGG_KEYS_MAX,
};

/* --times counts down an atomic_t, where a negative count is no limit */
static struct netlink_range_validation rp_ovr_times_range = {
	.min = 1,
	.max = INT_MAX,
};

static const struct nla_policy rp_ovr_policy[RAWPROBE_OVR_MAX + 1] = {
	[RAWPROBE_OVR_VALUE]	= { .type = NLA_S64 },
	[RAWPROBE_OVR_PROBABILITY] = NLA_POLICY_RANGE(NLA_U8, 1, 100),
	[RAWPROBE_OVR_TIMES]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&rp_ovr_times_range),
	[RAWPROBE_OVR_INTERVAL]	= NLA_POLICY_MIN(NLA_U32, 1),
	[RAWPROBE_OVR_CHAIN]	= NLA_POLICY_RANGE(NLA_U8, 1,
						   RAWPROBE_CHAIN_MAX),
};

static const struct nla_policy rp_add_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_KIND]	= NLA_POLICY_RANGE(NLA_U8, RAWPROBE_KIND_KPROBE,
						   RAWPROBE_KIND_JPROBE),
	[RAWPROBE_A_SYMBOL]	= { .type = NLA_NUL_STRING,
				    .len = KSYM_NAME_LEN - 1 },
	[RAWPROBE_A_MODULE]	= { .type = NLA_NUL_STRING,
				    .len = MODULE_NAME_LEN - 1 },
	[RAWPROBE_A_OFFSET]	= NLA_POLICY_MAX(NLA_U32,
						 RAWPROBE_MAX_OFFSET),
	[RAWPROBE_A_ADDR]	= { .type = NLA_U64 },
	[RAWPROBE_A_MAXACTIVE]	= NLA_POLICY_RANGE(NLA_U32, 1,
						   RAWPROBE_MAXACTIVE_MAX),
	[RAWPROBE_A_NARGS]	= NLA_POLICY_MAX(NLA_U8, RAWPROBE_MAX_ARGS),
	[RAWPROBE_A_ARGTYPES]	= { .type = NLA_BINARY,
				    .len = RAWPROBE_MAX_ARGS },
	[RAWPROBE_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, RAWPROBE_F_PERSISTENT |
						  RAWPROBE_F_DISABLED |
						  RAWPROBE_F_SYSCALL |
						  RAWPROBE_F_STACK |
						  RAWPROBE_F_AGG),
	[RAWPROBE_A_STR_MAX]	= NLA_POLICY_RANGE(NLA_U16, 1,
						   RAWPROBE_STR_LEN - 1),
	[RAWPROBE_A_FILTER_PID]	= NLA_POLICY_MIN(NLA_U32, 1),
	[RAWPROBE_A_FILTER_TGID] = NLA_POLICY_MIN(NLA_U32, 1),
	[RAWPROBE_A_FILTER_COMM] = { .type = NLA_NUL_STRING,
				     .len = RAWPROBE_COMM_LEN - 1 },
	[RAWPROBE_A_FILTER_CPU]	= { .type = NLA_U32 },
	[RAWPROBE_A_FILTER_NOT_TGID] = NLA_POLICY_MIN(NLA_U32, 1),
	[RAWPROBE_A_ARG_NAMES]	= { .type = NLA_NUL_STRING,
				    .len = RAWPROBE_ARG_NAMES_LEN - 1 },
	[RAWPROBE_A_FETCH]	= { .type = NLA_BINARY,
				    .len = RAWPROBE_MAX_ARGS *
					   sizeof(struct rawprobe_fetch) },
	[RAWPROBE_A_VALUE_FILTER] = { .type = NLA_BINARY,
				      .len = RAWPROBE_MAX_VALUE_TERMS *
					     sizeof(struct rawprobe_value_term) },
	[RAWPROBE_A_VALUE_FILTER_STR] = { .type = NLA_NUL_STRING,
					  .len = RAWPROBE_FILTER_STR_LEN - 1 },
	[RAWPROBE_A_VALUE_FILTER_STRS] = { .type = NLA_BINARY,
					   .len = RAWPROBE_FILTER_STRS_LEN },
	[RAWPROBE_A_FILTER_CGROUP] = NLA_POLICY_MIN(NLA_U64, 1),
	[RAWPROBE_A_STR_LEN_ARGS] = { .type = NLA_BINARY,
				      .len = RAWPROBE_MAX_ARGS },
	[RAWPROBE_A_AGG_KEYS]	= { .type = NLA_BINARY,
				    .len = RAWPROBE_AGG_MAX_KEYS },
	[RAWPROBE_A_AGG_KEY_ARGS] = { .type = NLA_BINARY,
				      .len = RAWPROBE_AGG_MAX_KEYS },
	[RAWPROBE_A_AGG_VALUE]	= NLA_POLICY_MAX(NLA_U8,
						 __RAWPROBE_AGG_VALUE_MAX - 1),
	[RAWPROBE_A_AGG_VALUE_ARG] = NLA_POLICY_MAX(NLA_U8,
						    RAWPROBE_MAX_ARGS - 1),
	[RAWPROBE_A_AGG_HIST]	= NLA_POLICY_MAX(NLA_U8,
						 __RAWPROBE_AGG_HIST_MAX - 1),
	[RAWPROBE_A_AGG_LIN_MIN] = { .type = NLA_S64 },
	[RAWPROBE_A_AGG_LIN_STEP] = NLA_POLICY_MIN(NLA_U64, 1),
	[RAWPROBE_A_AGG_LIN_BUCKETS] = NLA_POLICY_RANGE(NLA_U16, 1,
							RAWPROBE_AGG_LIN_BUCKETS_MAX),
	[RAWPROBE_A_AGG_MAX_KEYS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &rp_agg_keys_range),
	[RAWPROBE_A_OVERRIDE]	= NLA_POLICY_NESTED(rp_ovr_policy),
	[RAWPROBE_A_CHAIN_STEP]	= NLA_POLICY_RANGE(NLA_U8, 1,
						   RAWPROBE_CHAIN_MAX),
};

static const struct nla_policy rp_batch_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_BATCH]	= NLA_POLICY_NESTED_ARRAY(rp_add_policy),
	[RAWPROBE_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, RAWPROBE_F_PERSISTENT |
						  RAWPROBE_F_DISABLED),
};

static const struct nla_policy rp_id_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_PROBE_ID]	= NLA_POLICY_MIN(NLA_U32, 1),
	[RAWPROBE_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, RAWPROBE_F_ALL),
};

static const struct nla_policy rp_del_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_PROBE_ID]	= NLA_POLICY_MIN(NLA_U32, 1),
	[RAWPROBE_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, RAWPROBE_F_ALL),
	[RAWPROBE_A_PROBE_IDS]	= { .type = NLA_BINARY,
				    .len = RAWPROBE_MAX_BATCH * sizeof(u32) },
};

static const struct nla_policy rp_ring_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_RING_RECORDS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &rp_ring_range),
	[RAWPROBE_A_RING_MODE]	= NLA_POLICY_MAX(NLA_U32,
						 RAWPROBE_RING_OVERWRITE),
	[RAWPROBE_A_RING_CLOCK]	= NLA_POLICY_MAX(NLA_U32, RAWPROBE_CLOCK_TSC),
};

static const struct nla_policy rp_info_policy[RAWPROBE_A_MAX + 1] = {};

static bool rp_admin(const struct sk_buff *skb)
{
	return netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

static int rp_require_admin(const struct sk_buff *skb,
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
static int rp_require_read_caps(const struct sk_buff *skb,
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
static int rp_require_override_caps(const struct sk_buff *skb,
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
static void rp_caller_of(const struct sk_buff *skb, struct rp_caller *who)
{
	who->sk = NETLINK_CB(skb).sk;
	who->sys_admin = netlink_capable(skb, CAP_SYS_ADMIN);
}

/* --- messages --- */

static int rp_put_stats(struct sk_buff *skb, struct rawprobe_probe *p)
{
	struct rp_probe_totals t;
	struct nlattr *nest;

	rp_probe_totals(p, &t);
	nest = nla_nest_start(skb, RAWPROBE_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, RAWPROBE_STAT_HITS, t.hits,
			      RAWPROBE_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_STAT_RECORDS, t.records,
			      RAWPROBE_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_STAT_LOST_RING, t.lost_ring,
			      RAWPROBE_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_STAT_MISS_MAXACTIVE,
			      t.miss_maxactive, RAWPROBE_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_STAT_MISS_RECURSION,
			      t.miss_recursion, RAWPROBE_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_STAT_STR_FAULTS, t.str_faults,
			      RAWPROBE_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_STAT_FETCH_FAULTS, t.fetch_faults,
			      RAWPROBE_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_STAT_FILTERED, t.filtered,
			      RAWPROBE_STAT_PAD) ||
	    nla_put_u64_64bit(skb, RAWPROBE_STAT_OVERRIDDEN, t.overridden,
			      RAWPROBE_STAT_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int rp_put_filter(struct sk_buff *skb, const struct rp_filter *f)
{
	if ((f->mask & RP_FILTER_PID) &&
	    nla_put_u32(skb, RAWPROBE_A_FILTER_PID, f->pid))
		return -EMSGSIZE;
	if ((f->mask & RP_FILTER_TGID) &&
	    nla_put_u32(skb, RAWPROBE_A_FILTER_TGID, f->tgid))
		return -EMSGSIZE;
	if ((f->mask & RP_FILTER_COMM) &&
	    nla_put_string(skb, RAWPROBE_A_FILTER_COMM, f->comm))
		return -EMSGSIZE;
	if ((f->mask & RP_FILTER_CPU) &&
	    nla_put_u32(skb, RAWPROBE_A_FILTER_CPU, f->cpu))
		return -EMSGSIZE;
	if ((f->mask & RP_FILTER_NOT_TGID) &&
	    nla_put_u32(skb, RAWPROBE_A_FILTER_NOT_TGID, f->not_tgid))
		return -EMSGSIZE;
	if ((f->mask & RP_FILTER_CGROUP) &&
	    nla_put_u64_64bit(skb, RAWPROBE_A_FILTER_CGROUP, f->cgroup_id,
			      RAWPROBE_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* Field fetches and the value filter, as they were given. */
static int rp_put_values(struct sk_buff *skb, const struct rp_probe_spec *s)
{
	if (s->nfetch &&
	    nla_put(skb, RAWPROBE_A_FETCH, s->nfetch * sizeof(s->fetch[0]),
		    s->fetch))
		return -EMSGSIZE;
	if (s->nterms &&
	    nla_put(skb, RAWPROBE_A_VALUE_FILTER,
		    s->nterms * sizeof(s->terms[0]), s->terms))
		return -EMSGSIZE;
	if (s->filter_str[0] &&
	    nla_put_string(skb, RAWPROBE_A_VALUE_FILTER_STR, s->filter_str))
		return -EMSGSIZE;
	if (s->strs_len &&
	    nla_put(skb, RAWPROBE_A_VALUE_FILTER_STRS, s->strs_len, s->strs))
		return -EMSGSIZE;
	if (memchr_inv(s->str_len_arg, 0, s->nargs) &&
	    nla_put(skb, RAWPROBE_A_STR_LEN_ARGS, s->nargs, s->str_len_arg))
		return -EMSGSIZE;
	return 0;
}

/* An override and its limits, as they were given. */
static int rp_put_ovr(struct sk_buff *skb, const struct rp_probe_spec *s)
{
	const struct rp_ovr_spec *o = &s->ovr;
	struct nlattr *nest;

	if (s->chain_step &&
	    nla_put_u8(skb, RAWPROBE_A_CHAIN_STEP, s->chain_step))
		return -EMSGSIZE;
	if (!o->set)
		return 0;
	nest = nla_nest_start(skb, RAWPROBE_A_OVERRIDE);
	if (!nest ||
	    nla_put_s64(skb, RAWPROBE_OVR_VALUE, o->value, RAWPROBE_OVR_PAD) ||
	    (o->probability &&
	     nla_put_u8(skb, RAWPROBE_OVR_PROBABILITY, o->probability)) ||
	    (o->times && nla_put_u32(skb, RAWPROBE_OVR_TIMES, o->times)) ||
	    (o->interval &&
	     nla_put_u32(skb, RAWPROBE_OVR_INTERVAL, o->interval)) ||
	    (o->chain_len &&
	     nla_put_u8(skb, RAWPROBE_OVR_CHAIN, o->chain_len))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* An aggregating probe's keys and values, as they were given. */
static int rp_put_agg(struct sk_buff *skb, const struct rp_probe_spec *s)
{
	const struct rp_agg_spec *g = &s->agg;

	if (!(s->flags & RAWPROBE_F_AGG))
		return 0;
	if ((g->nkeys &&
	     (nla_put(skb, RAWPROBE_A_AGG_KEYS, g->nkeys, g->keys) ||
	      nla_put(skb, RAWPROBE_A_AGG_KEY_ARGS, g->nkeys, g->key_args))) ||
	    nla_put_u8(skb, RAWPROBE_A_AGG_VALUE, g->value) ||
	    nla_put_u8(skb, RAWPROBE_A_AGG_VALUE_ARG, g->value_arg) ||
	    nla_put_u8(skb, RAWPROBE_A_AGG_HIST, g->hist) ||
	    nla_put_u32(skb, RAWPROBE_A_AGG_MAX_KEYS,
			g->max_keys ?: RAWPROBE_AGG_KEYS_DEFAULT))
		return -EMSGSIZE;
	if (g->hist == RAWPROBE_AGG_HIST_LINEAR &&
	    (nla_put_s64(skb, RAWPROBE_A_AGG_LIN_MIN, g->lin_min,
			 RAWPROBE_A_PAD) ||
	     nla_put_u64_64bit(skb, RAWPROBE_A_AGG_LIN_STEP, g->lin_step,
			       RAWPROBE_A_PAD) ||
	     nla_put_u16(skb, RAWPROBE_A_AGG_LIN_BUCKETS, g->lin_buckets)))
		return -EMSGSIZE;
	return 0;
}

/* A module's probe: its name and the module, for probe list. */
static int rp_put_owner(struct sk_buff *skb, const struct rawprobe_probe *p)
{
	if (!p->desc)
		return 0;
	if (nla_put_string(skb, RAWPROBE_A_NAME, p->name) ||
	    nla_put_string(skb, RAWPROBE_A_OWNER_MODULE, p->owner_mod ?
			   p->owner_mod->name : "kernel"))
		return -EMSGSIZE;
	return 0;
}

static int rp_put_probe_attrs(struct sk_buff *skb, struct rawprobe_probe *p)
{
	const struct rp_probe_spec *s = &p->spec;
	struct kprobe *kp = rp_probe_kprobe(p);

	if (nla_put_u32(skb, RAWPROBE_A_PROBE_ID, p->id) ||
	    nla_put_u8(skb, RAWPROBE_A_KIND, s->kind) ||
	    nla_put_u8(skb, RAWPROBE_A_STATE, p->state) ||
	    nla_put_u32(skb, RAWPROBE_A_FLAGS, s->flags |
			(p->owner ? 0 : RAWPROBE_F_PERSISTENT) |
			(p->syscall_regs ? RAWPROBE_F_SYSCALL : 0)) ||
	    nla_put_u32(skb, RAWPROBE_A_OFFSET, s->offset) ||
	    nla_put_u8(skb, RAWPROBE_A_NARGS, s->nargs))
		return -EMSGSIZE;
	if (s->symbol[0] && nla_put_string(skb, RAWPROBE_A_SYMBOL, s->symbol))
		return -EMSGSIZE;
	if (s->module[0] && nla_put_string(skb, RAWPROBE_A_MODULE, s->module))
		return -EMSGSIZE;
	if (s->nargs && nla_put(skb, RAWPROBE_A_ARGTYPES, s->nargs,
				s->argtypes))
		return -EMSGSIZE;
	if (s->arg_names[0] &&
	    nla_put_string(skb, RAWPROBE_A_ARG_NAMES, s->arg_names))
		return -EMSGSIZE;
	if (s->kind == RAWPROBE_KIND_KRETPROBE &&
	    nla_put_u32(skb, RAWPROBE_A_MAXACTIVE, p->krp.maxactive))
		return -EMSGSIZE;
	if (p->registered &&
	    nla_put_u64_64bit(skb, RAWPROBE_A_PROBED_ADDR,
			      (unsigned long)kp->addr, RAWPROBE_A_PAD))
		return -EMSGSIZE;
	if (s->addr &&
	    nla_put_u64_64bit(skb, RAWPROBE_A_ADDR, s->addr, RAWPROBE_A_PAD))
		return -EMSGSIZE;
	if (rp_put_filter(skb, &s->filter) || rp_put_values(skb, s) ||
	    rp_put_agg(skb, s) || rp_put_ovr(skb, s) || rp_put_owner(skb, p))
		return -EMSGSIZE;
	return rp_put_stats(skb, p);
}

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

static struct notifier_block rp_genl_events_nb = {
	.notifier_call = rp_genl_notify,
};

/* --- info and ring --- */

static int rp_put_ring(struct sk_buff *skb)
{
	struct rp_ring_geometry geo;

	rp_ring_geometry(&geo);
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

static int rp_reply_simple(struct genl_info *info, u8 cmd,
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

static int rp_answer_prepare(struct genl_info *info, size_t size,
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

static void rp_answer_drop(struct rp_answer *ans)
{
	nlmsg_free(ans->skb);
}

/*
 * The change is made: success, even in the unlikely case that the answer
 * does not fit the caller's full receive queue.
 */
static int rp_answer_send(struct genl_info *info, struct rp_answer *ans)
{
	genlmsg_end(ans->skb, ans->hdr);
	genlmsg_reply(ans->skb, info);
	return 0;
}

/* An answer that says only "done": drop it if the change failed. */
static int rp_answer_done(struct genl_info *info, struct rp_answer *ans,
			  int err)
{
	if (err) {
		rp_answer_drop(ans);
		return err;
	}
	return rp_answer_send(info, ans);
}

static int rp_put_info(struct sk_buff *skb)
{
	if (nla_put_u32(skb, RAWPROBE_A_ABI_VERSION, RAWPROBE_ABI_VERSION) ||
	    nla_put_string(skb, RAWPROBE_A_MODULE_VERSION, RAWPROBE_VERSION) ||
	    nla_put_string(skb, RAWPROBE_A_KERNEL_RELEASE,
			   init_utsname()->release) ||
	    nla_put_u32(skb, RAWPROBE_A_NR_PROBES, rp_probe_count()))
		return -EMSGSIZE;
	return rp_put_ring(skb);
}

static int rp_cmd_get_info(struct sk_buff *skb, struct genl_info *info)
{
	return rp_reply_simple(info, RAWPROBE_CMD_GET_INFO, rp_put_info);
}

static int rp_cmd_ring_get(struct sk_buff *skb, struct genl_info *info)
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

static int rp_cmd_ring_set(struct sk_buff *skb, struct genl_info *info)
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

/* --- probes --- */

static void rp_parse_filter(struct nlattr **a, struct rp_filter *f)
{
	if (a[RAWPROBE_A_FILTER_PID]) {
		f->mask |= RP_FILTER_PID;
		f->pid = nla_get_u32(a[RAWPROBE_A_FILTER_PID]);
	}
	if (a[RAWPROBE_A_FILTER_TGID]) {
		f->mask |= RP_FILTER_TGID;
		f->tgid = nla_get_u32(a[RAWPROBE_A_FILTER_TGID]);
	}
	if (a[RAWPROBE_A_FILTER_COMM]) {
		f->mask |= RP_FILTER_COMM;
		/* zero-padded, as task->comm is, for one memcmp */
		nla_strscpy(f->comm, a[RAWPROBE_A_FILTER_COMM],
			    sizeof(f->comm));
	}
	if (a[RAWPROBE_A_FILTER_CPU]) {
		f->mask |= RP_FILTER_CPU;
		f->cpu = nla_get_u32(a[RAWPROBE_A_FILTER_CPU]);
	}
	if (a[RAWPROBE_A_FILTER_NOT_TGID]) {
		f->mask |= RP_FILTER_NOT_TGID;
		f->not_tgid = nla_get_u32(a[RAWPROBE_A_FILTER_NOT_TGID]);
	}
}

/*
 * A cgroup v2 by id, kept with its depth so that a handler tests
 * ancestry with a load or two (probes/emit.h), and with no reference to
 * hold: ids are never reused. cgroup_get_from_id() knows only the
 * caller's cgroup namespace, as cgroupid() of bpftrace does.
 */
static int rp_parse_cgroup(struct nlattr *a, struct netlink_ext_ack *extack,
			   struct rp_filter *f)
{
	struct cgroup *cgrp;

	if (!a)
		return 0;
	f->cgroup_id = nla_get_u64(a);
	cgrp = cgroup_get_from_id(f->cgroup_id);
	if (IS_ERR_OR_NULL(cgrp)) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "no cgroup v2 of this id (in the caller's cgroup namespace)");
		return -ENOENT;
	}
	f->cgroup_level = cgrp->level;
	cgroup_put(cgrp);
	f->mask |= RP_FILTER_CGROUP;
	return 0;
}

/*
 * Names are echoed to every reader of the probe list (text, JSON, CSV):
 * identifiers and field paths only (skb->dev->name, a.b[2]), one per
 * argument, so that no output needs escaping. ASCII only: the kernel's
 * isalnum() is Latin-1's, and takes 0xc0-0xff for letters.
 */
static int rp_parse_arg_names(struct nlattr *a, struct netlink_ext_ack *extack,
			      struct rp_probe_spec *s)
{
	unsigned int names = 1;
	bool empty = true;	/* the name being read, so far */
	const char *c;

	nla_strscpy(s->arg_names, a, sizeof(s->arg_names));
	for (c = s->arg_names; *c; c++) {
		if (*c == ',' && !empty) {
			names++;
			empty = true;
		} else if ((isascii(*c) && isalnum(*c)) || strchr("_.[]", *c)) {
			empty = false;
		} else if (c[0] == '-' && c[1] == '>') {
			empty = false;
			c++;
		} else {
			break;
		}
	}
	if (!*c && !empty && names == s->nargs)
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, a,
			    "argument names: one identifier per argument, comma-separated");
	return -EINVAL;
}

/* The filter's text is shown as it came: printable, nothing to escape. */
static int rp_parse_filter_str(struct nlattr *a, struct netlink_ext_ack *extack,
			       struct rp_probe_spec *s)
{
	const char *c;

	nla_strscpy(s->filter_str, a, sizeof(s->filter_str));
	for (c = s->filter_str; *c; c++) {
		if (*c < 0x20 || *c > 0x7e || *c == '\\') {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "the filter's text: printable ASCII, no backslash");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The string terms' constants: NUL-terminated, so that any offset into
 * them is a string; which offsets the terms name, and how long those
 * strings are, is checked with the terms (probes/fetch.c).
 */
static int rp_parse_filter_strs(struct nlattr *a,
				struct netlink_ext_ack *extack,
				struct rp_probe_spec *s)
{
	int len = nla_len(a);

	if (!len || ((const char *)nla_data(a))[len - 1]) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "the string constants end with a NUL");
		return -EINVAL;
	}
	s->strs_len = len;
	nla_memcpy(s->strs, a, sizeof(s->strs));
	return 0;
}

/* Their shapes are checked with the probe kind (probes/fetch.c). */
static int rp_parse_values(struct nlattr **a, struct netlink_ext_ack *extack,
			   struct rp_probe_spec *s)
{
	struct nlattr *f = a[RAWPROBE_A_FETCH], *v = a[RAWPROBE_A_VALUE_FILTER];

	if (f) {
		if (!s->nargs ||
		    nla_len(f) != s->nargs * sizeof(struct rawprobe_fetch)) {
			NL_SET_ERR_MSG_ATTR(extack, f,
					    "one struct rawprobe_fetch per argument");
			return -EINVAL;
		}
		s->nfetch = s->nargs;
		nla_memcpy(s->fetch, f, sizeof(s->fetch));
	}
	if (v) {
		if (!nla_len(v) ||
		    nla_len(v) % sizeof(struct rawprobe_value_term)) {
			NL_SET_ERR_MSG_ATTR(extack, v,
					    "the value filter is an array of struct rawprobe_value_term");
			return -EINVAL;
		}
		s->nterms = nla_len(v) / sizeof(struct rawprobe_value_term);
		nla_memcpy(s->terms, v, sizeof(s->terms));
		s->filter.mask |= RP_FILTER_VALUE;
	}
	if (a[RAWPROBE_A_VALUE_FILTER_STRS] &&
	    rp_parse_filter_strs(a[RAWPROBE_A_VALUE_FILTER_STRS], extack, s))
		return -EINVAL;
	if (a[RAWPROBE_A_VALUE_FILTER_STR])
		return rp_parse_filter_str(a[RAWPROBE_A_VALUE_FILTER_STR],
					   extack, s);
	return 0;
}

/* RAWPROBE_F_AGG's attributes; what they may ask is agg.c's to check. */
static int rp_parse_agg(struct nlattr **a, struct netlink_ext_ack *extack,
			struct rp_agg_spec *g)
{
	struct nlattr *keys = a[RAWPROBE_A_AGG_KEYS];
	struct nlattr *args = a[RAWPROBE_A_AGG_KEY_ARGS];

	if (keys) {
		g->nkeys = nla_len(keys);
		nla_memcpy(g->keys, keys, sizeof(g->keys));
	}
	if (args) {
		if (nla_len(args) != g->nkeys) {
			NL_SET_ERR_MSG_ATTR(extack, args,
					    "one argument index per key");
			return -EINVAL;
		}
		nla_memcpy(g->key_args, args, sizeof(g->key_args));
	}
	if (a[RAWPROBE_A_AGG_VALUE])
		g->value = nla_get_u8(a[RAWPROBE_A_AGG_VALUE]);
	if (a[RAWPROBE_A_AGG_VALUE_ARG])
		g->value_arg = nla_get_u8(a[RAWPROBE_A_AGG_VALUE_ARG]);
	if (a[RAWPROBE_A_AGG_HIST])
		g->hist = nla_get_u8(a[RAWPROBE_A_AGG_HIST]);
	if (a[RAWPROBE_A_AGG_LIN_MIN])
		g->lin_min = nla_get_s64(a[RAWPROBE_A_AGG_LIN_MIN]);
	if (a[RAWPROBE_A_AGG_LIN_STEP])
		g->lin_step = nla_get_u64(a[RAWPROBE_A_AGG_LIN_STEP]);
	if (a[RAWPROBE_A_AGG_LIN_BUCKETS])
		g->lin_buckets = nla_get_u16(a[RAWPROBE_A_AGG_LIN_BUCKETS]);
	if (a[RAWPROBE_A_AGG_MAX_KEYS])
		g->max_keys = nla_get_u32(a[RAWPROBE_A_AGG_MAX_KEYS]);
	return 0;
}

/* RAWPROBE_A_OVERRIDE; where it may act is inject.c's to check. */
static int rp_parse_ovr(struct nlattr **a, struct netlink_ext_ack *extack,
			struct rp_probe_spec *s)
{
	struct nlattr *tb[RAWPROBE_OVR_MAX + 1];
	struct rp_ovr_spec *o = &s->ovr;
	int err;

	if (a[RAWPROBE_A_CHAIN_STEP])
		s->chain_step = nla_get_u8(a[RAWPROBE_A_CHAIN_STEP]);
	if (!a[RAWPROBE_A_OVERRIDE])
		return 0;
	err = nla_parse_nested(tb, RAWPROBE_OVR_MAX, a[RAWPROBE_A_OVERRIDE],
			       rp_ovr_policy, extack);
	if (err)
		return err;
	if (!tb[RAWPROBE_OVR_VALUE]) {
		NL_SET_ERR_ATTR_MISS(extack, a[RAWPROBE_A_OVERRIDE],
				     RAWPROBE_OVR_VALUE);
		NL_SET_ERR_MSG(extack, "an override needs the value to return");
		return -EINVAL;
	}
	o->set = true;
	o->value = nla_get_s64(tb[RAWPROBE_OVR_VALUE]);
	if (tb[RAWPROBE_OVR_PROBABILITY])
		o->probability = nla_get_u8(tb[RAWPROBE_OVR_PROBABILITY]);
	if (tb[RAWPROBE_OVR_TIMES])
		o->times = nla_get_u32(tb[RAWPROBE_OVR_TIMES]);
	if (tb[RAWPROBE_OVR_INTERVAL])
		o->interval = nla_get_u32(tb[RAWPROBE_OVR_INTERVAL]);
	if (tb[RAWPROBE_OVR_CHAIN])
		o->chain_len = nla_get_u8(tb[RAWPROBE_OVR_CHAIN]);
	return 0;
}

static int rp_parse_spec(struct nlattr **a, struct nlattr *where,
			 struct netlink_ext_ack *extack,
			 struct rp_probe_spec *s)
{
	memset(s, 0, sizeof(*s));
	if (!a[RAWPROBE_A_KIND]) {
		NL_SET_ERR_ATTR_MISS(extack, where, RAWPROBE_A_KIND);
		NL_SET_ERR_MSG(extack, "the probe kind is missing");
		return -EINVAL;
	}
	s->kind = nla_get_u8(a[RAWPROBE_A_KIND]);
	if (a[RAWPROBE_A_SYMBOL])
		nla_strscpy(s->symbol, a[RAWPROBE_A_SYMBOL], sizeof(s->symbol));
	if (a[RAWPROBE_A_MODULE])
		nla_strscpy(s->module, a[RAWPROBE_A_MODULE], sizeof(s->module));
	if (a[RAWPROBE_A_OFFSET])
		s->offset = nla_get_u32(a[RAWPROBE_A_OFFSET]);
	if (a[RAWPROBE_A_ADDR])
		s->addr = nla_get_u64(a[RAWPROBE_A_ADDR]);
	if (a[RAWPROBE_A_MAXACTIVE])
		s->maxactive = nla_get_u32(a[RAWPROBE_A_MAXACTIVE]);
	if (a[RAWPROBE_A_NARGS])
		s->nargs = nla_get_u8(a[RAWPROBE_A_NARGS]);
	if (a[RAWPROBE_A_FLAGS])
		s->flags = nla_get_u32(a[RAWPROBE_A_FLAGS]);
	if (a[RAWPROBE_A_STR_MAX])
		s->str_max = nla_get_u16(a[RAWPROBE_A_STR_MAX]);
	rp_parse_filter(a, &s->filter);
	if (rp_parse_cgroup(a[RAWPROBE_A_FILTER_CGROUP], extack, &s->filter))
		return -ENOENT;
	if (a[RAWPROBE_A_ARGTYPES]) {
		if (nla_len(a[RAWPROBE_A_ARGTYPES]) != s->nargs) {
			NL_SET_ERR_MSG_ATTR(extack, a[RAWPROBE_A_ARGTYPES],
					    "one argument type per argument");
			return -EINVAL;
		}
		nla_memcpy(s->argtypes, a[RAWPROBE_A_ARGTYPES],
			   sizeof(s->argtypes));
	}
	if (a[RAWPROBE_A_ARG_NAMES] &&
	    rp_parse_arg_names(a[RAWPROBE_A_ARG_NAMES], extack, s))
		return -EINVAL;
	if (a[RAWPROBE_A_STR_LEN_ARGS]) {
		if (nla_len(a[RAWPROBE_A_STR_LEN_ARGS]) != s->nargs) {
			NL_SET_ERR_MSG_ATTR(extack, a[RAWPROBE_A_STR_LEN_ARGS],
					    "one string length source per argument");
			return -EINVAL;
		}
		nla_memcpy(s->str_len_arg, a[RAWPROBE_A_STR_LEN_ARGS],
			   sizeof(s->str_len_arg));
	}
	return rp_parse_values(a, extack, s) ?:
	       rp_parse_agg(a, extack, &s->agg) ?:
	       rp_parse_ovr(a, extack, s);
}

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
	int err;

	spec = kmalloc(sizeof(*spec), GFP_KERNEL);
	if (!spec) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	err = rp_parse_spec(info->attrs, NULL, info->extack, spec) ?:
	      rp_require_read_caps(skb, spec, 1, info->extack) ?:
	      rp_require_override_caps(skb, spec, 1, info->extack) ?:
	      rp_sender_owner(skb, info, spec, 1, &owner) ?:
	      rp_answer_prepare(info, NLMSG_GOODSIZE, ans);
	if (!err) {
		err = rp_probe_add(spec, owner, info->extack, id);
		if (err)
			rp_answer_drop(ans);
	}
	kfree(spec);
	return err;
}

static int rp_cmd_probe_add(struct sk_buff *skb, struct genl_info *info)
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

/* The index of the spec that failed rides in the extack cookie. */
static void rp_batch_blame(struct netlink_ext_ack *extack, int failed)
{
	u32 idx = failed;

	if (failed < 0 || !extack)
		return;
	memcpy(extack->cookie, &idx, sizeof(idx));
	extack->cookie_len = sizeof(idx);
}

static int rp_parse_batch(struct genl_info *info, struct rp_probe_spec *specs,
			  unsigned int *n)
{
	struct nlattr *tb[RAWPROBE_A_MAX + 1], *entry;
	u32 flags = 0;
	int rem, err;

	if (info->attrs[RAWPROBE_A_FLAGS])
		flags = nla_get_u32(info->attrs[RAWPROBE_A_FLAGS]);
	*n = 0;
	nla_for_each_nested(entry, info->attrs[RAWPROBE_A_BATCH], rem) {
		err = nla_parse_nested(tb, RAWPROBE_A_MAX, entry,
				       rp_add_policy, info->extack);
		if (!err)
			err = rp_parse_spec(tb, entry, info->extack,
					    &specs[*n]);
		if (err) {
			rp_batch_blame(info->extack, *n);
			return err;
		}
		specs[(*n)++].flags |= flags;
	}
	return 0;
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

static int rp_cmd_probe_add_batch(struct sk_buff *skb, struct genl_info *info)
{
	struct rp_probe_spec *specs;
	struct rp_owner *owner;
	struct rp_answer ans;
	struct nlattr *entry;
	unsigned int n;
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
	err = rp_parse_batch(info, specs, &n) ?:
	      rp_require_read_caps(skb, specs, n, info->extack) ?:
	      rp_require_override_caps(skb, specs, n, info->extack) ?:
	      rp_sender_owner(skb, info, specs, n, &owner) ?:
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
static int rp_cmd_probe_del(struct sk_buff *skb, struct genl_info *info)
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

static int rp_cmd_probe_get(struct sk_buff *skb, struct genl_info *info)
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
static int rp_probe_dump_start(struct netlink_callback *cb)
{
	return rp_require_admin(cb->skb, cb->extack);
}

static int rp_cmd_probe_dump(struct sk_buff *skb, struct netlink_callback *cb)
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
static int rp_agg_dump_start(struct netlink_callback *cb)
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

static int rp_agg_dump_done(struct netlink_callback *cb)
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

static int rp_cmd_agg_dump(struct sk_buff *skb, struct netlink_callback *cb)
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

static int rp_cmd_probe_enable(struct sk_buff *skb, struct genl_info *info)
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

static int rp_cmd_stats_reset(struct sk_buff *skb, struct genl_info *info)
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

static struct genl_family rp_family __ro_after_init = {
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
