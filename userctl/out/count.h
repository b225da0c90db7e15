/* SPDX-License-Identifier: GPL-2.0 */
/*
 * count's output (out/count.c), shared with agg show, hist's in-kernel
 * counts and inject: the format, and the table's columns for a probe
 * request.
 */
#ifndef RAWPROBECTL_OUT_COUNT_H
#define RAWPROBECTL_OUT_COUNT_H

#include <stdint.h>
#include "out/aggregate.h"
#include "resolve/probe_req.h"

/* Where a view's names are kept */
struct rp_count_names {
	char keys[RAWPROBE_AGG_MAX_KEYS][64];
	char value[64];
};

/*
 * count's and agg show's output: -f text, json (-j) or openmetrics; or,
 * with a stack key, folded (what text prints then), svg or speedscope
 */
enum rp_count_format {
	RP_COUNT_TEXT,
	RP_COUNT_JSON,
	RP_COUNT_OPENMETRICS,
	RP_COUNT_FOLDED,
	RP_COUNT_SVG,
	RP_COUNT_SPEEDSCOPE,
};

/* -f's argument into *fmt; a usage error naming the formats if unknown */
int rp_count_format(const char *arg, int *fmt);
/* Formats of stacks (folded, svg, speedscope): a usage error without one */
int rp_count_format_fits(int fmt, const struct rp_agg_req *a);
/* 0, or -errno when the output could not be made */
int rp_count_print(int fmt, const struct rp_agg_view *v,
		   const struct rp_agg_result *r,
		   const struct rp_agg_totals *t);
void rp_count_view(const struct rp_probe_req *req, const char *probe,
		   uint64_t top, struct rp_count_names *nm,
		   struct rp_agg_view *v);

#endif
