/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap memory ops: the videobuf2 allocator behind /dev/videoN.
 *
 * Each buffer is vmalloc_user() memory, refcounted by videobuf2, by every
 * user mapping and by every exported dma-buf, and freed when the last of
 * them goes.  User mappings are filled by a fault handler, never remapped
 * up front, so a mapping outlives REQBUFS(0), close() and unbind.
 */
#ifndef _VCAP_MEM_H
#define _VCAP_MEM_H

#include <linux/fs.h>
#include <linux/mm_types.h>
#include <media/videobuf2-core.h>

/*
 * For a queue with io_modes VB2_MMAP | VB2_USERPTR | VB2_READ: MMAP with
 * VIDIOC_EXPBUF, USERPTR, and read().  DMABUF import is not provided.
 */
extern const struct vb2_mem_ops vcap_vb2_mem_ops;

/*
 * The V4L2 node's .mmap: vb2_fop_mmap() after refusing offsets that no
 * buffer can have.
 */
int vcap_mem_fop_mmap(struct file *file, struct vm_area_struct *vma);

#endif /* _VCAP_MEM_H */
