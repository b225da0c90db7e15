/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task filters, --pid, --tgid, --comm, --cpu and --cgroup
 * (resolve/task_filter.c): sent with a probe, or applied by a stream to
 * other probes' records (all but --cgroup).
 * Not --filter, the value filter the kernel runs (resolve/filter.c).
 */
#ifndef RAWPROBECTL_TASK_FILTER_H
#define RAWPROBECTL_TASK_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rawprobe.h"
#include "lib/probe_nl.h"

/*
 * --include-self, an option of the commands that bring probes (stream,
 * trace, hist, count): they leave their own process out otherwise.
 */
#define RP_OPT_INCLUDE_SELF	0x280
#define RP_SELF_LONGOPT							\
	{ "include-self", no_argument, NULL, RP_OPT_INCLUDE_SELF }
/* --cgroup PATH: a long option alone */
#define RP_OPT_CGROUP		0x281

static inline bool rp_is_task_filter_opt(int opt)
{
	return opt == 'P' || opt == 'T' || opt == 'C' || opt == 'U' ||
	       opt == RP_OPT_CGROUP || opt == RP_OPT_INCLUDE_SELF;
}

/*
 * The path of cgroup v2 id under the cgroup2 mount, found by a walk of
 * it; "" if none (removed, or another cgroup namespace).
 */
void rp_cgroup_path(uint64_t id, char *buf, size_t len);

/* Does record r pass f? (Not its cgroup, which records do not carry.) */
bool rp_task_filter_match(const struct rp_task_filter *f,
			  const struct rawprobe_record *r);
/* "pid=1 comm=cat" (empty if nothing is set), the comm escaped */
#define RP_TASK_STR_MAX (128 + RP_CGROUP_PATH_MAX)
void rp_task_filter_str(const struct rp_task_filter *f, char *buf, size_t len);
/*
 * --pid/--tgid/--comm/--cpu (opt P/T/C/U), --cgroup, --include-self;
 * RP_EXIT_USAGE if bad.
 */
int rp_task_filter_opt(int opt, const char *arg, struct rp_task_filter *f);
/*
 * A command's own probes leave the command's process out, in the kernel
 * (RAWPROBE_A_FILTER_NOT_TGID): tracing a path it takes itself (poll,
 * write) would record its every wakeup and wake it again. Not with
 * --include-self, nor with --pid or --tgid, which name whom to record.
 */
void rp_task_filter_leave_self_out(struct rp_task_filter *f);

#endif
