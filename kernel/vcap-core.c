// SPDX-License-Identifier: GPL-2.0
/*
 * vcap core: module entry, parameters, the board protocol (control page
 * validation, mode requests, the watchdog) and frame delivery.
 *
 * The board is untrusted.  The control page is validated once at probe and
 * the values the driver keeps are copies; every value read later (ring
 * layout, slot headers, counters) is checked again where it is used, so a
 * board that writes nonsense can cost frames but never an access outside
 * its own memory.
 */
#include <linux/delay.h>
#include <linux/idr.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "vcap.h"
#include "vcap-format.h"

static unsigned int soft_boards;
module_param(soft_boards, uint, 0444);
MODULE_PARM_DESC(soft_boards,
		 "number of software boards to create (0-16, default 0)");

bool vcap_vram_writable;
module_param_named(vram_writable, vcap_vram_writable, bool, 0444);
MODULE_PARM_DESC(vram_writable,
		 "allow PROT_WRITE mappings of /dev/vcapN opened O_RDWR (default N)");

static unsigned int request_timeout_ms = 2000;
module_param(request_timeout_ms, uint, 0644);
MODULE_PARM_DESC(request_timeout_ms,
		 "time the board has to acknowledge a mode request, ms (10-60000, default 2000)");

static unsigned int heartbeat_timeout_ms = 2000;
module_param(heartbeat_timeout_ms, uint, 0644);
MODULE_PARM_DESC(heartbeat_timeout_ms,
		 "a streaming board whose heartbeat stops this long is declared dead, ms (200-60000, default 2000)");

/* Watchdog period; also the fallback poll when interrupts are lost. */
#define VCAP_WATCHDOG_MS	100
/* Reads of a slot header before it counts as busy. */
#define VCAP_SLOT_RETRIES	4
/* Torn copies in a row before a buffer returns with the error flag. */
#define VCAP_MAX_TORN		3

static DEFINE_IDA(vcap_ida);

static unsigned int vcap_clamp_ms(unsigned int v, unsigned int lo,
				  unsigned int hi)
{
	return clamp(v, lo, hi);
}

/* Board field accessors: callers hold the presence guard. */
static u32 vcap_rd32(struct vcap_dev *vdev, u32 off)
{
	return vdev->ops->read32(vdev, off);
}

static u64 vcap_rd64(struct vcap_dev *vdev, u32 off)
{
	u64 lo = vdev->ops->read32(vdev, off);

	return lo | (u64)vdev->ops->read32(vdev, off + 4) << 32;
}

static void vcap_wr32(struct vcap_dev *vdev, u32 off, u32 val)
{
	vdev->ops->write32(vdev, off, val);
}

/*
 * What the board makes the driver say while it runs, errors and news
 * alike, shares one rate limit per board: a board that misbehaves on
 * purpose cannot flood the log, whichever complaint it provokes.
 */
static __printf(3, 4) void vcap_board_log(struct vcap_dev *vdev,
					  const char *level,
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
static int vcap_board_probe(struct vcap_dev *vdev)
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
	if (abi != VCAP_BOARD_ABI_VERSION) {
		dev_err(dev, "board ABI version %u, driver speaks %u\n", abi,
			VCAP_BOARD_ABI_VERSION);
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
	vdev->modes = kcalloc(n, sizeof(*vdev->modes), GFP_KERNEL);
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
	/* The fields reach the board before the new seq that publishes them. */
	wmb();
	seq = ++vdev->req_seq;
	vcap_wr32(vdev, VCAP_OFF_REQ(seq), seq);
	/* ... and seq before the doorbell that announces it. */
	wmb();
	vdev->ops->doorbell(vdev);
	vcap_exit(vdev, idx);

	deadline = jiffies +
		msecs_to_jiffies(vcap_clamp_ms(request_timeout_ms, 10, 60000));
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
	if (err == VCAP_ERR_NONE)
		return 0;
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
static int vcap_read_ring(struct vcap_dev *vdev, const struct vcap_ring *want,
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

/* Forget the board's sequence; every slot may hold a frame to deliver. */
static void vcap_deliver_forget(struct vcap_dev *vdev)
{
	unsigned int i;

	lockdep_assert_held(&vdev->deliver_lock);
	vdev->have_seq = false;
	for (i = 0; i < VCAP_MAX_SLOTS; i++)
		vdev->stale_lock[i] = 1;	/* odd: matches no slot */
}

/*
 * Take a ring the board acknowledged or restarted with.  Under a new
 * mode_gen the board numbers its frames from 0 again, and every slot of
 * that generation holds a frame not handled yet.  The caller holds
 * req_lock and deliver_lock.
 */
static void vcap_deliver_set_ring(struct vcap_dev *vdev,
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
static void vcap_deliver_resync(struct vcap_dev *vdev)
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
static void vcap_deliver_reset(struct vcap_dev *vdev)
{
	lockdep_assert_held(&vdev->deliver_lock);
	vdev->sequence = 0;
	vcap_deliver_resync(vdev);
}

static int vcap_board_request_start(struct vcap_dev *vdev, bool fresh)
{
	const struct vcap_format_info *fi;
	struct vcap_board_request req = {};
	struct vcap_ring want = {}, ring;
	int idx, ret;

	fi = vcap_format_find(vdev->fmt.pixelformat);
	if (!fi)
		return -EINVAL;
	want.fourcc = vdev->fmt.pixelformat;
	want.width = vdev->fmt.width;
	want.height = vdev->fmt.height;
	want.bytesperline = vdev->fmt.bytesperline;
	want.sizeimage = vdev->fmt.sizeimage;

	req.cmd = cpu_to_le32(VCAP_CMD_START);
	req.fourcc = cpu_to_le32(want.fourcc);
	req.width = cpu_to_le32(want.width);
	req.height = cpu_to_le32(want.height);
	req.bytesperline = cpu_to_le32(want.bytesperline);
	req.interval_num = cpu_to_le32(vdev->interval.numerator);
	req.interval_den = cpu_to_le32(vdev->interval.denominator);
	req.pattern = cpu_to_le32(vcap_ctrls_pattern(vdev));
	req.flags = cpu_to_le32(vcap_ctrls_flags(vdev));

	mutex_lock(&vdev->req_lock);
	ret = vcap_request(vdev, &req);
	if (!ret) {
		if (!vcap_enter(vdev, &idx)) {
			ret = -ENODEV;
		} else {
			ret = vcap_read_ring(vdev, &want, &ring, true);
			vcap_exit(vdev, idx);
		}
	}
	if (!ret) {
		mutex_lock(&vdev->deliver_lock);
		vcap_deliver_set_ring(vdev, &ring);
		vdev->last_mode_gen = ring.mode_gen;
		if (fresh) {
			vcap_deliver_reset(vdev);
			WRITE_ONCE(vdev->streaming, true);
		}
		mutex_unlock(&vdev->deliver_lock);
		vdev->heartbeat_jiffies = jiffies;
		vdev->board_dead = false;
	}
	mutex_unlock(&vdev->req_lock);
	return ret;
}

/* Start the board in the V4L2 format; frame delivery begins. */
int vcap_board_start(struct vcap_dev *vdev)
{
	return vcap_board_request_start(vdev, true);
}

/* Restart the running mode with new control values. */
int vcap_board_update(struct vcap_dev *vdev)
{
	if (!READ_ONCE(vdev->streaming))
		return 0;
	return vcap_board_request_start(vdev, false);
}

/*
 * Stop delivery and the board; queued buffers stay for the caller, which
 * holds the queue lock.
 */
void vcap_board_stop(struct vcap_dev *vdev)
{
	struct vcap_board_request req = {};

	lockdep_assert_held(&vdev->lock);
	mutex_lock(&vdev->deliver_lock);
	WRITE_ONCE(vdev->streaming, false);
	mutex_unlock(&vdev->deliver_lock);

	req.cmd = cpu_to_le32(VCAP_CMD_STOP);
	mutex_lock(&vdev->req_lock);
	vcap_request(vdev, &req);
	mutex_lock(&vdev->deliver_lock);
	memset(&vdev->ring, 0, sizeof(vdev->ring));
	mutex_unlock(&vdev->deliver_lock);
	mutex_unlock(&vdev->req_lock);
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
 * Returns the slot, or -1.
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
		if (!vcap_read_slot(vdev, i, &hdr[i], &lock[i]))
			continue;
		if (lock[i] == vdev->stale_lock[i])
			continue;
		vdev->stale_lock[i] = 1;	/* odd: never matches again */
		if (le32_to_cpu(hdr[i].mode_gen) != ring->mode_gen)
			continue;
		seq[i] = le64_to_cpu(hdr[i].sequence);
		if (vdev->have_seq && seq[i] <= vdev->last_board_seq)
			continue;
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
 * A buffer is filled outside the queue lock and completes under it, in
 * vcap_deliver_complete(): until then it waits on done_list.
 */
static void vcap_fill_done(struct vcap_dev *vdev, struct vcap_buffer *buf,
			   u32 sequence, enum vb2_buffer_state state)
{
	unsigned long flags;

	buf->vb.sequence = sequence;
	buf->vb.field = V4L2_FIELD_NONE;
	buf->vb.vb2_buf.timestamp = ktime_get_ns();
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
	void *dst;

	buf = vcap_next_buffer(vdev);
	if (!buf) {
		atomic64_inc(&vdev->stats.dropped);
		return VCAP_COPY_DONE;
	}
	if ((flags & (VCAP_SLOT_ERROR | VCAP_SLOT_NO_SIGNAL)) ||
	    used != ring->sizeimage) {
		atomic64_inc(&vdev->stats.rejected);
		vcap_fill_done(vdev, buf, sequence, VB2_BUF_STATE_ERROR);
		return VCAP_COPY_DONE;
	}
	dst = vb2_plane_vaddr(&buf->vb.vb2_buf, 0);
	if (!dst || vb2_plane_size(&buf->vb.vb2_buf, 0) < ring->sizeimage) {
		vcap_fill_done(vdev, buf, sequence, VB2_BUF_STATE_ERROR);
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
			vcap_fill_done(vdev, buf, sequence,
				       VB2_BUF_STATE_ERROR);
			return VCAP_COPY_DONE;
		}
		vcap_requeue_buffer(vdev, buf);
		return VCAP_COPY_TORN;
	}
	vb2_set_plane_payload(&buf->vb.vb2_buf, 0, ring->sizeimage);
	vcap_fill_done(vdev, buf, sequence, VB2_BUF_STATE_DONE);
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
static void vcap_deliver_complete(struct vcap_dev *vdev)
{
	struct vcap_buffer *buf, *tmp;
	unsigned long flags;
	LIST_HEAD(done);
	bool empty;

	/* Only this work fills done_list: nothing filled, no lock to take. */
	spin_lock_irqsave(&vdev->buf_lock, flags);
	empty = list_empty(&vdev->done_list);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	if (empty)
		return;
	mutex_lock(&vdev->lock);
	spin_lock_irqsave(&vdev->buf_lock, flags);
	list_splice_init(&vdev->done_list, &done);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	list_for_each_entry_safe(buf, tmp, &done, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, buf->state);
	}
	mutex_unlock(&vdev->lock);
}

/*
 * Copy the frames the board made into queued buffers.  A copy takes up to
 * a frame period at 4K, so it runs under deliver_lock alone: QBUF, DQBUF
 * and poll never wait for it.  stop_streaming takes deliver_lock before it
 * returns the buffers, so no copy is in flight then.
 */
static void vcap_deliver_work(struct work_struct *work)
{
	struct vcap_dev *vdev = container_of(work, struct vcap_dev,
					     deliver_work);
	struct vcap_board_slot hdr;
	unsigned int budget, torn = 0;
	u32 lock;
	int idx, slot;

	mutex_lock(&vdev->deliver_lock);
	if (!vdev->streaming || !vdev->ring.valid || vdev->board_dead)
		goto out;
	if (!vcap_enter(vdev, &idx))
		goto out;
	for (budget = 2 * VCAP_MAX_SLOTS; budget; budget--) {
		u64 seq, gap;

		slot = vcap_pick_slot(vdev, torn > 0, &hdr, &lock);
		if (slot < 0)
			break;
		seq = le64_to_cpu(hdr.sequence);
		/* Frames the board made that this stream never got. */
		gap = vdev->have_seq ? seq - vdev->last_board_seq - 1 : 0;
		gap = min_t(u64, gap, U32_MAX / 2);
		if (vcap_deliver_one(vdev, slot, &hdr, lock,
				     vdev->sequence + (u32)gap,
				     torn + 1 >= VCAP_MAX_TORN) ==
		    VCAP_COPY_TORN) {
			torn++;
			continue;
		}
		torn = 0;
		atomic64_add(gap, &vdev->stats.dropped);
		vdev->have_seq = true;
		vdev->last_board_seq = seq;
		vdev->sequence += (u32)gap + 1;
	}
	vcap_exit(vdev, idx);
out:
	mutex_unlock(&vdev->deliver_lock);
	vcap_deliver_complete(vdev);
}

/* Called by a board when a frame is published; any context. */
void vcap_frame_done(struct vcap_dev *vdev)
{
	atomic64_inc(&vdev->stats.interrupts);
	atomic64_set(&vdev->notify_ns, ktime_get_ns());
	atomic64_inc(&vdev->frame_events);
	wake_up_interruptible_all(&vdev->frame_wq);
	if (READ_ONCE(vdev->streaming))
		queue_work(vdev->wq, &vdev->deliver_work);
}

/* Called by a board when its mode or signal changed; any context. */
void vcap_status_changed(struct vcap_dev *vdev)
{
	atomic64_inc(&vdev->stats.interrupts);
	mod_delayed_work(vdev->wq, &vdev->watchdog, 0);
}

static void vcap_board_failed(struct vcap_dev *vdev, const char *why)
{
	atomic64_inc(&vdev->stats.errors);
	vcap_board_log(vdev, KERN_ERR, "board fault: %s\n", why);
	mutex_lock(&vdev->lock);
	mutex_lock(&vdev->deliver_lock);
	vdev->board_dead = true;
	mutex_unlock(&vdev->deliver_lock);
	vcap_v4l2_return_buffers(vdev, VB2_BUF_STATE_ERROR);
	mutex_unlock(&vdev->lock);
}

/*
 * The board runs a mode_gen the driver did not ask for: it restarted and
 * re-applied the request it found in memory (after "die", or a reset),
 * and numbers its frames from 0 again.  Take its ring as an acknowledged
 * request is taken, checked against the mode the stream runs, so that
 * delivery resumes.  A board now in another mode keeps the old ring and
 * is the caller's source change.  The caller holds the presence guard.
 */
static void vcap_follow_mode_gen(struct vcap_dev *vdev, u32 gen)
{
	struct vcap_ring want, ring;

	/* A request in flight sets the ring itself: look again next tick. */
	if (!mutex_trylock(&vdev->req_lock))
		return;
	want = vdev->ring;
	if (want.valid && want.mode_gen != gen &&
	    !vcap_read_ring(vdev, &want, &ring, false)) {
		mutex_lock(&vdev->deliver_lock);
		vcap_deliver_set_ring(vdev, &ring);
		mutex_unlock(&vdev->deliver_lock);
		vcap_board_log(vdev, KERN_INFO,
			       "board restarted its mode (generation %u), delivery resumes\n",
			       ring.mode_gen);
	}
	mutex_unlock(&vdev->req_lock);
}

/*
 * The watchdog: the heartbeat of a streaming board, its magic, a change
 * of mode or signal made by the board itself, and a delivery kick in case
 * an interrupt was lost.
 */
static void vcap_watchdog(struct work_struct *work)
{
	struct vcap_dev *vdev = container_of(to_delayed_work(work),
					     struct vcap_dev, watchdog);
	unsigned long timeout;
	u32 magic, gen, state, w, h, fourcc;
	bool streaming = READ_ONCE(vdev->streaming);
	bool change = false, resolution = false;
	u64 hb;
	int idx;

	if (!vcap_enter(vdev, &idx))
		return;
	magic = vcap_rd32(vdev, VCAP_OFF_INFO(magic));
	hb = vcap_rd64(vdev, VCAP_OFF_STATUS(heartbeat));
	gen = vcap_rd32(vdev, VCAP_OFF_STATUS(mode_gen));
	state = vcap_rd32(vdev, VCAP_OFF_STATUS(state));
	fourcc = vcap_rd32(vdev, VCAP_OFF_STATUS(fourcc));
	w = vcap_rd32(vdev, VCAP_OFF_STATUS(width));
	h = vcap_rd32(vdev, VCAP_OFF_STATUS(height));
	if (streaming && magic == VCAP_BOARD_MAGIC &&
	    state != VCAP_STATE_STOPPED)
		vcap_follow_mode_gen(vdev, gen);
	vcap_exit(vdev, idx);

	timeout = msecs_to_jiffies(vcap_clamp_ms(heartbeat_timeout_ms, 200,
						 60000));
	if (magic != VCAP_BOARD_MAGIC) {
		if (streaming && !vdev->board_dead)
			vcap_board_failed(vdev, "control page lost its magic");
	} else if (hb != vdev->last_heartbeat) {
		vdev->last_heartbeat = hb;
		vdev->heartbeat_jiffies = jiffies;
		if (vdev->board_dead && streaming) {
			vcap_board_log(vdev, KERN_INFO,
				       "board is alive again\n");
			mutex_lock(&vdev->deliver_lock);
			vdev->board_dead = false;
			vcap_deliver_resync(vdev);
			mutex_unlock(&vdev->deliver_lock);
		}
	} else if (streaming && !vdev->board_dead &&
		   time_after(jiffies, vdev->heartbeat_jiffies + timeout)) {
		vcap_board_failed(vdev, "heartbeat stopped");
	}

	/*
	 * A stopped board has no mode to compare: one that restarted is
	 * stopped until it re-applies the request in memory.
	 */
	if (streaming && state != VCAP_STATE_STOPPED &&
	    (gen != vdev->last_mode_gen || state != vdev->last_state)) {
		const struct vcap_ring *r = &vdev->ring;

		if (state == VCAP_STATE_NO_SIGNAL &&
		    vdev->last_state != VCAP_STATE_NO_SIGNAL)
			change = true;
		if (r->valid && (fourcc != r->fourcc || w != r->width ||
				 h != r->height)) {
			change = true;
			resolution = true;
		}
	}
	vdev->last_mode_gen = gen;
	vdev->last_state = state;
	if (change) {
		vcap_board_log(vdev, KERN_INFO,
			       "board changed its mode or signal\n");
		mutex_lock(&vdev->lock);
		vcap_v4l2_source_change(vdev, resolution,
					vcap_find_mode(vdev, fourcc, w, h));
		mutex_unlock(&vdev->lock);
	}
	if (streaming)
		queue_work(vdev->wq, &vdev->deliver_work);
	if (!READ_ONCE(vdev->gone))
		queue_delayed_work(vdev->wq, &vdev->watchdog,
				   msecs_to_jiffies(VCAP_WATCHDOG_MS));
}

static void vcap_dev_release(struct kref *kref)
{
	struct vcap_dev *vdev = container_of(kref, struct vcap_dev, kref);

	if (vdev->wq)
		destroy_workqueue(vdev->wq);
	vcap_vram_release(vdev);
	cleanup_srcu_struct(&vdev->srcu);
	if (vdev->index < VCAP_MAX_BOARDS)
		ida_free(&vcap_ida, vdev->index);
	kfree(vdev->modes);
	kfree(vdev);
}

void vcap_dev_get(struct vcap_dev *vdev)
{
	kref_get(&vdev->kref);
}

void vcap_dev_put(struct vcap_dev *vdev)
{
	kref_put(&vdev->kref, vcap_dev_release);
}

/*
 * A device for a board whose BAR2 (control page and VRAM) is bar_size
 * bytes.  The board driver owns the returned reference.
 */
struct vcap_dev *vcap_dev_alloc(struct device *parent,
				const struct vcap_board_ops *ops, void *board,
				u64 bar_size)
{
	struct vcap_dev *vdev;
	int ret;

	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev)
		return ERR_PTR(-ENOMEM);
	kref_init(&vdev->kref);
	vdev->index = VCAP_MAX_BOARDS;
	ret = init_srcu_struct(&vdev->srcu);
	if (ret) {
		kfree(vdev);
		return ERR_PTR(ret);
	}
	ret = ida_alloc_max(&vcap_ida, VCAP_MAX_BOARDS - 1, GFP_KERNEL);
	if (ret < 0)
		goto err;
	vdev->index = ret;
	vdev->parent = parent;
	vdev->ops = ops;
	vdev->board = board;
	vdev->bar_size = bar_size;
	ratelimit_state_init(&vdev->board_log_rs, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);
	mutex_init(&vdev->req_lock);
	mutex_init(&vdev->deliver_lock);
	mutex_init(&vdev->lock);
	spin_lock_init(&vdev->buf_lock);
	INIT_LIST_HEAD(&vdev->buf_list);
	INIT_LIST_HEAD(&vdev->done_list);
	INIT_WORK(&vdev->deliver_work, vcap_deliver_work);
	INIT_DELAYED_WORK(&vdev->watchdog, vcap_watchdog);
	init_waitqueue_head(&vdev->frame_wq);
	vdev->wq = alloc_ordered_workqueue("vcap%u", WQ_HIGHPRI, vdev->index);
	if (!vdev->wq) {
		ret = -ENOMEM;
		goto err;
	}
	return vdev;
err:
	vcap_dev_put(vdev);
	return ERR_PTR(ret);
}

/* Check the board and create its nodes.  -ENODEV: not a vcap board. */
int vcap_dev_register(struct vcap_dev *vdev)
{
	int ret;

	ret = vcap_board_probe(vdev);
	if (ret)
		return ret;
	ret = vcap_v4l2_register(vdev);
	if (ret)
		return ret;
	ret = vcap_vram_register(vdev);
	if (ret) {
		vcap_v4l2_unregister(vdev);
		return ret;
	}
	dev_info(vdev->parent,
		 "vcap%u: %s board \"%s\" serial \"%s\", %llu MiB, %u modes, %s\n",
		 vdev->index, vdev->soft ? "software" : "PCI", vdev->name,
		 vdev->serial, vdev->bar_size >> 20, vdev->num_modes,
		 vdev->irq ? "interrupts" : "polled");
	queue_delayed_work(vdev->wq, &vdev->watchdog,
			   msecs_to_jiffies(VCAP_WATCHDOG_MS));
	return 0;
}

/*
 * Remove the nodes, stop the board, and make sure nothing touches it
 * again: after this returns the board driver may unmap and free it.
 */
void vcap_dev_unregister(struct vcap_dev *vdev)
{
	vcap_v4l2_unregister(vdev);
	WRITE_ONCE(vdev->gone, true);
	synchronize_srcu(&vdev->srcu);
	/* No mmap of VRAM can start now: zap the ones that exist. */
	vcap_vram_unregister(vdev);
	cancel_delayed_work_sync(&vdev->watchdog);
	mutex_lock(&vdev->deliver_lock);
	WRITE_ONCE(vdev->streaming, false);
	mutex_unlock(&vdev->deliver_lock);
	cancel_work_sync(&vdev->deliver_work);
	wake_up_interruptible_all(&vdev->frame_wq);
}

static int __init vcap_init(void)
{
	int ret;

	if (soft_boards > VCAP_MAX_BOARDS) {
		pr_warn("vcap: soft_boards=%u clamped to %u\n", soft_boards,
			VCAP_MAX_BOARDS);
		soft_boards = VCAP_MAX_BOARDS;
	}
	ret = vcap_vram_init();
	if (ret)
		return ret;
	ret = vcap_pci_init();
	if (ret)
		goto err_vram;
	ret = vcap_soft_init(soft_boards);
	if (ret)
		goto err_pci;
	return 0;
err_pci:
	vcap_pci_exit();
err_vram:
	vcap_vram_exit();
	return ret;
}

static void __exit vcap_exit_module(void)
{
	vcap_soft_exit();
	vcap_pci_exit();
	vcap_vram_exit();
	ida_destroy(&vcap_ida);
}

module_init(vcap_init);
module_exit(vcap_exit_module);

MODULE_DESCRIPTION("vcap video capture card");
MODULE_AUTHOR("The vcap authors");
MODULE_LICENSE("GPL");
