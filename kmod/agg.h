/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An aggregating probe's tables (kmod/agg.c), as its handlers see them
 * (probes/agg.c): two per CPU, the epoch saying which one hits go to.
 */
#ifndef _RAWPROBE_AGG_H
#define _RAWPROBE_AGG_H

#include <linux/mutex.h>
#include <linux/percpu.h>
#include "core.h"
#include "ring_core_kernel.h"

struct rp_agg_pcpu {
	struct rp_agg_table t[2];
};

struct rp_agg {
	/*
	 * Writers use t[epoch & 1] of their CPU's pair. A read switches the
	 * epoch (store-release: the table it sends writers to was cleared
	 * before), waits a grace period, after which no writer is in the old
	 * tables (handlers run with preemption off), then copies and clears
	 * them. So every hit is in exactly one interval.
	 */
	u32 epoch;
	u64 start_ns;			/* the current interval's beginning */
	struct mutex lock;		/* one read at a time */
	struct rp_agg_spec spec;
	struct rp_agg_shape shape;
	u32 nr_slots;
	struct rp_agg_pcpu __percpu *pcpu;
};

#endif /* _RAWPROBE_AGG_H */
