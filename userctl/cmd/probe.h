/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAWPROBECTL_PROBE_H
#define RAWPROBECTL_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/escape.h"
#include "lib/nl.h"
#include "resolve/task_filter.h"
#include "resolve/probe_req.h"
#include "out/format.h"

/* A probe as the kernel describes it (PROBE_GET / dump / events). */
struct rp_probe_info {
	uint32_t id;
	uint8_t kind, state, nargs;
	uint8_t argtypes[RAWPROBE_MAX_ARGS];
	uint32_t flags, offset, maxactive;
	uint64_t addr, probed_addr;
	char symbol[128], module[64];
	char name[128], owner[64];	/* custom probes: name, owner module */
	char arg_names[RAWPROBE_ARG_NAMES_LEN];	/* "fd,buf", checked; or "" */
	struct rp_task_filter filter;
	char value_filter[RAWPROBE_FILTER_STR_LEN];	/* --filter's, checked */
	uint8_t nfetch;			/* args are field fetches (A_FETCH) */
	struct rp_agg_req agg;		/* RAWPROBE_F_AGG: what it counts by */
	struct rp_ovr_req ovr;		/* RAWPROBE_A_OVERRIDE, CHAIN_STEP */
	uint64_t hits, records, lost_ring, miss_maxactive, miss_recursion,
		 str_faults, filtered, fetch_faults, overridden;
};

int rp_probe_info_parse(struct nlattr **a, struct rp_probe_info *pi);
/* The request a counting probe was added with, from its description */
void rp_agg_req_of_info(const struct rp_probe_info *pi,
			struct rp_probe_req *req);
/* "kprobe:vfs_read+0x10", "kretprobe:ext4:ext4_sync_file", ... */
void rp_probe_target(const struct rp_probe_info *pi, char *buf, size_t len);
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
void rp_probe_desc(const struct rp_probe_info *pi, struct rp_probe_desc *d);

/* Add it; on success *pi describes the new probe. Prints errors. */
int rp_probe_add_req(struct rp_nl *nl, const struct rp_probe_req *req,
		     struct rp_probe_info *pi);
/* Many at once, in all-or-nothing batches; ids[] gets the new ids. */
int rp_probe_add_many(struct rp_nl *nl, const struct rp_probe_req *reqs,
		      size_t n, uint32_t *ids);
/* Remove ids[n], in batches of RAWPROBE_MAX_BATCH: 0 or the first -errno */
int rp_probe_del_many(struct rp_nl *nl, const uint32_t *ids, size_t n);
/* --dry-run: what PROBE_ADD would carry, a request a line (-j: document) */
void rp_probe_dry_run(const struct rp_probe_req *reqs, size_t n);
/* probe reset / stats reset */
int rp_probe_reset_cmd(int argc, char **argv);
/* All probes (dump); *v is malloc'd. */
int rp_probe_dump(struct rp_nl *nl, struct rp_probe_info **v, size_t *n);

#endif
