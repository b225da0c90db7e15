// SPDX-License-Identifier: GPL-2.0
/*
 * A probe in attributes, both ways (generic netlink family, genl.c):
 * PROBE_ADD's and ADD_BATCH's policies, with the nested override policy;
 * their attributes parsed into struct rp_probe_spec (what a spec may
 * ask is the core's to check, registry_check.c first); and a probe
 * described by the same attributes, with its state, owner and
 * statistics, for answers, dumps and events (genl_probe.c). An attribute
 * added to a spec is added here three times: policy, parsing,
 * description.
 *
 * The override (RAWPROBE_A_OVERRIDE and its nested policy) stays here
 * rather than in a file of injection's own: it is an attribute of a
 * probe, parsed and described inside the spec, and there is no command
 * of its own (`rawprobectl inject` adds a probe that carries one). A
 * file apart would be called from this one's parser for sixty lines.
 */
#include <linux/cgroup.h>
#include <linux/ctype.h>
#include <net/genetlink.h>
#include "core.h"
#include "genl_int.h"
#include "session.h"

/* Not const: 6.1's nla_policy.range is a plain pointer. */
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

const struct nla_policy rp_add_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_KIND]	= NLA_POLICY_RANGE(NLA_U8, RAWPROBE_KIND_KPROBE,
						   RAWPROBE_KIND_TRACEPOINT),
	[RAWPROBE_A_SYMBOL]	= { .type = NLA_NUL_STRING,
				    .len = KSYM_NAME_LEN - 1 },
	[RAWPROBE_A_MODULE]	= { .type = NLA_NUL_STRING,
				    .len = MODULE_NAME_LEN - 1 },
	[RAWPROBE_A_OFFSET]	= NLA_POLICY_MAX(NLA_U32,
						 RAWPROBE_MAX_OFFSET),
	[RAWPROBE_A_ADDR]	= { .type = NLA_U64 },
	[RAWPROBE_A_FTRACE_ADDR] = NLA_POLICY_MIN(NLA_U64, 1),
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
	[RAWPROBE_A_SESSION]	= { .type = NLA_U32 },
	[RAWPROBE_A_SESSION_NAME] = { .type = NLA_NUL_STRING,
				      .len = RAWPROBE_SESSION_NAME_LEN - 1 },
	[RAWPROBE_A_PAIR]	= NLA_POLICY_NESTED(rp_pair_policy),
};

const struct nla_policy rp_batch_policy[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_BATCH]	= NLA_POLICY_NESTED_ARRAY(rp_add_policy),
	[RAWPROBE_A_FLAGS]	= NLA_POLICY_MASK(NLA_U32, RAWPROBE_F_PERSISTENT |
						  RAWPROBE_F_DISABLED),
};

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

static u32 rp_spec_session_id(const struct rp_probe_spec *s)
{
	return s->sess ? s->sess->id : RAWPROBE_SESSION_DEFAULT;
}

int rp_put_probe_attrs(struct sk_buff *skb, struct rawprobe_probe *p)
{
	const struct rp_probe_spec *s = &p->spec;
	struct kprobe *kp = rp_probe_kprobe(p);

	if (nla_put_u32(skb, RAWPROBE_A_PROBE_ID, p->id) ||
	    nla_put_u32(skb, RAWPROBE_A_SESSION, rp_spec_session_id(s)) ||
	    nla_put_u8(skb, RAWPROBE_A_KIND, s->kind) ||
	    nla_put_u8(skb, RAWPROBE_A_STATE, p->state) ||
	    nla_put_u32(skb, RAWPROBE_A_FLAGS, s->flags |
			(p->owner ? 0 : RAWPROBE_F_PERSISTENT) |
			(p->syscall_regs ? RAWPROBE_F_SYSCALL : 0) |
			(p->fentry_ip ? RAWPROBE_F_FTRACE : 0)) ||
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
	    rp_put_agg(skb, s) || rp_put_ovr(skb, s) || rp_put_owner(skb, p) ||
	    rp_put_pair(skb, p))
		return -EMSGSIZE;
	return rp_put_stats(skb, p);
}

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
 * identifiers and field paths only (skb->dev->name, a.b[2], a cast's
 * "((struct tcp_sock *)sk)->x"), or an alias of one ("tx=sk->x"), one per
 * argument, so that no output needs escaping (no comma, quote or
 * backslash). ASCII only: the kernel's
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
		} else if ((isascii(*c) && isalnum(*c)) ||
			   strchr("_.[]=()* ", *c)) {
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

/* The session is looked up, and judged, by the command (genl_probe.c). */
static int rp_parse_session(struct nlattr **a, struct netlink_ext_ack *extack,
			    struct rp_probe_spec *s)
{
	if (a[RAWPROBE_A_SESSION] && a[RAWPROBE_A_SESSION_NAME]) {
		NL_SET_ERR_MSG_ATTR(extack, a[RAWPROBE_A_SESSION_NAME],
				    "name a session by id or by name, not both");
		return -EINVAL;
	}
	if (a[RAWPROBE_A_SESSION])
		s->session_id = nla_get_u32(a[RAWPROBE_A_SESSION]);
	if (a[RAWPROBE_A_SESSION_NAME])
		nla_strscpy(s->session_name, a[RAWPROBE_A_SESSION_NAME],
			    sizeof(s->session_name));
	return 0;
}

int rp_parse_spec(struct nlattr **a, struct nlattr *where,
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
	if (s->kind == RAWPROBE_KIND_CUSTOM) {
		NL_SET_ERR_MSG_ATTR(extack, a[RAWPROBE_A_KIND],
				    "custom probes come from modules (rawprobe_probe_add()), not netlink");
		return -EINVAL;
	}
	if (a[RAWPROBE_A_SYMBOL])
		nla_strscpy(s->symbol, a[RAWPROBE_A_SYMBOL], sizeof(s->symbol));
	if (a[RAWPROBE_A_MODULE])
		nla_strscpy(s->module, a[RAWPROBE_A_MODULE], sizeof(s->module));
	if (a[RAWPROBE_A_OFFSET])
		s->offset = nla_get_u32(a[RAWPROBE_A_OFFSET]);
	if (a[RAWPROBE_A_ADDR])
		s->addr = nla_get_u64(a[RAWPROBE_A_ADDR]);
	if (a[RAWPROBE_A_FTRACE_ADDR])
		s->ftrace_addr = nla_get_u64(a[RAWPROBE_A_FTRACE_ADDR]);
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
	return rp_parse_session(a, extack, s) ?:
	       rp_parse_values(a, extack, s) ?:
	       rp_parse_agg(a, extack, &s->agg) ?:
	       rp_parse_ovr(a, extack, s) ?:
	       rp_parse_pair(a, extack, s);
}

int rp_parse_batch(struct genl_info *info, struct rp_probe_spec *specs,
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
