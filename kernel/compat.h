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

/*
 * Linux 7.3 replaced is_cow_mapping(flags) with vma_is_cow_mapping(vma)
 * and vma_flags_is_cow_mapping().
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 3, 0)
#include <linux/mm.h>

static inline bool vma_is_cow_mapping(const struct vm_area_struct *vma)
{
	return is_cow_mapping(vma->vm_flags);
}
#endif

/*
 * Linux 6.13 added hrtimer_setup(), which names the callback with the
 * clock and mode; 6.15 removed hrtimer_init().
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#include <linux/hrtimer.h>

static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * Linux 6.13 made MODULE_IMPORT_NS() take the namespace as a string
 * literal; before, it took a bare identifier and made the string itself.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#include <linux/module.h>

#undef MODULE_IMPORT_NS
#define MODULE_IMPORT_NS(ns) MODULE_INFO(import_ns, ns)
#endif

/*
 * Linux 6.13 taught videobuf2 to drop the queue's lock while a blocking
 * DQBUF waits when the driver sets no wait_prepare/wait_finish, and 7.0
 * removed the two callbacks.  Before 6.13 a queue with a lock names the
 * helpers that do it.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#define VCAP_VB2_WAIT_OPS \
	.wait_prepare = vb2_ops_wait_prepare, \
	.wait_finish = vb2_ops_wait_finish,
#else
#define VCAP_VB2_WAIT_OPS
#endif

/*
 * Linux 7.0 added kzalloc_obj() and kzalloc_objs(), which take the type
 * from the object and check the count's multiplication.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 0, 0)
#include <linux/slab.h>

#define kzalloc_obj(obj, gfp) kzalloc(sizeof(obj), gfp)
#define kzalloc_objs(obj, count, gfp) kcalloc(count, sizeof(obj), gfp)
#endif

/*
 * Linux 6.8 let a queue hold more than VB2_MAX_FRAME buffers, up to its
 * max_num_buffers.  Before, VB2_MAX_FRAME was the limit of every queue.
 */
#include <media/videobuf2-core.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
static inline void vcap_vb2_set_max_buffers(struct vb2_queue *q,
					    unsigned int n)
{
}
#else
static inline void vcap_vb2_set_max_buffers(struct vb2_queue *q,
					    unsigned int n)
{
	q->max_num_buffers = n;
}
#endif

#endif /* _VCAP_COMPAT_H */
