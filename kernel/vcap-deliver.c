// SPDX-License-Identifier: GPL-2.0
/*
 * vcap frame delivery: the frames a board publishes in its ring, copied
 * into the buffers user space queued, in order and whole; and the
 * completion of filled buffers, whichever transfer mode filled them.
 */
#include <linux/ktime.h>

#include "vcap.h"
#include "vcap-board.h"
#include "vcap-deliver.h"

/* Torn copies in a row before a buffer returns with the error flag. */
#define VCAP_MAX_TORN		3

/* Forget the board's sequence; every slot may hold a frame to deliver. */
static void vcap_deliver_forget(struct vcap_dev *vdev)
{
	unsigned int i;

	lockdep_assert_held(&vdev->deliver_lock);
	WRITE_ONCE(vdev->have_seq, false);
	for (i = 0; i < VCAP_MAX_SLOTS; i++)
		vdev->stale_lock[i] = 1;	/* odd: matches no slot */
}

/*
 * Take a ring the board acknowledged or restarted with.  Under a new
 * mode_gen the board numbers its frames from 0 again, and every slot of
 * that generation holds a frame not handled yet.  The caller holds
 * req_lock and deliver_lock.
 */
void vcap_deliver_set_ring(struct vcap_dev *vdev,
			   const struct vcap_ring *ring)
{
	bool same = vdev->ring.valid && vdev->ring.mode_gen == ring->mode_gen;

	lockdep_assert_held(&vdev->req_lock);
	vdev->ring = *ring;
	if (!same)
		vcap_deliver_forget(vdev);
}

/*
 * Forget the board's sequence and note which slots hold frames from
 * before now (the stream's start, or the board coming back), so that only
 * newer ones are delivered.  The V4L2 sequence runs on.
 */
void vcap_deliver_resync(struct vcap_dev *vdev)
{
	unsigned int i;
	int idx;

	vcap_deliver_forget(vdev);
	if (!vcap_enter(vdev, &idx))
		return;
	for (i = 0; i < vdev->ring.num_slots; i++)
		vdev->stale_lock[i] = vcap_rd32(vdev, VCAP_OFF_SLOT(i, lock));
	vcap_exit(vdev, idx);
}

/* A new stream: V4L2 sequence 0, and no frame from before it. */
void vcap_deliver_reset(struct vcap_dev *vdev)
{
	lockdep_assert_held(&vdev->deliver_lock);
	vdev->sequence = 0;
	vdev->last_timestamp = 0;
	vcap_deliver_resync(vdev);
}

static struct vcap_buffer *vcap_next_buffer(struct vcap_dev *vdev)
{
	struct vcap_buffer *buf;
	unsigned long flags;

	spin_lock_irqsave(&vdev->buf_lock, flags);
	buf = list_first_entry_or_null(&vdev->buf_list, struct vcap_buffer,
				       list);
	if (buf)
		list_del(&buf->list);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	return buf;
}

static void vcap_requeue_buffer(struct vcap_dev *vdev, struct vcap_buffer *buf)
{
	unsigned long flags;

	spin_lock_irqsave(&vdev->buf_lock, flags);
	list_add(&buf->list, &vdev->buf_list);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
}

/*
 * Find the next slot to deliver: the oldest frame this stream has not
 * handled yet, unless the board is about to write over it.  The board
 * fills slots in turn, so the oldest of a full ring is the next one it
 * rewrites; a reader that has fallen behind takes the oldest of the
 * num_slots - 1 newest frames instead, and never copies a slot while it
 * is being replaced.  After a torn copy the reader is slower than that
 * margin, and takes the newest frame, the last the board rewrites.
 * A slot whose lock has not moved since it was handled or passed by
 * costs one read.  Returns the slot, or -1.
 */
static int vcap_pick_slot(struct vcap_dev *vdev, bool newest_only,
			  struct vcap_board_slot *out, u32 *out_lock)
{
	const struct vcap_ring *ring = &vdev->ring;
	struct vcap_board_slot hdr[VCAP_MAX_SLOTS];
	u32 lock[VCAP_MAX_SLOTS];
	u64 seq[VCAP_MAX_SLOTS];
	bool fresh[VCAP_MAX_SLOTS] = {};
	u64 newest = 0, window;
	int best = -1;
	u32 i;

	for (i = 0; i < ring->num_slots; i++) {
		if (vcap_rd32(vdev, VCAP_OFF_SLOT(i, lock)) ==
		    vdev->stale_lock[i])
			continue;
		if (!vcap_read_slot(vdev, i, &hdr[i], &lock[i]))
			continue;
		if (lock[i] == vdev->stale_lock[i])
			continue;
		seq[i] = le64_to_cpu(hdr[i].sequence);
		if (le32_to_cpu(hdr[i].mode_gen) != ring->mode_gen ||
		    (vdev->have_seq && seq[i] <= vdev->last_board_seq)) {
			/* Never to deliver, until the board rewrites it. */
			vdev->stale_lock[i] = lock[i];
			continue;
		}
		vdev->stale_lock[i] = 1;	/* odd: never matches */
		fresh[i] = true;
		newest = max(newest, seq[i]);
	}
	window = ring->num_slots > 2 && !newest_only ? ring->num_slots - 2 : 0;
	for (i = 0; i < ring->num_slots; i++) {
		if (!fresh[i] || seq[i] + window < newest)
			continue;
		if (best < 0 || seq[i] < seq[best])
			best = i;
	}
	if (best >= 0) {
		*out = hdr[best];
		*out_lock = lock[best];
	}
	return best;
}

/*
 * When the frame ended (V4L2_BUF_FLAG_TSTAMP_SRC_EOF): the time the board
 * stamped it with (board_ns).  The software board's clock is this
 * machine's CLOCK_MONOTONIC; a PCI board's is its own, carried into this
 * one by the offset vcap_clock estimates from the stamps themselves, so
 * a live source's capture times keep their spacing.  Either is a board
 * value: one in the future, or before the previous buffer's, or more than
 * a second old, gives way to now, the time the driver took the frame.
 */
u64 vcap_deliver_time(struct vcap_dev *vdev, u64 board_ns, u64 now)
{
	u64 t = board_ns;

	lockdep_assert_held(&vdev->deliver_lock);
	if (!vdev->soft) {
		vcap_clock_sample(&vdev->board_clock, board_ns, now);
		t = vcap_clock_map(&vdev->board_clock, board_ns);
	}
	if (t > now || t <= vdev->last_timestamp || now - t > NSEC_PER_SEC)
		t = now;
	return t;
}

/*
 * Frames the board made before frame seq, since the last one handled,
 * that this stream never got.  seq is a board value: the gap is capped
 * so the V4L2 sequence moves on by a sane amount whatever it says.
 */
u32 vcap_deliver_gap(struct vcap_dev *vdev, u64 seq)
{
	lockdep_assert_held(&vdev->deliver_lock);
	if (!vdev->have_seq)
		return 0;
	return min_t(u64, seq - vdev->last_board_seq - 1, U32_MAX / 2);
}

/* Board frame seq was handled, gap frames before it lost. */
void vcap_deliver_advance(struct vcap_dev *vdev, u64 seq, u32 gap)
{
	lockdep_assert_held(&vdev->deliver_lock);
	atomic64_add(gap, &vdev->stats.dropped);
	WRITE_ONCE(vdev->have_seq, true);
	WRITE_ONCE(vdev->last_board_seq, seq);
	vdev->sequence += gap + 1;
}

/*
 * A buffer is filled outside the queue lock and completes under it, in
 * vcap_deliver_complete(): until then it waits on done_list.
 */
void vcap_deliver_fill_done(struct vcap_dev *vdev, struct vcap_buffer *buf,
			    u32 sequence, u64 timestamp,
			    enum vb2_buffer_state state)
{
	unsigned long flags;

	buf->vb.sequence = sequence;
	buf->vb.field = V4L2_FIELD_NONE;
	buf->vb.vb2_buf.timestamp = timestamp;
	vdev->last_timestamp = timestamp;
	if (state != VB2_BUF_STATE_DONE)
		vb2_set_plane_payload(&buf->vb.vb2_buf, 0, 0);
	buf->state = state;
	spin_lock_irqsave(&vdev->buf_lock, flags);
	list_add_tail(&buf->list, &vdev->done_list);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
}

enum vcap_copy {
	VCAP_COPY_DONE,		/* the frame was handled: delivered or not */
	VCAP_COPY_TORN,		/* the slot was rewritten during the copy */
};

/*
 * Deliver one board frame from slot into the next queued buffer, as V4L2
 * sequence number sequence.  A copy the board tears is retried with a
 * newer frame, unless this was the last try: then the buffer returns
 * with V4L2_BUF_FLAG_ERROR rather than the stream going silent.
 */
static enum vcap_copy vcap_deliver_one(struct vcap_dev *vdev, u32 slot,
				       const struct vcap_board_slot *hdr,
				       u32 lock, u32 sequence, bool last_try)
{
	const struct vcap_ring *ring = &vdev->ring;
	u32 flags = le32_to_cpu(hdr->flags);
	u32 used = le32_to_cpu(hdr->bytesused);
	struct vcap_buffer *buf;
	u64 ts;
	void *dst;

	buf = vcap_next_buffer(vdev);
	if (!buf) {
		atomic64_inc(&vdev->stats.dropped);
		return VCAP_COPY_DONE;
	}
	ts = vcap_deliver_time(vdev, le64_to_cpu(hdr->timestamp_ns),
			       ktime_get_ns());
	if ((flags & (VCAP_SLOT_ERROR | VCAP_SLOT_NO_SIGNAL)) ||
	    used != ring->sizeimage) {
		atomic64_inc(&vdev->stats.rejected);
		vcap_deliver_fill_done(vdev, buf, sequence, ts,
				       VB2_BUF_STATE_ERROR);
		return VCAP_COPY_DONE;
	}
	dst = vb2_plane_vaddr(&buf->vb.vb2_buf, 0);
	if (!dst || vb2_plane_size(&buf->vb.vb2_buf, 0) < ring->sizeimage) {
		vcap_deliver_fill_done(vdev, buf, sequence, ts,
				       VB2_BUF_STATE_ERROR);
		return VCAP_COPY_DONE;
	}
	vdev->ops->copy_from(vdev, dst,
			     ring->ring_offset + slot * ring->slot_stride,
			     ring->sizeimage);
	/* The pixels before the lock that says whether they were whole. */
	rmb();
	if (vcap_rd32(vdev, VCAP_OFF_SLOT(slot, lock)) != lock) {
		atomic64_inc(&vdev->stats.torn);
		if (last_try) {
			vcap_deliver_fill_done(vdev, buf, sequence, ts,
					       VB2_BUF_STATE_ERROR);
			return VCAP_COPY_DONE;
		}
		vcap_requeue_buffer(vdev, buf);
		return VCAP_COPY_TORN;
	}
	vb2_set_plane_payload(&buf->vb.vb2_buf, 0, ring->sizeimage);
	vcap_deliver_fill_done(vdev, buf, sequence, ts, VB2_BUF_STATE_DONE);
	atomic64_inc(&vdev->stats.delivered);
	atomic64_set(&vdev->stats.latency_ns,
		     ktime_get_ns() - atomic64_read(&vdev->notify_ns));
	return VCAP_COPY_DONE;
}

/*
 * Complete the filled buffers under the queue lock, as vivid's complete:
 * a buffer must not complete between videobuf2 queueing it to the driver
 * and QBUF reporting its state.  stop_streaming runs under this lock too
 * and returns what waits here itself.
 */
static bool vcap_deliver_complete(struct vcap_dev *vdev, bool wait)
{
	struct vcap_buffer *buf, *tmp;
	unsigned long flags;
	LIST_HEAD(done);
	bool empty;

	/* Only delivery fills done_list: nothing filled, no lock to take. */
	spin_lock_irqsave(&vdev->buf_lock, flags);
	empty = list_empty(&vdev->done_list);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	if (empty)
		return true;
	if (wait)
		mutex_lock(&vdev->lock);
	else if (!mutex_trylock(&vdev->lock))
		return false;
	spin_lock_irqsave(&vdev->buf_lock, flags);
	list_splice_init(&vdev->done_list, &done);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	list_for_each_entry_safe(buf, tmp, &done, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, buf->state);
	}
	mutex_unlock(&vdev->lock);
	return true;
}

/*
 * Copy the frames the board made into queued buffers.  A copy takes up to
 * a frame period at 4K, so it runs under deliver_lock alone: QBUF, DQBUF
 * and poll never wait for it.  stop_streaming takes deliver_lock before it
 * returns the buffers, so no copy is in flight then.
 */
static void vcap_deliver_frames(struct vcap_dev *vdev)
{
	struct vcap_board_slot hdr;
	unsigned int budget, torn = 0;
	u32 lock;
	int idx, slot;

	lockdep_assert_held(&vdev->deliver_lock);
	if (!vdev->streaming || !vdev->ring.valid || vdev->board_dead)
		return;
	if (!vcap_enter(vdev, &idx))
		return;
	for (budget = 2 * VCAP_MAX_SLOTS; budget; budget--) {
		u64 seq;
		u32 gap;

		slot = vcap_pick_slot(vdev, torn > 0, &hdr, &lock);
		if (slot < 0)
			break;
		seq = le64_to_cpu(hdr.sequence);
		gap = vcap_deliver_gap(vdev, seq);
		if (vcap_deliver_one(vdev, slot, &hdr, lock,
				     vdev->sequence + gap,
				     torn + 1 >= VCAP_MAX_TORN) ==
		    VCAP_COPY_TORN) {
			torn++;
			continue;
		}
		torn = 0;
		vdev->stale_lock[slot] = lock;
		vcap_deliver_advance(vdev, seq, gap);
	}
	vcap_exit(vdev, idx);
}

/* The copy path queues a buffer for the next frame the board publishes. */
static void vcap_copy_buf_queue(struct vcap_dev *vdev, struct vcap_buffer *buf)
{
	unsigned long flags;
	int idx;

	spin_lock_irqsave(&vdev->buf_lock, flags);
	list_add_tail(&buf->list, &vdev->buf_list);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	if (vdev->ops->buffer_queued && vcap_enter(vdev, &idx)) {
		vdev->ops->buffer_queued(vdev);
		vcap_exit(vdev, idx);
	}
}

const struct vcap_transfer_ops vcap_copy_transfer = {
	.name = "copy",
	.buf_queue = vcap_copy_buf_queue,
	.deliver = vcap_deliver_frames,
};

void vcap_deliver_log_status(struct vcap_dev *vdev)
{
	struct vcap_clock clock;

	v4l2_info(&vdev->v4l2_dev,
		  "transfer: %s, %lld DMA completions refused, %lld pages quarantined\n",
		  vdev->xfer->name,
		  (long long)atomic64_read(&vdev->stats.dma_refused),
		  (long long)atomic64_read(&vdev->stats.dma_quarantined_pages));
	if (vdev->soft)
		return;
	mutex_lock(&vdev->deliver_lock);
	clock = vdev->board_clock;
	mutex_unlock(&vdev->deliver_lock);
	if (clock.valid)
		v4l2_info(&vdev->v4l2_dev,
			  "board clock: this one's time minus the board's %lld ns, %llu stamps refused\n",
			  (long long)clock.offset, clock.refused);
	else
		v4l2_info(&vdev->v4l2_dev, "board clock: no stamp yet\n");
}

void vcap_deliver_work(struct work_struct *work)
{
	struct vcap_dev *vdev = container_of(work, struct vcap_dev,
					     deliver_work);

	mutex_lock(&vdev->deliver_lock);
	vdev->xfer->deliver(vdev);
	mutex_unlock(&vdev->deliver_lock);
	vcap_deliver_complete(vdev, true);
}

static void vcap_frame_note(struct vcap_dev *vdev)
{
	atomic64_inc(&vdev->stats.interrupts);
	atomic64_set(&vdev->notify_ns, ktime_get_ns());
	atomic64_inc(&vdev->frame_events);
	wake_up_interruptible_all(&vdev->frame_wq);
}

/* Called by a board when a frame is published; any context. */
void vcap_frame_done(struct vcap_dev *vdev)
{
	vcap_frame_note(vdev);
	if (READ_ONCE(vdev->streaming))
		queue_work(vdev->wq, &vdev->deliver_work);
}

/*
 * Called by a board that publishes from process context (the software
 * board's producer): the frame is delivered here, without a work item's
 * wake-up and hop to another CPU.  It never waits for a lock: a request
 * in flight holds them while it waits for this very producer, so a lock
 * taken elsewhere hands the frame to the delivery work instead.
 */
void vcap_frame_done_sync(struct vcap_dev *vdev)
{
	vcap_frame_note(vdev);
	if (!READ_ONCE(vdev->streaming))
		return;
	if (!mutex_trylock(&vdev->deliver_lock)) {
		queue_work(vdev->wq, &vdev->deliver_work);
		return;
	}
	vdev->xfer->deliver(vdev);
	mutex_unlock(&vdev->deliver_lock);
	if (!vcap_deliver_complete(vdev, false))
		queue_work(vdev->wq, &vdev->deliver_work);
}

/*
 * For a board that makes a frame only when the driver can take it (the
 * software board running free): whether a buffer is queued for one ...
 */
bool vcap_deliver_has_buffer(struct vcap_dev *vdev)
{
	unsigned long flags;
	bool queued;

	if (!READ_ONCE(vdev->streaming))
		return false;
	spin_lock_irqsave(&vdev->buf_lock, flags);
	queued = !list_empty(&vdev->buf_list);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	return queued;
}

/*
 * ... and whether every frame before board sequence seq was handled, so
 * that one more cannot overtake a frame still waiting in the ring.  Both
 * are lockless hints: a frame made when they said yes is delivered, or
 * counted as dropped, as any other.
 */
bool vcap_deliver_caught_up(struct vcap_dev *vdev, u64 seq)
{
	return !READ_ONCE(vdev->have_seq) ||
	       READ_ONCE(vdev->last_board_seq) + 1 >= seq;
}
