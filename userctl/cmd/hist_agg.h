/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist with probes of its own: counted in the kernel (RAWPROBE_F_AGG),
 * read every interval (-i) and at the end, printed as hist prints.
 */
#ifndef RAWPROBECTL_HIST_AGG_H
#define RAWPROBECTL_HIST_AGG_H

#include <signal.h>
#include <stdio.h>
#include "lib/nl.h"
#include "out/histogram.h"
#include "resolve/probe_req.h"

struct rp_hist_agg {
	struct rp_nl *nl;
	const struct rp_probe_req *reqs;	/* added, F_AGG */
	const uint32_t *ids;			/* their ids */
	unsigned int n;
	const struct rp_hist_opts *o;
	struct rp_sink *sink;			/* rp_hist_sink_init()'s */
	double interval, duration;		/* seconds; 0: none */
	volatile sig_atomic_t *stop;		/* set by a signal */
	bool summary;				/* per probe, to stderr */
};

/* Until the duration or a signal, then the last read: an exit code. */
int rp_hist_agg_run(const struct rp_hist_agg *a);

#endif
