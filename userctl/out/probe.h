/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A probe shown (out/probe.c): probe list's table and probe show's
 * fields, text or JSON, and --dry-run's requests.
 */
#ifndef RAWPROBECTL_OUT_PROBE_H
#define RAWPROBECTL_OUT_PROBE_H

#include <stddef.h>
#include "lib/escape.h"
#include "lib/json.h"
#include "lib/probe_nl.h"
#include "lib/ring_nl.h"
#include "resolve/probe_req.h"
#include "resolve/task_filter.h"

/*
 * A probe's strings from the kernel as human output shows them, escaped:
 * a custom probe's name and owner are whatever its module says.
 */
struct rp_probe_shown {
	char target[RP_ESCAPED_MAX(RP_TARGET_MAX) + 1];
	char owner[RP_ESCAPED_MAX(sizeof(((struct rp_probe_info *)0)->owner)) + 1];
	/* "pid=1 comm=cat if retval < 0" */
	char filter[RP_TASK_STR_MAX + 4 + RAWPROBE_FILTER_STR_LEN];
};
void rp_probe_shown(const struct rp_probe_info *pi, struct rp_probe_shown *s);

/* --dry-run: what PROBE_ADD would carry, a request a line (-j: document) */
void rp_probe_dry_run(const struct rp_probe_req *reqs, size_t n);

/* A probe as a JSON object of j's */
void rp_probe_json(struct json *j, const struct rp_probe_info *pi);
/* ...as one document on stdout */
void rp_probe_print(const struct rp_probe_info *pi);
/*
 * probe list: a line a probe under a heading; ss (or NULL) names the
 * sessions the probes write into
 */
void rp_probe_table(const struct rp_probe_info *v, size_t n,
		    const struct rp_sessions *ss);
/* probe show: one probe, every field */
void rp_probe_detail(const struct rp_probe_info *pi,
		     const struct rp_sessions *ss);

#endif
