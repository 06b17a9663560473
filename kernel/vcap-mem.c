// SPDX-License-Identifier: GPL-2.0
/*
 * vcap memory ops: vmalloc frame buffers, mapped by a fault handler.
 *
 * An MMAP buffer is vmalloc memory with one reference for videobuf2, one
 * for every VMA that maps it and one for every dma-buf that exports it;
 * whichever of them goes last frees it.  A mapping therefore outlives
 * REQBUFS(0), close() of the video node and unbind of the device.
 *
 * The memory is charged to the memory cgroup of the process that
 * allocates it, and each device's buffers together are capped
 * (max_buffer_mb): the cap counts a buffer until it is freed, so buffers
 * orphaned by REQBUFS(0) while mapped still count.
 *
 * User mappings are not remapped up front: the fault handler hands the
 * page at the faulting offset to the core mm, and maps a batch of the
 * pages that follow it, so a sequential first touch (or MAP_POPULATE)
 * costs one fault per batch rather than one per page.  V4L2 mappings and
 * the mappings of exported dma-bufs share that handler.
 *
 * USERPTR buffers are the caller's pages, pinned for as long as videobuf2
 * holds them and mapped into the kernel with vm_map_ram().
 *
 * DMABUF buffers are other exporters' dma-bufs.  The frame copy is a CPU
 * write, so for it an imported buffer needs no device attachment, only a
 * kernel mapping of the dma-buf (dma_buf_vmap()) inside a CPU access
 * bracket, for as long as videobuf2 keeps it mapped.
 *
 * A board that writes frames itself (vcap-dma.c) gets each buffer mapped
 * for its device once, by vcap_mem_dma_map(): the vmalloc pages of an
 * MMAP buffer, the pinned pages of a USERPTR buffer, an attachment of an
 * imported dma-buf.  prepare and finish hand the pages to the device and
 * back around each frame.
 */

#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/iosys-map.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/refcount.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <media/videobuf2-core.h>
#include <media/videobuf2-v4l2.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-inject.h"
#include "vcap-mem.h"

/*
 * Pages a fault maps at once, counting the faulting page: 1 maps only the
 * faulting page.  The default, 2 MiB, fills a page table per fault; the
 * pages exist already, so mapping them early costs no memory.  Read at
 * every fault, so it can be changed at run time.
 */
static unsigned int prefault_pages = 512;
module_param(prefault_pages, uint, 0644);
MODULE_PARM_DESC(prefault_pages,
		 "pages mapped per fault on a frame buffer (1 = no pre-faulting, default 512)");

static unsigned int max_buffer_mb = 1024;
module_param(max_buffer_mb, uint, 0644);
MODULE_PARM_DESC(max_buffer_mb,
		 "buffer memory one device may hold, MiB (16-65536, default 1024)");

/* Pages looked up per vm_insert_pages() call, on the stack. */
#define VCAP_MEM_INSERT_BATCH	32

/*
 * The buffer memory of one device.  Each MMAP buffer holds a reference,
 * so the count outlives the device when a buffer does.
 */
struct vcap_mem_pool {
	refcount_t refcount;
	atomic64_t bytes;		/* held by the device's MMAP buffers */
};

struct vcap_mem_buf {
	struct vcap_mem_pool *pool;	/* MMAP only */
	void *vaddr;			/* kernel address of the first byte */
	unsigned long size;		/* bytes; page aligned for MMAP */
	/* MMAP: videobuf2, each VMA, each exported dma-buf */
	refcount_t refcount;
	/* USERPTR only: the pinned user pages behind vaddr */
	struct page **pages;
	unsigned int npages;
	void *map;			/* vm_map_ram() address of pages[0] */
	bool dirty;			/* capture: the device writes the pages */
	/* DMABUF only: the imported dma-buf; vaddr is set while mapped */
	struct dma_buf *dbuf;
	struct iosys_map dbuf_map;
	bool board_writes;		/* by DMA: no kernel mapping needed */
	/* dma-buf attachments (struct vcap_mem_attachment): under lock */
	struct mutex lock;
	struct list_head attachments;
	/*
	 * The board's view (vcap_mem_dma_map()), set up and torn down
	 * under the queue lock: dma_table is &dma_sgt (MMAP, USERPTR) or
	 * the attachment's table (DMABUF), NULL while not mapped.
	 */
	struct device *dma_dev;
	struct sg_table dma_sgt;
	struct sg_table *dma_table;
	struct dma_buf_attachment *dma_attach;
};

struct vcap_mem_pool *vcap_mem_pool_create(void)
{
	struct vcap_mem_pool *pool;

	pool = vcap_inject_fail(VCAP_FAIL_ALLOC) ? NULL :
	       kzalloc_obj(*pool, GFP_KERNEL);
	if (!pool)
		return NULL;
	refcount_set(&pool->refcount, 1);
	atomic64_set(&pool->bytes, 0);
	return pool;
}

void vcap_mem_pool_put(struct vcap_mem_pool *pool)
{
	if (pool && refcount_dec_and_test(&pool->refcount))
		kfree(pool);
}

/* Take size bytes from the pool, unless that passes the cap. */
static bool vcap_mem_pool_charge(struct vcap_mem_pool *pool,
				 unsigned long size)
{
	u64 cap = (u64)clamp(READ_ONCE(max_buffer_mb), 16u, 65536u) << 20;

	if (atomic64_add_return(size, &pool->bytes) > cap) {
		atomic64_sub(size, &pool->bytes);
		return false;
	}
	refcount_inc(&pool->refcount);
	return true;
}

static void vcap_mem_pool_uncharge(struct vcap_mem_pool *pool,
				   unsigned long size)
{
	atomic64_sub(size, &pool->bytes);
	vcap_mem_pool_put(pool);
}

static void vcap_mem_buf_put(struct vcap_mem_buf *buf)
{
	if (!refcount_dec_and_test(&buf->refcount))
		return;
	vfree(buf->vaddr);
	vcap_mem_pool_uncharge(buf->pool, buf->size);
	kfree(buf);
}

static struct page *vcap_mem_page(struct vcap_mem_buf *buf, pgoff_t pgoff)
{
	return vmalloc_to_page(buf->vaddr + (pgoff << PAGE_SHIFT));
}

/* Memory management: alloc, put, vaddr, num_users, finish */

static void *vcap_mem_alloc(struct vb2_buffer *vb, struct device *dev,
			    unsigned long size)
{
	struct vcap_dev *vdev = vb2_get_drv_priv(vb->vb2_queue);
	struct vcap_mem_buf *buf;

	size = PAGE_ALIGN(size);
	if (!size)
		return ERR_PTR(-EINVAL);
	if (!vcap_mem_pool_charge(vdev->pool, size))
		return ERR_PTR(-ENOMEM);

	buf = vcap_inject_fail(VCAP_FAIL_ALLOC) ? NULL :
	      kzalloc_obj(*buf, GFP_KERNEL_ACCOUNT);
	if (!buf)
		goto err_uncharge;
	/*
	 * Zeroed whatever init_on_alloc says and charged to the caller's
	 * memory cgroup.  A caller past its limit, or asking for more than
	 * the machine has, gets ENOMEM, not the OOM killer, and the log no
	 * allocation report.
	 */
	buf->vaddr = __vmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_ZERO |
				     __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!buf->vaddr)
		goto err_free;
	buf->pool = vdev->pool;
	buf->size = size;
	mutex_init(&buf->lock);
	INIT_LIST_HEAD(&buf->attachments);
	refcount_set(&buf->refcount, 1);
	return buf;

err_free:
	kfree(buf);
err_uncharge:
	vcap_mem_pool_uncharge(vdev->pool, size);
	return ERR_PTR(-ENOMEM);
}

static void vcap_mem_put(void *buf_priv)
{
	vcap_mem_buf_put(buf_priv);
}

static void *vcap_mem_vaddr(struct vb2_buffer *vb, void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;

	return buf->vaddr;
}

static unsigned int vcap_mem_num_users(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;

	return refcount_read(&buf->refcount);
}

/* The kernel's alias of the buffer's pages, whole pages. */
static void *vcap_mem_kernel_base(struct vcap_mem_buf *buf,
				  unsigned long *len)
{
	if (buf->pages) {
		*len = (unsigned long)buf->npages << PAGE_SHIFT;
		return buf->map;
	}
	*len = buf->size;
	return buf->vaddr;
}

/*
 * Before the board writes a frame: the pages belong to the device.  A
 * buffer the CPU fills needs nothing.
 */
static void vcap_mem_prepare(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;

	if (buf->dma_table && !buf->dbuf)
		dma_sync_sgtable_for_device(buf->dma_dev, buf->dma_table,
					    DMA_FROM_DEVICE);
}

/*
 * The frame was written through the kernel's mapping, or by the board;
 * on CPUs whose caches alias, user space reads it through another
 * mapping, and the kernel's may hold lines from before the board wrote.
 */
static void vcap_mem_finish(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;
	unsigned long len;
	void *base;

	/* An imported buffer is made visible by its exporter's CPU access. */
	if (buf->dbuf)
		return;
	base = vcap_mem_kernel_base(buf, &len);
	if (buf->dma_table) {
		dma_sync_sgtable_for_cpu(buf->dma_dev, buf->dma_table,
					 DMA_FROM_DEVICE);
		invalidate_kernel_vmap_range(base, len);
	} else {
		flush_kernel_vmap_range(base, len);
	}
}

/* User mappings */

/* Maps the pages after the faulting one; a failure only ends the batch. */
static void vcap_mem_prefault(struct vm_fault *vmf, struct vcap_mem_buf *buf,
			      unsigned long count)
{
	struct vm_area_struct *vma = vmf->vma;
	struct page *pages[VCAP_MEM_INSERT_BATCH];
	unsigned long addr = vmf->address + PAGE_SIZE;
	pgoff_t pgoff = vmf->pgoff + 1;
	unsigned long left, n, i, rest;

	left = min3(count - 1, (vma->vm_end - addr) >> PAGE_SHIFT,
		    (buf->size >> PAGE_SHIFT) - pgoff);
	while (left) {
		n = min_t(unsigned long, left, ARRAY_SIZE(pages));
		for (i = 0; i < n; i++)
			pages[i] = vcap_mem_page(buf, pgoff + i);
		/* -EBUSY: a racing fault mapped one of them first. */
		rest = n;
		if (vm_insert_pages(vma, addr, pages, &rest) || rest)
			return;
		addr += n << PAGE_SHIFT;
		pgoff += n;
		left -= n;
	}
}

/*
 * vm_pgoff is the offset into the buffer, in pages, for V4L2 and dma-buf
 * mappings alike; splits and moves of the VMA keep it so.
 */
static vm_fault_t vcap_mem_vm_fault(struct vm_fault *vmf)
{
	struct vcap_mem_buf *buf = vmf->vma->vm_private_data;
	unsigned int count = READ_ONCE(prefault_pages);
	struct page *page;

	if (vmf->pgoff >= buf->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;

	if (count > 1)
		vcap_mem_prefault(vmf, buf, count);

	page = vcap_mem_page(buf, vmf->pgoff);
	get_page(page);
	vmf->page = page;
	return 0;
}

static void vcap_mem_vm_open(struct vm_area_struct *vma)
{
	struct vcap_mem_buf *buf = vma->vm_private_data;

	refcount_inc(&buf->refcount);
}

static void vcap_mem_vm_close(struct vm_area_struct *vma)
{
	vcap_mem_buf_put(vma->vm_private_data);
}

static const struct vm_operations_struct vcap_mem_vm_ops = {
	.open = vcap_mem_vm_open,
	.close = vcap_mem_vm_close,
	.fault = vcap_mem_vm_fault,
};

/* The caller holds a reference to buf, so it cannot reach zero here. */
static int vcap_mem_map_vma(struct vcap_mem_buf *buf,
			    struct vm_area_struct *vma)
{
	unsigned long npages = buf->size >> PAGE_SHIFT;

	/* A private copy would be a snapshot, not the frame buffer. */
	if (vma_is_cow_mapping(vma))
		return -EINVAL;
	if (vma->vm_pgoff >= npages || vma_pages(vma) > npages - vma->vm_pgoff)
		return -EINVAL;

	/*
	 * VM_MIXEDMAP lets the fault handler insert pages under the read
	 * lock of the mm, and like VM_DONTEXPAND keeps the VMA from merging
	 * with a neighbour or growing past the buffer through mremap().
	 */
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP | VM_MIXEDMAP);
	vma->vm_ops = &vcap_mem_vm_ops;
	vma->vm_private_data = buf;
	refcount_inc(&buf->refcount);
	return 0;
}

static int vcap_mem_mmap(void *buf_priv, struct vm_area_struct *vma)
{
	struct vcap_mem_buf *buf = buf_priv;

	/*
	 * videobuf2 can reach a buffer whose memory a concurrent REQBUFS or
	 * CREATE_BUFS has not allocated yet.
	 */
	if (!buf)
		return -EINVAL;
	/* The offset chose the buffer; the mapping starts at its first page. */
	vma->vm_pgoff = 0;
	return vcap_mem_map_vma(buf, vma);
}

/*
 * Every offset QUERYBUF reports fits in 32 bits.  Since Linux 6.8
 * videobuf2 finds the buffer from the offset's low bits alone, so a larger
 * offset would map whichever buffer its low bits name: refuse it first.
 */
int vcap_mem_fop_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff > U32_MAX >> PAGE_SHIFT)
		return -EINVAL;
	return vb2_fop_mmap(file, vma);
}

/* dma-buf export */

/* One importer's view of a buffer: under the buffer's lock. */
struct vcap_mem_attachment {
	struct list_head list;		/* in vcap_mem_buf.attachments */
	struct device *dev;		/* the importer's device */
	struct sg_table sgt;
	enum dma_data_direction dir;	/* DMA_NONE while not mapped */
};

static int vcap_mem_dmabuf_attach(struct dma_buf *dbuf,
				  struct dma_buf_attachment *attach)
{
	struct vcap_mem_buf *buf = dbuf->priv;
	struct vcap_mem_attachment *a;
	struct scatterlist *sg;
	unsigned int i;
	int ret;

	a = kzalloc_obj(*a, GFP_KERNEL);
	if (!a)
		return -ENOMEM;

	ret = sg_alloc_table(&a->sgt, buf->size >> PAGE_SHIFT, GFP_KERNEL);
	if (ret) {
		kfree(a);
		return ret;
	}
	for_each_sgtable_sg(&a->sgt, sg, i)
		sg_set_page(sg, vcap_mem_page(buf, i), PAGE_SIZE, 0);

	a->dir = DMA_NONE;
	a->dev = attach->dev;
	attach->priv = a;
	mutex_lock(&buf->lock);
	list_add(&a->list, &buf->attachments);
	mutex_unlock(&buf->lock);
	return 0;
}

static void vcap_mem_dmabuf_detach(struct dma_buf *dbuf,
				   struct dma_buf_attachment *attach)
{
	struct vcap_mem_buf *buf = dbuf->priv;
	struct vcap_mem_attachment *a = attach->priv;

	mutex_lock(&buf->lock);
	list_del(&a->list);
	if (a->dir != DMA_NONE)
		dma_unmap_sgtable(attach->dev, &a->sgt, a->dir, 0);
	mutex_unlock(&buf->lock);
	sg_free_table(&a->sgt);
	kfree(a);
}

/* The mapping is kept until detach or a change of direction. */
static struct sg_table *
vcap_mem_dmabuf_map(struct dma_buf_attachment *attach,
		    enum dma_data_direction dir)
{
	struct vcap_mem_buf *buf = attach->dmabuf->priv;
	struct vcap_mem_attachment *a = attach->priv;
	struct sg_table *sgt = &a->sgt;
	int ret;

	mutex_lock(&buf->lock);
	if (a->dir == dir)
		goto out;
	if (a->dir != DMA_NONE) {
		dma_unmap_sgtable(attach->dev, &a->sgt, a->dir, 0);
		a->dir = DMA_NONE;
	}
	ret = dma_map_sgtable(attach->dev, &a->sgt, dir, 0);
	if (ret) {
		sgt = ERR_PTR(ret);
		goto out;
	}
	a->dir = dir;
out:
	mutex_unlock(&buf->lock);
	return sgt;
}

static void vcap_mem_dmabuf_unmap(struct dma_buf_attachment *attach,
				  struct sg_table *sgt,
				  enum dma_data_direction dir)
{
}

/*
 * CPU access through the dma-buf (DMA_BUF_IOCTL_SYNC, or an importer's
 * own): the pages as every importer's device mapping and the kernel's
 * vmalloc alias leave them.  On x86 the syncs cost nothing; where caches
 * are not coherent with the devices they are what makes the frame
 * visible.
 */
static int vcap_mem_dmabuf_begin_cpu_access(struct dma_buf *dbuf,
					    enum dma_data_direction dir)
{
	struct vcap_mem_buf *buf = dbuf->priv;
	struct vcap_mem_attachment *a;

	mutex_lock(&buf->lock);
	list_for_each_entry(a, &buf->attachments, list)
		if (a->dir != DMA_NONE)
			dma_sync_sgtable_for_cpu(a->dev, &a->sgt, a->dir);
	mutex_unlock(&buf->lock);
	invalidate_kernel_vmap_range(buf->vaddr, buf->size);
	return 0;
}

static int vcap_mem_dmabuf_end_cpu_access(struct dma_buf *dbuf,
					  enum dma_data_direction dir)
{
	struct vcap_mem_buf *buf = dbuf->priv;
	struct vcap_mem_attachment *a;

	flush_kernel_vmap_range(buf->vaddr, buf->size);
	mutex_lock(&buf->lock);
	list_for_each_entry(a, &buf->attachments, list)
		if (a->dir != DMA_NONE)
			dma_sync_sgtable_for_device(a->dev, &a->sgt, a->dir);
	mutex_unlock(&buf->lock);
	return 0;
}

/* The buffer's kernel mapping lasts as long as the dma-buf: no vunmap. */
static int vcap_mem_dmabuf_vmap(struct dma_buf *dbuf, struct iosys_map *map)
{
	struct vcap_mem_buf *buf = dbuf->priv;

	iosys_map_set_vaddr(map, buf->vaddr);
	return 0;
}

static int vcap_mem_dmabuf_mmap(struct dma_buf *dbuf,
				struct vm_area_struct *vma)
{
	return vcap_mem_map_vma(dbuf->priv, vma);
}

static void vcap_mem_dmabuf_release(struct dma_buf *dbuf)
{
	vcap_mem_buf_put(dbuf->priv);
}

static const struct dma_buf_ops vcap_mem_dmabuf_ops = {
	.attach = vcap_mem_dmabuf_attach,
	.detach = vcap_mem_dmabuf_detach,
	.map_dma_buf = vcap_mem_dmabuf_map,
	.unmap_dma_buf = vcap_mem_dmabuf_unmap,
	.begin_cpu_access = vcap_mem_dmabuf_begin_cpu_access,
	.end_cpu_access = vcap_mem_dmabuf_end_cpu_access,
	.vmap = vcap_mem_dmabuf_vmap,
	.mmap = vcap_mem_dmabuf_mmap,
	.release = vcap_mem_dmabuf_release,
};

static struct dma_buf *vcap_mem_get_dmabuf(struct vb2_buffer *vb,
					   void *buf_priv,
					   unsigned long flags)
{
	struct vcap_mem_buf *buf = buf_priv;
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);
	struct dma_buf *dbuf;

	exp_info.ops = &vcap_mem_dmabuf_ops;
	exp_info.size = buf->size;
	exp_info.flags = flags;
	exp_info.priv = buf;

	refcount_inc(&buf->refcount);
	dbuf = dma_buf_export(&exp_info);
	if (IS_ERR(dbuf))
		vcap_mem_buf_put(buf);
	return dbuf;
}

/* USERPTR */

static void *vcap_mem_get_userptr(struct vb2_buffer *vb, struct device *dev,
				  unsigned long vaddr, unsigned long size)
{
	unsigned long first = vaddr >> PAGE_SHIFT;
	unsigned long last = (vaddr + size - 1) >> PAGE_SHIFT;
	unsigned int gup_flags = FOLL_LONGTERM;
	struct vcap_mem_buf *buf;
	unsigned long npages;
	int pinned;
	int ret;

	if (!size || vaddr + size - 1 < vaddr)
		return ERR_PTR(-EINVAL);
	npages = last - first + 1;
	if (npages > INT_MAX)
		return ERR_PTR(-EINVAL);

	buf = kzalloc_obj(*buf, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	buf->pages = kvmalloc_array(npages, sizeof(*buf->pages), GFP_KERNEL);
	if (!buf->pages) {
		ret = -ENOMEM;
		goto err_free;
	}

	buf->dirty = !vb->vb2_queue->is_output;
	if (buf->dirty)
		gup_flags |= FOLL_WRITE;

	/* I/O and PFN mappings (VRAM) have no pages to pin: -EFAULT. */
	pinned = pin_user_pages_fast(first << PAGE_SHIFT, npages, gup_flags,
				     buf->pages);
	if (pinned < 0) {
		ret = pinned;
		goto err_pages;
	}
	buf->npages = pinned;
	if (buf->npages != npages) {
		ret = -EFAULT;
		goto err_unpin;
	}

	buf->map = vm_map_ram(buf->pages, buf->npages, NUMA_NO_NODE);
	if (!buf->map) {
		ret = -ENOMEM;
		goto err_unpin;
	}
	buf->vaddr = buf->map + offset_in_page(vaddr);
	buf->size = size;
	return buf;

err_unpin:
	unpin_user_pages(buf->pages, buf->npages);
err_pages:
	kvfree(buf->pages);
err_free:
	kfree(buf);
	return ERR_PTR(ret);
}

static void vcap_mem_put_userptr(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;

	vm_unmap_ram(buf->map, buf->npages);
	unpin_user_pages_dirty_lock(buf->pages, buf->npages, buf->dirty);
	kvfree(buf->pages);
	kfree(buf);
}

/* DMABUF import */

/*
 * size is the plane length QBUF gave, or the dma-buf's size when it gave
 * none; videobuf2 has checked it against the format's image size.
 *
 * Every check of the dma-buf is made at map time: the videobuf2 of newer
 * kernels (6.12 among them) keeps its reference to the dma-buf when
 * attach_dmabuf fails, but drops it when map_dmabuf fails.
 */
static void *vcap_mem_attach_dmabuf(struct vb2_buffer *vb, struct device *dev,
				    struct dma_buf *dbuf, unsigned long size)
{
	struct vcap_dev *vdev = vb2_get_drv_priv(vb->vb2_queue);
	struct vcap_mem_buf *buf;

	buf = kzalloc_obj(*buf, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	buf->dbuf = dbuf;
	buf->size = size;
	buf->board_writes = vdev->dma;
	refcount_set(&buf->refcount, 1);
	return buf;
}

/*
 * QBUF with a dma-buf that is not mapped yet maps it for the frame copy;
 * the mapping, and the CPU access that the frames are written in, last
 * until videobuf2 unmaps it.  Opening the access waits for the fences of
 * the dma-buf's other users.  A plane longer than the dma-buf would let
 * the frame copy run past its end.  The copy writes through a plain
 * kernel pointer, so a dma-buf the kernel can only reach as I/O memory,
 * or cannot map at all, fails the QBUF.  A dma-buf the board writes
 * needs no mapping and no CPU access: its size is all there is to check.
 */
static int vcap_mem_map_dmabuf(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;
	struct iosys_map map;
	int ret;

	if (!buf->size || buf->size > buf->dbuf->size)
		return -EINVAL;
	/* The board writes through its own attachment (vcap_mem_dma_map()). */
	if (buf->board_writes)
		return 0;
	ret = dma_buf_vmap_unlocked(buf->dbuf, &map);
	if (ret)
		return ret;
	if (map.is_iomem || !map.vaddr) {
		ret = -EINVAL;
		goto err_vunmap;
	}
	ret = dma_buf_begin_cpu_access(buf->dbuf, DMA_TO_DEVICE);
	if (ret)
		goto err_vunmap;
	buf->dbuf_map = map;
	buf->vaddr = map.vaddr;
	return 0;

err_vunmap:
	dma_buf_vunmap_unlocked(buf->dbuf, &map);
	return ret;
}

static void vcap_mem_unmap_dmabuf(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;

	if (!buf->vaddr)
		return;
	/* Writes back what the CPU wrote, where caches need it. */
	dma_buf_end_cpu_access(buf->dbuf, DMA_TO_DEVICE);
	dma_buf_vunmap_unlocked(buf->dbuf, &buf->dbuf_map);
	iosys_map_clear(&buf->dbuf_map);
	buf->vaddr = NULL;
}

/*
 * videobuf2 unmaps before it detaches, and drops the dma-buf itself.  It
 * also detaches without the buffer's clean-up (a failed QBUF lets go of
 * the planes it had): the board's attachment goes here then, before the
 * dma-buf may go.
 */
static void vcap_mem_detach_dmabuf(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;

	vcap_mem_unmap_dmabuf(buf);
	vcap_mem_dma_unmap(buf);
	kfree(buf);
}

/* Mapping for the board's DMA */

/* The pages of an MMAP buffer, as an sg table; merged where contiguous. */
static int vcap_mem_vmalloc_sgt(struct vcap_mem_buf *buf)
{
	unsigned int i, n = buf->size >> PAGE_SHIFT;
	struct page **pages;
	int ret;

	pages = kvmalloc_array(n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pages[i] = vcap_mem_page(buf, i);
	ret = sg_alloc_table_from_pages(&buf->dma_sgt, pages, n, 0, buf->size,
					GFP_KERNEL);
	kvfree(pages);
	return ret;
}

static int vcap_mem_dma_map_dmabuf(struct vcap_mem_buf *buf,
				   struct device *dev)
{
	struct dma_buf_attachment *attach;
	struct sg_table *sgt;

	attach = dma_buf_attach(buf->dbuf, dev);
	if (IS_ERR(attach))
		return PTR_ERR(attach);
	sgt = dma_buf_map_attachment_unlocked(attach, DMA_FROM_DEVICE);
	if (IS_ERR(sgt)) {
		dma_buf_detach(buf->dbuf, attach);
		return PTR_ERR(sgt);
	}
	buf->dma_attach = attach;
	buf->dma_table = sgt;
	return 0;
}

/*
 * Map the buffer's memory for dev to write into, once, and return the
 * table of bus addresses; it stays until vcap_mem_dma_unmap().  The
 * caller holds the queue lock.
 */
struct sg_table *vcap_mem_dma_map(void *buf_priv, struct device *dev)
{
	struct vcap_mem_buf *buf = buf_priv;
	int ret;

	if (buf->dma_table)
		return buf->dma_table;
	buf->dma_dev = dev;
	if (buf->dbuf) {
		ret = vcap_mem_dma_map_dmabuf(buf, dev);
		return ret ? ERR_PTR(ret) : buf->dma_table;
	}
	if (buf->pages)
		ret = sg_alloc_table_from_pages(&buf->dma_sgt, buf->pages,
						buf->npages,
						offset_in_page(buf->vaddr),
						buf->size, GFP_KERNEL);
	else
		ret = vcap_mem_vmalloc_sgt(buf);
	if (ret)
		return ERR_PTR(ret);
	ret = dma_map_sgtable(dev, &buf->dma_sgt, DMA_FROM_DEVICE, 0);
	if (ret) {
		sg_free_table(&buf->dma_sgt);
		return ERR_PTR(ret);
	}
	buf->dma_table = &buf->dma_sgt;
	return buf->dma_table;
}

void vcap_mem_dma_unmap(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;

	if (!buf->dma_table)
		return;
	if (buf->dma_attach) {
		dma_buf_unmap_attachment_unlocked(buf->dma_attach,
						  buf->dma_table,
						  DMA_FROM_DEVICE);
		dma_buf_detach(buf->dbuf, buf->dma_attach);
		buf->dma_attach = NULL;
	} else {
		dma_unmap_sgtable(buf->dma_dev, &buf->dma_sgt, DMA_FROM_DEVICE,
				  0);
		sg_free_table(&buf->dma_sgt);
	}
	buf->dma_table = NULL;
}

/*
 * The board may write into the buffer's memory at any time from now on:
 * keep that memory from ever being reused.  Each page gets a reference
 * that is never dropped; an imported dma-buf, whose pages the importer
 * may not see, a reference to the dma-buf.  Returns the pages kept.
 */
unsigned long vcap_mem_dma_quarantine(void *buf_priv)
{
	struct vcap_mem_buf *buf = buf_priv;
	unsigned long i, n;

	if (buf->dbuf) {
		get_dma_buf(buf->dbuf);
		return PAGE_ALIGN(buf->dbuf->size) >> PAGE_SHIFT;
	}
	if (buf->pages) {
		for (i = 0; i < buf->npages; i++)
			get_page(buf->pages[i]);
		return buf->npages;
	}
	n = buf->size >> PAGE_SHIFT;
	for (i = 0; i < n; i++)
		get_page(vcap_mem_page(buf, i));
	return n;
}

const struct vb2_mem_ops vcap_vb2_mem_ops = {
	.alloc = vcap_mem_alloc,
	.put = vcap_mem_put,
	.get_dmabuf = vcap_mem_get_dmabuf,
	.get_userptr = vcap_mem_get_userptr,
	.put_userptr = vcap_mem_put_userptr,
	.attach_dmabuf = vcap_mem_attach_dmabuf,
	.detach_dmabuf = vcap_mem_detach_dmabuf,
	.map_dmabuf = vcap_mem_map_dmabuf,
	.unmap_dmabuf = vcap_mem_unmap_dmabuf,
	.prepare = vcap_mem_prepare,
	.finish = vcap_mem_finish,
	.vaddr = vcap_mem_vaddr,
	.num_users = vcap_mem_num_users,
	.mmap = vcap_mem_mmap,
};

MODULE_IMPORT_NS("DMA_BUF");
