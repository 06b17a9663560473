// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The capture thread: source frames into the one-slot buffer, as views. */
#include "vv-capture.h"
#include "vv-dmabuf-src.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long one wait for a frame may take: the bound on stop latency. */
#define VV_CAPTURE_POLL_MS	100

static enum vv_hold vv_capture_hold_of(const struct vcap_source *src)
{
	const char *kind = vcap_source_kind(src);

	if (!strcmp(kind, "vram"))
		return VV_HOLD_SEQLOCK;
	if (!strcmp(kind, "test"))
		return VV_HOLD_STATIC;
	/* V4L2, and any other source: its buffers go back when done. */
	return VV_HOLD_BUFFER;
}

int vv_capture_init(struct vv_capture *c, struct vcap_source *src,
		    struct vv_slot *slot)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->src = src;
	c->slot = slot;
	c->hold = vv_capture_hold_of(src);
	c->stats = vcap_stats_new(0);
	c->frame = calloc(1, sizeof(*c->frame));
	if (!c->stats || !c->frame) {
		vv_capture_destroy(c);
		return -1;
	}
	atomic_init(&c->stop, false);
	atomic_init(&c->failed, false);
	c->signal.present = true;
	c->signal.since_ns = vcap_now_ns();
	return 0;
}

const char *vv_capture_path(const struct vv_capture *c)
{
	switch (c->hold) {
	case VV_HOLD_BUFFER:
		if (!strcmp(vcap_source_kind(c->src), VV_DMABUF_SRC_KIND))
			return "v4l2-dmabuf held in the display's buffer";
		return "v4l2-mmap held";
	case VV_HOLD_SEQLOCK:
		return "vram slot read in place";
	case VV_HOLD_STATIC:
		break;
	}
	return "test picture read in place";
}

void vv_capture_signal(struct vv_capture *c, struct vv_signal *out)
{
	pthread_mutex_lock(&c->lock);
	*out = c->signal;
	pthread_mutex_unlock(&c->lock);
}

/* The signal seen present or not; change, libvcap's, if one said so. */
static void vv_capture_set_signal(struct vv_capture *c, bool present,
				  const struct vcap_source_change *change)
{
	struct vv_signal *s = &c->signal;
	uint64_t now = vcap_now_ns();

	if (present == s->present && !change)
		return;
	pthread_mutex_lock(&c->lock);
	if (present != s->present) {
		if (present)
			s->back++;
		else
			s->lost++;
		if (!s->present)
			s->absent_ns += now - s->since_ns;
		s->present = present;
		s->since_ns = now;
	}
	if (change)
		s->change = *change;
	s->changes++;
	pthread_mutex_unlock(&c->lock);
}

/*
 * Why the source failed: libvcap's message, or for a source of the
 * viewer's own, which leaves errno, its text.
 */
static const char *vv_capture_why(void)
{
	const char *why = vcap_last_error();

	return *why ? why : strerror(errno);
}

static void vv_capture_fail(struct vv_capture *c, const char *what)
{
	snprintf(c->error, sizeof(c->error), "%s: %s", c->src->path, what);
	atomic_store_explicit(&c->failed, true, memory_order_release);
}

static void vv_capture_figures(struct vv_capture *c, struct vv_frame *f)
{
	struct vcap_stats_summary s;

	vcap_stats_get(c->stats, &s);
	f->figures.fps = s.fps_window;
	f->figures.frames = s.frames;
	f->figures.drops = s.drops;
	f->figures.replaced = vv_slot_replaced(c->slot);
	f->figures.latency_p50_ms = s.latency_samples ? s.latency_p50 / 1e6 : 0;
	f->figures.latency_p99_ms = s.latency_samples ? s.latency_p99 / 1e6 : 0;
}

/* Make the producer's frame a view of vf; false to skip the frame. */
static bool vv_capture_view(struct vv_capture *c, const struct vcap_frame *vf)
{
	struct vv_frame *f = c->frame;
	struct vcap_mode m = vf->mode;
	size_t need, len = vf->bytesused ? vf->bytesused : vf->length;

	if (!m.bytesperline) {
		const struct vcap_pixfmt *pf = vcap_pixfmt_find(m.fourcc);

		m.bytesperline = pf ? m.width * pf->bpp : 0;
	}
	need = vcap_mode_frame_size(&m);
	if (!need || len < need || vf->length < need)
		return false;
	m.sizeimage = len;
	f->mode = m;
	f->data = vf->data;
	f->length = vf->length;
	f->src = c->src;
	f->view = *vf;
	f->held = true;
	f->copies = 0;
	f->sequence = vf->sequence;
	f->timestamp_ns = vf->timestamp_ns;
	f->received_ns = vf->dequeue_ns;
	return true;
}

/* Give a frame's buffer back to the source; only this thread does. */
static int vv_capture_give_back(struct vv_capture *c, struct vv_frame *f)
{
	if (!f->held)
		return 0;
	f->held = false;
	f->data = NULL;
	f->length = 0;
	return vcap_source_release(c->src, &f->view);
}

/* The buffer of the frame the UI handed back, if it is still held. */
static int vv_capture_reclaim(struct vv_capture *c)
{
	struct vv_frame *f;

	/* Cleared first: a hand-back after this wakes the next wait. */
	vv_slot_wake_clear(c->slot);
	f = vv_slot_returned(c->slot);
	return f ? vv_capture_give_back(c, f) : 0;
}

/* vv_capture_next(): our own wait failed, errno says why. */
#define VV_CAPTURE_POLL_FAILED	(-2)

/*
 * The next frame, waiting at most VV_CAPTURE_POLL_MS: as
 * vcap_source_next(), or VV_CAPTURE_POLL_FAILED.  With held driver
 * buffers the wait also ends when the UI hands one back, so that a source
 * with every buffer out is given one at once.
 */
static int vv_capture_next(struct vv_capture *c, struct vcap_frame *vf)
{
	struct pollfd pfd[2] = {
		{ .fd = vcap_source_fd(c->src), .events = POLLIN | POLLPRI },
		{ .fd = vv_slot_wake_fd(c->slot), .events = POLLIN },
	};
	int r;

	/* Without a signal the source is stopped: it waits for a change. */
	if (c->hold != VV_HOLD_BUFFER || pfd[0].fd < 0 ||
	    !vcap_source_has_signal(c->src))
		return vcap_source_next(c->src, vf, VV_CAPTURE_POLL_MS);
	r = poll(pfd, 2, VV_CAPTURE_POLL_MS);
	if (r < 0 && errno != EINTR)
		return VV_CAPTURE_POLL_FAILED;
	if (r <= 0 || !pfd[0].revents)
		return VCAP_TIMEOUT;
	return vcap_source_next(c->src, vf, 0);
}

static void *vv_capture_thread(void *arg)
{
	struct vv_capture *c = arg;
	struct vcap_frame vf;

	vcap_stats_start(c->stats);
	while (!atomic_load(&c->stop)) {
		bool keep;
		int r;

		if (vv_capture_reclaim(c)) {
			vv_capture_fail(c, vv_capture_why());
			break;
		}
		r = vv_capture_next(c, &vf);
		if (r == VCAP_TIMEOUT)
			continue;
		/*
		 * libvcap has re-queried the timings and reallocated, or
		 * stopped without a signal: frames come in the new mode.
		 */
		if (r == VCAP_SOURCE_CHANGED) {
			vv_capture_set_signal(c, vcap_source_has_signal(c->src),
					      vcap_source_last_change(c->src));
			continue;
		}
		if (r < 0) {
			vv_capture_fail(c, r == VV_CAPTURE_POLL_FAILED ?
						   strerror(errno) :
						   vv_capture_why());
			break;
		}
		keep = !(vf.flags & (VCAP_FRAME_ERROR | VCAP_FRAME_NO_SIGNAL |
				     VCAP_FRAME_TORN)) &&
		       vv_capture_view(c, &vf);
		/* Filler frames are a source without a signal too. */
		if (vf.flags & VCAP_FRAME_NO_SIGNAL)
			vv_capture_set_signal(c, false, NULL);
		else if (keep)
			vv_capture_set_signal(c, true, NULL);
		vcap_stats_frame(c->stats, &vf);
		if (!keep) {
			if (vcap_source_release(c->src, &vf)) {
				vv_capture_fail(c, vv_capture_why());
				break;
			}
			continue;
		}
		vv_capture_figures(c, c->frame);
		vv_slot_push(c->slot, &c->frame);
		/* Back comes a frame nobody shows any more. */
		if (vv_capture_give_back(c, c->frame)) {
			vv_capture_fail(c, vv_capture_why());
			break;
		}
	}
	vcap_stats_stop(c->stats);
	vv_slot_close(c->slot);
	return NULL;
}

int vv_capture_start(struct vv_capture *c)
{
	if (vcap_source_start(c->src)) {
		snprintf(c->error, sizeof(c->error), "%s%s%s",
			 *vcap_last_error() ? "" : c->src->path,
			 *vcap_last_error() ? "" : ": start: ",
			 vv_capture_why());
		return -1;
	}
	atomic_store(&c->stop, false);
	/* A DV input without a signal at start: waited for, not lost. */
	pthread_mutex_lock(&c->lock);
	c->signal.present = vcap_source_has_signal(c->src);
	c->signal.since_ns = vcap_now_ns();
	pthread_mutex_unlock(&c->lock);
	if (pthread_create(&c->thread, NULL, vv_capture_thread, c)) {
		snprintf(c->error, sizeof(c->error),
			 "cannot start the capture thread");
		vcap_source_stop(c->src);
		return -1;
	}
	c->running = true;
	return 0;
}

/*
 * Frames still held in the slot or by the UI need no giving back: the
 * source's stop takes every buffer back.  Nobody reads them after.
 */
void vv_capture_stop(struct vv_capture *c)
{
	if (!c->running)
		return;
	atomic_store(&c->stop, true);
	pthread_join(c->thread, NULL);
	c->running = false;
	vcap_source_stop(c->src);
}

void vv_capture_destroy(struct vv_capture *c)
{
	vv_capture_stop(c);
	if (c->frame) {
		vv_frame_release(c->frame);
		free(c->frame);
		c->frame = NULL;
	}
	if (c->stats) {
		vcap_stats_destroy(c->stats);
		pthread_mutex_destroy(&c->lock);
	}
	c->stats = NULL;
}

bool vv_capture_failed(struct vv_capture *c)
{
	return atomic_load_explicit(&c->failed, memory_order_acquire);
}
