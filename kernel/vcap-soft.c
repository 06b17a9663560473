// SPDX-License-Identifier: GPL-2.0
/*
 * vcap software board: a board made of RAM, played by the kernel.
 *
 * Its "BAR" is RAM laid out exactly like the PCI board's BAR2: the control
 * page at offset 0, then the frame area.  Without CMA, physically
 * contiguous allocations stop at 4 MiB, so the memory is a list of
 * high-order chunks: vmap() joins them for the producer and the core, and
 * the VRAM node maps each chunk into user space at its own offset.
 *
 * The producer is the firmware's, built from the same pattern and stamp
 * source: an hrtimer paces it, an ordered workqueue runs it (and the mode
 * requests, so the two never overlap), and each frame is published under
 * the slot's sequence lock as the board ABI describes.  Running free
 * (the free_run attribute), it makes frames for the V4L2 stream instead:
 * one whenever the driver has a buffer for it and has taken the last, so
 * the rate is as high as the capture path goes and no frame is lost;
 * the timer then only keeps the board's heartbeat and restarts the
 * producer should it ever wait in vain.
 *
 * The control page is shared with user space (a VRAM mapping, writable
 * with vram_writable=1), so the board never reads back what it owns: its
 * info block, ring layout, acknowledged request and slot locks are kept
 * here and only written to the page.  The one thing it reads is the
 * driver's request, as a snapshot, validated against its own copy of the
 * info.  A page scribbled on costs frames, never the board's memory; the
 * board writes its info again whenever it finds it changed, and a new
 * request resets its status.
 *
 * With the driver's rings (VCAP_REQ_DMA) it writes each frame straight
 * into the buffer posted, through its DMA engine (vcap-soft-dma.c), and
 * renders its VRAM ring only while the VRAM node has a reader.  The
 * engine takes the DMA block's driver fields from the driver's writes
 * (write32), as a board's registers latch them, never from the page.
 *
 * Its HDMI receiver has a source plugged in, played by the board too and
 * chosen through the device's hdmi_source attribute: a timing of the
 * board's table, "none", "unstable" or "out-of-range".  The link is up
 * while the driver presents a valid EDID (hotplug high).  Its scaler
 * (VCAP_CAP_SCALER) fits that source into any picture size the driver
 * asks for on the HDMI input, letterboxed where the aspects differ.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-copy.h"
#include "vcap-edid.h"
#include "vcap-inject.h"
#include "vcap-modes.h"
#include "vcap-pattern.h"
#include "vcap-soft-dma.h"
#include "vcap-timings.h"

static unsigned int soft_vram_mb = 16;
module_param(soft_vram_mb, uint, 0444);
MODULE_PARM_DESC(soft_vram_mb,
		 "VRAM of each software board, MiB (4-512, default 16)");

#define VCAP_SOFT_CHUNK_ORDER	10	/* 4 MiB with 4 KiB pages */

struct vcap_soft {
	struct platform_device *pdev;
	struct vcap_dev *vdev;
	bool registered;

	/* Memory: nchunks chunks of 2^order pages, joined at base. */
	struct page **chunks;
	unsigned int nchunks;
	unsigned int order;
	void *base;
	u64 size;

	/* The producer; everything below runs on wq, one item at a time. */
	struct workqueue_struct *wq;
	struct work_struct req_work;
	struct work_struct frame_work;
	struct work_struct reset_work;
	struct hrtimer timer;
	ktime_t period;
	bool running;
	bool free_run;			/* set through sysfs; READ_ONCE */
	bool ticked;			/* the timer queued frame_work */
	u64 tick_seq;			/* seq at the last tick */
	struct vcap_gen gen;
	/* What the board published and runs; never read from the page. */
	struct vcap_board_info info;
	u64 frame_size;
	struct vcap_ring_layout layout;
	u32 ack_seq;			/* newest request acted on */
	u32 slot_lock[VCAP_MAX_SLOTS];
	u32 mode_gen;
	u32 next_slot;
	u64 seq;
	u64 slot_seq[VCAP_MAX_SLOTS];	/* frame each slot holds */
	u64 produced;
	u64 late;			/* deadlines with no frame; the timer's */
	u64 overwritten;		/* DMA frames with no buffer posted */
	struct vcap_soft_dma *dma;	/* the DMA engine, or NULL */
	u64 heartbeat;

	/* The source plugged in, set through sysfs: under src_lock. */
	spinlock_t src_lock;
	u32 src_state_set;		/* VCAP_LINK_* */
	struct vcap_timing src_set;

	/* The receiver, on wq: what it runs and published. */
	struct work_struct link_work;
	u32 src_state;
	struct vcap_timing src;
	bool hotplug;			/* a valid EDID is presented */
	u32 edid_gen;			/* the EDID generation taken */
	u8 edid[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];
	struct vcap_board_link link;	/* as published */
	u32 input;			/* VCAP_INPUT_* streaming */
	u32 src_width;			/* the source size it takes */
	u32 src_height;
	u32 interval_num;		/* of the mode streaming */
	u32 interval_den;
	bool no_signal;			/* streaming HDMI without its source */
};

static struct vcap_board_ctrl *vcap_soft_ctrl(struct vcap_soft *soft)
{
	return soft->base;
}

static u32 vcap_soft_read32(struct vcap_dev *vdev, u32 off)
{
	struct vcap_soft *soft = vdev->board;

	return le32_to_cpu(READ_ONCE(*(__le32 *)(soft->base + off)));
}

static void vcap_soft_write32(struct vcap_dev *vdev, u32 off, u32 val)
{
	struct vcap_soft *soft = vdev->board;

	WRITE_ONCE(*(__le32 *)(soft->base + off), cpu_to_le32(val));
	vcap_soft_dma_write(soft->dma, off, val);
}

static void vcap_soft_copy_from(struct vcap_dev *vdev, void *dst, u64 off,
				size_t len)
{
	struct vcap_soft *soft = vdev->board;

	vcap_copy_frame(dst, soft->base + off, len);
}

static void vcap_soft_doorbell(struct vcap_dev *vdev)
{
	struct vcap_soft *soft = vdev->board;

	queue_work(soft->wq, &soft->req_work);
}

static unsigned long vcap_soft_pfn(struct vcap_dev *vdev, u64 off)
{
	struct vcap_soft *soft = vdev->board;
	u64 chunk_size = PAGE_SIZE << soft->order;
	unsigned int c = div64_u64(off, chunk_size);

	return page_to_pfn(soft->chunks[c]) +
	       ((off - (u64)c * chunk_size) >> PAGE_SHIFT);
}

/*
 * The info block as the board keeps it, magic last: on a page that was
 * all zeroes the magic says the rest is there.  Called on the board's
 * workqueue, or before the board is registered.
 */
static void vcap_soft_publish_info(struct vcap_soft *soft)
{
	struct vcap_board_info *page = &vcap_soft_ctrl(soft)->info;

	memcpy((u8 *)page + sizeof(page->magic),
	       (u8 *)&soft->info + sizeof(page->magic),
	       sizeof(*page) - sizeof(page->magic));
	/* The rest of the page before the magic that vouches for it. */
	smp_wmb();
	WRITE_ONCE(page->magic, soft->info.magic);
}

/* The info block, if the page no longer says what the board published. */
static void vcap_soft_repair_info(struct vcap_soft *soft)
{
	if (memcmp(&vcap_soft_ctrl(soft)->info, &soft->info,
		   sizeof(soft->info)))
		vcap_soft_publish_info(soft);
}

static void vcap_soft_reset(struct vcap_dev *vdev)
{
	struct vcap_soft *soft = vdev->board;

	queue_work(soft->wq, &soft->reset_work);
}

/* The driver queued a buffer: a board running free makes a frame for it. */
static void vcap_soft_buffer_queued(struct vcap_dev *vdev)
{
	struct vcap_soft *soft = vdev->board;

	if (READ_ONCE(soft->free_run))
		queue_work(soft->wq, &soft->frame_work);
}

static const struct vcap_board_ops vcap_soft_ops = {
	.read32 = vcap_soft_read32,
	.write32 = vcap_soft_write32,
	.copy_from = vcap_soft_copy_from,
	.doorbell = vcap_soft_doorbell,
	.pfn = vcap_soft_pfn,
	.reset = vcap_soft_reset,
	.buffer_queued = vcap_soft_buffer_queued,
	.dma = true,
};

static enum hrtimer_restart vcap_soft_tick(struct hrtimer *timer)
{
	struct vcap_soft *soft = container_of(timer, struct vcap_soft, timer);
	/* Deadlines that passed before this tick came have no frame. */
	u64 missed = hrtimer_forward_now(timer, soft->period) - 1;

	WRITE_ONCE(soft->ticked, true);
	/* Nor has one due while the last is still waiting to be made. */
	if (!queue_work(soft->wq, &soft->frame_work))
		missed++;
	if (!READ_ONCE(soft->free_run))
		WRITE_ONCE(soft->late, soft->late + missed);
	return HRTIMER_RESTART;
}

/*
 * Running free, a frame is made only for a queued buffer, and only once
 * the driver has taken the frame before: the producer never runs ahead of
 * the copy, so a buffer queued is a frame delivered.  Should the driver
 * pass a frame by (a ring it no longer follows), a whole period with no
 * frame lets the timer make one all the same.
 */
static bool vcap_soft_wanted(struct vcap_soft *soft, bool ticked)
{
	bool stalled = false;

	if (!READ_ONCE(soft->free_run))
		return true;
	if (ticked) {
		stalled = soft->seq == soft->tick_seq;
		soft->tick_seq = soft->seq;
	}
	return vcap_deliver_has_buffer(soft->vdev) &&
	       (stalled || vcap_deliver_caught_up(soft->vdev, soft->seq));
}

static void vcap_soft_frame(struct work_struct *work)
{
	struct vcap_soft *soft = container_of(work, struct vcap_soft,
					      frame_work);
	struct vcap_board_ctrl *ctrl = vcap_soft_ctrl(soft);
	bool ticked = xchg(&soft->ticked, false);
	struct vcap_soft_dma_frame f;
	struct vcap_board_slot *s;
	void *dst, *buf = NULL;
	u32 slot, lock;

	if (!soft->running)
		return;
	if (soft->no_signal || !vcap_soft_wanted(soft, ticked)) {
		/* Nothing to capture; the board is alive all the same. */
		ctrl->status.heartbeat = cpu_to_le64(++soft->heartbeat);
		return;
	}
	if (vcap_soft_dma_running(soft->dma)) {
		f.seq = soft->seq;
		f.ts_ns = ktime_get_ns();
		f.sizeimage = soft->layout.sizeimage;
		f.mode_gen = soft->mode_gen;
		f.flags = 0;
		if (vcap_soft_dma_frame_begin(soft->dma, &ctrl->dma, &f, &buf) ==
		    VCAP_SOFT_DMA_EMPTY)
			soft->overwritten++;
		if (buf) {
			vcap_gen_render(&soft->gen, buf, soft->seq,
					VCAP_GEN_NONE);
			vcap_soft_dma_frame_end(soft->dma, &ctrl->dma, &f);
		}
		/* The ring only for a reader, a copy of the buffer if any. */
		if (!vcap_vram_has_reader(soft->vdev))
			goto published;
	}
	slot = soft->next_slot;
	soft->next_slot = (slot + 1) % soft->layout.num_slots;
	s = &ctrl->slots[slot];
	dst = soft->base + soft->layout.ring_offset +
	      slot * soft->layout.slot_stride;

	vcap_soft_repair_info(soft);
	lock = soft->slot_lock[slot] | 1;
	WRITE_ONCE(s->lock, cpu_to_le32(lock));
	/* Odd lock before pixels: pairs with the reader's first rmb. */
	smp_wmb();
	if (buf)
		memcpy(dst, buf, soft->layout.sizeimage);
	else
		vcap_gen_render(&soft->gen, dst, soft->seq,
				soft->slot_seq[slot]);
	soft->slot_seq[slot] = soft->seq;
	s->flags = 0;
	s->sequence = cpu_to_le64(soft->seq);
	s->timestamp_ns = cpu_to_le64(ktime_get_ns());
	s->bytesused = cpu_to_le32(soft->layout.sizeimage);
	s->mode_gen = cpu_to_le32(soft->mode_gen);
	/* Pixels and fields before the even lock; it before latest_slot. */
	smp_wmb();
	soft->slot_lock[slot] = lock + 1;
	WRITE_ONCE(s->lock, cpu_to_le32(lock + 1));
	/* The slot is whole before status points readers at it. */
	smp_wmb();
	ctrl->status.latest_slot = cpu_to_le32(slot);
	ctrl->status.latest_seq = cpu_to_le64(soft->seq);
published:
	ctrl->status.frames_overwritten = cpu_to_le64(soft->overwritten);
	ctrl->status.frames_produced = cpu_to_le64(++soft->produced);
	ctrl->status.frames_late = cpu_to_le64(READ_ONCE(soft->late));
	ctrl->status.heartbeat = cpu_to_le64(++soft->heartbeat);
	soft->seq++;
	vcap_frame_done_sync(soft->vdev);
	if (READ_ONCE(soft->free_run))
		queue_work(soft->wq, &soft->frame_work);
}

static void vcap_soft_stop(struct vcap_soft *soft)
{
	struct vcap_board_ctrl *ctrl = vcap_soft_ctrl(soft);

	hrtimer_cancel(&soft->timer);
	soft->running = false;
	soft->no_signal = false;
	vcap_soft_dma_stop(soft->dma);
	ctrl->status.state = cpu_to_le32(VCAP_STATE_STOPPED);
}

static int vcap_soft_start(struct vcap_soft *soft,
			   const struct vcap_board_request *req,
			   const struct vcap_ring_layout *l)
{
	struct vcap_board_ctrl *ctrl = vcap_soft_ctrl(soft);
	struct vcap_board_status *st = &ctrl->status;
	struct vcap_frame_fmt fmt = {
		.fourcc = le32_to_cpu(req->fourcc),
		.width = le32_to_cpu(req->width),
		.height = le32_to_cpu(req->height),
		.bytesperline = l->bytesperline,
		.sizeimage = l->sizeimage,
	};
	u32 num = le32_to_cpu(req->interval_num);
	u32 den = le32_to_cpu(req->interval_den);
	u32 flags = le32_to_cpu(req->flags);
	u32 src_w = fmt.width, src_h = fmt.height;
	unsigned int i;
	bool same;

	if (flags & VCAP_REQ_SCALE) {
		src_w = le32_to_cpu(req->src_width);
		src_h = le32_to_cpu(req->src_height);
	}
	/*
	 * The same picture (another pattern, flips, source size or rate)
	 * keeps the ring, its frame numbers, the mode generation and DMA.
	 */
	same = soft->running && fmt.fourcc == soft->gen.fmt.fourcc &&
	       fmt.width == soft->gen.fmt.width &&
	       fmt.height == soft->gen.fmt.height &&
	       fmt.bytesperline == soft->gen.fmt.bytesperline &&
	       soft->input == le32_to_cpu(req->input);
	/* The source's picture scaled into the frame, letterboxed. */
	if (vcap_gen_init_scaled(&soft->gen, &fmt, le32_to_cpu(req->pattern),
				 flags & (VCAP_REQ_HFLIP | VCAP_REQ_VFLIP),
				 src_w, src_h))
		return VCAP_ERR_BAD_FORMAT;
	hrtimer_cancel(&soft->timer);
	for (i = 0; i < VCAP_MAX_SLOTS; i++)
		soft->slot_seq[i] = VCAP_GEN_NONE;
	if (!same) {
		soft->mode_gen++;
		soft->seq = 0;
		soft->next_slot = 0;
		soft->layout = *l;
		st->latest_slot = cpu_to_le32(~0u);
		st->latest_seq = 0;
	}
	st->mode_gen = cpu_to_le32(soft->mode_gen);
	st->fourcc = cpu_to_le32(fmt.fourcc);
	st->width = cpu_to_le32(fmt.width);
	st->height = cpu_to_le32(fmt.height);
	st->bytesperline = cpu_to_le32(l->bytesperline);
	st->sizeimage = cpu_to_le32(l->sizeimage);
	st->interval_num = cpu_to_le32(num);
	st->interval_den = cpu_to_le32(den);
	st->num_slots = cpu_to_le32(l->num_slots);
	st->ring_offset = cpu_to_le64(l->ring_offset);
	st->slot_stride = cpu_to_le64(l->slot_stride);
	soft->interval_num = num;
	soft->interval_den = den;
	soft->input = le32_to_cpu(req->input);
	soft->src_width = src_w;
	soft->src_height = src_h;
	/* The HDMI input is armed: frames flow while its source feeds it. */
	soft->no_signal = soft->input == VCAP_INPUT_HDMI &&
		!vcap_timings_link_feeds(le32_to_cpu(soft->link.state),
					 &soft->src, src_w, src_h, num, den);
	st->state = cpu_to_le32(soft->no_signal ? VCAP_STATE_NO_SIGNAL :
						  VCAP_STATE_STREAMING);
	soft->running = true;
	soft->period = ns_to_ktime(div_u64((u64)num * NSEC_PER_SEC, den));
	hrtimer_start(&soft->timer, soft->period, HRTIMER_MODE_REL);
	return VCAP_ERR_NONE;
}

/* The link the receiver sees: the source's, while hotplug is high. */
static void vcap_soft_link_fill(struct vcap_soft *soft,
				struct vcap_board_link *l)
{
	u32 state = soft->hotplug ? soft->src_state : VCAP_LINK_NO_SIGNAL;

	memset(l, 0, sizeof(*l));
	l->state = cpu_to_le32(state);
	if (soft->src_state != VCAP_LINK_NO_SIGNAL)
		l->flags = cpu_to_le32(VCAP_LINK_POWER_5V);
	if (state == VCAP_LINK_LOCKED || state == VCAP_LINK_OUT_OF_RANGE)
		vcap_timing_to_board(&soft->src, &l->timing);
}

/*
 * Publish the link if it changed (or was scribbled on), and stop or
 * resume the frames of a streaming HDMI input with it; tell the driver.
 */
static void vcap_soft_link_update(struct vcap_soft *soft)
{
	struct vcap_board_ctrl *ctrl = vcap_soft_ctrl(soft);
	struct vcap_board_link *page = &ctrl->link;
	struct vcap_board_link l;
	bool changed = false, ok;
	u32 gen;

	vcap_soft_link_fill(soft, &l);
	gen = le32_to_cpu(soft->link.gen);
	l.gen = soft->link.gen;
	if (memcmp(&l, &soft->link, sizeof(l))) {
		l.gen = cpu_to_le32(gen + 1);
		changed = true;
	}
	soft->link = l;
	if (changed || memcmp(page, &soft->link, sizeof(*page))) {
		memcpy((u8 *)page + sizeof(page->gen),
		       (u8 *)&soft->link + sizeof(page->gen),
		       sizeof(*page) - sizeof(page->gen));
		/* The fields before the generation that vouches for them. */
		smp_wmb();
		WRITE_ONCE(page->gen, soft->link.gen);
	}

	if (soft->running && soft->input == VCAP_INPUT_HDMI) {
		ok = vcap_timings_link_feeds(le32_to_cpu(l.state), &soft->src,
					     soft->src_width,
					     soft->src_height,
					     soft->interval_num,
					     soft->interval_den);
		if (ok == soft->no_signal) {
			soft->no_signal = !ok;
			ctrl->status.state = cpu_to_le32(ok ?
							 VCAP_STATE_STREAMING :
							 VCAP_STATE_NO_SIGNAL);
			changed = true;
		}
	}
	if (changed)
		vcap_status_changed(soft->vdev);
}

/* Take the EDID the driver wrote, if new: checked, or hotplug low. */
static void vcap_soft_edid(struct vcap_soft *soft)
{
	struct vcap_board_edid *page = &vcap_soft_ctrl(soft)->edid;
	u32 gen = le32_to_cpu(READ_ONCE(page->gen));
	u32 blocks;

	if (gen == soft->edid_gen)
		return;
	soft->edid_gen = gen;
	/* The driver writes gen last: the rest after it. */
	smp_rmb();
	blocks = le32_to_cpu(READ_ONCE(page->blocks));
	soft->hotplug = false;
	if (blocks && blocks <= VCAP_EDID_MAX_BLOCKS) {
		memcpy(soft->edid, page->data, blocks * VCAP_EDID_BLOCK_SIZE);
		soft->hotplug = vcap_edid_valid(soft->edid, blocks);
	}
}

/* A new source was plugged in (sysfs): the receiver follows it. */
static void vcap_soft_link_work(struct work_struct *work)
{
	struct vcap_soft *soft = container_of(work, struct vcap_soft,
					      link_work);

	spin_lock(&soft->src_lock);
	soft->src_state = soft->src_state_set;
	soft->src = soft->src_set;
	spin_unlock(&soft->src_lock);
	vcap_soft_link_update(soft);
}

/* Act on the driver's request, as the firmware does. */
static void vcap_soft_request(struct work_struct *work)
{
	struct vcap_soft *soft = container_of(work, struct vcap_soft,
					      req_work);
	struct vcap_board_ctrl *ctrl = vcap_soft_ctrl(soft);
	struct vcap_soft_dma_rings rings;
	struct vcap_board_request req;
	struct vcap_ring_layout layout;
	u32 seq, err, gen = soft->mode_gen;
	bool dma;

	/* The doorbell also announces a new EDID. */
	vcap_soft_edid(soft);
	vcap_soft_link_update(soft);
	seq = le32_to_cpu(READ_ONCE(ctrl->request.seq));
	if (seq == soft->ack_seq)
		return;
	/* The driver writes seq last: read the fields after it. */
	smp_rmb();
	memcpy(&req, &ctrl->request, sizeof(req));
	vcap_soft_repair_info(soft);
	dma = le32_to_cpu(req.cmd) == VCAP_CMD_START &&
	      (le32_to_cpu(req.flags) & VCAP_REQ_DMA);
	/* The rings, taken once, at acceptance. */
	err = dma ? vcap_soft_dma_check(soft->dma, &rings) : VCAP_ERR_NONE;
	/* The mode check knows nothing of DMA. */
	req.flags &= cpu_to_le32(~VCAP_REQ_DMA);
	if (err == VCAP_ERR_NONE)
		err = vcap_modes_check(&soft->info, soft->frame_size, &req,
				       &layout);
	if (err == VCAP_ERR_NONE) {
		if (le32_to_cpu(req.cmd) == VCAP_CMD_STOP)
			vcap_soft_stop(soft);
		else
			err = vcap_soft_start(soft, &req, &layout);
	}
	/*
	 * Any other request ends DMA.  Frames are made on this ordered
	 * workqueue too, so none is being written now: once acknowledged,
	 * nothing more reaches host memory.
	 */
	if (err == VCAP_ERR_NONE && dma) {
		/* Same mode, same rings: a change of pattern or flips. */
		if (soft->mode_gen != gen ||
		    !vcap_soft_dma_running_on(soft->dma, &rings))
			vcap_soft_dma_start(soft->dma, &ctrl->dma, &rings);
	} else {
		vcap_soft_dma_stop(soft->dma);
	}
	soft->ack_seq = seq;
	ctrl->status.error = cpu_to_le32(err);
	ctrl->status.heartbeat = cpu_to_le64(++soft->heartbeat);
	/* The status is complete before the driver sees the ack. */
	smp_wmb();
	WRITE_ONCE(ctrl->status.ack_seq, cpu_to_le32(seq));
}

/* The driver found the page in disorder: say what the board is again. */
static void vcap_soft_reset_work(struct work_struct *work)
{
	struct vcap_soft *soft = container_of(work, struct vcap_soft,
					      reset_work);

	vcap_soft_repair_info(soft);
}

static void vcap_soft_free_mem(struct vcap_soft *soft)
{
	unsigned int i;

	if (soft->base)
		vunmap(soft->base);
	for (i = 0; i < soft->nchunks; i++)
		if (soft->chunks[i])
			__free_pages(soft->chunks[i], soft->order);
	kfree(soft->chunks);
	soft->chunks = NULL;
	soft->base = NULL;
	soft->nchunks = 0;
}

/* size bytes of zeroed RAM in chunks of the largest order that works. */
static int vcap_soft_alloc_mem(struct vcap_soft *soft, u64 size)
{
	unsigned int order, i, j, npages = size >> PAGE_SHIFT;
	struct page **pages;

	for (order = VCAP_SOFT_CHUNK_ORDER; ; order--) {
		u64 chunk = PAGE_SIZE << order;

		soft->order = order;
		soft->nchunks = div64_u64(size + chunk - 1, chunk);
		soft->chunks = kzalloc_objs(*soft->chunks, soft->nchunks,
					    GFP_KERNEL);
		if (!soft->chunks)
			return -ENOMEM;
		for (i = 0; i < soft->nchunks; i++) {
			soft->chunks[i] = alloc_pages(GFP_KERNEL | __GFP_ZERO |
						      __GFP_NOWARN, order);
			if (!soft->chunks[i])
				break;
		}
		if (i == soft->nchunks)
			break;
		vcap_soft_free_mem(soft);
		if (!order)
			return -ENOMEM;
	}
	soft->size = (u64)soft->nchunks << (order + PAGE_SHIFT);
	npages = soft->size >> PAGE_SHIFT;
	pages = kvmalloc_array(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages) {
		vcap_soft_free_mem(soft);
		return -ENOMEM;
	}
	for (i = 0; i < soft->nchunks; i++)
		for (j = 0; j < (1u << order); j++)
			pages[(i << order) + j] = soft->chunks[i] + j;
	soft->base = vmap(pages, npages, VM_MAP, PAGE_KERNEL);
	kvfree(pages);
	if (!soft->base) {
		vcap_soft_free_mem(soft);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The info block as the firmware writes it when the board comes up, kept
 * by the board and published on a control page that is all zeroes.
 */
static void vcap_soft_fill_info(struct vcap_soft *soft, unsigned int n)
{
	struct vcap_board_ctrl *ctrl = vcap_soft_ctrl(soft);
	struct vcap_board_info *info = &soft->info;

	soft->frame_size = soft->size - VCAP_CTRL_SIZE;
	info->abi_version = cpu_to_le32(VCAP_BOARD_ABI_VERSION);
	info->ctrl_size = cpu_to_le32(VCAP_CTRL_SIZE);
	info->caps = cpu_to_le32(VCAP_CAP_HFLIP | VCAP_CAP_VFLIP |
				 VCAP_CAP_PATTERNS | VCAP_CAP_HDMI |
				 VCAP_CAP_SCALER |
				 (soft->dma ? VCAP_CAP_DMA : 0));
	strscpy(info->name, "vcap software board", sizeof(info->name));
	snprintf(info->serial, sizeof(info->serial), "SOFT%04u", n);
	info->vram_size = cpu_to_le64(soft->size);
	info->frame_offset = cpu_to_le64(VCAP_CTRL_SIZE);
	info->frame_size = cpu_to_le64(soft->frame_size);
	vcap_modes_fill(info, soft->frame_size);
	info->magic = cpu_to_le32(VCAP_BOARD_MAGIC);
	ctrl->status.state = cpu_to_le32(VCAP_STATE_STOPPED);
	ctrl->status.latest_slot = cpu_to_le32(~0u);
	vcap_soft_publish_info(soft);
}

/*
 * Probe's reverse, from whatever point probe reached.  After
 * vcap_dev_unregister() the core rings no doorbell and calls no op, so
 * once the request work is done nothing starts the timer again; the timer
 * is stopped before the frame work it queues, and both before the
 * workqueue goes.
 */
static void vcap_soft_destroy(struct vcap_soft *soft)
{
	if (soft->registered)
		vcap_dev_unregister(soft->vdev);
	if (soft->wq) {
		cancel_work_sync(&soft->req_work);
		cancel_work_sync(&soft->reset_work);
		cancel_work_sync(&soft->link_work);
		hrtimer_cancel(&soft->timer);
		soft->running = false;
		cancel_work_sync(&soft->frame_work);
		destroy_workqueue(soft->wq);
	}
	vcap_soft_dma_destroy(soft->dma);
	if (!IS_ERR_OR_NULL(soft->vdev))
		vcap_dev_put(soft->vdev);
	vcap_soft_free_mem(soft);
	kfree(soft);
}

static void vcap_soft_destroy_action(void *soft)
{
	vcap_soft_destroy(soft);
}

static int vcap_soft_probe(struct platform_device *pdev)
{
	unsigned int mb = clamp(soft_vram_mb, 4u, 512u);
	unsigned int n = pdev->id;
	struct vcap_soft *soft;
	int ret;

	soft = vcap_inject_fail(VCAP_FAIL_ALLOC) ? NULL :
	       kzalloc_obj(*soft, GFP_KERNEL);
	if (!soft)
		return -ENOMEM;
	soft->pdev = pdev;
	hrtimer_setup(&soft->timer, vcap_soft_tick, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	INIT_WORK(&soft->req_work, vcap_soft_request);
	INIT_WORK(&soft->frame_work, vcap_soft_frame);
	INIT_WORK(&soft->reset_work, vcap_soft_reset_work);
	INIT_WORK(&soft->link_work, vcap_soft_link_work);
	spin_lock_init(&soft->src_lock);
	/* A 1080p60 source is plugged in; hotplug waits for an EDID. */
	soft->src_state_set = VCAP_LINK_LOCKED;
	soft->src_set = vcap_timings_by_name("1080p60")->t;
	soft->src_state = soft->src_state_set;
	soft->src = soft->src_set;
	platform_set_drvdata(pdev, soft);

	ret = vcap_inject_fail(VCAP_FAIL_ALLOC) ? -ENOMEM :
	      vcap_soft_alloc_mem(soft, (u64)mb << 20);
	if (ret)
		goto err;
	/*
	 * Normal priority: the producer stands in for the board's own
	 * hardware but runs on the CPUs its readers need.  At nice -20 a few
	 * boards at their top rate left the readers almost no CPU, and
	 * every frame they made was dropped for want of a queued buffer.
	 */
	if (!vcap_inject_fail(VCAP_FAIL_ALLOC))
		soft->wq = alloc_ordered_workqueue("vcap-soft%u", 0, n);
	if (!soft->wq) {
		ret = -ENOMEM;
		goto err;
	}
	soft->dma = vcap_soft_dma_create(&pdev->dev);
	if (IS_ERR(soft->dma)) {
		ret = PTR_ERR(soft->dma);
		soft->dma = NULL;
		goto err;
	}
	vcap_soft_fill_info(soft, n);

	soft->vdev = vcap_dev_alloc(&pdev->dev, &vcap_soft_ops, soft,
				    soft->size);
	if (IS_ERR(soft->vdev)) {
		ret = PTR_ERR(soft->vdev);
		goto err;
	}
	soft->vdev->soft = true;
	ret = vcap_dev_probe(soft->vdev);
	if (ret)
		goto err;
	ret = vcap_dev_register(soft->vdev);
	if (ret)
		goto err;
	soft->registered = true;
	/* Unbind tears the board down through devres: no .remove needed. */
	return devm_add_action_or_reset(&pdev->dev, vcap_soft_destroy_action,
					soft);
err:
	dev_err(&pdev->dev, "software board: error %d\n", ret);
	vcap_soft_destroy(soft);
	return ret;
}

/*
 * hdmi_source: the source plugged into the receiver: a timing name of the
 * board's table ("1080p60"), "none", "unstable" or "out-of-range" (a
 * locked 1080p60 interlaced signal, which the board does not capture).
 */
static ssize_t hdmi_source_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vcap_soft *soft = dev_get_drvdata(dev);
	const struct vcap_timing_def *def;
	const char *name;

	spin_lock(&soft->src_lock);
	def = vcap_timings_match(&soft->src_set);
	switch (soft->src_state_set) {
	case VCAP_LINK_NO_SIGNAL:
		name = "none";
		break;
	case VCAP_LINK_UNSTABLE:
		name = "unstable";
		break;
	case VCAP_LINK_OUT_OF_RANGE:
		name = "out-of-range";
		break;
	default:
		name = def ? def->name : "?";
		break;
	}
	spin_unlock(&soft->src_lock);
	return sysfs_emit(buf, "%s\n", name);
}

static ssize_t hdmi_source_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct vcap_soft *soft = dev_get_drvdata(dev);
	struct vcap_timing t = vcap_timings_by_name("1080p60")->t;
	const struct vcap_timing_def *def = NULL;
	char name[16], known[128];
	unsigned int i, n = 0;
	u32 state;

	strscpy(name, buf, sizeof(name));
	strim(name);
	if (!strcmp(name, "none")) {
		state = VCAP_LINK_NO_SIGNAL;
	} else if (!strcmp(name, "unstable")) {
		state = VCAP_LINK_UNSTABLE;
	} else if (!strcmp(name, "out-of-range")) {
		state = VCAP_LINK_OUT_OF_RANGE;
		t.interlaced = 1;
	} else {
		def = vcap_timings_by_name(name);
		if (!def) {
			for (i = 0; (def = vcap_timings_get(i)); i++)
				n += scnprintf(known + n, sizeof(known) - n,
					       " %s", def->name);
			dev_info(dev, "hdmi_source: '%s' is not a source: none, unstable, out-of-range or one of%s\n",
				 name, known);
			return -EINVAL;
		}
		state = VCAP_LINK_LOCKED;
		t = def->t;
	}
	spin_lock(&soft->src_lock);
	soft->src_state_set = state;
	soft->src_set = t;
	spin_unlock(&soft->src_lock);
	/* The receiver has followed when the write returns. */
	queue_work(soft->wq, &soft->link_work);
	flush_work(&soft->link_work);
	return count;
}
static DEVICE_ATTR_RW(hdmi_source);

/*
 * free_run: 1 to make frames for the V4L2 stream as fast as the driver
 * takes them, beyond the mode's rate; 0 (the default) to keep to the
 * mode's rate, as a source does.
 */
static ssize_t free_run_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct vcap_soft *soft = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(soft->free_run));
}

static ssize_t free_run_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct vcap_soft *soft = dev_get_drvdata(dev);
	bool on;
	int ret;

	ret = kstrtobool(buf, &on);
	if (ret)
		return ret;
	WRITE_ONCE(soft->free_run, on);
	if (on)
		queue_work(soft->wq, &soft->frame_work);
	return count;
}
static DEVICE_ATTR_RW(free_run);

static struct attribute *vcap_soft_attrs[] = {
	&dev_attr_hdmi_source.attr,
	&dev_attr_free_run.attr,
	NULL
};
ATTRIBUTE_GROUPS(vcap_soft);

static struct platform_driver vcap_soft_driver = {
	.probe = vcap_soft_probe,
	.driver = {
		.name = "vcap-soft",
		.dev_groups = vcap_soft_groups,
	},
};

static struct platform_device *vcap_soft_pdevs[VCAP_MAX_BOARDS];
static unsigned int vcap_num_softs;

/*
 * count boards, each a platform device bound to the software board
 * driver, so that it can be unbound and bound again through sysfs.
 */
int vcap_soft_init(unsigned int count)
{
	int ret;

	if (soft_vram_mb < 4 || soft_vram_mb > 512)
		pr_warn("vcap: soft_vram_mb=%u clamped to 4-512\n",
			soft_vram_mb);
	ret = platform_driver_register(&vcap_soft_driver);
	if (ret)
		return ret;
	for (vcap_num_softs = 0; vcap_num_softs < count; vcap_num_softs++) {
		struct platform_device *pdev;

		pdev = platform_device_register_simple("vcap-soft",
						       vcap_num_softs, NULL, 0);
		if (IS_ERR(pdev)) {
			vcap_soft_exit();
			return PTR_ERR(pdev);
		}
		vcap_soft_pdevs[vcap_num_softs] = pdev;
	}
	return 0;
}

void vcap_soft_exit(void)
{
	while (vcap_num_softs)
		platform_device_unregister(vcap_soft_pdevs[--vcap_num_softs]);
	platform_driver_unregister(&vcap_soft_driver);
}
