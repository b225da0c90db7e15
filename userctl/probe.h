/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RAWPROBECTL_PROBE_H
#define RAWPROBECTL_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include "escape.h"
#include "nl.h"
#include "filter.h"
#include "format.h"

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
	struct rp_filter filter;
	char value_filter[RAWPROBE_FILTER_STR_LEN];	/* --filter's, checked */
	uint8_t nfetch;			/* args are field fetches (A_FETCH) */
	uint64_t hits, records, lost_ring, miss_maxactive, miss_recursion,
		 str_faults, filtered, fetch_faults;
};

int rp_probe_info_parse(struct nlattr **a, struct rp_probe_info *pi);
/* "kprobe:vfs_read+0x10", "kretprobe:ext4:ext4_sync_file", ... */
#define RP_TARGET_MAX 200
void rp_probe_target(const struct rp_probe_info *pi, char *buf, size_t len);
/*
 * A probe's strings from the kernel as human output shows them, escaped:
 * a custom probe's name and owner are whatever its module says.
 */
struct rp_probe_shown {
	char target[RP_ESCAPED_MAX(RP_TARGET_MAX) + 1];
	char owner[RP_ESCAPED_MAX(sizeof(((struct rp_probe_info *)0)->owner)) + 1];
	/* "pid=1 comm=cat if retval < 0" */
	char filter[RP_FILTER_STR_MAX + 4 + RAWPROBE_FILTER_STR_LEN];
};
void rp_probe_shown(const struct rp_probe_info *pi, struct rp_probe_shown *s);
void rp_probe_desc(const struct rp_probe_info *pi, struct rp_probe_desc *d);

/* What a probe add needs, parsed from the command line. */
#define RP_ARGSPEC_MAX 256	/* --args, with its NUL */
struct rp_probe_req {
	int kind;
	char symbol[128], module[64];
	uint64_t addr;
	uint32_t offset, maxactive, flags;
	int nargs;
	unsigned char argtypes[RAWPROBE_MAX_ARGS];
	char arg_names[RAWPROBE_ARG_NAMES_LEN];	/* "fd,buf" or "" */
	bool args_auto;		/* --args auto: from BTF, at rp_probe_auto_args() */
	uint16_t str_max;
	struct rp_filter filter;
	/*
	 * --args by name (field paths) and --filter, as written; compiled
	 * at rp_probe_auto_args() into nargs.. above, fetch[] and terms[]
	 * (fetch.c).
	 */
	char args_by_name[RP_ARGSPEC_MAX];	/* or "" */
	char value_filter[RAWPROBE_FILTER_STR_LEN];	/* trimmed, or "" */
	uint8_t nfetch, nterms;
	struct rawprobe_fetch fetch[RAWPROBE_MAX_ARGS];
	struct rawprobe_value_term terms[RAWPROBE_MAX_VALUE_TERMS];
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
	{ "strmax",    required_argument, NULL, 's' },			\
	{ "filter",    required_argument, NULL, 'F' },			\
	{ "stack",     no_argument,       NULL, 'K' }

/* Filters: per probe in probe add, per stream (and its -e) in stream. */
#define RP_FILTER_LONGOPTS						\
	{ "pid",       required_argument, NULL, 'P' },			\
	{ "tgid",      required_argument, NULL, 'T' },			\
	{ "comm",      required_argument, NULL, 'C' },			\
	{ "cpu",       required_argument, NULL, 'U' }

/* An option shared by probe add and stream -e (a:m:s:dSFK, filters). */
int rp_probe_opt(int opt, const char *arg, struct rp_probe_req *req);
/* Add it; on success *pi describes the new probe. Prints errors. */
int rp_probe_add_req(struct rp_nl *nl, const struct rp_probe_req *req,
		     struct rp_probe_info *pi);
/*
 * Check the targets' symbols against kallsyms first (ambiguous, unknown:
 * prints candidates, returns -EEXIST/-ENOENT); no module needed.
 */
int rp_probe_check(const struct rp_probe_req *reqs, size_t n);
/*
 * --args auto: each such request gets its arguments' types and names
 * from the target's BTF prototype (btf.c); --args by name and --filter
 * are compiled against it (fetch.c). RP_EXIT_OK, or the exit code after
 * printing why not.
 */
int rp_probe_auto_args(struct rp_probe_req *reqs, size_t n);
/*
 * Arguments (and what fetches read) are defined at a function's entry,
 * named: RP_EXIT_OK, or a usage error that says so, about option what.
 */
int rp_entry_check(const struct rp_probe_req *r, const char *what);
/* "fd:s32,buf:ptr" or "s32,ptr": an argument list as --args takes it */
void rp_args_str(const unsigned char *types, unsigned int nargs,
		 const char *names, char *buf, size_t len);
/* Many at once, in all-or-nothing batches; ids[] gets the new ids. */
int rp_probe_add_many(struct rp_nl *nl, const struct rp_probe_req *reqs,
		      size_t n, uint32_t *ids);
/* probe reset / stats reset */
int rp_probe_reset_cmd(int argc, char **argv);
/* All probes (dump); *v is malloc'd. */
int rp_probe_dump(struct rp_nl *nl, struct rp_probe_info **v, size_t *n);

#endif
