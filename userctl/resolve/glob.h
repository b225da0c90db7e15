/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Globs as probe targets ("tcp_*", "ext4:ext4_*"): the functions kprobes
 * can take whose names match (resolve/glob.c).
 */
#ifndef RAWPROBECTL_GLOB_H
#define RAWPROBECTL_GLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A glob's probes, at most, unless --max-probes says more */
#define RP_GLOB_CAP_DEFAULT 1000

/* The blacklist's file: $RAWPROBE_KPROBES_BLACKLIST, or debugfs' */
#define RP_KPROBES_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"

/* Does the name have a glob's characters: '*', '?', '['? */
bool rp_glob_is(const char *s);
/* Is it a glob fnmatch() reads as written: each '[' closed? */
bool rp_glob_valid(const char *pat);

struct rp_glob_fn {
	char name[128];
	char module[64];	/* "" for vmlinux */
	uint64_t addr;		/* in kallsyms; 0: not shown to this user */
};

/* A glob's functions, sorted by name, and what was left out, and why */
struct rp_glob_result {
	struct rp_glob_fn *v;
	size_t n;
	size_t shared;		/* names several functions have */
	size_t blacklisted;	/* on kprobes' blacklist */
	size_t own;		/* rawprobe's own code */
	size_t not_tp;		/* events with no tracepoint (ftrace:*) */
};

/*
 * The functions of available_filter_functions (in module, if not "")
 * whose names match pat, less the kprobe blacklist, the names several
 * functions share (a kprobe by name takes the first, and the CLI refuses
 * them as ambiguous) and rawprobe's own module. 0 (r->n may be 0), or
 * -errno after saying why.
 */
int rp_glob_expand(const char *module, const char *pat,
		   struct rp_glob_result *r);
/*
 * n globs at once, r[0..n) as rp_glob_expand() gives each: the lists
 * and kallsyms read once for all of them (a kallsyms scan is most of an
 * expansion's time). On error, every r[k] is freed.
 */
int rp_glob_expand_all(const char *const *modules, const char *const *pats,
		       size_t n, struct rp_glob_result *r);
/*
 * The tracepoints of available_events whose "SUBSYSTEM:EVENT" matches
 * pat ("sched:sched_*", "*:*_exit"), sorted, less the events with no
 * tracepoint a probe takes (ftrace's own and dynamic events), counted in
 * r->not_tp; the syscalls:* events are in. 0, or -errno after saying why.
 */
int rp_glob_events(const char *pat, struct rp_glob_result *r);
void rp_glob_result_free(struct rp_glob_result *r);

#endif
