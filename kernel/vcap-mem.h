/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap memory ops: the videobuf2 allocator behind /dev/videoN.
 *
 * Each buffer is vmalloc memory, charged to the allocating process's
 * memory cgroup and to its device's capped pool, refcounted by videobuf2,
 * by every user mapping and by every exported dma-buf, and freed when the
 * last of them goes.  User mappings are filled by a fault handler, never remapped
 * up front, so a mapping outlives REQBUFS(0), close() and unbind.  Imported
 * dma-bufs are written through a kernel mapping of their own.
 */
#ifndef _VCAP_MEM_H
#define _VCAP_MEM_H

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/scatterlist.h>
#include <media/videobuf2-core.h>

struct vcap_mem_pool;

/* A device's buffer memory: one reference for the device, one per buffer. */
struct vcap_mem_pool *vcap_mem_pool_create(void);
void vcap_mem_pool_put(struct vcap_mem_pool *pool);

/*
 * For a queue with io_modes VB2_MMAP | VB2_USERPTR | VB2_DMABUF | VB2_READ:
 * MMAP with VIDIOC_EXPBUF, USERPTR, DMABUF import of any dma-buf the
 * kernel can map as memory, and read().
 */
extern const struct vb2_mem_ops vcap_vb2_mem_ops;

/*
 * DMA by a board: map a buffer (a videobuf2 plane's mem_priv) for dev to
 * write into, once, until unmapped; and keep its memory from the
 * allocator for good when the board may never stop writing it.
 */
struct sg_table *vcap_mem_dma_map(void *buf_priv, struct device *dev);
void vcap_mem_dma_unmap(void *buf_priv);
unsigned long vcap_mem_dma_quarantine(void *buf_priv);

/*
 * The V4L2 node's .mmap: vb2_fop_mmap() after refusing offsets that no
 * buffer can have.
 */
int vcap_mem_fop_mmap(struct file *file, struct vm_area_struct *vma);

#endif /* _VCAP_MEM_H */
