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
#include "lib/escape.h"
#include "lib/json.h"
#include "lib/symbols.h"

/*
 * A key of the CLI's own, first: which of a glob's probes counted it
 * (count 'kprobe:vfs_*'), its word an index into funcs[], as bpftrace's
 * @[func]. The kernel's keys follow it.
 */
#define RP_AGG_KEY_FUNC		0x80
#define RP_AGG_VIEW_KEYS	(RAWPROBE_AGG_MAX_KEYS + 1)

struct rp_agg_view {
	const char *probe;		/* "kprobe:vfs_read" */
	uint32_t probe_id;		/* OpenMetrics' probe_id label; 0: none */
	unsigned int nkeys;
	unsigned char keys[RP_AGG_VIEW_KEYS];	/* rawprobe_agg_key */
	unsigned char argtypes[RP_AGG_VIEW_KEYS];	/* of ARG keys */
	const char *names[RP_AGG_VIEW_KEYS];	/* headers, JSON keys */
	unsigned char argidx[RP_AGG_VIEW_KEYS];	/* an ARG key's argument */
	const struct rp_probe_desc *desc;	/* its names: enum keys'
						 * labels in text; or NULL
						 */
	const char *const *funcs;	/* RP_AGG_KEY_FUNC's names */
	size_t nfuncs;
	bool stats;			/* values: sum, min, max too */
	unsigned char hist;		/* enum rawprobe_agg_hist: buckets too */
	int64_t lin_min;		/* AGG_HIST_LINEAR */
	uint64_t lin_step;
	unsigned char value_kind;	/* enum rawprobe_agg_value */
	const char *value;		/* what they are of: "retval" */
	size_t top;			/* rows shown; 0: all */
	uint64_t addr;			/* the probed function: the leaf of
					 * a stack key's folded stacks
					 */
};

/* r sorted by count; totals: the run's, on the last interval (or NULL) */
struct rp_agg_totals {
	uint64_t hits;			/* the probe's HITS its filters passed */
	uint64_t counted, dropped;	/* every interval's, added up */
	/*
	 * A kretprobe counts at return: of its hits, the calls that had not
	 * returned at the last read (hits = counted + dropped + in_flight).
	 */
	bool at_return;
	uint64_t in_flight;
};

/* A kretprobe's calls in flight at the end: hits not in any interval */
void rp_agg_totals_in_flight(struct rp_agg_totals *t);

/* Room for any key as text (a command escaped, a caller's symbol) */
#define RP_AGG_CELL (RP_ESCAPED_MAX(RAWPROBE_COMM_LEN) + RP_KSYM_MAX)

/*
 * Key i of an entry as text, as every format shows it (a command
 * escaped as escape.h says); *w advances past the key's words.
 */
const char *rp_agg_key_str(const struct rp_agg_view *v, unsigned int i,
			   const uint64_t **w, char *buf, size_t len);
/* A stack key: the probe's, or a pair's start's */
static inline bool rp_agg_key_is_stack(unsigned char k)
{
	return k == RAWPROBE_AGG_KEY_STACK || k == RAWPROBE_AGG_KEY_START_STACK;
}

/*
 * Entry e's stack (key i) folded at p, root first, down to the probed
 * function; the end of what it wrote.
 */
char *rp_agg_put_stack(char *p, const struct rp_agg_view *v,
		       const struct rp_agg_result *r, size_t e, unsigned int i);
/* The func key first (RP_AGG_KEY_FUNC), of funcs[n], the others after */
void rp_agg_view_func_key(struct rp_agg_view *v, const char *const *funcs,
			  size_t n);
/* An entry's buckets: 0 without a histogram */
size_t rp_agg_nbuckets(const struct rp_agg_view *v,
		       const struct rp_agg_result *r);
/* Bucket b's bounds: [*lo, *hi); *open_lo / *open_hi: unbounded side */
void rp_agg_bounds(const struct rp_agg_view *v, size_t b, size_t nb,
		   int64_t *lo, int64_t *hi, bool *open_lo, bool *open_hi);

/* Does the view key by a stack (--by ...stack)? */
bool rp_agg_has_stack(const struct rp_agg_view *v);
/*
 * A stack key's counts: folded lines (flame < 0, what text prints), or
 * drawn, flame an enum rp_flame_format (out/flame.h). The interval's
 * heading and the totals go to stderr: out holds stacks only.
 * 0 or -errno.
 */
int rp_agg_print_stacks(FILE *out, int flame, const struct rp_agg_view *v,
			const struct rp_agg_result *r,
			const struct rp_agg_totals *t);
void rp_agg_print_text(FILE *out, const struct rp_agg_view *v,
		       const struct rp_agg_result *r,
		       const struct rp_agg_totals *t);
void rp_agg_print_json(struct json *j, const struct rp_agg_view *v,
		       const struct rp_agg_result *r,
		       const struct rp_agg_totals *t);

#endif
