/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobectl hist: log2 or linear histograms of a record value
 * (kretprobe latency, the return value, or an argument), per probe and
 * optionally per command name, printed as bars like bpftrace's; or with
 * --stack, counts per kernel stack, printed as folded stacks.
 */
#ifndef RAWPROBECTL_HIST_H
#define RAWPROBECTL_HIST_H

#include <stdbool.h>
#include <stdint.h>
#include "out/sink.h"

enum rp_hist_value {
	RP_HIST_LATENCY,	/* latency_ns of return records (default) */
	RP_HIST_RETVAL,		/* retval of return records */
	RP_HIST_ARG,		/* args[arg] */
	RP_HIST_STACK,		/* counts per kernel stack (--stack), folded */
};

/* hist --stack's output (-f): folded lines, unless -j, or drawn */
enum rp_hist_stacks {
	RP_HIST_STACKS_TEXT,	/* folded lines; -j: a JSON document a stack */
	RP_HIST_STACKS_FOLDED,	/* -f folded: folded lines, even with -j */
	RP_HIST_STACKS_SVG,	/* -f svg: a flame graph (out/flame.h) */
	RP_HIST_STACKS_SPEEDSCOPE,	/* -f speedscope */
};

struct rp_hist_opts {
	int value;		/* enum rp_hist_value */
	unsigned int arg;	/* RP_HIST_ARG: which one */
	uint64_t step;		/* linear bucket width; 0: log2 buckets */
	bool by_comm;		/* one histogram per probe and comm */
	char by[128];		/* latency --by other keys: count's tables */
	bool openmetrics;	/* -f openmetrics: the kernel's, run so far */
	int stacks;		/* enum rp_hist_stacks */
};

/* The histogram sink: counts records, prints at end (text or JSON). */
int rp_hist_sink_init(struct rp_sink *s, const struct rp_hist_opts *o,
		      FILE *out, bool json, bool pretty);

/*
 * A histogram counted elsewhere (in the kernel, when hist adds its
 * probes), in the sink's buckets: log2 b[0] for 0, b[i] for [2^(i-1),
 * 2^i); linear b[i] for [i * step, (i + 1) * step), then over.
 */
struct rp_hist_counts {
	const char *probe;
	const char *comm;		/* RAWPROBE_COMM_LEN bytes, or NULL */
	uint64_t count, neg, over;	/* neg: below 0; over: linear, past */
	uint64_t over_at;		/* linear: over's low end */
	bool is_signed;			/* of sum, min and max */
	int64_t sum, min, max;
	const uint64_t *b;
	size_t nb;
};

/* Add c to what the sink prints next: 0 or -ENOMEM. */
int rp_hist_put(struct rp_sink *s, const struct rp_hist_counts *c);
/* hist -i: print an interval's histograms and forget them. */
void rp_hist_print(struct rp_sink *s);

#endif
