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

struct rp_task_filter {
	unsigned int set;
	uint32_t pid, tgid, cpu;
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

#endif
