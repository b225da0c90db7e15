/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task filters (filter.c): below probe.c, which sends them with a probe,
 * and stream.c, which applies them to other probes' records.
 */
#ifndef RAWPROBECTL_FILTER_H
#define RAWPROBECTL_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rawprobe.h"

/*
 * Who a probe (in the kernel) or a stream (in user space) records:
 * RP_FILTER_* bits say which fields are set.
 */
#define RP_FILTER_PID	(1U << 0)
#define RP_FILTER_TGID	(1U << 1)
#define RP_FILTER_COMM	(1U << 2)
#define RP_FILTER_CPU	(1U << 3)

struct rp_filter {
	unsigned int set;
	uint32_t pid, tgid, cpu;
	char comm[RAWPROBE_COMM_LEN];
};

/* Does record r pass f? */
bool rp_filter_match(const struct rp_filter *f,
		     const struct rawprobe_record *r);
/* "pid=1 comm=cat" (empty if nothing is set), the comm escaped */
#define RP_FILTER_STR_MAX 128
void rp_filter_str(const struct rp_filter *f, char *buf, size_t len);
/* --pid/--tgid/--comm/--cpu (opt P/T/C/U); RP_EXIT_USAGE if bad. */
int rp_filter_opt(int opt, const char *arg, struct rp_filter *f);

#endif
