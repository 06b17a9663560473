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

/*
 * Linux 6.11 made platform_driver.remove return void; it returned int
 * before.  VCAP_DEFINE_PLATFORM_REMOVE(name, fn) defines name, of the
 * type .remove has on this kernel, calling the void fn.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 11, 0)
#define VCAP_DEFINE_PLATFORM_REMOVE(name, fn)				\
	static int name(struct platform_device *pdev)			\
	{								\
		fn(pdev);						\
		return 0;						\
	}
#else
#define VCAP_DEFINE_PLATFORM_REMOVE(name, fn)				\
	static void name(struct platform_device *pdev)			\
	{								\
		fn(pdev);						\
	}
#endif

#endif /* _VCAP_COMPAT_H */
