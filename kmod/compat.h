/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences between the kernels rawprobe supports
 * (Debian's 6.1 and 6.12), in one place instead of #ifdefs in the code.
 */
#ifndef _RAWPROBE_COMPAT_H
#define _RAWPROBE_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>

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

#endif /* _RAWPROBE_COMPAT_H */
