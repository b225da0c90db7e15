/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel mapping of the primitives used by ring_core.h and agg_core.h;
 * include this file (it includes both) wherever records are written or
 * hits aggregated.
 *
 * The position, sequence and lost counters are only ever modified by
 * writers on the CPU that owns the ring, nested at most through IRQ and
 * NMI, so local_t operations suffice: atomic against interrupts on this
 * CPU, NMI safe, and without the lock prefix on x86. The reader on another
 * CPU only needs the release/acquire pair on each record's commit word.
 */
#ifndef _RAWPROBE_RING_CORE_KERNEL_H
#define _RAWPROBE_RING_CORE_KERNEL_H

#ifndef __KERNEL__
#error "ring_core_kernel.h is for the kernel; user space uses ring_core_host.h"
#endif

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/build_bug.h>
#include <asm/barrier.h>
#include <asm/local.h>

/*
 * The control page holds u64 counters that are operated on as local_t,
 * which is a long: this needs a 64-bit kernel (a 32-bit port would switch
 * to local64_t).
 */
static_assert(sizeof(local_t) == sizeof(u64),
	      "rawprobe ring counters need a 64-bit local_t");

static __always_inline u64 rp_local_read(u64 *p)
{
	return local_read((local_t *)p);
}

static __always_inline u64 rp_local_cmpxchg(u64 *p, u64 old, u64 new)
{
	return local_cmpxchg((local_t *)p, old, new);
}

static __always_inline u64 rp_local_inc_return(u64 *p)
{
	return local_inc_return((local_t *)p);
}

static __always_inline void rp_local_inc(u64 *p)
{
	local_inc((local_t *)p);
}

static __always_inline void rp_local_add(u64 *p, u64 v)
{
	local_add(v, (local_t *)p);
}

static __always_inline void rp_write_once_u64(u64 *p, u64 v)
{
	WRITE_ONCE(*p, v);
}

/* A pointer that writers nested on this CPU may change (one word). */
#define rp_read_once_ptr(pp)		READ_ONCE(*(pp))
#define rp_write_once_ptr(pp, v)	WRITE_ONCE(*(pp), (v))

static __always_inline u64 rp_load_acquire_u64(const u64 *p)
{
	/* pairs with the reader's store-release of consumer */
	return smp_load_acquire(p);
}

static __always_inline u32 rp_load_acquire_u32(const u32 *p)
{
	/* pairs with the commit of the record one lap back */
	return smp_load_acquire(p);
}

static __always_inline void rp_store_release_u32(u32 *p, u32 v)
{
	/* publishes the record: pairs with the reader's load-acquire */
	smp_store_release(p, v);
}

static __always_inline void rp_write_once_u32(u32 *p, u32 v)
{
	WRITE_ONCE(*p, v);
}

/* orders the "in progress" marker before the record's new contents */
#define rp_smp_wmb()	smp_wmb()
#define rp_likely(x)	likely(x)
#define rp_unlikely(x)	unlikely(x)

#define RP_RING_PRIMITIVES 1
#include "ring_core.h"
#include "agg_core.h"

#endif /* _RAWPROBE_RING_CORE_KERNEL_H */
