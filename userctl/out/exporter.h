/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobectl serve's metrics (out/exporter.c): every persistent probe's
 * statistics and counts, and the exporter's own probes', kept in user
 * space from scrape to scrape so that every counter only grows, printed
 * in Prometheus' text exposition format (0.0.4).
 */
#ifndef RAWPROBECTL_EXPORTER_H
#define RAWPROBECTL_EXPORTER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/nl.h"

/* Probes gone whose counters are kept, should their id and target return */
#define RP_EXP_GONE_MAX 256

struct rp_exporter;

struct rp_exporter *rp_exporter_new(void);
void rp_exporter_free(struct rp_exporter *x);
/*
 * The exporter's own probes (its --config's, owned by its socket),
 * exported as persistent ones are; they replace the ones given before.
 * 0 or -ENOMEM.
 */
int rp_exporter_own(struct rp_exporter *x, const uint32_t *ids, size_t n);
/*
 * One scrape: every probe read over nl (NULL: the module is not there,
 * rawprobe_up 0), its counts added to the run's, and the exposition
 * written to out. 0, or the -errno of the probe list (rawprobe_up 0).
 */
int rp_exporter_scrape(struct rp_exporter *x, struct rp_nl *nl, FILE *out);

#endif
