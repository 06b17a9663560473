// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The capture thread: source frames into the one-slot buffer. */
#include "vv-capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long one wait for a frame may take: the bound on stop latency. */
#define VV_CAPTURE_POLL_MS	100

int vv_capture_init(struct vv_capture *c, struct vcap_source *src,
		    struct vv_slot *slot)
{
	memset(c, 0, sizeof(*c));
	c->src = src;
	c->slot = slot;
	c->stats = vcap_stats_new(0);
	c->frame = calloc(1, sizeof(*c->frame));
	if (!c->stats || !c->frame) {
		vv_capture_destroy(c);
		return -1;
	}
	atomic_init(&c->stop, false);
	atomic_init(&c->failed, false);
	return 0;
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

/* Copy a view into the producer's frame; false to skip the frame. */
static bool vv_capture_copy(struct vv_capture *c, const struct vcap_frame *vf)
{
	struct vv_frame *f = c->frame;
	struct vcap_mode m = vf->mode;
	size_t need, len = vf->bytesused ? vf->bytesused : vf->length;

	if (!m.bytesperline) {
		const struct vcap_pixfmt *pf = vcap_pixfmt_find(m.fourcc);

		m.bytesperline = pf ? m.width * pf->bpp : 0;
	}
	need = vcap_mode_frame_size(&m);
	if (!need || len < need || vv_frame_reserve(f, len))
		return false;
	memcpy(f->data, vf->data, len);
	/* A VRAM view may have been overwritten while we copied it. */
	if (!vcap_source_frame_valid(c->src, vf)) {
		c->torn++;
		return false;
	}
	m.sizeimage = len;
	f->mode = m;
	f->sequence = vf->sequence;
	f->timestamp_ns = vf->timestamp_ns;
	f->received_ns = vf->dequeue_ns;
	return true;
}

static void *vv_capture_thread(void *arg)
{
	struct vv_capture *c = arg;
	struct vcap_frame vf;

	vcap_stats_start(c->stats);
	while (!atomic_load(&c->stop)) {
		bool keep;
		int r = vcap_source_next(c->src, &vf, VV_CAPTURE_POLL_MS);

		if (r == VCAP_TIMEOUT)
			continue;
		if (r < 0) {
			vv_capture_fail(c, vcap_last_error());
			break;
		}
		keep = !(vf.flags & (VCAP_FRAME_ERROR | VCAP_FRAME_NO_SIGNAL |
				     VCAP_FRAME_TORN)) &&
		       vv_capture_copy(c, &vf);
		vcap_stats_frame(c->stats, &vf);
		if (vcap_source_release(c->src, &vf)) {
			vv_capture_fail(c, vcap_last_error());
			break;
		}
		if (!keep)
			continue;
		vv_capture_figures(c, c->frame);
		vv_slot_push(c->slot, &c->frame);
	}
	vcap_stats_stop(c->stats);
	vv_slot_close(c->slot);
	return NULL;
}

int vv_capture_start(struct vv_capture *c)
{
	if (vcap_source_start(c->src)) {
		snprintf(c->error, sizeof(c->error), "%s", vcap_last_error());
		return -1;
	}
	atomic_store(&c->stop, false);
	if (pthread_create(&c->thread, NULL, vv_capture_thread, c)) {
		snprintf(c->error, sizeof(c->error),
			 "cannot start the capture thread");
		vcap_source_stop(c->src);
		return -1;
	}
	c->running = true;
	return 0;
}

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
	if (c->stats)
		vcap_stats_destroy(c->stats);
	c->stats = NULL;
}

bool vv_capture_failed(struct vv_capture *c)
{
	return atomic_load_explicit(&c->failed, memory_order_acquire);
}
