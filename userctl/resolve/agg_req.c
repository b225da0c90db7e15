// SPDX-License-Identifier: GPL-2.0
/*
 * count's keys and value (--by, --stats) resolved against the probe:
 * what the kernel aggregates by (enum rawprobe_agg_key) and what it
 * sums and buckets (enum rawprobe_agg_value). An argument is named as
 * --args names it ("count", "skb->len") or by position ("arg1").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/cli.h"
#include "lib/names.h"
#include "resolve/probe_req.h"

static const struct {
	const char *name;
	uint8_t key;
} rp_agg_keys[] = {
	{ "comm",	RAWPROBE_AGG_KEY_COMM },
	{ "pid",	RAWPROBE_AGG_KEY_PID },
	{ "tgid",	RAWPROBE_AGG_KEY_TGID },
	{ "cpu",	RAWPROBE_AGG_KEY_CPU },
	{ "caller",	RAWPROBE_AGG_KEY_CALLER },
	{ "retval",	RAWPROBE_AGG_KEY_RETVAL },
	{ "stack",	RAWPROBE_AGG_KEY_STACK },
	{ "start_comm",	RAWPROBE_AGG_KEY_START_COMM },
	{ "start_pid",	RAWPROBE_AGG_KEY_START_PID },
	{ "start_tgid",	RAWPROBE_AGG_KEY_START_TGID },
	{ "start_stack", RAWPROBE_AGG_KEY_START_STACK },
};

#define RP_AGG_KEY_NAMES "comm, pid, tgid, cpu, caller, stack, retval, " \
	"start_comm, start_pid, start_tgid, start_stack, start.ARG (a " \
	"pair's end), argN or an argument's name"

/* The index of argument word ("arg2", or a name --args gave), or -1. */
int rp_agg_arg_index(const struct rp_probe_req *req, const char *word)
{
	const char *names = req->arg_names, *end;
	char *stop;
	long n;
	int i;

	if (!strncmp(word, "arg", 3) && word[3]) {
		n = strtol(word + 3, &stop, 10);
		if (!*stop && n >= 0 && n < req->nargs)
			return (int)n;
	}
	for (i = 0; *names && i < req->nargs; i++) {
		end = strchr(names, ',');
		if (!end)
			end = names + strlen(names);
		/* an alias: NAME=PATH is called NAME */
		if (strcspn(names, ",=") == strlen(word) &&
		    !strncmp(names, word, strlen(word)))
			return i;
		names = *end ? end + 1 : end;
	}
	return -1;
}

static int rp_agg_key_resolve(struct rp_probe_req *req, const char *word)
{
	struct rp_agg_req *a = &req->agg;
	size_t k;
	int arg;

	if (a->nkeys == RAWPROBE_AGG_MAX_KEYS)
		return rp_usage_error("--by: at most %d keys", RAWPROBE_AGG_MAX_KEYS);
	if (!strncmp(word, RP_AGG_START_ARG, strlen(RP_AGG_START_ARG))) {
		if (req->pair.role != RAWPROBE_PAIR_END)
			return rp_usage_error("--by %s: an argument of a pair's "
					      "start, known to its end (latency, "
					      "probe add pair)", word);
		if (!word[strlen(RP_AGG_START_ARG)])
			return rp_usage_error("--by start.NAME: NAME, an argument "
					      "of the starts' --args");
		/* the argument: rp_pair_carry_resolve()'s, with the starts */
		a->key_args[a->nkeys] = 0;
		a->keys[a->nkeys++] = RAWPROBE_AGG_KEY_START_ARG;
		return RP_EXIT_OK;
	}
	for (k = 0; k < sizeof(rp_agg_keys) / sizeof(rp_agg_keys[0]); k++) {
		if (strcmp(word, rp_agg_keys[k].name))
			continue;
		if (rp_agg_keys[k].key == RAWPROBE_AGG_KEY_RETVAL &&
		    req->kind != RAWPROBE_KIND_KRETPROBE)
			return rp_usage_error("--by retval: only a kretprobe sees "
					      "a return value");
		if (rp_agg_keys[k].key >= RAWPROBE_AGG_KEY_START_COMM &&
		    req->pair.role != RAWPROBE_PAIR_END)
			return rp_usage_error("--by %s: the task of a pair's start, "
					      "known to its end (latency, probe "
					      "add pair)", word);
		if ((rp_agg_keys[k].key == RAWPROBE_AGG_KEY_CALLER ||
		     rp_agg_keys[k].key == RAWPROBE_AGG_KEY_STACK) &&
		    (req->offset || !req->symbol[0]))
			return rp_usage_error("--by %s: the callers are known at "
					      "a function's entry, by name", word);
		a->keys[a->nkeys++] = rp_agg_keys[k].key;
		return RP_EXIT_OK;
	}
	arg = rp_agg_arg_index(req, word);
	if (arg < 0)
		return rp_usage_error("--by: unknown key '%s' (%s%s)", word,
				      RP_AGG_KEY_NAMES, req->nargs ? "" :
				      "; arguments need --args");
	/* the kernel joins them in a record's string area, not in a key */
	if (rp_argtype_is_strv(req->argtypes[arg]))
		return rp_usage_error("--by %s: a string array (:strv) is "
				      "a record's string (trace), not a key",
				      word);
	if (req->argtypes[arg] == RAWPROBE_ARG_INET_SADDR ||
	    req->argtypes[arg] == RAWPROBE_ARG_INET_DADDR)
		return rp_usage_error("--by %s: a socket's address (:%s) is "
				      "IPv4's or IPv6's as the socket is: no "
				      "key (key by skc_daddr:ip4 or "
				      "skc_v6_daddr:ip6)", word,
				      rp_argtype_name(req->argtypes[arg]));
	a->key_args[a->nkeys] = (uint8_t)arg;
	a->keys[a->nkeys++] = RAWPROBE_AGG_KEY_ARG;
	return RP_EXIT_OK;
}

static int rp_agg_value_resolve(struct rp_probe_req *req)
{
	struct rp_agg_req *a = &req->agg;
	bool kret = req->kind == RAWPROBE_KIND_KRETPROBE;
	int arg;

	if (!a->value[0])
		return a->hist ? rp_usage_error("a histogram needs a value "
						"(--stats VALUE)") : RP_EXIT_OK;
	if (!strcmp(a->value, "retval") || !strcmp(a->value, "latency")) {
		if (!kret && !(a->value[0] == 'l' &&
			       req->pair.role == RAWPROBE_PAIR_END))
			return rp_usage_error("--stats %s: only a kretprobe sees "
					      "a return", a->value);
		a->value_kind = a->value[0] == 'r' ? RAWPROBE_AGG_VALUE_RETVAL :
						     RAWPROBE_AGG_VALUE_LATENCY;
		return RP_EXIT_OK;
	}
	arg = rp_agg_arg_index(req, a->value);
	if (arg < 0)
		return rp_usage_error("--stats: unknown value '%s' (retval, "
				      "latency, argN or an argument's name%s)",
				      a->value, req->nargs ? "" :
				      "; arguments need --args");
	a->value_kind = RAWPROBE_AGG_VALUE_ARG;
	a->value_arg = (uint8_t)arg;
	return RP_EXIT_OK;
}

int rp_agg_req_resolve(struct rp_probe_req *req)
{
	char by[sizeof(req->agg.by)], *tok, *rest = by;
	int rc;

	req->flags |= RAWPROBE_F_AGG;
	req->agg.nkeys = 0;
	snprintf(by, sizeof(by), "%s", req->agg.by);
	while (by[0] && (tok = strsep(&rest, ","))) {
		if (!*tok)
			return rp_usage_error("--by: an empty key in '%s'",
					      req->agg.by);
		rc = rp_agg_key_resolve(req, tok);
		if (rc)
			return rc;
	}
	return rp_agg_value_resolve(req);
}

/* "-5" or "100": a signed number for --lhist */
static int rp_agg_s64(const char *s, int64_t *v)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoll(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

static int rp_agg_hist_opt(const char *opt, const char *arg,
			   struct rp_agg_req *a)
{
	char buf[96], *min, *max, *step;
	int64_t lo, hi, st;

	if (!strcmp(opt, "hist")) {
		if (strcmp(arg, "log2"))
			return rp_usage_error("--hist takes 'log2', not '%s' "
					      "(--lhist MIN,MAX,STEP for linear)",
					      arg);
		a->hist = RAWPROBE_AGG_HIST_LOG2;
		return RP_EXIT_OK;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	min = strtok(buf, ",");
	max = min ? strtok(NULL, ",") : NULL;
	step = max ? strtok(NULL, ",") : NULL;
	if (!step || strtok(NULL, ",") || strlen(arg) >= sizeof(buf) ||
	    rp_agg_s64(min, &lo) || rp_agg_s64(max, &hi) ||
	    rp_agg_s64(step, &st) || st <= 0 || hi <= lo ||
	    (hi - lo) / st < 1 ||
	    (hi - lo) / st > RAWPROBE_AGG_LIN_BUCKETS_MAX)
		return rp_usage_error("--lhist wants MIN,MAX,STEP with MIN < MAX, "
				      "STEP > 0 and 1 to %d buckets, not '%s'",
				      RAWPROBE_AGG_LIN_BUCKETS_MAX, arg);
	a->hist = RAWPROBE_AGG_HIST_LINEAR;
	a->lin_min = lo;
	a->lin_step = (uint64_t)st;
	a->lin_buckets = (uint16_t)((hi - lo + st - 1) / st);
	return RP_EXIT_OK;
}

static int rp_agg_copy(const char *opt, const char *arg, char *dst,
		       size_t len)
{
	if (strlen(arg) >= len)
		return rp_usage_error("--%s: at most %zu characters", opt,
				      len - 1);
	strcpy(dst, arg);
	return 0;
}

int rp_agg_opt(int opt, const char *arg, struct rp_probe_req *req)
{
	struct rp_agg_req *a = &req->agg;
	uint64_t v;

	req->flags |= RAWPROBE_F_AGG;
	switch (opt) {
	case RP_OPT_AGG_BY:
		return rp_agg_copy("by", arg, a->by, sizeof(a->by));
	case RP_OPT_AGG_STATS:
		return rp_agg_copy("stats", arg, a->value, sizeof(a->value));
	case RP_OPT_AGG_HIST:
		return rp_agg_hist_opt("hist", arg, a);
	case RP_OPT_AGG_LHIST:
		return rp_agg_hist_opt("lhist", arg, a);
	case RP_OPT_AGG_MAX_KEYS:
		if (rp_parse_u64(arg, 1, RAWPROBE_AGG_KEYS_MAX, &v))
			return rp_usage_error("--max-keys wants 1..%d, not '%s'",
					      RAWPROBE_AGG_KEYS_MAX, arg);
		a->max_keys = (uint32_t)v;
		return 0;
	default:		/* --count */
		return 0;
	}
}

/* Argument arg's name as --args gave it, or "argN" */
static const char *rp_agg_arg_name(const struct rp_probe_req *req,
				   unsigned int arg, char *buf, size_t len)
{
	const char *names = req->arg_names;
	unsigned int k;
	size_t n;

	for (k = 0; *names && k < arg; k++) {
		names = strchr(names, ',');
		names = names ? names + 1 : "";
	}
	n = strcspn(names, ",=");	/* an alias: NAME of NAME=PATH */
	if (n)
		snprintf(buf, len, "%.*s", (int)n, names);
	else
		snprintf(buf, len, "arg%u", arg);
	return buf;
}

const char *rp_agg_value_name(const struct rp_probe_req *req, char *buf,
			      size_t len)
{
	switch (req->agg.value_kind) {
	case RAWPROBE_AGG_VALUE_RETVAL:
		return "retval";
	case RAWPROBE_AGG_VALUE_LATENCY:
		return "latency";
	case RAWPROBE_AGG_VALUE_ARG:
		return rp_agg_arg_name(req, req->agg.value_arg, buf, len);
	default:
		return "";
	}
}

const char *rp_agg_by_word(const struct rp_probe_req *req, unsigned int i,
			   char *buf, size_t len)
{
	const char *w = req->agg.by;
	unsigned int k;

	for (k = 0; k < i && w; k++) {
		w = strchr(w, ',');
		w = w ? w + 1 : NULL;
	}
	snprintf(buf, len, "%.*s", w ? (int)strcspn(w, ",") : 0, w ? w : "");
	return buf;
}

const char *rp_agg_key_name(const struct rp_probe_req *req, unsigned int i,
			    char *buf, size_t len)
{
	unsigned int k;

	for (k = 0; k < sizeof(rp_agg_keys) / sizeof(rp_agg_keys[0]); k++)
		if (rp_agg_keys[k].key == req->agg.keys[i])
			return rp_agg_keys[k].name;
	/* (agg show's probe was described, not given: no --by) */
	if (req->agg.keys[i] == RAWPROBE_AGG_KEY_START_ARG) {
		if (!*rp_agg_by_word(req, i, buf, len))
			snprintf(buf, len, "%sarg%u", RP_AGG_START_ARG,
				 req->agg.key_args[i]);
		return buf;
	}
	return rp_agg_arg_name(req, req->agg.key_args[i], buf, len);
}

/*
 * hist's own probes, counted in the kernel: a kretprobe's latency in
 * log2 buckets, or in linear ones of width step from 0, the last one
 * holding everything past; an entry probe, which has no latency, its hits.
 * By the keys of by (count's --by: "comm", "pid,comm"; "" for none). A
 * table without keys needs one slot; one of linear buckets (2 KiB a key)
 * is kept to a quarter of the default keys.
 */
void rp_hist_agg_req(struct rp_probe_req *req, const char *by, uint64_t step,
		     const char *value)
{
	struct rp_agg_req *a = &req->agg;
	bool latency = !strcmp(value, "latency");

	req->flags |= RAWPROBE_F_AGG;
	snprintf(a->by, sizeof(a->by), "%s", by);
	a->max_keys = by[0] ? 0 : 1;
	if (latency && req->kind != RAWPROBE_KIND_KRETPROBE &&
	    req->pair.role != RAWPROBE_PAIR_END)
		return;
	snprintf(a->value, sizeof(a->value), "%s", value);
	if (!step) {
		a->hist = RAWPROBE_AGG_HIST_LOG2;
		return;
	}
	/* a value that may be below 0 gets a bucket of its own for that */
	a->hist = RAWPROBE_AGG_HIST_LINEAR;
	a->lin_min = latency ? 0 : -(int64_t)step;
	a->lin_step = step;
	a->lin_buckets = RAWPROBE_AGG_LIN_BUCKETS_MAX;
	if (by[0])
		a->max_keys = RAWPROBE_AGG_KEYS_DEFAULT / 4;
}
