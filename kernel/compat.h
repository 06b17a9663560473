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
 * Linux 6.2 made dma_buf_vmap() and dma_buf_vunmap() expect the caller to
 * hold the dma-buf's reservation lock, and added the _unlocked variants
 * that take it.  Before, dma_buf_vmap() took its own lock.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#include <linux/dma-buf.h>

static inline int dma_buf_vmap_unlocked(struct dma_buf *dmabuf,
					struct iosys_map *map)
{
	return dma_buf_vmap(dmabuf, map);
}

static inline void dma_buf_vunmap_unlocked(struct dma_buf *dmabuf,
					   struct iosys_map *map)
{
	dma_buf_vunmap(dmabuf, map);
}
#endif

#endif /* _VCAP_COMPAT_H */
