// SPDX-License-Identifier: GPL-2.0
/*
 * vcap board protocol: the control page checked at probe, mode requests
 * and the ring a board runs.
 *
 * The board is untrusted.  The control page is validated once at probe and
 * the values the driver keeps are copies; every value read later (ring
 * layout, slot headers, counters) is checked again where it is used, so a
 * board that writes nonsense can cost frames but never an access outside
 * its own memory.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-board.h"
#include "vcap-deliver.h"
#include "vcap-dma.h"
#include "vcap-dv.h"
#include "vcap-format.h"
#include "vcap-inject.h"

static unsigned int request_timeout_ms = 2000;
module_param(request_timeout_ms, uint, 0644);
MODULE_PARM_DESC(request_timeout_ms,
		 "time the board has to acknowledge a mode request, ms (10-60000, default 2000)");

/* Reads of a slot header before it counts as busy. */
#define VCAP_SLOT_RETRIES	4

/*
 * What the board makes the driver say while it runs, errors and news
 * alike, shares one rate limit per board: a board that misbehaves on
 * purpose cannot flood the log, whichever complaint it provokes.
 */
void vcap_board_log(struct vcap_dev *vdev, const char *level,
		    const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (!__ratelimit(&vdev->board_log_rs))
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_printk(level, vdev->parent, "%pV", &vaf);
	va_end(args);
}

static void vcap_rd_string(struct vcap_dev *vdev, u32 off, char *dst)
{
	unsigned int i;

	for (i = 0; i < VCAP_NAME_LEN; i += 4) {
		__le32 w = cpu_to_le32(vcap_rd32(vdev, off + i));

		memcpy(dst + i, &w, 4);
	}
	dst[VCAP_NAME_LEN] = '\0';
	/* Keep printable ASCII only: the name reaches logs and user space. */
	for (i = 0; dst[i]; i++)
		if (dst[i] < 0x20 || dst[i] > 0x7e)
			dst[i] = '?';
}

/* Whether [off, off + len) lies inside BAR2, without overflow. */
static bool vcap_in_bar(struct vcap_dev *vdev, u64 off, u64 len)
{
	return off <= vdev->bar_size && len <= vdev->bar_size - off;
}

static bool vcap_mode_sane(struct vcap_dev *vdev, const struct vcap_mode *m)
{
	const struct vcap_format_info *fi = vcap_format_find(m->fourcc);
	u64 size;

	if (!fi || m->width < VCAP_MIN_WIDTH || m->width > VCAP_MAX_WIDTH ||
	    m->height < VCAP_MIN_HEIGHT || m->height > VCAP_MAX_HEIGHT ||
	    m->width % fi->hsub || m->height % fi->vsub)
		return false;
	if (!(m->interval_mask & (BIT(vdev->num_intervals) - 1)))
		return false;
	size = vcap_format_sizeimage(fi, vcap_format_min_bpl(fi, m->width),
				     m->height);
	return size && PAGE_ALIGN(size) * VCAP_MIN_SLOTS <= vdev->frame_size;
}

/*
 * Read and check the control page, and keep a sanitised copy of what the
 * driver needs from it.  Returns -ENODEV for a BAR that is not a vcap
 * board, -EINVAL for a vcap board that describes itself inconsistently.
 */
int vcap_board_probe(struct vcap_dev *vdev)
{
	struct device *dev = vdev->parent;
	u32 magic, abi, ctrl_size, n, i;
	u64 vram_size;

	BUILD_BUG_ON(sizeof(struct vcap_board_ctrl) > VCAP_CTRL_SIZE);
	if (vdev->bar_size < VCAP_CTRL_SIZE)
		return -ENODEV;
	magic = vcap_rd32(vdev, VCAP_OFF_INFO(magic));
	if (magic != VCAP_BOARD_MAGIC)
		return -ENODEV;
	/* The magic is written last: read the rest after it. */
	rmb();
	abi = vcap_rd32(vdev, VCAP_OFF_INFO(abi_version));
	if (abi < VCAP_BOARD_ABI_MIN || abi > VCAP_BOARD_ABI_VERSION) {
		dev_err(dev, "board ABI version %u, driver speaks %u to %u\n",
			abi, VCAP_BOARD_ABI_MIN, VCAP_BOARD_ABI_VERSION);
		return -ENODEV;
	}
	vdev->board_abi = abi;
	ctrl_size = vcap_rd32(vdev, VCAP_OFF_INFO(ctrl_size));
	vram_size = vcap_rd64(vdev, VCAP_OFF_INFO(vram_size));
	vdev->frame_offset = vcap_rd64(vdev, VCAP_OFF_INFO(frame_offset));
	vdev->frame_size = vcap_rd64(vdev, VCAP_OFF_INFO(frame_size));
	if (ctrl_size != VCAP_CTRL_SIZE || vram_size > vdev->bar_size ||
	    vdev->frame_offset < VCAP_CTRL_SIZE ||
	    !PAGE_ALIGNED(vdev->frame_offset) || !vdev->frame_size ||
	    !vcap_in_bar(vdev, vdev->frame_offset, vdev->frame_size) ||
	    vdev->frame_offset + vdev->frame_size > vram_size) {
		dev_err(dev,
			"board geometry out of range: ctrl %u vram %llu frames %llu+%llu in a %llu byte BAR\n",
			ctrl_size, vram_size, vdev->frame_offset,
			vdev->frame_size, vdev->bar_size);
		return -EINVAL;
	}
	vdev->caps = vcap_rd32(vdev, VCAP_OFF_INFO(caps));
	vdev->fw_peer_id = vcap_rd32(vdev, VCAP_OFF_INFO(fw_peer_id));
	vcap_rd_string(vdev, VCAP_OFF_INFO(name), vdev->name);
	vcap_rd_string(vdev, VCAP_OFF_INFO(serial), vdev->serial);

	n = vcap_rd32(vdev, VCAP_OFF_INFO(num_intervals));
	if (n > VCAP_MAX_INTERVALS) {
		dev_err(dev, "board publishes %u intervals\n", n);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		u32 off = VCAP_OFF_INFO(intervals) +
			  i * sizeof(struct vcap_board_interval);

		vdev->intervals[i].numerator = vcap_rd32(vdev, off);
		vdev->intervals[i].denominator = vcap_rd32(vdev, off + 4);
		if (!vdev->intervals[i].numerator ||
		    !vdev->intervals[i].denominator) {
			dev_err(dev, "board interval %u is zero\n", i);
			return -EINVAL;
		}
	}
	vdev->num_intervals = n;

	n = vcap_rd32(vdev, VCAP_OFF_INFO(num_modes));
	if (!n || n > VCAP_MAX_MODES) {
		dev_err(dev, "board publishes %u modes\n", n);
		return -EINVAL;
	}
	vdev->modes = vcap_inject_fail(VCAP_FAIL_ALLOC) ? NULL :
		      kzalloc_objs(*vdev->modes, n, GFP_KERNEL);
	if (!vdev->modes)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		u32 off = VCAP_OFF_INFO(modes) +
			  i * sizeof(struct vcap_board_mode);
		struct vcap_mode *m = &vdev->modes[vdev->num_modes];
		unsigned int f;

		m->fourcc = vcap_rd32(vdev, off);
		m->width = vcap_rd32(vdev, off + 4);
		m->height = vcap_rd32(vdev, off + 8);
		m->interval_mask = vcap_rd32(vdev, off + 12) &
				   (BIT(vdev->num_intervals) - 1);
		if (!vcap_mode_sane(vdev, m) ||
		    vcap_find_mode(vdev, m->fourcc, m->width, m->height)) {
			dev_warn(dev, "ignoring board mode %u (%p4cc %ux%u)\n",
				 i, &m->fourcc, m->width, m->height);
			continue;
		}
		vdev->num_modes++;
		for (f = 0; f < vdev->num_fourccs; f++)
			if (vdev->fourccs[f] == m->fourcc)
				break;
		if (f == vdev->num_fourccs)
			vdev->fourccs[vdev->num_fourccs++] = m->fourcc;
	}
	if (!vdev->num_modes) {
		dev_err(dev, "board publishes no usable mode\n");
		return -EINVAL;
	}
	vdev->req_seq = vcap_rd32(vdev, VCAP_OFF_STATUS(ack_seq));
	vdev->last_mode_gen = vcap_rd32(vdev, VCAP_OFF_STATUS(mode_gen));
	return 0;
}

const struct vcap_mode *vcap_find_mode(struct vcap_dev *vdev, u32 fourcc,
				       u32 width, u32 height)
{
	unsigned int i;

	for (i = 0; i < vdev->num_modes; i++)
		if (vdev->modes[i].fourcc == fourcc &&
		    vdev->modes[i].width == width &&
		    vdev->modes[i].height == height)
			return &vdev->modes[i];
	return NULL;
}

/*
 * Read slot's header under its sequence lock.  False if the writer held
 * it for every try.  The caller holds the presence guard.
 */
bool vcap_read_slot(struct vcap_dev *vdev, u32 slot,
		    struct vcap_board_slot *hdr, u32 *lock)
{
	unsigned int i;

	if (slot >= VCAP_MAX_SLOTS)
		return false;
	for (i = 0; i < VCAP_SLOT_RETRIES; i++) {
		u32 l1, l2, flags, used, gen;
		u64 seq, ts;

		l1 = vcap_rd32(vdev, VCAP_OFF_SLOT(slot, lock));
		/* Seqlock read side: lock, fields, lock again. */
		rmb();
		flags = vcap_rd32(vdev, VCAP_OFF_SLOT(slot, flags));
		seq = vcap_rd64(vdev, VCAP_OFF_SLOT(slot, sequence));
		ts = vcap_rd64(vdev, VCAP_OFF_SLOT(slot, timestamp_ns));
		used = vcap_rd32(vdev, VCAP_OFF_SLOT(slot, bytesused));
		gen = vcap_rd32(vdev, VCAP_OFF_SLOT(slot, mode_gen));
		/* Seqlock read side: the fields before the second lock read. */
		rmb();
		l2 = vcap_rd32(vdev, VCAP_OFF_SLOT(slot, lock));
		if (l1 == l2 && !(l1 & 1)) {
			hdr->lock = cpu_to_le32(l1);
			hdr->flags = cpu_to_le32(flags);
			hdr->sequence = cpu_to_le64(seq);
			hdr->timestamp_ns = cpu_to_le64(ts);
			hdr->bytesused = cpu_to_le32(used);
			hdr->mode_gen = cpu_to_le32(gen);
			*lock = l1;
			return true;
		}
	}
	return false;
}

/*
 * Write a request and wait for the board to acknowledge it.  Returns 0,
 * -ENODEV if the board went away, -ETIMEDOUT, or -EINVAL/-EBUSY for a
 * refused request.
 */
static int vcap_request(struct vcap_dev *vdev,
			const struct vcap_board_request *req)
{
	unsigned long deadline;
	u32 seq, ack, err;
	int idx;

	lockdep_assert_held(&vdev->req_lock);
	if (!vcap_enter(vdev, &idx))
		return -ENODEV;
	vcap_wr32(vdev, VCAP_OFF_REQ(cmd), le32_to_cpu(req->cmd));
	vcap_wr32(vdev, VCAP_OFF_REQ(fourcc), le32_to_cpu(req->fourcc));
	vcap_wr32(vdev, VCAP_OFF_REQ(width), le32_to_cpu(req->width));
	vcap_wr32(vdev, VCAP_OFF_REQ(height), le32_to_cpu(req->height));
	vcap_wr32(vdev, VCAP_OFF_REQ(bytesperline),
		  le32_to_cpu(req->bytesperline));
	vcap_wr32(vdev, VCAP_OFF_REQ(interval_num),
		  le32_to_cpu(req->interval_num));
	vcap_wr32(vdev, VCAP_OFF_REQ(interval_den),
		  le32_to_cpu(req->interval_den));
	vcap_wr32(vdev, VCAP_OFF_REQ(pattern), le32_to_cpu(req->pattern));
	vcap_wr32(vdev, VCAP_OFF_REQ(flags), le32_to_cpu(req->flags));
	vcap_wr32(vdev, VCAP_OFF_REQ(input), le32_to_cpu(req->input));
	/* Reserved before ABI 3: left as the board has it. */
	if (vdev->board_abi >= 3) {
		vcap_wr32(vdev, VCAP_OFF_REQ(src_width),
			  le32_to_cpu(req->src_width));
		vcap_wr32(vdev, VCAP_OFF_REQ(src_height),
			  le32_to_cpu(req->src_height));
	}
	/* The fields reach the board before the new seq that publishes them. */
	wmb();
	seq = ++vdev->req_seq;
	vcap_wr32(vdev, VCAP_OFF_REQ(seq), seq);
	/* ... and seq before the doorbell that announces it. */
	wmb();
	vdev->ops->doorbell(vdev);
	vcap_exit(vdev, idx);

	deadline = jiffies +
		msecs_to_jiffies(clamp(request_timeout_ms, 10u, 60000u));
	for (;;) {
		if (!vcap_enter(vdev, &idx))
			return -ENODEV;
		ack = vcap_rd32(vdev, VCAP_OFF_STATUS(ack_seq));
		/* The board writes the error before the ack. */
		rmb();
		err = vcap_rd32(vdev, VCAP_OFF_STATUS(error));
		vcap_exit(vdev, idx);
		if (ack == seq)
			break;
		if (time_after(jiffies, deadline)) {
			vcap_board_log(vdev, KERN_ERR,
				       "board did not acknowledge request %u\n",
				       seq);
			return -ETIMEDOUT;
		}
		usleep_range(200, 1000);
	}
	/*
	 * Injected: the board acted on the request, but its answer is lost,
	 * the hardest case for the caller to clean up after.
	 */
	if (vcap_inject_fail(VCAP_FAIL_REQUEST))
		return -ETIMEDOUT;
	if (err == VCAP_ERR_NONE)
		return 0;
	/* No source on the HDMI input is the user's news, not a fault. */
	if (err == VCAP_ERR_NO_LINK)
		return -ENOLINK;
	vcap_board_log(vdev, KERN_ERR, "board refused request %u: error %u\n",
		       seq, err);
	return err == VCAP_ERR_BUSY ? -EBUSY : -EINVAL;
}

/*
 * Read the active mode from the status block and check it against what
 * was asked and against the BAR; report a mismatch if asked to (the
 * watchdog, which looks every tick, does not).  The caller holds req_lock
 * and the presence guard.
 */
int vcap_read_ring(struct vcap_dev *vdev, const struct vcap_ring *want,
		   struct vcap_ring *ring, bool report)
{
	const struct vcap_format_info *fi = vcap_format_find(want->fourcc);
	u64 end;

	memset(ring, 0, sizeof(*ring));
	if (vcap_rd32(vdev, VCAP_OFF_STATUS(state)) == VCAP_STATE_STOPPED)
		return -EIO;
	ring->mode_gen = vcap_rd32(vdev, VCAP_OFF_STATUS(mode_gen));
	ring->fourcc = vcap_rd32(vdev, VCAP_OFF_STATUS(fourcc));
	ring->width = vcap_rd32(vdev, VCAP_OFF_STATUS(width));
	ring->height = vcap_rd32(vdev, VCAP_OFF_STATUS(height));
	ring->bytesperline = vcap_rd32(vdev, VCAP_OFF_STATUS(bytesperline));
	ring->sizeimage = vcap_rd32(vdev, VCAP_OFF_STATUS(sizeimage));
	ring->interval_num = vcap_rd32(vdev, VCAP_OFF_STATUS(interval_num));
	ring->interval_den = vcap_rd32(vdev, VCAP_OFF_STATUS(interval_den));
	ring->num_slots = vcap_rd32(vdev, VCAP_OFF_STATUS(num_slots));
	ring->ring_offset = vcap_rd64(vdev, VCAP_OFF_STATUS(ring_offset));
	ring->slot_stride = vcap_rd64(vdev, VCAP_OFF_STATUS(slot_stride));
	/* The status says neither input nor source: they are those asked. */
	ring->input = want->input;
	ring->src_width = want->src_width;
	ring->src_height = want->src_height;

	if (!fi || ring->fourcc != want->fourcc ||
	    ring->width != want->width || ring->height != want->height ||
	    ring->bytesperline != want->bytesperline ||
	    ring->sizeimage != want->sizeimage)
		goto bad;
	if (ring->num_slots < VCAP_MIN_SLOTS ||
	    ring->num_slots > VCAP_MAX_SLOTS ||
	    ring->slot_stride < ring->sizeimage ||
	    ring->slot_stride > vdev->frame_size ||
	    ring->ring_offset < vdev->frame_offset)
		goto bad;
	end = ring->slot_stride * ring->num_slots;
	if (!vcap_in_bar(vdev, ring->ring_offset, end) ||
	    ring->ring_offset + end > vdev->frame_offset + vdev->frame_size)
		goto bad;
	ring->valid = true;
	return 0;
bad:
	if (report)
		vcap_board_log(vdev, KERN_ERR,
			       "board runs %p4cc %ux%u bpl %u size %u, %u slots of %llu at %llu: not what was asked or outside VRAM\n",
			&ring->fourcc, ring->width, ring->height,
			ring->bytesperline, ring->sizeimage, ring->num_slots,
			ring->slot_stride, ring->ring_offset);
	memset(ring, 0, sizeof(*ring));
	return -EIO;
}

/* A request that stops the board; the caller holds req_lock. */
static int vcap_request_stop(struct vcap_dev *vdev)
{
	struct vcap_board_request req = {};

	req.cmd = cpu_to_le32(VCAP_CMD_STOP);
	return vcap_request(vdev, &req);
}

/*
 * Ask the board for the mode want with a pattern and flags, and take the
 * ring it acknowledges.  A fresh start begins delivery; a start that fails
 * after the board may have acted on it stops the board again, so that a
 * failed STREAMON leaves nothing running.  With DMA, a fresh start hands
 * the board the rings first and posts the queued buffers once it
 * acknowledged; every start keeps VCAP_REQ_DMA, since a START without it
 * would end DMA.  The caller holds req_lock.
 */
static int vcap_board_request_start(struct vcap_dev *vdev,
				    const struct vcap_ring *want,
				    u32 pattern, u32 flags, bool fresh)
{
	struct vcap_board_request req = {};
	struct vcap_ring ring;
	int idx, ret, stop;

	lockdep_assert_held(&vdev->req_lock);
	req.cmd = cpu_to_le32(VCAP_CMD_START);
	req.fourcc = cpu_to_le32(want->fourcc);
	req.width = cpu_to_le32(want->width);
	req.height = cpu_to_le32(want->height);
	req.bytesperline = cpu_to_le32(want->bytesperline);
	req.interval_num = cpu_to_le32(want->interval_num);
	req.interval_den = cpu_to_le32(want->interval_den);
	req.pattern = cpu_to_le32(pattern);
	if (vdev->dma)
		flags |= VCAP_REQ_DMA;
	/* The source scaled into the picture. */
	if (want->src_width) {
		flags |= VCAP_REQ_SCALE;
		req.src_width = cpu_to_le32(want->src_width);
		req.src_height = cpu_to_le32(want->src_height);
	}
	req.flags = cpu_to_le32(flags);
	req.input = cpu_to_le32(want->input);

	if (vdev->dma && fresh)
		vcap_dma_setup(vdev);
	ret = vcap_request(vdev, &req);
	if (!ret) {
		if (!vcap_enter(vdev, &idx)) {
			ret = -ENODEV;
		} else {
			ret = vcap_read_ring(vdev, want, &ring, true);
			vcap_exit(vdev, idx);
		}
	}
	if (ret) {
		/*
		 * A refused request changes nothing on the board; one that
		 * timed out or set up a ring the driver cannot use may have
		 * started it.
		 */
		if (fresh && ret != -EINVAL && ret != -EBUSY &&
		    ret != -ENOLINK) {
			stop = vcap_request_stop(vdev);
			if (vdev->dma)
				vcap_dma_stopped(vdev, !stop);
		}
		return ret;
	}
	ring.interval_num = want->interval_num;
	ring.interval_den = want->interval_den;

	spin_lock(&vdev->wd_lock);
	vdev->last_mode_gen = ring.mode_gen;
	vdev->heartbeat_jiffies = jiffies;
	spin_unlock(&vdev->wd_lock);

	mutex_lock(&vdev->deliver_lock);
	vcap_deliver_set_ring(vdev, &ring);
	vdev->board_dead = false;
	if (fresh) {
		vcap_deliver_reset(vdev);
		WRITE_ONCE(vdev->streaming, true);
	}
	mutex_unlock(&vdev->deliver_lock);
	if (vdev->dma && fresh)
		vcap_dma_run(vdev);
	return 0;
}

/*
 * Start the board in the V4L2 format; frame delivery begins.  The caller
 * holds the queue lock, which keeps the format still.
 */
int vcap_board_start(struct vcap_dev *vdev)
{
	struct vcap_ring want = {};
	u32 sw, sh;
	int ret;

	lockdep_assert_held(&vdev->lock);
	if (!vcap_format_find(vdev->fmt.pixelformat))
		return -EINVAL;
	want.fourcc = vdev->fmt.pixelformat;
	want.width = vdev->fmt.width;
	want.height = vdev->fmt.height;
	want.bytesperline = vdev->fmt.bytesperline;
	want.sizeimage = vdev->fmt.sizeimage;
	want.interval_num = vdev->interval.numerator;
	want.interval_den = vdev->interval.denominator;
	want.input = vcap_dv_board_input(vdev);
	/* A picture other than the timings' size is the scaler's. */
	if (want.input == VCAP_INPUT_HDMI && vdev->scaler) {
		vcap_dv_source_size(vdev, &sw, &sh);
		if (sw != want.width || sh != want.height) {
			want.src_width = sw;
			want.src_height = sh;
		}
	}

	mutex_lock(&vdev->req_lock);
	ret = vcap_board_request_start(vdev, &want, vcap_ctrls_pattern(vdev),
				       vcap_ctrls_flags(vdev), true);
	mutex_unlock(&vdev->req_lock);
	return ret;
}

/*
 * Restart the running mode with a new pattern and flags; nothing to do
 * while not streaming.  An error means the board did not take them and
 * runs as before.
 */
int vcap_board_update(struct vcap_dev *vdev, u32 pattern, u32 flags)
{
	struct vcap_ring want;
	int ret = 0;

	mutex_lock(&vdev->req_lock);
	/* vcap_board_stop() clears streaming before it takes req_lock. */
	want = vdev->ring;
	if (READ_ONCE(vdev->streaming) && want.valid) {
		ret = vcap_board_request_start(vdev, &want, pattern, flags,
					       false);
		/*
		 * The board may have taken the values even so: put back the
		 * ones the controls keep.
		 */
		if (ret && ret != -ENODEV)
			vcap_board_request_start(vdev, &want,
						 vcap_ctrls_pattern(vdev),
						 vcap_ctrls_flags(vdev), false);
	}
	mutex_unlock(&vdev->req_lock);
	return ret;
}

/*
 * The running picture from another source size and rate: the HDMI source
 * changed under a picture the scaler makes (vcap-dv.c), and the stream
 * goes on in the same format.  Nothing to do while not streaming; an
 * error means the board did not take it and runs as before.
 */
int vcap_board_rescale(struct vcap_dev *vdev, u32 src_width, u32 src_height,
		       const struct vcap_interval *interval)
{
	struct vcap_ring want;
	int ret = -ENODATA;

	mutex_lock(&vdev->req_lock);
	want = vdev->ring;
	if (READ_ONCE(vdev->streaming) && want.valid) {
		want.src_width = src_width;
		want.src_height = src_height;
		if (src_width == want.width && src_height == want.height) {
			want.src_width = 0;
			want.src_height = 0;
		}
		want.interval_num = interval->numerator;
		want.interval_den = interval->denominator;
		ret = vcap_board_request_start(vdev, &want,
					       vcap_ctrls_pattern(vdev),
					       vcap_ctrls_flags(vdev), false);
	}
	mutex_unlock(&vdev->req_lock);
	return ret;
}

/*
 * Removal with a board that never acknowledged the end of its DMA: one
 * more STOP, whose acknowledgment gives back the rings and scatter lists
 * it might have used.  The caller is removing the video node: no stream
 * runs.
 */
void vcap_board_end_dma(struct vcap_dev *vdev)
{
	int ret;

	if (!vcap_dma_dead(vdev))
		return;
	mutex_lock(&vdev->req_lock);
	ret = vcap_request_stop(vdev);
	vcap_dma_stopped(vdev, !ret);
	mutex_unlock(&vdev->req_lock);
}

/*
 * Stop delivery and the board; queued buffers stay for the caller, which
 * holds the queue lock.  With DMA this is a handshake: only the board's
 * acknowledgment of the STOP gives the buffers it holds back.
 */
void vcap_board_stop(struct vcap_dev *vdev)
{
	int ret;

	lockdep_assert_held(&vdev->lock);
	mutex_lock(&vdev->deliver_lock);
	WRITE_ONCE(vdev->streaming, false);
	mutex_unlock(&vdev->deliver_lock);

	mutex_lock(&vdev->req_lock);
	ret = vcap_request_stop(vdev);
	if (vdev->dma)
		vcap_dma_stopped(vdev, !ret);
	mutex_lock(&vdev->deliver_lock);
	memset(&vdev->ring, 0, sizeof(vdev->ring));
	mutex_unlock(&vdev->deliver_lock);
	mutex_unlock(&vdev->req_lock);
}
