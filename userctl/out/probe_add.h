/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Persistent probes added from resolved requests (out/probe_add.c), as
 * probe add does for its targets and for a pair: --dry-run's lines, or
 * the batch added and its ids printed.
 */
#ifndef RAWPROBECTL_OUT_PROBE_ADD_H
#define RAWPROBECTL_OUT_PROBE_ADD_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/nl.h"
#include "resolve/probe_req.h"

/*
 * --ring: the session looked up before any probe is added, so that an
 * unknown name is said as one: RP_EXIT_OK or the exit code.
 */
int rp_probe_ring_check(struct rp_nl *nl, const struct rp_probe_req *req);
/*
 * Globs of *reqs expanded (up to max probes), the targets checked and
 * their arguments resolved; then --dry-run's requests printed, or all
 * of them added and their ids printed. The exit code, failures said.
 */
int rp_probe_add_reqs(struct rp_probe_req **reqs, size_t *n, bool dry_run,
		      size_t max);

#endif
