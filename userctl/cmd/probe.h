/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAWPROBECTL_PROBE_H
#define RAWPROBECTL_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/escape.h"
#include "lib/nl.h"
#include "lib/probe_nl.h"
#include "resolve/task_filter.h"
#include "resolve/probe_req.h"
#include "out/format.h"

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

#endif
