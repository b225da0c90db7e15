/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe client (lib/probe_nl.c): a probe as PROBE_ADD takes it
 * (struct rp_probe_req, which resolve/ fills from the command line) and
 * as the kernel describes it (struct rp_probe_info), and the requests
 * that add, read and remove probes.
 */
#ifndef RAWPROBECTL_PROBE_NL_H
#define RAWPROBECTL_PROBE_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rawprobe.h"
#include "lib/desc.h"
#include "lib/nl.h"
#include "lib/pair_nl.h"
#include "lib/ring_nl.h"

/*
 * Who a probe (in the kernel) or a stream (in user space) records:
 * RP_TASK_* bits say which fields are set.
 */
#define RP_TASK_PID	(1U << 0)
#define RP_TASK_TGID	(1U << 1)
#define RP_TASK_COMM	(1U << 2)
#define RP_TASK_CPU	(1U << 3)
#define RP_TASK_NOT_TGID (1U << 4)	/* every process but not_tgid */
#define RP_TASK_SELF	(1U << 5)	/* --include-self: no NOT_TGID added */
#define RP_TASK_CGROUP	(1U << 6)	/* in the kernel only: records
					 * carry no cgroup
					 */

#define RP_CGROUP_PATH_MAX 160	/* shown; longer paths are cut */

struct rp_task_filter {
	unsigned int set;
	uint32_t pid, tgid, cpu;
	uint32_t not_tgid;
	char comm[RAWPROBE_COMM_LEN];
	uint64_t cgroup_id;		/* a cgroup v2's, its inode number */
	char cgroup[RP_CGROUP_PATH_MAX];	/* its path, if known */
};

/* A target as text: "kprobe:vfs_read+0x10", "kretprobe:ext4:ext4_sync_file" */
#define RP_TARGET_MAX 200

/*
 * count's --by and --stats (RAWPROBE_F_AGG), as written, and what they
 * resolve to once the probe's arguments are known (rp_agg_req_resolve()).
 */
struct rp_agg_req {
	char by[128];		/* "comm,pid", or "" */
	char value[64];		/* "retval", "latency", "arg1", a name, "" */
	uint8_t nkeys;
	uint8_t keys[RAWPROBE_AGG_MAX_KEYS];	/* enum rawprobe_agg_key */
	uint8_t key_args[RAWPROBE_AGG_MAX_KEYS];
	uint8_t key_types[RAWPROBE_AGG_MAX_KEYS];	/* START_ARG's: the
							 * start's argument's
							 */
	uint8_t value_kind;			/* enum rawprobe_agg_value */
	uint8_t value_arg;
	uint8_t hist;				/* enum rawprobe_agg_hist */
	uint16_t lin_buckets;			/* AGG_HIST_LINEAR */
	int64_t lin_min;
	uint64_t lin_step;
	uint32_t max_keys;			/* 0: the module's default */
};

/*
 * --override VALUE (RAWPROBE_A_OVERRIDE) and, for inject's probes, its
 * limits and call chain; a chain's steps carry chain_step.
 */
struct rp_ovr_req {
	bool set;
	int64_t value;
	uint8_t probability;	/* percent; 0: 100 */
	uint8_t chain_len;	/* steps the override needs */
	uint8_t chain_step;	/* this probe is that step; 0: none */
	uint32_t times, interval;
};

/* What a probe add needs, parsed from the command line. */
#define RP_ARGSPEC_MAX 640	/* --args, with its NUL */
struct rp_probe_req {
	int kind;
	char symbol[128], module[64];
	uint64_t addr;
	/*
	 * A glob's vmlinux function: its address in kallsyms, which the
	 * kernel arms through ftrace with the rest of the batch; 0: kprobes
	 */
	uint64_t ftrace_addr;
	uint32_t offset, maxactive, flags;
	bool glob;		/* symbol is a glob, to expand */
	bool expanded;		/* a glob's function: kallsyms checked it */
	int nargs;
	unsigned char argtypes[RAWPROBE_MAX_ARGS];
	char arg_names[RAWPROBE_ARG_NAMES_LEN];	/* "fd,buf" or "" */
	bool args_auto;		/* --args auto: from BTF, at rp_probe_auto_args() */
	/*
	 * --args NAME:TYPE,...: the names select parameters where BTF knows
	 * the function (rp_fetch_labels_compile()), else label positions
	 */
	bool args_named;
	uint16_t str_max;
	uint8_t str_len_arg[RAWPROBE_MAX_ARGS];	/* buf:str:count: 1 + count's */
	struct rp_task_filter filter;
	/*
	 * --args by name (field paths) and --filter, as written; compiled
	 * at rp_probe_auto_args() into nargs.. above, fetch[] and terms[]
	 * (args.c, filter.c).
	 */
	char args_by_name[RP_ARGSPEC_MAX];	/* or "" */
	char value_filter[RAWPROBE_FILTER_STR_LEN];	/* trimmed, or "" */
	uint8_t nfetch, nterms;
	struct rawprobe_fetch fetch[RAWPROBE_MAX_ARGS];
	struct rawprobe_value_term terms[RAWPROBE_MAX_VALUE_TERMS];
	uint16_t filter_strs_len;	/* the string terms' constants */
	char filter_strs[RAWPROBE_FILTER_STRS_LEN];
	struct rp_agg_req agg;	/* with RAWPROBE_F_AGG */
	struct rp_ovr_req ovr;
	struct rp_pair_req pair;	/* a pair's start or end (latency) */
	/* the session it writes into (RAWPROBE_A_SESSION(_NAME)); 0: default */
	struct rp_session_ref ring;
};

/* A probe as the kernel describes it (PROBE_GET / dump / events). */
struct rp_probe_info {
	uint32_t id;
	uint32_t session;		/* where it writes (0: the default) */
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
	struct rp_pair_req pair;	/* RAWPROBE_A_PAIR */
	struct rp_pair_stats pair_stats;	/* its table's counts */
	uint64_t hits, records, lost_ring, miss_maxactive, miss_recursion,
		 str_faults, filtered, fetch_faults, overridden;
};

int rp_probe_info_parse(struct nlattr **a, struct rp_probe_info *pi);
/* The request a counting probe was added with, from its description */
void rp_agg_req_of_info(const struct rp_probe_info *pi,
			struct rp_probe_req *req);
/* "kprobe:vfs_read+0x10", "kretprobe:ext4:ext4_sync_file", ... */
void rp_probe_target(const struct rp_probe_info *pi, char *buf, size_t len);
void rp_probe_desc(const struct rp_probe_info *pi, struct rp_probe_desc *d);
/* buf:str:count: does a string of req take its length from an argument? */
bool rp_str_lens_set(const struct rp_probe_req *r);

/* Add it; on success *pi describes the new probe. Prints errors. */
int rp_probe_add_req(struct rp_nl *nl, const struct rp_probe_req *req,
		     struct rp_probe_info *pi);
/* Many at once, in all-or-nothing batches; ids[] gets the new ids. */
int rp_probe_add_many(struct rp_nl *nl, const struct rp_probe_req *reqs,
		      size_t n, uint32_t *ids);
/* Remove ids[n], in batches of RAWPROBE_MAX_BATCH: 0 or the first -errno */
int rp_probe_del_many(struct rp_nl *nl, const uint32_t *ids, size_t n);
/* One PROBE_DEL for up to RAWPROBE_MAX_BATCH ids, all or none. */
int rp_probe_del_list(struct rp_nl *nl, const uint32_t *ids, size_t n);
/* All probes (dump); *v is malloc'd. */
int rp_probe_dump(struct rp_nl *nl, struct rp_probe_info **v, size_t *n);

/* A probe id from the command line, or a usage error. */
int rp_parse_id(const char *s, uint32_t *id);
/*
 * cmd about probe id arg (or "all", if allow_all) over a socket of its
 * own, fn getting each answer: the exit code, failures said.
 */
int rp_id_request(int cmd, const char *what, const char *arg,
		  bool allow_all, rp_nl_reply_fn fn, void *ctx);
/* cmd about probe id over nl; fn gets each answer */
int rp_count_request(struct rp_nl *nl, int cmd, uint32_t id,
		     rp_nl_reply_fn fn, void *ctx);
/* probe reset / stats reset */
int rp_probe_reset_cmd(int argc, char **argv);

#endif
