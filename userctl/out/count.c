// SPDX-License-Identifier: GPL-2.0
/*
 * count's output, which agg show, hist's in-kernel counts and inject
 * print too: the format -f chose, and the table's columns for a probe
 * request.
 */
#include <string.h>
#include "lib/cli.h"
#include "out/count.h"
#include "out/flame.h"
#include "out/openmetrics.h"

int rp_count_format(const char *arg, int *fmt)
{
	if (!strcmp(arg, "text"))
		*fmt = RP_COUNT_TEXT;
	else if (!strcmp(arg, "json"))
		*fmt = RP_COUNT_JSON;
	else if (!strcmp(arg, "openmetrics") || !strcmp(arg, "prometheus"))
		*fmt = RP_COUNT_OPENMETRICS;
	else if (!strcmp(arg, "folded"))
		*fmt = RP_COUNT_FOLDED;
	else if (rp_flame_format_parse(arg) == RP_FLAME_SVG)
		*fmt = RP_COUNT_SVG;
	else if (rp_flame_format_parse(arg) == RP_FLAME_SPEEDSCOPE)
		*fmt = RP_COUNT_SPEEDSCOPE;
	else
		return rp_usage_error("--format is text, json, openmetrics, "
				      "folded, svg or speedscope, not '%s'", arg);
	return 0;
}

int rp_count_format_fits(int fmt, const struct rp_agg_req *a)
{
	static const char *const name[] = {
		[RP_COUNT_FOLDED] = "folded", [RP_COUNT_SVG] = "svg",
		[RP_COUNT_SPEEDSCOPE] = "speedscope",
	};
	unsigned int i;

	if (fmt < RP_COUNT_FOLDED)
		return 0;
	for (i = 0; i < a->nkeys; i++)
		if (a->keys[i] == RAWPROBE_AGG_KEY_STACK)
			return 0;
	return rp_usage_error("-f %s writes kernel stacks: count --by stack "
			      "(or a key list with stack)", name[fmt]);
}

int rp_count_print(int fmt, const struct rp_agg_view *v,
		   const struct rp_agg_result *r,
		   const struct rp_agg_totals *t)
{
	if (fmt == RP_COUNT_JSON)
		rp_agg_print_json(&rp_json, v, r, t);
	else if (fmt == RP_COUNT_OPENMETRICS)
		rp_agg_print_openmetrics(stdout, v, r, t);
	else if (fmt == RP_COUNT_SVG)
		return rp_agg_print_stacks(stdout, RP_FLAME_SVG, v, r, t);
	else if (fmt == RP_COUNT_SPEEDSCOPE)
		return rp_agg_print_stacks(stdout, RP_FLAME_SPEEDSCOPE, v, r, t);
	else
		rp_agg_print_text(stdout, v, r, t);
	return 0;
}

/* The table's columns: each key's name and type. */
void rp_count_view(const struct rp_probe_req *req, const char *probe,
		   uint64_t top, struct rp_count_names *nm,
		   struct rp_agg_view *v)
{
	const struct rp_agg_req *a = &req->agg;
	unsigned int i;

	memset(v, 0, sizeof(*v));
	v->probe = probe;
	v->nkeys = a->nkeys;
	v->top = top;
	v->stats = a->value_kind != RAWPROBE_AGG_VALUE_NONE;
	v->value_kind = a->value_kind;
	v->value = rp_agg_value_name(req, nm->value, sizeof(nm->value));
	v->hist = a->hist;
	v->lin_min = a->lin_min;
	v->lin_step = a->lin_step;
	for (i = 0; i < a->nkeys; i++) {
		v->keys[i] = a->keys[i];
		if (a->keys[i] == RAWPROBE_AGG_KEY_ARG) {
			v->argtypes[i] = req->argtypes[a->key_args[i]];
			v->argidx[i] = a->key_args[i];
		} else if (a->keys[i] == RAWPROBE_AGG_KEY_START_ARG) {
			v->argtypes[i] = a->key_types[i];
		}
		v->names[i] = rp_agg_key_name(req, i, nm->keys[i],
					      sizeof(nm->keys[i]));
	}
}
