// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* The VRAM node /dev/vcapN: map the BAR, wait for frames, seqlock reads. */
#include "vcap-priv.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/vcap.h>
#include <vcap/board.h>

/* Attempts at a slot the board is rewriting before calling it torn. */
#define SLOT_RETRIES	4

struct vcap_vram {
	int fd;
	char path[256];
	const volatile uint8_t *map;	/* BAR2, read-only */
	size_t map_size;
	struct vcap_info info;		/* last VCAP_IOC_QUERY */
	uint64_t last_seq;		/* newest sequence handed out */
	bool have_seq;
	uint32_t mode_gen;		/* board mode of info's ring */
};

static int vram_fail(const struct vcap_vram *vram, const char *op)
{
	return vcap_set_error(errno, "%s: %s", vram->path, op);
}

static const volatile struct vcap_board_ctrl *ctrl(const struct vcap_vram *v)
{
	return (const volatile struct vcap_board_ctrl *)v->map;
}

static uint32_t rd32(const volatile __le32 *p)
{
	return le32toh(*(const volatile uint32_t *)p);
}

static uint64_t rd64(const volatile __le64 *p)
{
	return le64toh(*(const volatile uint64_t *)p);
}

static int vram_ioc_query(struct vcap_vram *vram)
{
	memset(&vram->info, 0, sizeof(vram->info));
	if (vcap_xioctl(vram->fd, VCAP_IOC_QUERY, &vram->info) < 0)
		return vram_fail(vram, "VCAP_IOC_QUERY");
	if (vram->info.abi_version != VCAP_ABI_VERSION)
		return vcap_set_error(EPROTO,
				      "%s: VCAP_IOC_QUERY: ABI version %u, expected %u",
				      vram->path, vram->info.abi_version,
				      VCAP_ABI_VERSION);
	return 0;
}

struct vcap_vram *vcap_vram_open(const char *path)
{
	struct vcap_vram *vram;
	void *map;

	vram = calloc(1, sizeof(*vram));
	if (!vram) {
		vcap_set_error(ENOMEM, "%s: open", path);
		return NULL;
	}
	snprintf(vram->path, sizeof(vram->path), "%s", path);
	vram->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vram->fd < 0) {
		vram_fail(vram, "open");
		goto err_free;
	}
	if (vram_ioc_query(vram) < 0) {
		if (errno == ENOTTY)
			vcap_set_error(ENOTTY,
				       "%s: VCAP_IOC_QUERY: not a vcap VRAM node",
				       path);
		goto err_close;
	}
	if (vram->info.map_size < sizeof(struct vcap_board_ctrl) ||
	    vram->info.map_size > SIZE_MAX) {
		vcap_set_error(EPROTO, "%s: VCAP_IOC_QUERY: map size %llu too small",
			       path, (unsigned long long)vram->info.map_size);
		goto err_close;
	}
	vram->map_size = vram->info.map_size;
	map = mmap(NULL, vram->map_size, PROT_READ, MAP_SHARED, vram->fd, 0);
	if (map == MAP_FAILED) {
		vram_fail(vram, "mmap");
		goto err_close;
	}
	vram->map = map;
	return vram;

err_close:
	close(vram->fd);
err_free:
	free(vram);
	return NULL;
}

void vcap_vram_close(struct vcap_vram *vram)
{
	if (!vram)
		return;
	munmap((void *)vram->map, vram->map_size);
	close(vram->fd);
	free(vram);
}

int vcap_vram_fd(const struct vcap_vram *vram)
{
	return vram->fd;
}

const char *vcap_vram_path(const struct vcap_vram *vram)
{
	return vram->path;
}

int vcap_vram_query(struct vcap_vram *vram, struct vcap_vram_info *out)
{
	const volatile struct vcap_board_ctrl *c = ctrl(vram);
	const struct vcap_info *in = &vram->info;

	if (vram_ioc_query(vram) < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%.31s", in->name);
	snprintf(out->serial, sizeof(out->serial), "%.31s", in->serial);
	out->abi_version = in->abi_version;
	out->board_abi_version = in->board_abi_version;
	out->soft_board = in->flags & VCAP_INFO_SOFT_BOARD;
	out->irq = in->flags & VCAP_INFO_IRQ;
	out->streaming = in->flags & VCAP_INFO_STREAMING;
	if (out->streaming) {
		out->mode.fourcc = in->fourcc;
		out->mode.width = in->width;
		out->mode.height = in->height;
		out->mode.bytesperline = in->bytesperline;
		out->mode.sizeimage = in->sizeimage;
		out->mode.interval_num = in->interval_num;
		out->mode.interval_den = in->interval_den;
		out->num_slots = in->num_slots;
		out->ring_offset = in->ring_offset;
		out->slot_stride = in->slot_stride;
	}
	out->map_size = in->map_size;
	out->frames_produced = rd64(&c->status.frames_produced);
	out->frames_overwritten = rd64(&c->status.frames_overwritten);
	out->frames_late = rd64(&c->status.frames_late);
	out->heartbeat = rd64(&c->status.heartbeat);
	return 0;
}

/* The active mode and ring, checked against the mapping. */
static int vram_check_ring(struct vcap_vram *vram)
{
	const struct vcap_info *in = &vram->info;
	uint64_t end;

	if (!(in->flags & VCAP_INFO_STREAMING))
		return vcap_set_error(ENODATA,
				      "%s: the board has no active mode (not streaming)",
				      vram->path);
	if (in->num_slots < 1 || in->num_slots > VCAP_MAX_SLOTS ||
	    in->sizeimage == 0 || in->slot_stride < in->sizeimage)
		return vcap_set_error(EPROTO, "%s: VCAP_IOC_QUERY: bad ring layout",
				      vram->path);
	end = in->ring_offset + (uint64_t)in->num_slots * in->slot_stride;
	if (in->ring_offset >= vram->map_size || end > vram->map_size ||
	    end < in->ring_offset)
		return vcap_set_error(EPROTO,
				      "%s: VCAP_IOC_QUERY: ring past the mapping",
				      vram->path);
	return 0;
}

/* Query the ring again, remembering the board mode it belongs to. */
static int vram_load_ring(struct vcap_vram *vram)
{
	uint32_t gen = rd32(&ctrl(vram)->status.mode_gen);

	if (vram_ioc_query(vram) < 0 || vram_check_ring(vram) < 0)
		return -1;
	vram->mode_gen = gen;
	return 0;
}

int vcap_vram_start(struct vcap_vram *vram, struct vcap_mode *mode)
{
	if (vram_load_ring(vram) < 0)
		return -1;
	memset(mode, 0, sizeof(*mode));
	mode->fourcc = vram->info.fourcc;
	mode->width = vram->info.width;
	mode->height = vram->info.height;
	mode->bytesperline = vram->info.bytesperline;
	mode->sizeimage = vram->info.sizeimage;
	mode->interval_num = vram->info.interval_num;
	mode->interval_den = vram->info.interval_den;
	vram->have_seq = false;
	return 0;
}

/*
 * Read one slot's header under its sequence lock.  Returns the even lock
 * value the fields were read at, or -1 if the writer kept it busy.
 */
static int64_t read_slot(const struct vcap_vram *vram, uint32_t slot,
			 struct vcap_board_slot *hdr)
{
	const volatile struct vcap_board_slot *s = &ctrl(vram)->slots[slot];

	for (int i = 0; i < SLOT_RETRIES; i++) {
		uint32_t l1, l2;

		l1 = rd32(&s->lock);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		hdr->flags = rd32(&s->flags);
		hdr->sequence = rd64(&s->sequence);
		hdr->timestamp_ns = rd64(&s->timestamp_ns);
		hdr->bytesused = rd32(&s->bytesused);
		hdr->mode_gen = rd32(&s->mode_gen);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		l2 = rd32(&s->lock);
		if (l1 == l2 && !(l1 & 1))
			return l1;
	}
	return -1;
}

/*
 * The first wait asks for a frame newer than the one published now, so
 * the first frame handed out is fresh; before any frame, for frame 0.
 */
static uint64_t first_after(const struct vcap_vram *vram)
{
	const volatile struct vcap_board_ctrl *c = ctrl(vram);
	uint32_t slot = rd32(&c->status.latest_slot);

	if (slot >= VCAP_MAX_SLOTS ||
	    rd32(&c->slots[slot].mode_gen) != vram->mode_gen)
		return 0;
	return rd64(&c->status.latest_seq);
}

int vcap_vram_wait(struct vcap_vram *vram, struct vcap_frame *frame,
		   int timeout_ms)
{
	const struct vcap_info *in = &vram->info;
	struct vcap_board_slot hdr;
	struct vcap_wait w;
	uint64_t deadline = vcap_now_ns() +
			    (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000000;
	bool mode_changed = false;
	int64_t lock;
	uint64_t off;

	if (!(in->flags & VCAP_INFO_STREAMING) && vram_load_ring(vram) < 0)
		return -1;
	for (;;) {
		uint64_t now = vcap_now_ns();
		int left = timeout_ms;

		/* The board changed mode: a new ring, sequences from 0. */
		if (rd32(&ctrl(vram)->status.mode_gen) != vram->mode_gen) {
			if (vram_load_ring(vram) < 0)
				return -1;
			vram->have_seq = false;
			mode_changed = true;
		}
		if (timeout_ms >= 0) {
			if (now >= deadline)
				left = 0;
			else
				left = (int)((deadline - now + 999999) / 1000000);
		}
		memset(&w, 0, sizeof(w));
		w.after_seq = vram->have_seq ? vram->last_seq :
					       first_after(vram);
		w.timeout_ms = timeout_ms < 0 ? 1000 : (uint32_t)left;
		if (vcap_xioctl(vram->fd, VCAP_IOC_WAIT_FRAME, &w) < 0) {
			if (errno != ETIMEDOUT && errno != EAGAIN)
				return vram_fail(vram, "VCAP_IOC_WAIT_FRAME");
			if (timeout_ms < 0)
				continue;
			return VCAP_TIMEOUT;
		}
		if (rd32(&ctrl(vram)->slots[w.slot % VCAP_MAX_SLOTS].mode_gen) ==
		    vram->mode_gen)
			break;
		/*
		 * A slot still holding a frame of an earlier mode (its old,
		 * higher sequence passes after_seq), or of a mode not loaded
		 * yet: let the ring turn, or load the new mode, and look again.
		 */
		if (timeout_ms >= 0 && vcap_now_ns() >= deadline)
			return VCAP_TIMEOUT;
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
	if (w.slot >= in->num_slots)
		return vcap_set_error(EPROTO,
				      "%s: VCAP_IOC_WAIT_FRAME: slot %u out of range",
				      vram->path, w.slot);
	memset(frame, 0, sizeof(*frame));
	frame->dequeue_ns = vcap_now_ns();
	frame->dmabuf_fd = -1;
	frame->index = w.slot;
	if (mode_changed)
		frame->flags |= VCAP_FRAME_MODE_CHANGED;
	frame->mode.fourcc = in->fourcc;
	frame->mode.width = in->width;
	frame->mode.height = in->height;
	frame->mode.bytesperline = in->bytesperline;
	frame->mode.sizeimage = in->sizeimage;
	frame->mode.interval_num = in->interval_num;
	frame->mode.interval_den = in->interval_den;
	off = in->ring_offset + (uint64_t)w.slot * in->slot_stride;
	frame->data = (const void *)(vram->map + off);
	frame->length = in->sizeimage;

	lock = read_slot(vram, w.slot, &hdr);
	if (lock < 0) {
		/* Caught mid-write every time: report what wait said. */
		frame->flags |= VCAP_FRAME_TORN;
		hdr.sequence = w.sequence;
		hdr.timestamp_ns = w.timestamp_ns;
		hdr.bytesused = w.bytesused;
		hdr.flags = 0;
		hdr.mode_gen = vram->mode_gen;
		lock = 1;	/* odd: never valid */
	}
	frame->priv = (uint64_t)lock;
	frame->sequence = hdr.sequence;
	frame->timestamp_ns = hdr.timestamp_ns;
	frame->bytesused = hdr.bytesused <= in->sizeimage ? hdr.bytesused :
							   in->sizeimage;
	/* Written in a mode other than the ring we point into: not whole. */
	if (hdr.mode_gen != vram->mode_gen)
		frame->flags |= VCAP_FRAME_ERROR;
	if (hdr.flags & VCAP_SLOT_ERROR || w.flags & VCAP_WAIT_ERROR)
		frame->flags |= VCAP_FRAME_ERROR;
	if (hdr.flags & VCAP_SLOT_NO_SIGNAL || w.flags & VCAP_WAIT_NO_SIGNAL)
		frame->flags |= VCAP_FRAME_NO_SIGNAL;
	/* Only the software board runs on this machine's monotonic clock. */
	if (in->flags & VCAP_INFO_SOFT_BOARD)
		frame->flags |= VCAP_FRAME_TS_MONOTONIC;
	vram->last_seq = hdr.sequence > w.sequence ? hdr.sequence : w.sequence;
	vram->have_seq = true;
	return 0;
}

bool vcap_vram_frame_valid(struct vcap_vram *vram,
			   const struct vcap_frame *frame)
{
	const volatile struct vcap_board_slot *s;

	if (frame->index >= VCAP_MAX_SLOTS || frame->priv & 1)
		return false;
	s = &ctrl(vram)->slots[frame->index];
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return rd32(&s->lock) == (uint32_t)frame->priv;
}

int vcap_vram_copy(struct vcap_vram *vram, const struct vcap_frame *frame,
		   void *dst, size_t size)
{
	size_t n = frame->bytesused < size ? frame->bytesused : size;

	memcpy(dst, frame->data, n);
	if (!vcap_vram_frame_valid(vram, frame))
		return vcap_set_error(EAGAIN,
				      "%s: frame %llu was overwritten while copied",
				      vram->path,
				      (unsigned long long)frame->sequence);
	return 0;
}
