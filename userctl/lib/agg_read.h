/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An aggregating probe's intervals, read from the kernel (AGG_READ) and
 * merged: one entry per key, its CPUs' and slots' values added up.
 */
#ifndef RAWPROBECTL_AGG_READ_H
#define RAWPROBECTL_AGG_READ_H

#include <stddef.h>
#include <stdint.h>
#include "lib/nl.h"

/* The words of an entry's values (uapi enum rawprobe_agg_value's text) */
#define RP_AGG_W_COUNT		0
#define RP_AGG_W_SUM		1
#define RP_AGG_W_MIN		2
#define RP_AGG_W_MAX		3
#define RP_AGG_W_BUCKETS	4

/* A stack key's stack: the kernel's id for it, and its frames. */
struct rp_agg_stack {
	uint64_t id;
	unsigned int n;
	uint64_t frames[RAWPROBE_STACK_MAX];	/* innermost first */
};

struct rp_agg_result {
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC */
	uint64_t hits, dropped;		/* hits = the counts + dropped */
	uint32_t key_words, val_words;
	size_t n, cap;			/* entries */
	uint64_t *words;		/* n * (key_words + val_words) */
	int stack_word;			/* the key word of a stack id, or -1 */
	size_t nstacks, stacks_cap;	/* the stacks the entries name, by id */
	struct rp_agg_stack *stacks;
};

/* End probe id's interval and take it, merged by key. 0 or -errno. */
int rp_agg_fetch(struct rp_nl *nl, uint32_t id, struct rp_agg_result *r);
void rp_agg_result_free(struct rp_agg_result *r);

static inline uint64_t *rp_agg_entry(const struct rp_agg_result *r, size_t i)
{
	return r->words + i * (r->key_words + r->val_words);
}

/* The stack of an entry's stack key, or NULL if the kernel sent none. */
const struct rp_agg_stack *rp_agg_stack_of(const struct rp_agg_result *r,
					   const uint64_t *entry);

/* Merge equal keys (sorted by key); values added, min and max kept. */
void rp_agg_merge(struct rp_agg_result *r);
/*
 * Add interval r to the run so far, acc (zeroed at first): entries merged
 * by key, hits and dropped added, from acc's start to r's end; for
 * counters that only grow (count -i -f openmetrics). 0 or -errno.
 */
int rp_agg_accumulate(struct rp_agg_result *acc, const struct rp_agg_result *r);
/*
 * Add src's entries to dst (zeroed at first) with one more key word
 * first, key: one probe's of many (count's glob) in one table. Not with
 * stacks. 0 or -errno.
 */
int rp_agg_append_keyed(struct rp_agg_result *dst,
			const struct rp_agg_result *src, uint64_t key);
/* Sort entries by count, highest first (then by key). */
void rp_agg_sort_by_count(struct rp_agg_result *r);

#endif
