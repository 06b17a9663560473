// SPDX-License-Identifier: GPL-2.0
/*
 * vcap DMA engine: descriptor and completion rings, per-buffer scatter
 * lists, posting and completing buffers the board writes itself.
 *
 * The rings live in coherent memory allocated once per device, so that a
 * late write of a misbehaving board lands in memory the driver owns.
 * Each buffer is mapped for the board once, when videobuf2 sets it up,
 * and its scatter list (struct vcap_dma_sg[], also coherent) is built
 * then; posting a buffer is one descriptor and a head write.  The board
 * is untrusted: a completion is taken only for a buffer posted and not
 * completed yet, in order, within the buffer, and in the ring's mode.
 *
 * Nothing the board may still write goes back to the allocator: a stream
 * ends with a STOP the board acknowledges (which means it has stopped
 * writing), and when it never does, every page of the buffers it holds is
 * kept for good.  The rings and the scatter lists it may still read wait
 * for a later acknowledged STOP (one more is sent at removal), and are
 * never freed without one.
 */
#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-board.h"
#include "vcap-deliver.h"
#include "vcap-dma.h"
#include "vcap-inject.h"
#include "vcap-mem.h"

static bool use_dma = true;
module_param_named(dma, use_dma, bool, 0444);
MODULE_PARM_DESC(dma,
		 "let a board that can write frames into the buffers do so (default Y); N: the driver copies each frame");

struct vcap_dma {
	/* const */
	struct device *dev;		/* the board's, for the DMA API */
	u32 entries;			/* ring size, a power of two */
	size_t desc_size;		/* bytes of each ring */
	size_t comp_size;
	struct vcap_dma_desc *desc;	/* written by the driver */
	dma_addr_t desc_addr;
	struct vcap_dma_comp *comp;	/* written by the board */
	dma_addr_t comp_addr;

	/*
	 * Posting: protected by buf_lock.  running is also written under
	 * deliver_lock, so delivery reads it under that alone.
	 */
	bool running;			/* the board took the rings */
	u32 desc_head;			/* descriptors posted this stream */
	struct vcap_buffer *posted[VCAP_DMA_MAX_ENTRIES]; /* by id */

	/* Completions: protected by deliver_lock. */
	u32 comp_tail;			/* completions taken this stream */

	/*
	 * A board that did not acknowledge the end of its DMA, and the
	 * scatter lists of cleaned-up buffers it may still read (struct
	 * vcap_dma_grave): protected by deliver_lock.
	 */
	bool dead;
	struct list_head graveyard;
};

/* A scatter list a dead board may still read, kept until it stops. */
struct vcap_dma_grave {
	struct list_head list;		/* in vcap_dma.graveyard */
	struct vcap_dma_sg *sg;
	dma_addr_t sg_addr;
	size_t sg_size;
};

static unsigned long vcap_dma_pages(size_t size)
{
	return PAGE_ALIGN(size) >> PAGE_SHIFT;
}

/*
 * The copy path runs unless everything a board needs to write into the
 * buffers is there: the option, a board driver whose device can reach
 * host memory, ABI 2 with VCAP_CAP_DMA, and 64-bit DMA addressing, so
 * that no buffer is bounced (a bounce buffer would be a copy again).
 */
int vcap_dma_init(struct vcap_dev *vdev)
{
	struct device *dev = vdev->parent;
	struct vcap_dma *dma;

	BUILD_BUG_ON(!is_power_of_2(VCAP_DMA_MAX_ENTRIES));
	BUILD_BUG_ON(VB2_MAX_FRAME > VCAP_DMA_MAX_ENTRIES);
	if (!use_dma || !vdev->ops->dma || vdev->board_abi < 2 ||
	    !(vdev->caps & VCAP_CAP_DMA))
		return 0;
	if (dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64))) {
		dev_warn(dev, "no 64-bit DMA addressing: frames are copied\n");
		return 0;
	}
	/* A scatter entry is any run of bytes in host memory. */
	dma_set_max_seg_size(dev, UINT_MAX);
	dma_set_seg_boundary(dev, ULONG_MAX);
	dma = vcap_inject_fail(VCAP_FAIL_ALLOC) ? NULL :
	      kzalloc_obj(*dma, GFP_KERNEL);
	if (!dma)
		return -ENOMEM;
	dma->dev = dev;
	INIT_LIST_HEAD(&dma->graveyard);
	dma->entries = VCAP_DMA_MAX_ENTRIES;
	dma->desc_size = dma->entries * sizeof(*dma->desc);
	dma->comp_size = dma->entries * sizeof(*dma->comp);
	dma->desc = dma_alloc_coherent(dev, dma->desc_size, &dma->desc_addr,
				       GFP_KERNEL);
	if (!dma->desc)
		goto err_free;
	dma->comp = dma_alloc_coherent(dev, dma->comp_size, &dma->comp_addr,
				       GFP_KERNEL);
	if (!dma->comp)
		goto err_desc;
	vdev->dma = dma;
	vdev->xfer = &vcap_dma_transfer;
	return 0;

err_desc:
	dma_free_coherent(dev, dma->desc_size, dma->desc, dma->desc_addr);
err_free:
	kfree(dma);
	return -ENOMEM;
}

/*
 * Free the scatter lists a dead board may have read, once it acknowledged
 * a STOP; or, leak set, keep them allocated for good.  Returns the pages.
 * The caller holds deliver_lock.
 */
static unsigned long vcap_dma_bury(struct vcap_dev *vdev, bool leak)
{
	struct vcap_dma *dma = vdev->dma;
	struct vcap_dma_grave *g, *tmp;
	unsigned long pages = 0;

	list_for_each_entry_safe(g, tmp, &dma->graveyard, list) {
		list_del(&g->list);
		pages += vcap_dma_pages(g->sg_size);
		if (!leak)
			dma_free_coherent(dma->dev, g->sg_size, g->sg,
					  g->sg_addr);
		kfree(g);
	}
	return pages;
}

/*
 * After the stream stopped and every buffer was cleaned up.  The rings
 * and scatter lists of a board that never acknowledged a STOP stay
 * allocated, counted with the quarantined pages: it may use them still.
 */
void vcap_dma_fini(struct vcap_dev *vdev)
{
	struct vcap_dma *dma = vdev->dma;
	unsigned long pages;

	if (!dma)
		return;
	pages = vcap_dma_bury(vdev, dma->dead);
	if (dma->dead) {
		pages += vcap_dma_pages(dma->desc_size) +
			 vcap_dma_pages(dma->comp_size);
		atomic64_add(pages, &vdev->stats.dma_quarantined_pages);
		dev_err(vdev->parent,
			"board never acknowledged the end of its DMA: %lu pages of rings and scatter lists quarantined for good\n",
			pages);
	} else {
		dma_free_coherent(dma->dev, dma->comp_size, dma->comp,
				  dma->comp_addr);
		dma_free_coherent(dma->dev, dma->desc_size, dma->desc,
				  dma->desc_addr);
	}
	vdev->dma = NULL;
	vdev->xfer = &vcap_copy_transfer;
	kfree(dma);
}

/* Whether the board has not acknowledged the end of its DMA. */
bool vcap_dma_dead(struct vcap_dev *vdev)
{
	bool dead;

	if (!vdev->dma)
		return false;
	mutex_lock(&vdev->deliver_lock);
	dead = vdev->dma->dead;
	mutex_unlock(&vdev->deliver_lock);
	return dead;
}

/* Buffers */

static void vcap_dma_buf_cleanup(struct vcap_dev *vdev,
				 struct vcap_buffer *buf);

/*
 * Map a buffer for the board and build its scatter list, once per
 * memory videobuf2 gives it (buf_init).  The id the board knows it by
 * is its index; there are never more buffers than descriptors.
 */
static int vcap_dma_buf_init(struct vcap_dev *vdev, struct vcap_buffer *buf)
{
	struct vb2_buffer *vb = &buf->vb.vb2_buf;
	struct vcap_dma *dma = vdev->dma;
	u64 want = vb2_plane_size(vb, 0), left;
	struct scatterlist *sg;
	struct sg_table *sgt;
	unsigned int i, n = 0;
	int ret;

	if (vb->index >= dma->entries || !want)
		return -EINVAL;
	/*
	 * videobuf2 let go of the buffer's old memory without a clean-up
	 * (a failed QBUF of a dma-buf): its scatter list goes now.
	 */
	if (buf->sg)
		vcap_dma_buf_cleanup(vdev, buf);
	sgt = vcap_mem_dma_map(vb->planes[0].mem_priv, dma->dev);
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);
	left = want;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		if (!left)
			break;
		if (!sg_dma_len(sg))
			continue;
		left -= min_t(u64, left, sg_dma_len(sg));
		n++;
	}
	if (left || !n || n > VCAP_DMA_MAX_SG) {
		ret = -EINVAL;
		goto err_unmap;
	}
	buf->sg_size = n * sizeof(*buf->sg);
	buf->sg = vcap_inject_fail(VCAP_FAIL_ALLOC) ? NULL :
		  dma_alloc_coherent(dma->dev, buf->sg_size, &buf->sg_addr,
				     GFP_KERNEL);
	if (!buf->sg) {
		ret = -ENOMEM;
		goto err_unmap;
	}
	left = want;
	n = 0;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		u32 len = min_t(u64, left, sg_dma_len(sg));

		if (!left)
			break;
		if (!len)
			continue;
		buf->sg[n].addr = cpu_to_le64(sg_dma_address(sg));
		buf->sg[n].len = cpu_to_le32(len);
		buf->sg[n].reserved = 0;
		left -= len;
		n++;
	}
	buf->nents = n;
	buf->length = want;
	buf->posted = false;
	buf->quarantined = false;
	return 0;

err_unmap:
	vcap_mem_dma_unmap(vb->planes[0].mem_priv);
	return ret;
}

/*
 * The buffer is not posted (videobuf2 cleans up only buffers it owns,
 * and a stream's end takes them all back first).  The scatter list of a
 * buffer a dead board held waits in the graveyard: the board may read it
 * until it acknowledges a STOP.  Should there be no memory to note it
 * there, it stays allocated for good.
 */
static void vcap_dma_buf_cleanup(struct vcap_dev *vdev,
				 struct vcap_buffer *buf)
{
	struct vb2_buffer *vb = &buf->vb.vb2_buf;
	struct vcap_dma *dma = vdev->dma;
	struct vcap_dma_grave *g;

	if (!buf->sg)
		return;
	vcap_mem_dma_unmap(vb->planes[0].mem_priv);
	mutex_lock(&vdev->deliver_lock);
	if (buf->quarantined && dma->dead) {
		g = kzalloc_obj(*g, GFP_KERNEL);
		if (g) {
			g->sg = buf->sg;
			g->sg_addr = buf->sg_addr;
			g->sg_size = buf->sg_size;
			list_add_tail(&g->list, &dma->graveyard);
		} else {
			atomic64_add(vcap_dma_pages(buf->sg_size),
				     &vdev->stats.dma_quarantined_pages);
		}
	} else {
		dma_free_coherent(dma->dev, buf->sg_size, buf->sg,
				  buf->sg_addr);
	}
	mutex_unlock(&vdev->deliver_lock);
	buf->sg = NULL;
	buf->quarantined = false;
}

/* Posting */

/* Write buf's descriptor; the caller holds buf_lock, the board runs. */
static void vcap_dma_post(struct vcap_dev *vdev, struct vcap_buffer *buf)
{
	struct vcap_dma *dma = vdev->dma;
	u32 id = buf->vb.vb2_buf.index;
	struct vcap_dma_desc *d;

	lockdep_assert_held(&vdev->buf_lock);
	if (buf->posted || !buf->sg || id >= dma->entries || dma->posted[id])
		return;
	d = &dma->desc[dma->desc_head & (dma->entries - 1)];
	d->id = cpu_to_le32(id);
	d->nents = cpu_to_le32(buf->nents);
	d->sg_addr = cpu_to_le64(buf->sg_addr);
	d->length = cpu_to_le64(buf->length);
	dma->posted[id] = buf;
	buf->posted = true;
	dma->desc_head++;
}

/* Tell the board about the descriptors written; under buf_lock. */
static void vcap_dma_kick(struct vcap_dev *vdev)
{
	int idx;

	lockdep_assert_held(&vdev->buf_lock);
	/* The descriptors before the head that publishes them. */
	wmb();
	if (!vcap_enter(vdev, &idx))
		return;
	vcap_wr32(vdev, VCAP_OFF_DMA(desc_head), vdev->dma->desc_head);
	vcap_exit(vdev, idx);
}

/* QBUF: a buffer goes to the board at once while it runs. */
static void vcap_dma_buf_queue(struct vcap_dev *vdev, struct vcap_buffer *buf)
{
	unsigned long flags;

	spin_lock_irqsave(&vdev->buf_lock, flags);
	list_add_tail(&buf->list, &vdev->buf_list);
	if (vdev->dma->running) {
		vcap_dma_post(vdev, buf);
		vcap_dma_kick(vdev);
	}
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
}

/*
 * Before a START with VCAP_REQ_DMA: empty rings, and their addresses in
 * the control page.  The caller holds req_lock.
 */
void vcap_dma_setup(struct vcap_dev *vdev)
{
	struct vcap_dma *dma = vdev->dma;
	unsigned long flags;
	int idx;

	lockdep_assert_held(&vdev->req_lock);
	mutex_lock(&vdev->deliver_lock);
	spin_lock_irqsave(&vdev->buf_lock, flags);
	dma->running = false;
	dma->desc_head = 0;
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	dma->comp_tail = 0;
	mutex_unlock(&vdev->deliver_lock);
	memset(dma->desc, 0, dma->desc_size);
	memset(dma->comp, 0, dma->comp_size);

	if (!vcap_enter(vdev, &idx))
		return;
	vcap_wr32(vdev, VCAP_OFF_DMA(desc_addr), lower_32_bits(dma->desc_addr));
	vcap_wr32(vdev, VCAP_OFF_DMA(desc_addr) + 4,
		  upper_32_bits(dma->desc_addr));
	vcap_wr32(vdev, VCAP_OFF_DMA(comp_addr), lower_32_bits(dma->comp_addr));
	vcap_wr32(vdev, VCAP_OFF_DMA(comp_addr) + 4,
		  upper_32_bits(dma->comp_addr));
	vcap_wr32(vdev, VCAP_OFF_DMA(entries), dma->entries);
	vcap_wr32(vdev, VCAP_OFF_DMA(desc_head), 0);
	vcap_exit(vdev, idx);
}

/* The board acknowledged the START: post what user space queued. */
void vcap_dma_run(struct vcap_dev *vdev)
{
	struct vcap_dma *dma = vdev->dma;
	struct vcap_buffer *buf;
	unsigned long flags;

	lockdep_assert_held(&vdev->req_lock);
	mutex_lock(&vdev->deliver_lock);
	spin_lock_irqsave(&vdev->buf_lock, flags);
	dma->running = true;
	list_for_each_entry(buf, &vdev->buf_list, list)
		vcap_dma_post(vdev, buf);
	vcap_dma_kick(vdev);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	mutex_unlock(&vdev->deliver_lock);
}

/*
 * Stop posting and take every outstanding buffer back from the board,
 * into out[]; each keeps its place on buf_list for the caller to return.
 * Returns how many.
 */
static unsigned int vcap_dma_take_back(struct vcap_dev *vdev,
				       struct vcap_buffer **out)
{
	struct vcap_dma *dma = vdev->dma;
	unsigned int id, n = 0;
	unsigned long flags;

	lockdep_assert_held(&vdev->deliver_lock);
	spin_lock_irqsave(&vdev->buf_lock, flags);
	dma->running = false;
	for (id = 0; id < dma->entries; id++) {
		struct vcap_buffer *buf = dma->posted[id];

		if (!buf)
			continue;
		dma->posted[id] = NULL;
		buf->posted = false;
		out[n++] = buf;
	}
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	return n;
}

/*
 * The board may go on writing everything it holds, for ever: keep each
 * such buffer's pages from being reused, and its scatter list and the
 * rings until the board acknowledges a STOP.  The caller holds
 * deliver_lock and the queue lock, so no buffer is cleaned up meanwhile.
 */
static void vcap_dma_quarantine(struct vcap_dev *vdev, const char *why)
{
	struct vcap_buffer *held[VCAP_DMA_MAX_ENTRIES];
	struct vcap_dma *dma = vdev->dma;
	unsigned long pages = 0;
	unsigned int i, n;

	lockdep_assert_held(&vdev->deliver_lock);
	n = vcap_dma_take_back(vdev, held);
	for (i = 0; i < n; i++) {
		struct vb2_buffer *vb = &held[i]->vb.vb2_buf;

		pages += vcap_mem_dma_quarantine(vb->planes[0].mem_priv);
		held[i]->quarantined = true;
	}
	dma->dead = true;
	atomic64_add(pages, &vdev->stats.dma_quarantined_pages);
	if (pages)
		vcap_board_log(vdev, KERN_ERR,
			       "board did not stop writing into host memory (%s): %lu pages quarantined for good\n",
			       why, pages);
}

/*
 * After a request that ends DMA.  Acknowledged, it means the board has
 * stopped writing into everything posted: the buffers are the driver's
 * again, and so are the rings and scatter lists of a board that did not
 * acknowledge an earlier stop (the pages of its buffers stay
 * quarantined).  Not acknowledged (timeout, a board gone or refusing),
 * the board may write them still.  The caller holds req_lock and, while
 * the video node is registered, the queue lock.
 */
void vcap_dma_stopped(struct vcap_dev *vdev, bool acked)
{
	struct vcap_buffer *held[VCAP_DMA_MAX_ENTRIES];
	struct vcap_dma *dma = vdev->dma;

	lockdep_assert_held(&vdev->req_lock);
	mutex_lock(&vdev->deliver_lock);
	if (!acked) {
		vcap_dma_quarantine(vdev, "no acknowledgment of the stop");
	} else {
		vcap_dma_take_back(vdev, held);
		if (dma->dead) {
			vcap_dma_bury(vdev, false);
			dma->dead = false;
			vcap_board_log(vdev, KERN_INFO,
				       "board acknowledged a stop: its rings and scatter lists are free again\n");
		}
	}
	mutex_unlock(&vdev->deliver_lock);
}

/* The watchdog declared the board dead; the caller holds the queue lock. */
void vcap_dma_abandon(struct vcap_dev *vdev, const char *why)
{
	if (!vdev->dma)
		return;
	mutex_lock(&vdev->deliver_lock);
	vcap_dma_quarantine(vdev, why);
	mutex_unlock(&vdev->deliver_lock);
}

/* Completions */

/*
 * The outstanding buffer the board names, taken off the board's hands
 * and off buf_list; NULL if there is none.
 */
static struct vcap_buffer *vcap_dma_claim(struct vcap_dev *vdev, u32 id)
{
	struct vcap_dma *dma = vdev->dma;
	struct vcap_buffer *buf = NULL;
	unsigned long flags;

	spin_lock_irqsave(&vdev->buf_lock, flags);
	if (id < dma->entries && dma->posted[id]) {
		buf = dma->posted[id];
		dma->posted[id] = NULL;
		buf->posted = false;
		list_del(&buf->list);
	}
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	return buf;
}

/*
 * Take completion number expect from the ring.  Its fields are copied
 * out once and checked before anything is done with them: a completion
 * that fails a check never makes the driver touch memory it did not
 * post; when it names a buffer the board holds, that buffer returns
 * with V4L2_BUF_FLAG_ERROR (the board may have written anything into it).
 */
static void vcap_dma_complete(struct vcap_dev *vdev, u32 expect)
{
	struct vcap_dma *dma = vdev->dma;
	const struct vcap_dma_comp *c;
	u32 index, id, used, flags, gen, gap;
	struct vcap_buffer *buf;
	u64 seq, ts, now;

	c = &dma->comp[expect & (dma->entries - 1)];
	/* The entry after the head that published it. */
	dma_rmb();
	index = le32_to_cpu(READ_ONCE(c->index));
	id = le32_to_cpu(READ_ONCE(c->id));
	seq = le64_to_cpu(READ_ONCE(c->sequence));
	ts = le64_to_cpu(READ_ONCE(c->timestamp_ns));
	used = le32_to_cpu(READ_ONCE(c->bytesused));
	flags = le32_to_cpu(READ_ONCE(c->flags));
	gen = le32_to_cpu(READ_ONCE(c->mode_gen));

	buf = vcap_dma_claim(vdev, id);
	now = ktime_get_ns();
	if (!buf || index != expect || used > buf->length ||
	    (vdev->have_seq && seq <= vdev->last_board_seq) ||
	    gen != vdev->ring.mode_gen) {
		atomic64_inc(&vdev->stats.dma_refused);
		vcap_board_log(vdev, KERN_WARNING,
			       "board completion %u refused: number %u, buffer %u%s, frame %llu, %u bytes, generation %u\n",
			       expect, index, id, buf ? "" : " not posted",
			       seq, used, gen);
		if (buf)
			vcap_deliver_fill_done(vdev, buf, vdev->sequence++,
					       vcap_deliver_time(vdev, ts, now),
					       VB2_BUF_STATE_ERROR);
		return;
	}

	gap = vcap_deliver_gap(vdev, seq);
	ts = vcap_deliver_time(vdev, ts, now);
	if ((flags & (VCAP_COMP_ERROR | VCAP_COMP_NO_SIGNAL)) ||
	    used != vdev->ring.sizeimage) {
		atomic64_inc(&vdev->stats.rejected);
		vcap_deliver_fill_done(vdev, buf, vdev->sequence + gap,
				       ts, VB2_BUF_STATE_ERROR);
	} else {
		vb2_set_plane_payload(&buf->vb.vb2_buf, 0, used);
		vcap_deliver_fill_done(vdev, buf, vdev->sequence + gap,
				       ts, VB2_BUF_STATE_DONE);
		atomic64_inc(&vdev->stats.delivered);
		atomic64_set(&vdev->stats.latency_ns,
			     ktime_get_ns() - atomic64_read(&vdev->notify_ns));
	}
	vcap_deliver_advance(vdev, seq, gap);
}

/*
 * Take the completions the board wrote since the last look.  A head
 * more than a ring ahead is a board fault: nothing is taken.
 */
static void vcap_dma_deliver(struct vcap_dev *vdev)
{
	struct vcap_dma *dma = vdev->dma;
	u32 head, avail;
	int idx;

	lockdep_assert_held(&vdev->deliver_lock);
	if (!vdev->streaming || !vdev->ring.valid || vdev->board_dead ||
	    !dma->running)
		return;
	if (!vcap_enter(vdev, &idx))
		return;
	head = vcap_rd32(vdev, VCAP_OFF_DMA(comp_head));
	vcap_exit(vdev, idx);
	avail = head - dma->comp_tail;
	if (avail > dma->entries) {
		atomic64_inc(&vdev->stats.errors);
		vcap_board_log(vdev, KERN_ERR,
			       "board completion head %u is %u past the %u taken\n",
			       head, avail, dma->comp_tail);
		return;
	}
	/* The head, read from the BAR, before the ring in host memory. */
	rmb();
	while (avail--)
		vcap_dma_complete(vdev, dma->comp_tail++);
}

const struct vcap_transfer_ops vcap_dma_transfer = {
	.name = "dma",
	.buf_init = vcap_dma_buf_init,
	.buf_cleanup = vcap_dma_buf_cleanup,
	.buf_queue = vcap_dma_buf_queue,
	.deliver = vcap_dma_deliver,
};
