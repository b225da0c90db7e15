/* SPDX-License-Identifier: GPL-2.0 */
/*
 * count's aggregates in Prometheus' text exposition format (0.0.4), what
 * node_exporter's textfile collector reads and promtool check metrics
 * checks, as ebpf_exporter publishes BPF maps: one counter per key, a
 * value's sum, count, min and max, its histogram as Prometheus' own.
 */
#ifndef RAWPROBECTL_OPENMETRICS_H
#define RAWPROBECTL_OPENMETRICS_H

#include <stdio.h>
#include "out/aggregate.h"

/*
 * One exposition of r, ended by an empty line (so a stream of them, one
 * per -i interval, splits on it). Counters only grow: r is to be the run
 * so far, not an interval, for rate() to be right. t adds nothing: its
 * counts are r's when r is the run's.
 */
void rp_agg_print_openmetrics(FILE *out, const struct rp_agg_view *v,
			      const struct rp_agg_result *r,
			      const struct rp_agg_totals *t);

/*
 * A key's name as a label name: lower case, [a-z0-9_], runs of anything
 * else one '_' ("skb->len": "skb_len", "fooBar": "foo_bar"); "key_"
 * before one that starts with a digit, is empty or is a label of ours
 * (probe, le, quantile). At most len - 1 bytes.
 */
void rp_om_label_name(char *buf, size_t len, const char *name);

#endif
