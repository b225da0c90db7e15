/* SPDX-License-Identifier: GPL-2.0 */
/*
 * count's aggregates in Prometheus' text exposition format (0.0.4), what
 * node_exporter's textfile collector reads and promtool check metrics
 * checks, as ebpf_exporter publishes BPF maps: one counter per key, a
 * value's sum, count, min and max, its histogram as Prometheus' own.
 */
#ifndef RAWPROBECTL_OPENMETRICS_H
#define RAWPROBECTL_OPENMETRICS_H

#include <stdbool.h>
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
 * The parts of one probe's exposition, each a family of its own; the
 * exporter (rawprobectl serve) prints many probes' under one HELP and
 * TYPE a family, which the format wants, so a probe's parts are printed
 * apart: rp_om_head() once, rp_om_samples() for each probe.
 */
enum rp_om_part {
	RP_OM_HITS,		/* rawprobe_hits_total, by key */
	RP_OM_DROPPED,		/* rawprobe_dropped_hits_total */
	RP_OM_VALUE,		/* --stats: rawprobe_V, summary or histogram */
	RP_OM_MIN,		/* rawprobe_V_min */
	RP_OM_MAX,		/* rawprobe_V_max */
	RP_OM_PARTS,
};

struct rp_om;

/* r's labels made; v and r must outlive it. NULL if out of memory. */
struct rp_om *rp_om_new(FILE *out, const struct rp_agg_view *v,
			const struct rp_agg_result *r);
void rp_om_free(struct rp_om *om);
/* Has the probe that part (the value's only with --stats)? */
bool rp_om_has(const struct rp_om *om, enum rp_om_part part);
/* The part's family name and its TYPE ("counter", "histogram", ...) */
void rp_om_name(const struct rp_om *om, enum rp_om_part part, char *buf,
		size_t len);
const char *rp_om_type(const struct rp_om *om, enum rp_om_part part);
/*
 * The value's family renamed rawprobe_V + suffix: two probes' values of
 * one name but of two types (a histogram, a summary) cannot share it.
 */
void rp_om_rename(struct rp_om *om, const char *suffix);
void rp_om_head(const struct rp_om *om, enum rp_om_part part);
void rp_om_samples(const struct rp_om *om, enum rp_om_part part);

/* v's probe as labels, [probe_id="ID",]probe="...": malloc'd, or NULL */
char *rp_om_probe_labels(const struct rp_agg_view *v);

/*
 * A key's name as a label name: lower case, [a-z0-9_], runs of anything
 * else one '_' ("skb->len": "skb_len", "fooBar": "foo_bar"); "key_"
 * before one that starts with a digit, is empty or is a label of ours
 * (probe, probe_id, le, quantile). At most len - 1 bytes.
 */
void rp_om_label_name(char *buf, size_t len, const char *name);

#endif
