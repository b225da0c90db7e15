/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task filters, --pid, --tgid, --comm and --cpu (resolve/task_filter.c):
 * sent with a probe, or applied by a stream to other probes' records.
 * Not --filter, the value filter the kernel runs (resolve/fetch.c).
 */
#ifndef RAWPROBECTL_TASK_FILTER_H
#define RAWPROBECTL_TASK_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rawprobe.h"

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

/*
 * --include-self, an option of the commands that bring probes (stream,
 * trace, hist, count): they leave their own process out otherwise.
 */
#define RP_OPT_INCLUDE_SELF	0x280
#define RP_SELF_LONGOPT							\
	{ "include-self", no_argument, NULL, RP_OPT_INCLUDE_SELF }

struct rp_task_filter {
	unsigned int set;
	uint32_t pid, tgid, cpu;
	uint32_t not_tgid;
	char comm[RAWPROBE_COMM_LEN];
};

/* Does record r pass f? */
bool rp_task_filter_match(const struct rp_task_filter *f,
			  const struct rawprobe_record *r);
/* "pid=1 comm=cat" (empty if nothing is set), the comm escaped */
#define RP_TASK_STR_MAX 128
void rp_task_filter_str(const struct rp_task_filter *f, char *buf, size_t len);
/* --pid/--tgid/--comm/--cpu (opt P/T/C/U); RP_EXIT_USAGE if bad. */
int rp_task_filter_opt(int opt, const char *arg, struct rp_task_filter *f);
/*
 * A command's own probes leave the command's process out, in the kernel
 * (RAWPROBE_A_FILTER_NOT_TGID): tracing a path it takes itself (poll,
 * write) would record its every wakeup and wake it again. Not with
 * --include-self, nor with --pid or --tgid, which name whom to record.
 */
void rp_task_filter_leave_self_out(struct rp_task_filter *f);

#endif
