/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAWPROBECTL_PROBE_H
#define RAWPROBECTL_PROBE_H

#include <stdint.h>
#include "nl.h"
#include "format.h"

/* A probe as the kernel describes it (PROBE_GET / dump / events). */
struct rp_probe_info {
	uint32_t id;
	uint8_t kind, state, nargs;
	uint8_t argtypes[RAWPROBE_MAX_ARGS];
	uint32_t flags, offset, maxactive;
	uint64_t addr, probed_addr;
	char symbol[128], module[64];
	char name[64], owner_module[64];	/* probes of other modules */
	uint64_t hits, records, lost_ring, miss_maxactive, miss_recursion,
		 str_faults;
};

int rp_probe_info_parse(struct nlattr **a, struct rp_probe_info *pi);
/* "kprobe:vfs_read+0x10", "kretprobe:ext4:ext4_sync_file", ... */
void rp_probe_target(const struct rp_probe_info *pi, char *buf, size_t len);
void rp_probe_desc(const struct rp_probe_info *pi, struct rp_probe_desc *d);

/* What a probe add needs, parsed from the command line. */
struct rp_probe_req {
	int kind;
	char symbol[128], module[64];
	uint64_t addr;
	uint32_t offset, maxactive, flags;
	int nargs;
	unsigned char argtypes[RAWPROBE_MAX_ARGS];
	uint16_t str_max;
};

/* "vfs_read", "vfs_read+0x10", "ext4:ext4_sync_file", "0xffff..." */
int rp_target_parse(const char *s, struct rp_probe_req *req);
/*
 * Fill kind and target (other fields keep what options set); prints the
 * usage error and returns RP_EXIT_USAGE when they are wrong.
 */
int rp_probe_req_init(struct rp_probe_req *req, const char *kind,
		      const char *target);
/* The long options of a probe, shared by probe add and stream -e. */
#define RP_PROBE_LONGOPTS						\
	{ "args",      required_argument, NULL, 'a' },			\
	{ "maxactive", required_argument, NULL, 'm' },			\
	{ "strmax",    required_argument, NULL, 's' }

/* An option shared by probe add and stream -e (a:m:s:dS). */
int rp_probe_opt(int opt, const char *arg, struct rp_probe_req *req);
/* Add it; on success *pi describes the new probe. Prints errors. */
int rp_probe_add_req(struct rp_nl *nl, const struct rp_probe_req *req,
		     struct rp_probe_info *pi);
/* Many at once, in all-or-nothing batches; ids[] gets the new ids. */
int rp_probe_add_many(struct rp_nl *nl, const struct rp_probe_req *reqs,
		      size_t n, uint32_t *ids);
/* All probes (dump); *v is malloc'd. */
int rp_probe_dump(struct rp_nl *nl, struct rp_probe_info **v, size_t *n);

#endif
