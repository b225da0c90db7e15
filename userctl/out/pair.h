/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pair's probe as rawprobectl shows it (out/pair.c): its role and key
 * in --dry-run, probe list and show, and where its starts and ends went.
 */
#ifndef RAWPROBECTL_OUT_PAIR_H
#define RAWPROBECTL_OUT_PAIR_H

#include <stdio.h>
#include "lib/json.h"
#include "lib/pair_nl.h"

/* "pair start key=pid max_keys=0 expire_ms=10000" */
const char *rp_pair_str(const struct rp_pair_req *p, char *buf, size_t len);
/* "pair": {...}, with its counts when st is given and has them */
void rp_pair_json(struct json *j, const struct rp_pair_req *p,
		  const struct rp_pair_stats *st);
/* probe show's lines */
void rp_pair_detail(FILE *out, const struct rp_pair_req *p,
		    const struct rp_pair_stats *st);
/* "pair: 6 starts, 6 matched, ..." as latency ends with */
void rp_pair_summary(FILE *out, const struct rp_pair_stats *st);

#endif
