// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The board memory and its protocol, firmware side: the control page, the
 * request/acknowledge handshake and the seqlock publishing of frames.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fw-board.h"
#include "fw-fault.h"
#include "fw-mem.h"
#include "fw-pace.h"

int fw_board_open(struct fw_board *b, const char *path, u64 size,
		  char *err, size_t errlen)
{
	memset(b, 0, sizeof(*b));
	b->fd = -1;
	if (size < FW_BOARD_MIN_SIZE || size > FW_BOARD_MAX_SIZE ||
	    (size & (size - 1))) {
		snprintf(err, errlen,
			 "board memory size %llu: must be a power of two between %llu KiB and %llu GiB (a PCI BAR)",
			 (unsigned long long)size,
			 FW_BOARD_MIN_SIZE >> 10, FW_BOARD_MAX_SIZE >> 30);
		return -EINVAL;
	}
	if (path)
		b->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	else
		b->fd = memfd_create("vcap-vram", MFD_CLOEXEC);
	if (b->fd < 0) {
		snprintf(err, errlen, "cannot create board memory %s: %s",
			 path ? path : "(memfd)", strerror(errno));
		return -errno;
	}
	if (ftruncate(b->fd, (off_t)size)) {
		snprintf(err, errlen, "cannot size board memory %s to %llu: %s",
			 path ? path : "(memfd)", (unsigned long long)size,
			 strerror(errno));
		goto err_close;
	}
	b->mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
	if (b->mem == MAP_FAILED) {
		b->mem = NULL;
		snprintf(err, errlen, "cannot map board memory %s: %s",
			 path ? path : "(memfd)", strerror(errno));
		goto err_close;
	}
	b->size = size;
	b->ctrl = (struct vcap_board_ctrl *)b->mem;
	b->frame_size = size - VCAP_CTRL_SIZE;
	fw_hdmi_init(&b->hdmi);
	return 0;

err_close:
	close(b->fd);
	b->fd = -1;
	return -EIO;
}

void fw_board_close(struct fw_board *b)
{
	if (b->mem)
		munmap(b->mem, b->size);
	if (b->fd >= 0)
		close(b->fd);
	b->mem = NULL;
	b->ctrl = NULL;
	b->fd = -1;
}

static void fw_board_clear_slots(struct fw_board *b)
{
	unsigned int i;

	for (i = 0; i < VCAP_MAX_SLOTS; i++) {
		struct vcap_board_slot *s = &b->ctrl->slots[i];

		wr32(&s->lock, 0);
		wr32(&s->flags, 0);
		wr64(&s->sequence, 0);
		wr64(&s->timestamp_ns, 0);
		wr32(&s->bytesused, 0);
		wr32(&s->mode_gen, 0);
		b->held[i] = VCAP_GEN_NONE;
		b->pub[i] = VCAP_GEN_NONE;
	}
	b->next_slot = 0;
}

void fw_board_invalidate(struct fw_board *b)
{
	unsigned int i;

	for (i = 0; i < VCAP_MAX_SLOTS; i++)
		b->held[i] = VCAP_GEN_NONE;
}

/* Mode and ring fields of the status, from b->mode. */
static void fw_board_write_mode(struct fw_board *b)
{
	struct vcap_board_status *st = &b->ctrl->status;
	const struct fw_mode *m = &b->mode;

	wr32(&st->fourcc, m->fmt.fourcc);
	wr32(&st->width, m->fmt.width);
	wr32(&st->height, m->fmt.height);
	wr32(&st->bytesperline, m->fmt.bytesperline);
	wr32(&st->sizeimage, m->fmt.sizeimage);
	wr32(&st->interval_num, m->interval_num);
	wr32(&st->interval_den, m->interval_den);
	wr32(&st->num_slots, m->ring.num_slots);
	wr64(&st->ring_offset, m->ring.ring_offset);
	wr64(&st->slot_stride, m->ring.slot_stride);
	wr32(&st->latest_slot, ~0u);
	wr64(&st->latest_seq, 0);
	wr32(&st->state, b->state);
	wr32(&st->mode_gen, b->mode_gen);
}

void fw_board_reset(struct fw_board *b, const struct fw_board_id *id)
{
	struct vcap_board_ctrl *c = b->ctrl;
	struct vcap_board_info *info = &b->info;
	u32 req_seq = rd32(&c->request.seq);
	u32 old_gen = 0, old_link_gen = 0;

	if (rd32(&c->info.magic) == VCAP_BOARD_MAGIC) {
		old_gen = rd32(&c->status.mode_gen);
		old_link_gen = rd32(&c->link.gen);
	}
	wr32(&c->info.magic, 0);
	wmb();

	memset(info, 0, sizeof(*info));
	info->abi_version = cpu_to_le32(VCAP_BOARD_ABI_VERSION);
	info->ctrl_size = cpu_to_le32(VCAP_CTRL_SIZE);
	info->caps = cpu_to_le32(id->caps);
	strncpy(info->name, id->name, VCAP_NAME_LEN - 1);
	strncpy(info->serial, id->serial, VCAP_NAME_LEN - 1);
	info->vram_size = cpu_to_le64(b->size);
	info->frame_offset = cpu_to_le64(VCAP_CTRL_SIZE);
	info->frame_size = cpu_to_le64(b->frame_size);
	info->fw_peer_id = cpu_to_le32(id->fw_peer_id);
	vcap_modes_fill(info, b->frame_size);
	/* The published copy; requests are checked against the private one. */
	memcpy(&c->info, info, sizeof(*info));

	memset(&c->status, 0, sizeof(c->status));
	memset(&b->mode, 0, sizeof(b->mode));
	fw_board_clear_slots(b);
	b->mode_gen = (old_gen > b->mode_gen ? old_gen : b->mode_gen) + 1;
	b->state = VCAP_STATE_STOPPED;
	b->link_lost = false;
	b->next_seq = 0;
	fw_hdmi_reset(&b->hdmi, old_link_gen);
	fw_hdmi_poll_edid(&b->hdmi, &c->edid);
	fw_hdmi_publish(&b->hdmi, &c->link);
	/*
	 * A request left in memory from before a restart is acted on again,
	 * so a driver that keeps its request there resumes streaming.
	 */
	b->ack_seq = req_seq ? req_seq - 1 : 0;
	b->replay = req_seq != 0;
	b->replay_seq = req_seq;
	if (b->dma) {
		fw_dma_halt(b->dma);
		fw_dma_clear_block(&c->dma);
		fw_dma_publish(b->dma, &c->dma);
	}
	wr32(&c->status.ack_seq, b->ack_seq);
	wr32(&c->status.error, VCAP_ERR_NONE);
	fw_board_write_mode(b);
	fw_board_update_status(b);
	wmb();
	wr32(&c->info.magic, VCAP_BOARD_MAGIC);
	wmb();
}

void fw_board_vanish(struct fw_board *b)
{
	/* A board off the bus writes nothing into the host any more. */
	if (b->dma)
		fw_dma_halt(b->dma);
	wr32(&b->ctrl->info.magic, 0);
	wr32(&b->ctrl->status.state, VCAP_STATE_STOPPED);
	wmb();
}

/* The input a request asks for; a board without a receiver has only TPG. */
static u32 fw_board_input(const struct fw_board *b,
			  const struct vcap_board_request *req)
{
	if (!(le32_to_cpu(b->info.caps) & VCAP_CAP_HDMI))
		return VCAP_INPUT_TPG;
	return le32_to_cpu(req->input);
}

static void fw_board_start(struct fw_board *b,
			   const struct vcap_board_request *req,
			   const struct vcap_ring_layout *ring)
{
	struct fw_mode *m = &b->mode;
	u32 fourcc = le32_to_cpu(req->fourcc);
	u32 width = le32_to_cpu(req->width);
	u32 height = le32_to_cpu(req->height);
	u32 num = le32_to_cpu(req->interval_num);
	u32 den = le32_to_cpu(req->interval_den);
	u32 input = fw_board_input(b, req);
	u32 src_w = width, src_h = height;
	bool same_picture;

	if (le32_to_cpu(req->flags) & VCAP_REQ_SCALE) {
		src_w = le32_to_cpu(req->src_width);
		src_h = le32_to_cpu(req->src_height);
	}
	m->pattern = le32_to_cpu(req->pattern);
	m->flags = le32_to_cpu(req->flags);
	same_picture = m->streaming && m->input == input &&
		       m->fmt.fourcc == fourcc && m->fmt.width == width &&
		       m->fmt.height == height &&
		       m->fmt.bytesperline == ring->bytesperline;
	if (same_picture && m->src_w == src_w && m->src_h == src_h &&
	    (u64)m->interval_num * den == (u64)num * m->interval_den) {
		/* Same mode: only the pattern or flips change. */
		fw_board_invalidate(b);
		return;
	}
	/* The HDMI input is armed: frames flow while its source feeds it. */
	b->link_lost = input == VCAP_INPUT_HDMI &&
		       !fw_hdmi_feeds(&b->hdmi, src_w, src_h, num, den);
	b->state = b->no_signal || b->link_lost ? VCAP_STATE_NO_SIGNAL :
						  VCAP_STATE_STREAMING;
	m->src_w = src_w;
	m->src_h = src_h;
	m->interval_num = num;
	m->interval_den = den;
	if (same_picture) {
		/*
		 * The same picture from another source size or rate (the
		 * scaler following new HDMI timings): the ring, its frame
		 * numbers, the mode generation and DMA go on.
		 */
		b->rate_changed = true;
		fw_board_invalidate(b);
		wr32(&b->ctrl->status.interval_num, num);
		wr32(&b->ctrl->status.interval_den, den);
		wr32(&b->ctrl->status.state, b->state);
		return;
	}
	m->streaming = true;
	m->input = input;
	m->fmt.fourcc = fourcc;
	m->fmt.width = width;
	m->fmt.height = height;
	m->fmt.bytesperline = ring->bytesperline;
	m->fmt.sizeimage = ring->sizeimage;
	m->ring = *ring;
	b->mode_gen++;
	b->next_seq = 0;
	b->mode_changed = true;
	fw_board_clear_slots(b);
	fw_board_write_mode(b);
}

static void fw_board_stop(struct fw_board *b)
{
	if (!b->mode.streaming)
		return;
	memset(&b->mode, 0, sizeof(b->mode));
	b->state = VCAP_STATE_STOPPED;
	b->link_lost = false;
	b->mode_gen++;
	b->mode_changed = true;
	fw_board_clear_slots(b);
	fw_board_write_mode(b);
}

bool fw_board_poll_request(struct fw_board *b)
{
	struct vcap_board_ctrl *c = b->ctrl;
	struct vcap_board_request req;
	u32 seq = rd32(&c->request.seq);
	int err;

	if (seq == b->ack_seq)
		return false;
	rmb();
	memcpy(&req, (const void *)&c->request, sizeof(req));
	b->requests++;
	if (b->replay && seq == b->replay_seq)
		req.flags &= cpu_to_le32(~VCAP_REQ_DMA);
	b->replay = false;
	/*
	 * The loop makes frames and handles requests in turn, on one
	 * thread: no frame is being written while this runs, and
	 * fw_board_request() has stopped DMA when it ends it, so the ack
	 * below is written after the last pixel and completion.
	 */
	err = fw_board_request(b, &req);
	if (err)
		b->refused++;
	wr32(&c->status.error, (u32)err);
	wmb();
	wr32(&c->status.ack_seq, seq);
	wmb();
	b->ack_seq = seq;
	b->last_error = (u32)err;
	return true;
}

int fw_board_apply(struct fw_board *b, const struct vcap_board_request *req)
{
	struct vcap_ring_layout ring;
	int err;

	err = vcap_modes_check(&b->info, b->frame_size, req, &ring);
	if (err)
		return err;
	if (le32_to_cpu(req->cmd) == VCAP_CMD_STOP)
		fw_board_stop(b);
	else
		fw_board_start(b, req, &ring);
	return VCAP_ERR_NONE;
}

int fw_board_request(struct fw_board *b, const struct vcap_board_request *req)
{
	bool dma = le32_to_cpu(req->cmd) == VCAP_CMD_START &&
		   (le32_to_cpu(req->flags) & VCAP_REQ_DMA);
	struct vcap_board_request mode = *req;
	struct fw_dma_rings rings;
	u32 gen = b->mode_gen;
	int err = VCAP_ERR_NONE;

	/* The rings, read once: the page is the guest's. */
	if (dma)
		err = b->dma ? fw_dma_check(b->dma, &b->ctrl->dma, &rings) :
			       VCAP_ERR_BAD_DMA;
	/* The mode check knows nothing of DMA. */
	mode.flags &= cpu_to_le32(~VCAP_REQ_DMA);
	if (!err)
		err = fw_board_apply(b, &mode);
	if (!err && dma) {
		/* Same mode, same rings: a change of pattern or flips. */
		if (b->mode_gen != gen || !fw_dma_running_on(b->dma, &rings))
			fw_dma_start(b->dma, &b->ctrl->dma, &rings,
				     fw_now_ns());
		return VCAP_ERR_NONE;
	}
	if (b->dma)
		fw_dma_stop(b->dma, fw_now_ns());
	return err;
}

const char *fw_board_err_str(u32 err)
{
	return vcap_modes_err_str(err);
}

int fw_board_set_mode(struct fw_board *b, u32 fourcc, u32 width, u32 height)
{
	struct vcap_board_request req;

	if (!b->mode.streaming)
		return VCAP_ERR_BAD_CMD;
	memset(&req, 0, sizeof(req));
	req.cmd = cpu_to_le32(VCAP_CMD_START);
	req.fourcc = cpu_to_le32(fourcc);
	req.width = cpu_to_le32(width);
	req.height = cpu_to_le32(height);
	req.interval_num = cpu_to_le32(b->mode.interval_num);
	req.interval_den = cpu_to_le32(b->mode.interval_den);
	req.pattern = cpu_to_le32(b->mode.pattern);
	req.flags = cpu_to_le32(b->mode.flags & ~VCAP_REQ_DMA);
	req.input = cpu_to_le32(b->mode.input);
	if (b->mode.flags & VCAP_REQ_SCALE) {
		req.src_width = cpu_to_le32(b->mode.src_w);
		req.src_height = cpu_to_le32(b->mode.src_h);
	}
	return fw_board_apply(b, &req);
}

bool fw_board_set_signal(struct fw_board *b, bool present)
{
	u32 state;

	b->no_signal = !present;
	if (!b->mode.streaming)
		return false;
	state = present && !b->link_lost ? VCAP_STATE_STREAMING :
					   VCAP_STATE_NO_SIGNAL;
	if (state == b->state)
		return false;
	b->state = state;
	fw_board_invalidate(b);
	wr32(&b->ctrl->status.state, state);
	return true;
}

bool fw_board_poll_link(struct fw_board *b)
{
	const struct fw_mode *m = &b->mode;
	bool changed, lost;

	fw_hdmi_poll_edid(&b->hdmi, &b->ctrl->edid);
	changed = fw_hdmi_publish(&b->hdmi, &b->ctrl->link);
	if (!m->streaming || m->input != VCAP_INPUT_HDMI)
		return changed;
	/*
	 * Nothing is published while the link is away from the running
	 * timing; back on it, frames go on in the same mode by themselves.
	 */
	lost = !fw_hdmi_feeds(&b->hdmi, m->src_w, m->src_h,
			      m->interval_num, m->interval_den);
	if (lost == b->link_lost)
		return changed;
	b->link_lost = lost;
	b->state = lost || b->no_signal ? VCAP_STATE_NO_SIGNAL :
					  VCAP_STATE_STREAMING;
	wr32(&b->ctrl->status.state, b->state);
	return true;
}

u8 *fw_board_frame_begin(struct fw_board *b, u32 *slot, u64 *prev)
{
	struct vcap_board_slot *s;
	u32 i = b->next_slot, lock;
	u64 consumed;

	if (i >= b->mode.ring.num_slots)
		i = 0;
	s = &b->ctrl->slots[i];
	consumed = rd64(&b->ctrl->request.consumed_seq);
	/*
	 * With DMA the driver takes frames from its buffers, not the ring:
	 * a frame lost to it is one with no buffer posted (fw-run).
	 */
	if (b->pub[i] != VCAP_GEN_NONE && b->pub[i] > consumed &&
	    !fw_board_dma_running(b))
		b->frames_overwritten++;
	b->pub[i] = VCAP_GEN_NONE;

	lock = rd32(&s->lock) | 1;
	wr32(&s->lock, lock);
	wmb();
	b->open_lock = lock;
	*slot = i;
	*prev = b->held[i];
	b->held[i] = VCAP_GEN_NONE;
	return b->mem + b->mode.ring.ring_offset + i * b->mode.ring.slot_stride;
}

void fw_board_frame_end(struct fw_board *b, u32 slot, u64 seq, u64 ts_ns,
			u32 bytesused, u32 flags)
{
	struct vcap_board_slot *s = &b->ctrl->slots[slot];
	struct vcap_board_status *st = &b->ctrl->status;

	wr32(&s->flags, flags);
	wr64(&s->sequence, seq);
	wr64(&s->timestamp_ns, ts_ns);
	wr32(&s->bytesused, bytesused);
	wr32(&s->mode_gen, b->mode_gen);
	wmb();
	wr32(&s->lock, b->open_lock + 1);
	wmb();
	wr32(&st->latest_slot, slot);
	wr64(&st->latest_seq, seq);
	b->held[slot] = seq;
	b->pub[slot] = seq;
	b->next_slot = (slot + 1) % b->mode.ring.num_slots;
	b->frames_produced++;
	wr64(&st->frames_produced, b->frames_produced);
	wr64(&st->frames_overwritten, b->frames_overwritten);
}

void fw_board_update_status(struct fw_board *b)
{
	struct vcap_board_status *st = &b->ctrl->status;

	wr64(&st->heartbeat, b->heartbeat);
	wr64(&st->frames_produced, b->frames_produced);
	wr64(&st->frames_overwritten, b->frames_overwritten);
	wr64(&st->frames_late, b->frames_late);
	if (b->dma)
		fw_dma_publish(b->dma, &b->ctrl->dma);
}

void fw_board_tick(struct fw_board *b)
{
	b->heartbeat++;
	fw_board_update_status(b);
}

void fw_board_corrupt(struct fw_board *b, u32 slot, int kind)
{
	struct vcap_board_slot *s = &b->ctrl->slots[slot];
	const struct fw_mode *m = &b->mode;
	u8 *px;
	u32 y;

	switch (kind) {
	case FW_CORRUPT_LOCK:
		wr32(&s->lock, rd32(&s->lock) | 1);
		break;
	case FW_CORRUPT_SEQ:
		wr64(&s->sequence, rd64(&s->sequence) > 1000 ?
			rd64(&s->sequence) - 1000 : 0);
		break;
	case FW_CORRUPT_SIZE:
		wr32(&s->bytesused, 0xfffffff0u);
		break;
	case FW_CORRUPT_SLOT:
		wr32(&b->ctrl->status.latest_slot, 0xdeadbeefu);
		break;
	case FW_CORRUPT_PIXELS:
		/* Behind the lock's back: a tear no sequence check sees. */
		px = b->mem + m->ring.ring_offset + slot * m->ring.slot_stride;
		for (y = m->fmt.height / 2 - 16; y < m->fmt.height / 2 + 16; y++)
			memset(px + (size_t)y * m->fmt.bytesperline, 0x55,
			       m->fmt.bytesperline);
		b->held[slot] = VCAP_GEN_NONE;
		break;
	}
}

void fw_board_scribble(struct fw_board *b, u32 rnd1, u32 rnd2)
{
	struct vcap_board_status *st = &b->ctrl->status;
	struct vcap_board_slot *s = &b->ctrl->slots[rnd1 % VCAP_MAX_SLOTS];
	u64 big = ((u64)rnd2 << 32) | rnd1;

	switch (rnd1 % 14) {
	case 0:
		wr32(&st->latest_slot, rnd2);
		break;
	case 1:
		wr32(&st->num_slots, rnd2);
		break;
	case 2:
		wr64(&st->ring_offset, b->size - (rnd2 & 0xfff));
		break;
	case 3:
		wr64(&st->slot_stride, big);
		break;
	case 4:
		wr32(&st->width, rnd2);
		wr32(&st->height, rnd2 >> 3);
		break;
	case 5:
		wr32(&st->sizeimage, rnd2 | 0x80000000u);
		wr32(&st->bytesperline, rnd2);
		break;
	case 6:
		wr64(&s->sequence, rnd2 & 0xff);
		break;
	case 7:
		wr32(&s->bytesused, rnd2);
		break;
	case 8:
		wr32(&s->lock, rnd2);
		break;
	case 9:
		wr32(&b->ctrl->info.magic, rnd2 & 1 ? VCAP_BOARD_MAGIC : rnd2);
		break;
	case 10:
		wr32(&st->mode_gen, rnd2);
		wr32(&st->state, rnd2 & 7);
		break;
	case 12:
		/* The board's half of the DMA block: never read back. */
		wr32(&b->ctrl->dma.comp_head, rnd2);
		wr32(&b->ctrl->dma.desc_tail, rnd2 >> 7);
		break;
	case 13:
		wr64(&b->ctrl->dma.frames_written, big);
		wr64(&b->ctrl->dma.desc_refused, rnd2);
		break;
	default:
		wr32(&st->ack_seq, rnd2);
		wr32(&st->error, rnd2);
		break;
	}
}
