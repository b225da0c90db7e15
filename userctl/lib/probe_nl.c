// SPDX-License-Identifier: GPL-2.0
/*
 * The probe client: PROBE_ADD requests built from rp_probe_req (one, or
 * batches all or none), the kernel's descriptions of probes parsed
 * (PROBE_GET, dumps, events), PROBE_DEL lists, requests about one id.
 * Every command that brings or reads probes uses it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include "lib/cli.h"
#include "lib/names.h"
#include "lib/probe_nl.h"

/* --- kernel descriptions --- */

static uint64_t rp_stat(struct nlattr **s, int type)
{
	return s[type] ? nla_get_u64(s[type]) : 0;
}

static void rp_nla_str(struct nlattr *a, char *buf, size_t len)
{
	if (a)
		snprintf(buf, len, "%s", nla_get_string(a));
}

static void rp_task_filter_from_attrs(struct nlattr **a, struct rp_task_filter *f)
{
	if (a[RAWPROBE_A_FILTER_PID]) {
		f->pid = nla_get_u32(a[RAWPROBE_A_FILTER_PID]);
		f->set |= RP_TASK_PID;
	}
	if (a[RAWPROBE_A_FILTER_TGID]) {
		f->tgid = nla_get_u32(a[RAWPROBE_A_FILTER_TGID]);
		f->set |= RP_TASK_TGID;
	}
	if (a[RAWPROBE_A_FILTER_CPU]) {
		f->cpu = nla_get_u32(a[RAWPROBE_A_FILTER_CPU]);
		f->set |= RP_TASK_CPU;
	}
	if (a[RAWPROBE_A_FILTER_COMM]) {
		rp_nla_str(a[RAWPROBE_A_FILTER_COMM], f->comm, sizeof(f->comm));
		f->set |= RP_TASK_COMM;
	}
	if (a[RAWPROBE_A_FILTER_NOT_TGID]) {
		f->not_tgid = nla_get_u32(a[RAWPROBE_A_FILTER_NOT_TGID]);
		f->set |= RP_TASK_NOT_TGID;
	}
	if (a[RAWPROBE_A_FILTER_CGROUP]) {
		f->cgroup_id = nla_get_u64(a[RAWPROBE_A_FILTER_CGROUP]);
		f->set |= RP_TASK_CGROUP;
	}
}

static int rp_task_filter_put(struct nl_msg *msg, const struct rp_task_filter *f)
{
	if ((f->set & RP_TASK_PID) &&
	    nla_put_u32(msg, RAWPROBE_A_FILTER_PID, f->pid))
		return -EMSGSIZE;
	if ((f->set & RP_TASK_TGID) &&
	    nla_put_u32(msg, RAWPROBE_A_FILTER_TGID, f->tgid))
		return -EMSGSIZE;
	if ((f->set & RP_TASK_CPU) &&
	    nla_put_u32(msg, RAWPROBE_A_FILTER_CPU, f->cpu))
		return -EMSGSIZE;
	if ((f->set & RP_TASK_COMM) &&
	    nla_put_string(msg, RAWPROBE_A_FILTER_COMM, f->comm))
		return -EMSGSIZE;
	if ((f->set & RP_TASK_NOT_TGID) &&
	    nla_put_u32(msg, RAWPROBE_A_FILTER_NOT_TGID, f->not_tgid))
		return -EMSGSIZE;
	if ((f->set & RP_TASK_CGROUP) &&
	    nla_put_u64(msg, RAWPROBE_A_FILTER_CGROUP, f->cgroup_id))
		return -EMSGSIZE;
	return 0;
}

/* buf:str:count: does a string of req take its length from an argument? */
bool rp_str_lens_set(const struct rp_probe_req *r)
{
	int i;

	for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++)
		if (r->str_len_arg[i])
			return true;
	return false;
}

/* The kernel checked them; what is shown unescaped is checked here too. */
static void rp_arg_names_parse(struct nlattr *a, struct rp_probe_info *pi)
{
	struct rp_probe_desc d = { .nargs = pi->nargs };

	if (!a)
		return;
	rp_nla_str(a, pi->arg_names, sizeof(pi->arg_names));
	if (rp_desc_set_names(&d, pi->arg_names))
		pi->arg_names[0] = '\0';
}

/* The filter as written, echoed by the kernel: shown as it is, if printable */
static void rp_value_filter_parse(struct nlattr *a, struct rp_probe_info *pi)
{
	const char *c;

	rp_nla_str(a, pi->value_filter, sizeof(pi->value_filter));
	for (c = pi->value_filter; *c; c++)
		if (*c < 0x20 || *c > 0x7e || *c == '"' || *c == '\\')
			pi->value_filter[0] = '\0';
}

/* An aggregating probe's keys and value, as the kernel keeps them. */
static void rp_agg_from_attrs(struct nlattr **a, struct rp_agg_req *g)
{
	struct nlattr *keys = a[RAWPROBE_A_AGG_KEYS];
	struct nlattr *args = a[RAWPROBE_A_AGG_KEY_ARGS];

	if (keys && nla_len(keys) <= RAWPROBE_AGG_MAX_KEYS) {
		g->nkeys = (uint8_t)nla_len(keys);
		nla_memcpy(g->keys, keys, sizeof(g->keys));
	}
	if (args)
		nla_memcpy(g->key_args, args, sizeof(g->key_args));
	if (a[RAWPROBE_A_AGG_VALUE])
		g->value_kind = nla_get_u8(a[RAWPROBE_A_AGG_VALUE]);
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
}

static void rp_ovr_from_attrs(struct nlattr **a, struct rp_ovr_req *o)
{
	struct nlattr *tb[RAWPROBE_OVR_MAX + 1];

	if (a[RAWPROBE_A_CHAIN_STEP])
		o->chain_step = nla_get_u8(a[RAWPROBE_A_CHAIN_STEP]);
	if (!a[RAWPROBE_A_OVERRIDE] ||
	    nla_parse_nested(tb, RAWPROBE_OVR_MAX, a[RAWPROBE_A_OVERRIDE],
			     NULL) || !tb[RAWPROBE_OVR_VALUE])
		return;
	o->set = true;
	o->value = (int64_t)nla_get_u64(tb[RAWPROBE_OVR_VALUE]);
	if (tb[RAWPROBE_OVR_PROBABILITY])
		o->probability = nla_get_u8(tb[RAWPROBE_OVR_PROBABILITY]);
	if (tb[RAWPROBE_OVR_TIMES])
		o->times = nla_get_u32(tb[RAWPROBE_OVR_TIMES]);
	if (tb[RAWPROBE_OVR_INTERVAL])
		o->interval = nla_get_u32(tb[RAWPROBE_OVR_INTERVAL]);
	if (tb[RAWPROBE_OVR_CHAIN])
		o->chain_len = nla_get_u8(tb[RAWPROBE_OVR_CHAIN]);
}

int rp_probe_info_parse(struct nlattr **a, struct rp_probe_info *pi)
{
	struct nlattr *s[RAWPROBE_STAT_MAX + 1];

	memset(pi, 0, sizeof(*pi));
	if (!a[RAWPROBE_A_PROBE_ID] || !a[RAWPROBE_A_KIND])
		return -EBADMSG;
	pi->id = nla_get_u32(a[RAWPROBE_A_PROBE_ID]);
	/* a module without sessions writes every probe into the default */
	if (a[RAWPROBE_A_SESSION])
		pi->session = nla_get_u32(a[RAWPROBE_A_SESSION]);
	pi->kind = nla_get_u8(a[RAWPROBE_A_KIND]);
	if (a[RAWPROBE_A_STATE])
		pi->state = nla_get_u8(a[RAWPROBE_A_STATE]);
	if (a[RAWPROBE_A_FLAGS])
		pi->flags = nla_get_u32(a[RAWPROBE_A_FLAGS]);
	if (a[RAWPROBE_A_OFFSET])
		pi->offset = nla_get_u32(a[RAWPROBE_A_OFFSET]);
	if (a[RAWPROBE_A_MAXACTIVE])
		pi->maxactive = nla_get_u32(a[RAWPROBE_A_MAXACTIVE]);
	if (a[RAWPROBE_A_ADDR])
		pi->addr = nla_get_u64(a[RAWPROBE_A_ADDR]);
	/* (a tracepoint's is its struct tracepoint's: no code to name) */
	if (a[RAWPROBE_A_PROBED_ADDR] && pi->kind != RAWPROBE_KIND_TRACEPOINT)
		pi->probed_addr = nla_get_u64(a[RAWPROBE_A_PROBED_ADDR]);
	rp_nla_str(a[RAWPROBE_A_SYMBOL], pi->symbol, sizeof(pi->symbol));
	rp_nla_str(a[RAWPROBE_A_MODULE], pi->module, sizeof(pi->module));
	rp_nla_str(a[RAWPROBE_A_NAME], pi->name, sizeof(pi->name));
	rp_nla_str(a[RAWPROBE_A_OWNER_MODULE], pi->owner, sizeof(pi->owner));
	rp_task_filter_from_attrs(a, &pi->filter);
	if (a[RAWPROBE_A_NARGS])
		pi->nargs = nla_get_u8(a[RAWPROBE_A_NARGS]);
	if (pi->nargs > RAWPROBE_MAX_ARGS)
		return -EBADMSG;
	if (a[RAWPROBE_A_ARGTYPES])
		nla_memcpy(pi->argtypes, a[RAWPROBE_A_ARGTYPES],
			   sizeof(pi->argtypes));
	rp_arg_names_parse(a[RAWPROBE_A_ARG_NAMES], pi);
	if (a[RAWPROBE_A_FETCH] && pi->nargs &&
	    nla_len(a[RAWPROBE_A_FETCH]) ==
	    (int)(pi->nargs * sizeof(struct rawprobe_fetch)))
		pi->nfetch = pi->nargs;
	rp_value_filter_parse(a[RAWPROBE_A_VALUE_FILTER_STR], pi);
	rp_agg_from_attrs(a, &pi->agg);
	if (a[RAWPROBE_A_STATS] &&
	    !nla_parse_nested(s, RAWPROBE_STAT_MAX, a[RAWPROBE_A_STATS], NULL)) {
		pi->hits = rp_stat(s, RAWPROBE_STAT_HITS);
		pi->records = rp_stat(s, RAWPROBE_STAT_RECORDS);
		pi->lost_ring = rp_stat(s, RAWPROBE_STAT_LOST_RING);
		pi->miss_maxactive = rp_stat(s, RAWPROBE_STAT_MISS_MAXACTIVE);
		pi->miss_recursion = rp_stat(s, RAWPROBE_STAT_MISS_RECURSION);
		pi->str_faults = rp_stat(s, RAWPROBE_STAT_STR_FAULTS);
		pi->filtered = rp_stat(s, RAWPROBE_STAT_FILTERED);
		pi->fetch_faults = rp_stat(s, RAWPROBE_STAT_FETCH_FAULTS);
		pi->overridden = rp_stat(s, RAWPROBE_STAT_OVERRIDDEN);
	}
	rp_ovr_from_attrs(a, &pi->ovr);
	rp_pair_from_attrs(a, &pi->pair, &pi->pair_stats);
	return 0;
}

void rp_probe_target(const struct rp_probe_info *pi, char *buf, size_t len)
{
	int n;

	if (!pi->symbol[0] && !pi->addr && pi->name[0]) {
		snprintf(buf, len, "%s", pi->name);	/* a custom probe */
		return;
	}
	if (!pi->symbol[0]) {
		snprintf(buf, len, "0x%" PRIx64, pi->addr);
		return;
	}
	n = snprintf(buf, len, "%s%s%s", pi->module, pi->module[0] ? ":" : "",
		     pi->symbol);
	if (pi->offset && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "+0x%x", pi->offset);
}

void rp_probe_desc(const struct rp_probe_info *pi, struct rp_probe_desc *d)
{
	char target[RP_TARGET_MAX];

	rp_probe_target(pi, target, sizeof(target));
	snprintf(d->name, sizeof(d->name), "%s:%s", rp_kind_name(pi->kind),
		 target);
	rp_desc_name_ready(d);
	d->id = pi->id;
	d->kind = pi->kind;
	d->is_addr = !pi->symbol[0] && !pi->name[0];
	d->nargs = pi->nargs;
	memcpy(d->argtypes, pi->argtypes, sizeof(d->argtypes));
	d->by_name = pi->nfetch != 0;
	d->pair_end = pi->pair.role == RAWPROBE_PAIR_END &&
		      !(pi->flags & RAWPROBE_F_AGG);
	rp_desc_set_names(d, pi->arg_names);
	/* the kernel does not know them: resolution's, from BTF */
	d->ret_type = RP_RET_RAW;
	d->arg_bool = 0;
	d->types_known = 0;
}

static int rp_collect_one(struct nlattr **a, void *ctx)
{
	return rp_probe_info_parse(a, ctx);
}

struct rp_dump {
	struct rp_probe_info *v;
	size_t n, cap;
};

static int rp_collect_many(struct nlattr **a, void *ctx)
{
	struct rp_dump *d = ctx;

	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		void *v = realloc(d->v, cap * sizeof(*d->v));

		if (!v)
			return -ENOMEM;
		d->v = v;
		d->cap = cap;
	}
	return rp_probe_info_parse(a, &d->v[d->n++]);
}

int rp_probe_dump(struct rp_nl *nl, struct rp_probe_info **v, size_t *n)
{
	struct rp_dump d = { 0 };
	struct nl_msg *msg;
	int err;

	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP);
	err = msg ? rp_nl_call(nl, msg, rp_collect_many, &d) : -ENOMEM;
	if (err) {
		free(d.v);
		return err;
	}
	*v = d.v;
	*n = d.n;
	return 0;
}

/* --- probe add --- */

/* count's keys and value (RAWPROBE_F_AGG), resolved by then */
static int rp_put_agg(struct nl_msg *msg, const struct rp_probe_req *r)
{
	const struct rp_agg_req *a = &r->agg;

	if (!(r->flags & RAWPROBE_F_AGG))
		return 0;
	if (a->nkeys &&
	    (nla_put(msg, RAWPROBE_A_AGG_KEYS, a->nkeys, a->keys) ||
	     nla_put(msg, RAWPROBE_A_AGG_KEY_ARGS, a->nkeys, a->key_args)))
		return -EMSGSIZE;
	if (a->value_kind &&
	    (nla_put_u8(msg, RAWPROBE_A_AGG_VALUE, a->value_kind) ||
	     nla_put_u8(msg, RAWPROBE_A_AGG_VALUE_ARG, a->value_arg)))
		return -EMSGSIZE;
	if (a->hist && nla_put_u8(msg, RAWPROBE_A_AGG_HIST, a->hist))
		return -EMSGSIZE;
	if (a->hist == RAWPROBE_AGG_HIST_LINEAR &&
	    (nla_put_s64(msg, RAWPROBE_A_AGG_LIN_MIN, a->lin_min) ||
	     nla_put_u64(msg, RAWPROBE_A_AGG_LIN_STEP, a->lin_step) ||
	     nla_put_u16(msg, RAWPROBE_A_AGG_LIN_BUCKETS, a->lin_buckets)))
		return -EMSGSIZE;
	if (a->max_keys &&
	    nla_put_u32(msg, RAWPROBE_A_AGG_MAX_KEYS, a->max_keys))
		return -EMSGSIZE;
	return 0;
}

/* --override and inject's limits (RAWPROBE_A_OVERRIDE), a chain's step */
static int rp_put_ovr(struct nl_msg *msg, const struct rp_ovr_req *o)
{
	struct nlattr *nest;

	if (o->chain_step &&
	    nla_put_u8(msg, RAWPROBE_A_CHAIN_STEP, o->chain_step))
		return -EMSGSIZE;
	if (!o->set)
		return 0;
	nest = nla_nest_start(msg, RAWPROBE_A_OVERRIDE);
	if (!nest || nla_put_s64(msg, RAWPROBE_OVR_VALUE, o->value) ||
	    (o->probability &&
	     nla_put_u8(msg, RAWPROBE_OVR_PROBABILITY, o->probability)) ||
	    (o->times && nla_put_u32(msg, RAWPROBE_OVR_TIMES, o->times)) ||
	    (o->interval &&
	     nla_put_u32(msg, RAWPROBE_OVR_INTERVAL, o->interval)) ||
	    (o->chain_len &&
	     nla_put_u8(msg, RAWPROBE_OVR_CHAIN, o->chain_len)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int rp_put_req(struct nl_msg *msg, const struct rp_probe_req *r)
{
	if (nla_put_u8(msg, RAWPROBE_A_KIND, (uint8_t)r->kind) ||
	    nla_put_u32(msg, RAWPROBE_A_FLAGS, r->flags))
		return -EMSGSIZE;
	if (r->symbol[0] && nla_put_string(msg, RAWPROBE_A_SYMBOL, r->symbol))
		return -EMSGSIZE;
	if (r->module[0] && nla_put_string(msg, RAWPROBE_A_MODULE, r->module))
		return -EMSGSIZE;
	if (r->offset && nla_put_u32(msg, RAWPROBE_A_OFFSET, r->offset))
		return -EMSGSIZE;
	if (r->addr && nla_put_u64(msg, RAWPROBE_A_ADDR, r->addr))
		return -EMSGSIZE;
	if (r->ftrace_addr &&
	    nla_put_u64(msg, RAWPROBE_A_FTRACE_ADDR, r->ftrace_addr))
		return -EMSGSIZE;
	if (r->maxactive && nla_put_u32(msg, RAWPROBE_A_MAXACTIVE,
					r->maxactive))
		return -EMSGSIZE;
	if (r->nargs > 0 &&
	    (nla_put_u8(msg, RAWPROBE_A_NARGS, (uint8_t)r->nargs) ||
	     nla_put(msg, RAWPROBE_A_ARGTYPES, r->nargs, r->argtypes)))
		return -EMSGSIZE;
	if (r->str_max && nla_put_u16(msg, RAWPROBE_A_STR_MAX, r->str_max))
		return -EMSGSIZE;
	if (r->nargs > 0 && r->arg_names[0] &&
	    nla_put_string(msg, RAWPROBE_A_ARG_NAMES, r->arg_names))
		return -EMSGSIZE;
	if (r->nfetch && nla_put(msg, RAWPROBE_A_FETCH,
				 (int)(r->nfetch * sizeof(r->fetch[0])), r->fetch))
		return -EMSGSIZE;
	if (r->nterms &&
	    (nla_put(msg, RAWPROBE_A_VALUE_FILTER,
		     (int)(r->nterms * sizeof(r->terms[0])), r->terms) ||
	     nla_put_string(msg, RAWPROBE_A_VALUE_FILTER_STR, r->value_filter)))
		return -EMSGSIZE;
	if (r->filter_strs_len &&
	    nla_put(msg, RAWPROBE_A_VALUE_FILTER_STRS, r->filter_strs_len,
		    r->filter_strs))
		return -EMSGSIZE;
	if (rp_str_lens_set(r) &&
	    nla_put(msg, RAWPROBE_A_STR_LEN_ARGS, r->nargs, r->str_len_arg))
		return -EMSGSIZE;
	return rp_put_agg(msg, r) ?: rp_put_ovr(msg, &r->ovr) ?:
	       rp_pair_put(msg, &r->pair) ?:
	       rp_task_filter_put(msg, &r->filter) ?:
	       rp_session_ref_put(msg, &r->ring);
}

/* An older module refuses filter attributes it does not know. */
static void rp_filter_hint(const struct rp_nl *nl, const struct rp_probe_req *req,
			   int err)
{
	if (err != -EINVAL || !req->filter.set || !strstr(nl->errmsg, "ttribute"))
		return;
	fprintf(stderr, "rawprobectl: this rawprobe module cannot filter in the "
		"kernel (--pid/--tgid/--comm/--cpu): load a newer module, or add "
		"the probe without filters and use 'stream --pid ...', which "
		"filters in user space\n");
}

/* ...and argument names (RAWPROBE_A_ARG_NAMES), which older modules lack. */
static void rp_names_hint(const struct rp_nl *nl, const struct rp_probe_req *req,
			  int err)
{
	if (err != -EINVAL || !req->arg_names[0] || req->filter.set ||
	    req->nfetch || req->nterms || !strstr(nl->errmsg, "ttribute"))
		return;
	fprintf(stderr, "rawprobectl: this rawprobe module cannot keep argument "
		"names (--args auto, NAME:TYPE): load a newer module, or give "
		"types only (--args s32,ptr,...)\n");
}

/* ...and field fetches and value filters (ABI 2). */
static void rp_fetch_hint(const struct rp_nl *nl, const struct rp_probe_req *req,
			  int err)
{
	if (err != -EINVAL || !(req->nfetch || req->nterms) ||
	    req->filter.set || !strstr(nl->errmsg, "ttribute"))
		return;
	fprintf(stderr, "rawprobectl: this rawprobe module cannot read fields "
		"or filter on values (--args PATH, --filter): load the module "
		"of this rawprobectl (ABI %d)\n", RAWPROBE_ABI_VERSION);
}

/* ...and stacks: an older policy refuses the flag's bit. */
static void rp_stack_hint(const struct rp_nl *nl,
			  const struct rp_probe_req *req, int err)
{
	if (err != -EINVAL || !(req->flags & RAWPROBE_F_STACK) ||
	    !strstr(nl->errmsg, "reserved bit"))
		return;
	fprintf(stderr, "rawprobectl: this rawprobe module cannot record "
		"stacks (--stack): load the module of this rawprobectl\n");
}

/*
 * ...and sessions (ABI 6): say which module this is. (ENOENT is an
 * unknown symbol as well as session: the commands look a session up
 * before they add probes to it.)
 */
static void rp_ring_hint(struct rp_nl *nl, const struct rp_probe_req *req,
			 int err)
{
	if (err != -ENOENT &&
	    (req->ring.name[0] || req->ring.id != RAWPROBE_SESSION_DEFAULT))
		rp_session_hint(nl, &req->ring, err);
}

static void rp_add_hints(struct rp_nl *nl, const struct rp_probe_req *req,
			 int err)
{
	rp_filter_hint(nl, req, err);
	rp_names_hint(nl, req, err);
	rp_fetch_hint(nl, req, err);
	rp_stack_hint(nl, req, err);
	rp_ring_hint(nl, req, err);
}

int rp_probe_add_req(struct rp_nl *nl, const struct rp_probe_req *req,
		     struct rp_probe_info *pi)
{
	struct nl_msg *msg;
	char what[300];
	int err;

	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_ADD, 0);
	if (!msg || rp_put_req(msg, req)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	err = rp_nl_call(nl, msg, rp_collect_one, pi);
	if (err) {
		struct rp_probe_info t = { .offset = req->offset,
					   .addr = req->addr };

		snprintf(t.symbol, sizeof(t.symbol), "%s", req->symbol);
		snprintf(t.module, sizeof(t.module), "%s", req->module);
		rp_probe_target(&t, what, sizeof(what));
		rp_nl_perror(nl, what, err);
		rp_add_hints(nl, req, err);
	}
	return err;
}

struct rp_batch_reply {
	uint32_t *ids;
	size_t n, max;
};

static int rp_batch_ids(struct nlattr **a, void *ctx)
{
	struct rp_batch_reply *r = ctx;
	struct nlattr *id;
	int rem;

	if (!a[RAWPROBE_A_BATCH])
		return -EBADMSG;
	nla_for_each_nested(id, a[RAWPROBE_A_BATCH], rem)
		if (r->n < r->max)
			r->ids[r->n++] = nla_get_u32(id);
	return 0;
}

/* One ADD_BATCH message: all of reqs are added, or none. */
/*
 * A batch is one nested attribute, whose length is a u16: its entries
 * stop short of 64 KiB (about 1,000 plain kprobes, fewer with
 * arguments and filters), well inside what one send may carry.
 */
#define RP_BATCH_BYTES	(60 * 1024)

/*
 * One PROBE_ADD_BATCH of reqs[0..*n): as many as RP_BATCH_BYTES holds,
 * *n set to how many went.
 */
static int rp_probe_add_chunk(struct rp_nl *nl, const struct rp_probe_req *reqs,
			      size_t *n, uint32_t *ids)
{
	struct rp_batch_reply r = { .ids = ids };
	struct nlattr *batch, *entry;
	struct nl_msg *msg;
	size_t i;
	int err;

	msg = rp_nl_msg_size(nl, RAWPROBE_CMD_PROBE_ADD_BATCH, 0,
			     RP_BATCH_BYTES + 4096 + sizeof(*reqs) + 64);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, RAWPROBE_A_FLAGS, reqs[0].flags &
			(RAWPROBE_F_PERSISTENT | RAWPROBE_F_DISABLED)))
		goto full;
	batch = nla_nest_start(msg, RAWPROBE_A_BATCH);
	if (!batch)
		goto full;
	for (i = 0; i < *n && (!i || nlmsg_datalen(nlmsg_hdr(msg)) <
				RP_BATCH_BYTES); i++) {
		entry = nla_nest_start(msg, (int)(i + 1));
		if (!entry || rp_put_req(msg, &reqs[i]))
			goto full;
		nla_nest_end(msg, entry);
	}
	nla_nest_end(msg, batch);
	*n = i;
	r.max = i;
	err = rp_nl_call(nl, msg, rp_batch_ids, &r);
	if (err) {
		char what[300] = "batch";
		uint32_t idx;

		if (nl->cookie_len == sizeof(idx)) {
			struct rp_probe_info t = { 0 };

			memcpy(&idx, nl->cookie, sizeof(idx));
			if (idx < *n) {
				t.offset = reqs[idx].offset;
				t.addr = reqs[idx].addr;
				snprintf(t.symbol, sizeof(t.symbol), "%s",
					 reqs[idx].symbol);
				snprintf(t.module, sizeof(t.module), "%s",
					 reqs[idx].module);
				rp_probe_target(&t, what, sizeof(what));
			}
		}
		rp_nl_perror(nl, what, err);
		rp_add_hints(nl, &reqs[0], err);
		return err;
	}
	return r.n == *n ? 0 : -EBADMSG;
full:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int rp_probe_del_many(struct rp_nl *nl, const uint32_t *ids, size_t n)
{
	size_t i, len;
	int err = 0, e;

	for (i = 0; i < n; i += len) {
		len = n - i < RAWPROBE_MAX_BATCH ? n - i : RAWPROBE_MAX_BATCH;
		e = rp_probe_del_list(nl, ids + i, len);
		err = err ?: e;
	}
	return err;
}

/*
 * Batches of up to RAWPROBE_MAX_BATCH (as many as a message holds), each
 * all-or-nothing in the kernel, and armed in one ftrace update where
 * the kernel can (kmod/fentry.c: each update walks every ftrace record,
 * so fewer, larger batches arm a glob sooner); and the whole too: when
 * one is refused, the batches added before it are removed (a glob of
 * 1,000 functions is added whole or not at all), in one grace period
 * per RAWPROBE_MAX_BATCH.
 */
int rp_probe_add_many(struct rp_nl *nl, const struct rp_probe_req *reqs,
		      size_t n, uint32_t *ids)
{
	size_t i, chunk;
	int err = 0;

	for (i = 0; !err && i < n; i += chunk) {
		chunk = n - i < RAWPROBE_MAX_BATCH ? n - i : RAWPROBE_MAX_BATCH;
		err = rp_probe_add_chunk(nl, reqs + i, &chunk, ids + i);
		if (err && i && rp_probe_del_many(nl, ids, i))
			fprintf(stderr, "rawprobectl: %zu probes of this batch "
				"were added and could not be removed: see "
				"'rawprobectl probe list'\n", i);
	}
	return err;
}

/* The request a counting probe was added with, from its description. */
void rp_agg_req_of_info(const struct rp_probe_info *pi,
			struct rp_probe_req *req)
{
	memset(req, 0, sizeof(*req));
	req->kind = pi->kind;
	req->nargs = pi->nargs;
	memcpy(req->argtypes, pi->argtypes, sizeof(req->argtypes));
	memcpy(req->arg_names, pi->arg_names, sizeof(req->arg_names));
	req->agg = pi->agg;
}

/* One PROBE_DEL for up to RAWPROBE_MAX_BATCH ids, all or none. */
int rp_probe_del_list(struct rp_nl *nl, const uint32_t *ids, size_t n)
{
	struct nl_msg *msg;

	msg = rp_nl_msg_size(nl, RAWPROBE_CMD_PROBE_DEL, 0, 4096 + n * 4);
	if (!msg)
		return -ENOMEM;
	if (n == 1 ? nla_put_u32(msg, RAWPROBE_A_PROBE_ID, ids[0]) :
	    nla_put(msg, RAWPROBE_A_PROBE_IDS, (int)(n * sizeof(*ids)), ids)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return rp_nl_call(nl, msg, NULL, NULL);
}

int rp_parse_id(const char *s, uint32_t *id)
{
	uint64_t v;

	if (rp_parse_u64(s, 1, UINT32_MAX, &v))
		return rp_usage_error("'%s' is not a probe id (see 'probe list')",
				      s);
	*id = (uint32_t)v;
	return 0;
}

int rp_id_request(int cmd, const char *what, const char *arg,
		  bool allow_all, rp_nl_reply_fn fn, void *ctx)
{
	struct nl_msg *msg;
	struct rp_nl nl;
	uint32_t id = 0;
	bool all = allow_all && !strcmp(arg, "all");
	int rc, err;

	if (!all && (rc = rp_parse_id(arg, &id)))
		return rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	msg = rp_nl_msg(&nl, cmd, 0);
	if (!msg)
		return RP_EXIT_FAIL;
	if (all)
		nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	else
		nla_put_u32(msg, RAWPROBE_A_PROBE_ID, id);
	err = rp_nl_call(&nl, msg, fn, ctx);
	if (err) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%s %s", what, arg);
		rc = rp_fail(&nl, buf, err);
	}
	rp_nl_close(&nl);
	return rc;
}

int rp_probe_reset_cmd(int argc, char **argv)
{
	int rc = rp_one_arg(argc, argv,
			    "Usage: rawprobectl probe|stats reset ID|all\n"
			    "Zero the statistics of a probe, or of all.\n");

	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	return rp_id_request(RAWPROBE_CMD_STATS_RESET, "probe reset", argv[1],
			     true, NULL, NULL);
}

int rp_count_request(struct rp_nl *nl, int cmd, uint32_t id,
		     rp_nl_reply_fn fn, void *ctx)
{
	struct nl_msg *msg = rp_nl_msg(nl, cmd, 0);

	if (!msg)
		return -ENOMEM;
	nla_put_u32(msg, RAWPROBE_A_PROBE_ID, id);
	return rp_nl_call(nl, msg, fn, ctx);
}
