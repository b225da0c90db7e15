// SPDX-License-Identifier: GPL-2.0
/*
 * The rings' clock (uapi enum rawprobe_clock): the TSC, read raw and
 * converted by readers, as perf's cap_user_time and ftrace's x86-tsc
 * trace clock do, wherever the kernel's own timekeeping reads it; else
 * CLOCK_MONOTONIC. ktime_get_mono_fast_ns() is about 50 instructions (a
 * seqcount, an indirect call to read_tsc(), the conversion) and a call
 * whose live registers the handler saves; rdtsc_ordered() is two. A
 * static key chooses, so that the record path pays nothing to ask.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/ktime.h>	/* timekeeping.h needs it first (6.1) */
#include <linux/timekeeping.h>
#include <asm/tsc.h>
#include "core.h"

DEFINE_STATIC_KEY_FALSE(rp_clock_tsc);

/*
 * The TSC's rate, for readers converting records: given whenever there
 * is a TSC, so that records written with it stay readable after the
 * kernel's watchdog marks it unstable (the clock is then offered no more).
 */
u32 rp_clock_tsc_rate_khz(void)
{
	return boot_cpu_has(X86_FEATURE_TSC) ? tsc_khz : 0;
}

/* The TSC's rate where the tsc clock is offered (trusted), else 0. */
u32 rp_clock_tsc_khz(void)
{
	return check_tsc_unstable() ? 0 : rp_clock_tsc_rate_khz();
}

/*
 * Does the kernel's timekeeping read the TSC (clocksource tsc)? Then
 * CLOCK_MONOTONIC, the vDSO's included, is the TSC scaled, every CPU's
 * TSC is in step (the kernel checks that before it takes it), and a
 * reader's conversion from an rdtsc and clock_gettime() pair is the
 * kernel's own within the rate's rounding. The snapshot's raw cycles are
 * the clocksource's counter: an rdtsc on either side brackets them only
 * if that counter is the TSC (6.1 has no clocksource id for it).
 */
static bool rp_clock_timekeeping_tsc(void)
{
	struct system_time_snapshot snap;
	u64 before, after;

	if (!rp_clock_tsc_khz())
		return false;
	before = rdtsc_ordered();
	ktime_get_snapshot(&snap);
	after = rdtsc_ordered();
	return snap.cycles >= before && snap.cycles <= after;
}

/* RAWPROBE_CLOCK_AUTO: the TSC where timekeeping reads it, else mono. */
u32 rp_clock_resolve(u32 clock)
{
	if (clock != RAWPROBE_CLOCK_AUTO)
		return clock;
	return rp_clock_timekeeping_tsc() ? RAWPROBE_CLOCK_TSC :
					    RAWPROBE_CLOCK_MONO;
}

u32 rp_clock_get(void)
{
	return static_branch_unlikely(&rp_clock_tsc) ? RAWPROBE_CLOCK_TSC :
						       RAWPROBE_CLOCK_MONO;
}

/*
 * With no probe registered (the caller makes sure): a kretprobe's entry
 * and return must read the same clock, its latency is their difference.
 */
int rp_clock_set(u32 clock, struct netlink_ext_ack *extack)
{
	switch (rp_clock_resolve(clock)) {
	case RAWPROBE_CLOCK_TSC:
		if (!rp_clock_tsc_khz()) {
			NL_SET_ERR_MSG(extack,
				       "no usable TSC: the kernel has marked it unstable (see its clocksource)");
			return -EOPNOTSUPP;
		}
		static_branch_enable(&rp_clock_tsc);
		return 0;
	case RAWPROBE_CLOCK_MONO:
		static_branch_disable(&rp_clock_tsc);
		return 0;
	default:
		NL_SET_ERR_MSG(extack, "unknown clock");
		return -EINVAL;
	}
}
