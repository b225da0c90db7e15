/* SPDX-License-Identifier: GPL-2.0 */
/*
 * count's output: an interval's aggregates as a table (text) or one JSON
 * document, keys shown by kind (a command escaped, a caller symbolized).
 * With a stack key, the text is folded stacks, one line per key
 * ("KEYS;root;...;function COUNT"), what flamegraph.pl reads; the
 * interval's heading then goes to stderr.
 */
#ifndef RAWPROBECTL_AGGREGATE_H
#define RAWPROBECTL_AGGREGATE_H

#include <stdbool.h>
#include <stdio.h>
#include "lib/agg_read.h"
#include "lib/json.h"

struct rp_agg_view {
	const char *probe;		/* "kprobe:vfs_read" */
	unsigned int nkeys;
	unsigned char keys[RAWPROBE_AGG_MAX_KEYS];	/* rawprobe_agg_key */
	unsigned char argtypes[RAWPROBE_AGG_MAX_KEYS];	/* of ARG keys */
	const char *names[RAWPROBE_AGG_MAX_KEYS];	/* headers, JSON keys */
	bool stats;			/* values: sum, min, max too */
	unsigned char hist;		/* enum rawprobe_agg_hist: buckets too */
	int64_t lin_min;		/* AGG_HIST_LINEAR */
	uint64_t lin_step;
	const char *value;		/* what they are of: "retval" */
	size_t top;			/* rows shown; 0: all */
	uint64_t addr;			/* the probed function: the leaf of
					 * a stack key's folded stacks
					 */
};

/* r sorted by count; totals: the run's, on the last interval (or NULL) */
struct rp_agg_totals {
	uint64_t hits;			/* the probe's HITS */
	uint64_t counted, dropped;	/* every interval's, added up */
};

void rp_agg_print_text(FILE *out, const struct rp_agg_view *v,
		       const struct rp_agg_result *r,
		       const struct rp_agg_totals *t);
void rp_agg_print_json(struct json *j, const struct rp_agg_view *v,
		       const struct rp_agg_result *r,
		       const struct rp_agg_totals *t);

#endif
