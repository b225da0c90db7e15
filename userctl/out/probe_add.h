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

/* probe add's command line: its options, the kind and the targets */
struct rp_probe_add_args {
	struct rp_probe_req req;	/* the options, for every target */
	const char *kind;
	char **targets;			/* argv's */
	int ntargets;
	bool dry_run;
	size_t max;			/* --max-probes */
};

/*
 * argv as probe add takes it (argv[0] the command's name): RP_EXIT_OK,
 * -1 after --help, or the exit code of a usage error, said. The caller
 * adds RAWPROBE_F_PERSISTENT or not.
 */
int rp_probe_add_parse(int argc, char **argv, struct rp_probe_add_args *a);

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
