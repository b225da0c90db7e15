// SPDX-License-Identifier: GPL-2.0
/*
 * A pair's key, resolved against its probe: the task's (pid, tgid), or
 * an expression --args would take by name ("rq", "p->pid",
 * "sk->__sk_common.skc_num"), which joins the probe's arguments as their
 * last, so that the kernel computes it as it computes them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/cli.h"
#include "lib/names.h"
#include "resolve/probe_req.h"

int rp_pair_key_opt(struct rp_probe_req *req, const char *opt,
		    const char *expr)
{
	struct rp_pair_req *p = &req->pair;

	if (!*expr || strlen(expr) >= sizeof(p->key_expr) || strchr(expr, ','))
		return rp_usage_error("%s wants pid, tgid, or one argument by "
				      "name or field path (at most %zu "
				      "characters), not '%s'", opt,
				      sizeof(p->key_expr) - 1, expr);
	strcpy(p->key_expr, expr);
	return RP_EXIT_OK;
}

/* The key's expression after the probe's --args by name (or as them). */
static int rp_pair_key_join(struct rp_probe_req *req)
{
	struct rp_pair_req *p = &req->pair;
	size_t len = strlen(req->args_by_name);

	if (!len && (req->nargs || req->args_auto || req->args_named))
		return rp_usage_error("the pair key '%s' is computed as an "
				      "argument: give the probe's other "
				      "--args by name too ('fd,count'), or "
				      "none", p->key_expr);
	if (len + 1 + strlen(p->key_expr) >= sizeof(req->args_by_name))
		return rp_usage_error("--args and the pair key '%s' take more "
				      "than %zu characters", p->key_expr,
				      sizeof(req->args_by_name) - 1);
	snprintf(req->args_by_name + len, sizeof(req->args_by_name) - len,
		 "%s%s", len ? "," : "", p->key_expr);
	return RP_EXIT_OK;
}

int rp_pair_req_prepare(struct rp_probe_req *req)
{
	struct rp_pair_req *p = &req->pair;

	if (!p->role)
		return RP_EXIT_OK;
	if (!p->key_expr[0])
		return rp_usage_error("%s:%s: a pair's probe needs its key "
				      "(--key, --from-key, --to-key)",
				      rp_kind_name(req->kind), req->symbol);
	if (!strcmp(p->key_expr, "pid") || !strcmp(p->key_expr, "tgid")) {
		p->key = p->key_expr[0] == 'p' ? RAWPROBE_AGG_KEY_PID :
						 RAWPROBE_AGG_KEY_TGID;
		return RP_EXIT_OK;
	}
	p->key = RAWPROBE_AGG_KEY_ARG;
	return rp_pair_key_join(req);
}

void rp_pair_req_resolve(struct rp_probe_req *req)
{
	if (req->pair.role && req->pair.key == RAWPROBE_AGG_KEY_ARG &&
	    req->nargs > 0)
		req->pair.key_arg = (uint8_t)(req->nargs - 1);
}

/* --from-key, --to-key: the key of the probe given just before */
static int rp_pair_side_key(struct rp_probe_req *last, const char *opt,
			    const char *arg, uint8_t role)
{
	if (!last || last->pair.role != role)
		return rp_usage_error("%s applies to the %s probe before it: "
				      "give %s first", opt, role ==
				      RAWPROBE_PAIR_START ? "start" : "end",
				      role == RAWPROBE_PAIR_START ? "--from" :
				      "--to");
	return rp_pair_key_opt(last, opt, arg);
}

int rp_pair_opt(int opt, const char *arg, struct rp_pair_opts *po,
		struct rp_probe_req *last)
{
	uint64_t v;
	double secs;
	char *end;

	switch (opt) {
	case RP_OPT_PAIR_FROM_KEY:
		return rp_pair_side_key(last, "--from-key", arg,
					RAWPROBE_PAIR_START);
	case RP_OPT_PAIR_TO_KEY:
		return rp_pair_side_key(last, "--to-key", arg, RAWPROBE_PAIR_END);
	case RP_OPT_PAIR_KEY:
		if (strlen(arg) >= sizeof(po->key))
			return rp_usage_error("--key: at most %zu characters",
					      sizeof(po->key) - 1);
		strcpy(po->key, arg);
		return RP_EXIT_OK;
	case RP_OPT_PAIR_EXPIRE:
		secs = isdigit((unsigned char)*arg) ? strtod(arg, &end) : -1;
		if (secs < 0 || secs > 4000000 || *end)
			return rp_usage_error("--expire wants seconds, 0 for "
					      "never, at most 4000000, not '%s'",
					      arg);
		po->expire_ms = (uint32_t)(secs * 1000 + 0.5);
		po->expire_set = true;
		return RP_EXIT_OK;
	case RP_OPT_PAIR_MAX_KEYS:
		if (rp_parse_u64(arg, 1, RAWPROBE_AGG_KEYS_MAX, &v))
			return rp_usage_error("--max-keys wants 1..%d, not '%s'",
					      RAWPROBE_AGG_KEYS_MAX, arg);
		po->max_keys = (uint32_t)v;
		return RP_EXIT_OK;
	case RP_OPT_PAIR_RECORDS:
		po->records = true;
		return RP_EXIT_OK;
	default:
		return rp_usage_error("--from and --to add the pair's probes");
	}
}

int rp_pair_reqs_finish(struct rp_probe_req *reqs, size_t n,
			const struct rp_pair_opts *po)
{
	unsigned int starts = 0, ends = 0;
	struct rp_probe_req *r;
	size_t i;

	for (i = 0; i < n; i++) {
		r = &reqs[i];
		starts += r->pair.role == RAWPROBE_PAIR_START;
		ends += r->pair.role == RAWPROBE_PAIR_END;
		if (!r->pair.key_expr[0] && po->key[0] &&
		    rp_pair_key_opt(r, "--key", po->key))
			return RP_EXIT_USAGE;
		r->pair.expire_ms = po->expire_set ? po->expire_ms :
				    RAWPROBE_PAIR_EXPIRE_DEFAULT;
		r->pair.max_keys = po->max_keys;
	}
	if (!starts || !ends)
		return rp_usage_error("a pair needs a start and an end: --from "
				      "KIND:TARGET --to KIND:TARGET");
	return RP_EXIT_OK;
}

static bool rp_pair_carry_str(uint8_t t)
{
	return rp_argtype_is_area(t);
}

/*
 * --by start.NAME (word) of an end: the argument every start computes
 * as NAME, at the same place among its first ones, which it carries.
 */
static int rp_pair_carry_key(struct rp_probe_req *reqs, size_t n,
			     struct rp_probe_req *end, unsigned int k,
			     const char *word)
{
	const char *name = word + strlen(RP_AGG_START_ARG);
	struct rp_probe_req *s;
	int at = -1, j;
	size_t i;

	for (i = 0; i < n; i++) {
		s = &reqs[i];
		if (s->pair.role != RAWPROBE_PAIR_START)
			continue;
		j = rp_agg_arg_index(s, name);
		if (j < 0)
			return rp_usage_error("--by %s: the start %s:%s computes "
					      "no argument '%s' (give it --args "
					      "'%s')", word, rp_kind_name(s->kind),
					      s->symbol, name, name);
		if (at >= 0 && j != at)
			return rp_usage_error("--by %s: each start computes it "
					      "as the same argument: give the "
					      "starts their --args in the same "
					      "order", word);
		if (j >= RAWPROBE_PAIR_CARRY_ARGS_MAX)
			return rp_usage_error("--by %s: a start carries its "
					      "first %d arguments: give '%s' "
					      "sooner in its --args", word,
					      RAWPROBE_PAIR_CARRY_ARGS_MAX, name);
		if (rp_pair_carry_str(s->argtypes[j]))
			return rp_usage_error("--by %s: a start carries numbers, "
					      "not strings or ip6 addresses",
					      word);
		at = j;
		end->agg.key_types[k] = s->argtypes[j];
		if (s->pair.carry_args <= j)
			s->pair.carry_args = (uint8_t)(j + 1);
	}
	end->agg.key_args[k] = (uint8_t)at;
	return RP_EXIT_OK;
}

int rp_pair_carry_resolve(struct rp_probe_req *reqs, size_t n)
{
	char word[sizeof(reqs->agg.by)];
	struct rp_probe_req *e;
	unsigned int k;
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		e = &reqs[i];
		if (e->pair.role != RAWPROBE_PAIR_END ||
		    !(e->flags & RAWPROBE_F_AGG))
			continue;
		for (k = 0; k < e->agg.nkeys; k++) {
			if (e->agg.keys[k] != RAWPROBE_AGG_KEY_START_ARG)
				continue;
			rc = rp_pair_carry_key(reqs, n, e, k,
					       rp_agg_by_word(e, k, word,
							      sizeof(word)));
			if (rc)
				return rc;
		}
	}
	return RP_EXIT_OK;
}
