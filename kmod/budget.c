// SPDX-License-Identifier: GPL-2.0
/*
 * What callers over netlink make the kernel pin: the sessions' rings,
 * kretprobe instances, aggregation tables and the snapshots AGG_READ
 * hands to a dump. The kernel allocates kretprobe instances on its own
 * account, and a caller with CAP_PERFMON alone may ask for tables of
 * hundreds of megabytes per CPU, or for a session of rings per command;
 * the memory cgroup charge (GFP_KERNEL_ACCOUNT) bounds a caller only
 * where a limit is set. So all of it shares one budget, a sixteenth of
 * RAM, charged before anything is allocated: a request over it gets
 * E2BIG, never the OOM killer. Probe modules' own memory is their code's
 * business and is not counted.
 *
 * A charge is an add and a check, undone when over: two racing callers
 * near the limit may both be refused where one would have fitted, never
 * both admitted past it (as page_counter_try_charge()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/mm.h>
#include "core.h"

static atomic64_t rp_budget_used = ATOMIC64_INIT(0);

u64 rp_budget_limit(void)
{
	return ((u64)totalram_pages() << PAGE_SHIFT) / 16;
}

/* Is there room for bytes more now? A first check, before a batch's work. */
bool rp_budget_fits(u64 bytes)
{
	u64 limit = rp_budget_limit();

	return bytes <= limit && atomic64_read(&rp_budget_used) <= limit - bytes;
}

/* Take bytes of the budget; false (nothing taken) when they do not fit. */
bool rp_budget_charge(u64 bytes)
{
	u64 limit = rp_budget_limit();

	if (bytes > limit)
		return false;
	if (atomic64_add_return(bytes, &rp_budget_used) <= limit)
		return true;
	atomic64_sub(bytes, &rp_budget_used);
	return false;
}

void rp_budget_uncharge(u64 bytes)
{
	WARN_ON_ONCE(atomic64_sub_return(bytes, &rp_budget_used) < 0);
}
