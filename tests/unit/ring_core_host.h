/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host (user-space) mapping of the primitives used by kmod/ring_core.h
 * and kmod/agg_core.h, for the unit tests; include this file, it
 * includes both.
 *
 * In the kernel the rp_local_* operations only have to be atomic against
 * writers nested on one CPU. Here they are full SMP atomics, so that
 * several threads can share one ring and stand in for nested writers with
 * more interleavings than real nesting can produce. The ordering of the
 * local operations is relaxed, as local_t's is on weakly ordered CPUs:
 * neither the reader nor other writers may rely on it, and ThreadSanitizer
 * checks that they do not.
 *
 * A test may define RP_HOST_HOOK(point) before including this file to run
 * code (typically a nested writer) at a given point of the writer:
 *   RP_HOOK_CMPXCHG  just before the cmpxchg that reserves a position;
 *   RP_HOOK_ACQUIRE  just before a load-acquire, i.e. between the
 *                    writer's read of head and its room check (of
 *                    consumer in discard mode, of the slot's commit word
 *                    in overwrite mode);
 *   RP_HOOK_LAST     just after an aggregation writer read the slot of
 *                    the last hit (agg_core.h), before it compares keys;
 *   RP_HOOK_SEQ      just before a writer takes its sequence number,
 *                    its slot reserved (or its record lost).
 */
#ifndef _RAWPROBE_RING_CORE_HOST_H
#define _RAWPROBE_RING_CORE_HOST_H

#include <stdbool.h>
#include <linux/types.h>

#define RP_HOOK_CMPXCHG	1
#define RP_HOOK_ACQUIRE	2
#define RP_HOOK_LAST	3
#define RP_HOOK_SEQ	4

#ifndef RP_HOST_HOOK
#define RP_HOST_HOOK(point)	do { } while (0)
#endif

static inline __u64 rp_local_read(__u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline __u64 rp_local_cmpxchg(__u64 *p, __u64 old, __u64 new)
{
	RP_HOST_HOOK(RP_HOOK_CMPXCHG);
	__atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
	return old;
}

static inline __u64 rp_local_inc_return(__u64 *p)
{
	RP_HOST_HOOK(RP_HOOK_SEQ);
	return __atomic_add_fetch(p, 1, __ATOMIC_RELAXED);
}

static inline void rp_local_inc(__u64 *p)
{
	__atomic_add_fetch(p, 1, __ATOMIC_RELAXED);
}

static inline void rp_local_add(__u64 *p, __u64 v)
{
	__atomic_add_fetch(p, v, __ATOMIC_RELAXED);
}

static inline void rp_write_once_u64(__u64 *p, __u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/*
 * Host threads share a table, where kernel writers only nest on one CPU:
 * release and acquire, so a slot's key is in before a pointer to it.
 */
#define rp_read_once_ptr(pp) ({					\
	__typeof__(*(pp)) v_ = __atomic_load_n(pp, __ATOMIC_ACQUIRE);	\
	RP_HOST_HOOK(RP_HOOK_LAST);					\
	v_; })
#define rp_write_once_ptr(pp, v) __atomic_store_n(pp, v, __ATOMIC_RELEASE)

static inline __u64 rp_load_acquire_u64(const __u64 *p)
{
	RP_HOST_HOOK(RP_HOOK_ACQUIRE);
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline __u32 rp_load_acquire_u32(const __u32 *p)
{
	RP_HOST_HOOK(RP_HOOK_ACQUIRE);
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void rp_store_release_u32(__u32 *p, __u32 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline void rp_write_once_u32(__u32 *p, __u32 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/*
 * smp_wmb() orders the "in progress" marker before the record's contents.
 * A release fence gives that store-store order. ThreadSanitizer does not
 * model fences (gcc says so with -Wtsan, which the TSan build turns off
 * for this reason); it does not need to here, as every access the fence
 * orders against a concurrent reader is atomic.
 */
#define rp_smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define rp_likely(x)	__builtin_expect(!!(x), 1)
#define rp_unlikely(x)	__builtin_expect(!!(x), 0)

#define RP_RING_PRIMITIVES 1
#include "ring_core.h"
#include "agg_core.h"

#endif /* _RAWPROBE_RING_CORE_HOST_H */
