/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compatibility with older kernels.  vcap is written against the newest
 * kernel API; each block below restores one interface on the kernels that
 * predate it and names the release that changed it.
 */
#ifndef _VCAP_COMPAT_H
#define _VCAP_COMPAT_H

#include <linux/version.h>

/*
 * Linux 6.3 made vma->vm_flags read-only outside mm and added
 * vm_flags_set() and vm_flags_clear() to change it.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
#include <linux/mm.h>

static inline void vm_flags_set(struct vm_area_struct *vma,
				vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma,
				  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

#endif /* _VCAP_COMPAT_H */
