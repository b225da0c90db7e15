/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences between the kernels rawprobe supports
 * (Debian's 6.1 and 6.12), in one place instead of #ifdefs in the code.
 */
#ifndef _RAWPROBE_COMPAT_H
#define _RAWPROBE_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/cpumask.h>

/* vm_flags became read-only behind accessors in 6.3. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void rp_vm_flags_set(struct vm_area_struct *vma,
				   unsigned long flags)
{
	vma->vm_flags |= flags;
}

static inline void rp_vm_flags_clear(struct vm_area_struct *vma,
				     unsigned long flags)
{
	vma->vm_flags &= ~flags;
}
#else
#define rp_vm_flags_set		vm_flags_set
#define rp_vm_flags_clear	vm_flags_clear
#endif

/*
 * What register_kretprobe() allocates for maxactive instances of
 * obj_size bytes, instances the kernel charges to no one: before 6.7 a
 * kmalloc each (rethook nodes); since, an objpool, whose every possible
 * CPU has a vmalloc'd slot of roundup_pow_of_two(maxactive) pointers and
 * its share of the objects.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
static inline u64 rp_kretprobe_bytes(u32 maxactive, size_t obj_size)
{
	return (u64)maxactive * kmalloc_size_roundup(obj_size);
}
#else
#include <linux/objpool.h>

static inline u64 rp_kretprobe_bytes(u32 maxactive, size_t obj_size)
{
	u32 ncpu = num_possible_cpus();
	u64 slot = struct_size_t(struct objpool_slot, entries,
				 roundup_pow_of_two(maxactive)) +
		   ALIGN(obj_size, sizeof(void *)) *
		   DIV_ROUND_UP(maxactive, ncpu);

	return ncpu * PAGE_ALIGN(slot);
}
#endif

/* A dump's request attributes: genl_dumpit_info() changed shape in 6.2. */
#include <net/genetlink.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
static inline struct nlattr **rp_dump_attrs(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->attrs;
}
#else
static inline struct nlattr **rp_dump_attrs(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->info.attrs;
}
#endif

#endif /* _RAWPROBE_COMPAT_H */
