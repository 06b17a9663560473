// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The built-in synthetic source: 75% colour bars, paced. */
#include "vv-testsrc.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VV_BAR_75	191

static const uint32_t vv_bars[VV_TESTSRC_BARS] = {
	0xbfbfbf, 0xbfbf00, 0x00bfbf, 0x00bf00,
	0xbf00bf, 0xbf0000, 0x0000bf, 0x000000,
};

struct vv_testsrc {
	uint8_t *image;
	size_t size;
	uint64_t sequence;
	uint64_t stall_after;		/* 0: never */
	uint64_t period_ns;
	uint64_t next_ns;		/* when the next frame is due */
	/* A signal lost after lose_after frames, back after back_ns. */
	bool lose;
	uint64_t lose_after;
	uint64_t back_ns;		/* 0: never back */
	uint64_t lost_ns;		/* when it went; 0: it is here */
	uint32_t back_w, back_h;	/* the size it comes back in; 0: same */
	uint8_t *old_image;		/* before that: held views may read it */
};

bool vv_testsrc_path(const char *path)
{
	return !strncmp(path, VV_TESTSRC_PREFIX, strlen(VV_TESTSRC_PREFIX));
}

uint32_t vv_testsrc_bar_rgb(unsigned int i)
{
	return i < VV_TESTSRC_BARS ? vv_bars[i] : 0;
}

/* BT.601 limited range, the inverse of what the viewer shows YUV with. */
static void vv_rgb_to_yuv(uint32_t rgb, uint8_t *y, uint8_t *u, uint8_t *v)
{
	int r = rgb >> 16, g = (rgb >> 8) & 0xff, b = rgb & 0xff;

	*y = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
	*u = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
	*v = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
}

static uint32_t vv_bar_at(const struct vcap_mode *m, uint32_t x)
{
	return vv_bars[(uint64_t)x * VV_TESTSRC_BARS / m->width];
}

int vv_testsrc_draw(const struct vcap_mode *m, uint8_t *buf)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(m->fourcc);
	uint32_t bpl = m->bytesperline, h = m->height;
	uint8_t y, u, v, cy;

	if (!pf || !vcap_mode_frame_size(m))
		return -1;
	for (uint32_t row = 0; row < h; row++) {
		uint8_t *line = buf + (size_t)row * bpl;

		for (uint32_t x = 0; x < m->width; x++) {
			uint32_t rgb = vv_bar_at(m, x);
			uint8_t *p = line + (size_t)x * pf->bpp;

			vv_rgb_to_yuv(rgb, &y, &u, &v);
			switch (pf->layout) {
			case VCAP_LAYOUT_PACKED_YUV422:
				/* Chroma of a pair comes from its left pixel. */
				vv_rgb_to_yuv(vv_bar_at(m, x & ~1u), &cy, &u, &v);
				p = line + (size_t)(x & ~1u) * 2;
				p[pf->order[(x & 1) ? 2 : 0]] = y;
				p[pf->order[1]] = u;
				p[pf->order[3]] = v;
				break;
			case VCAP_LAYOUT_SEMI_PLANAR_420:
			case VCAP_LAYOUT_PLANAR_420:
			case VCAP_LAYOUT_GREY:
				*p = pf->layout == VCAP_LAYOUT_GREY ?
					     (uint8_t)(rgb >> 8) : y;
				break;
			case VCAP_LAYOUT_RGB:
				p[pf->order[0]] = rgb >> 16;
				p[pf->order[1]] = rgb >> 8;
				p[pf->order[2]] = rgb;
				if (pf->bpp == 4)
					p[6 - pf->order[0] - pf->order[1] -
					  pf->order[2]] = 0xff;
				break;
			default:
				return -1;
			}
		}
	}
	if (pf->layout == VCAP_LAYOUT_SEMI_PLANAR_420 ||
	    pf->layout == VCAP_LAYOUT_PLANAR_420) {
		uint8_t *c = buf + (size_t)bpl * h;
		uint32_t cpitch = pf->layout == VCAP_LAYOUT_PLANAR_420 ?
					  (bpl + 1) / 2 : bpl;
		uint32_t ch = (h + 1) / 2;
		uint8_t *cb = c, *cr = c + (size_t)cpitch * ch;

		for (uint32_t row = 0; row < ch; row++)
			for (uint32_t x = 0; x < m->width; x += 2) {
				vv_rgb_to_yuv(vv_bar_at(m, x), &y, &u, &v);
				if (pf->layout == VCAP_LAYOUT_SEMI_PLANAR_420) {
					c[(size_t)row * bpl + x] = u;
					c[(size_t)row * bpl + x + 1] = v;
				} else {
					cb[(size_t)row * cpitch + x / 2] = u;
					cr[(size_t)row * cpitch + x / 2] = v;
				}
			}
	}
	return 0;
}

static uint64_t vv_parse_option(const char *path, const char *key)
{
	const char *p = strstr(path, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

static int vv_testsrc_open(struct vcap_source *src, const char *path,
			   const struct vcap_source_config *cfg)
{
	struct vcap_mode m = cfg ? cfg->mode : (struct vcap_mode){ 0 };
	const struct vcap_pixfmt *pf;
	struct vv_testsrc *t;
	const char *p;

	if (strcmp(path, "test:bars") && strncmp(path, "test:bars,", 10)) {
		errno = ENOENT;
		return -1;
	}
	if (!m.fourcc)
		m.fourcc = V4L2_PIX_FMT_YUYV;
	if (!m.width || !m.height) {
		m.width = 640;
		m.height = 480;
	}
	if (!m.interval_num || !m.interval_den) {
		m.interval_num = 1;
		m.interval_den = 30;
	}
	pf = vcap_pixfmt_find(m.fourcc);
	if (!pf || pf->layout == VCAP_LAYOUT_UNKNOWN ||
	    pf->layout == VCAP_LAYOUT_PLANAR_422 ||
	    (pf->layout != VCAP_LAYOUT_RGB && pf->layout != VCAP_LAYOUT_GREY &&
	     (m.width & 1))) {
		errno = EINVAL;
		return -1;
	}
	m.bytesperline = m.width * pf->bpp;
	m.sizeimage = vcap_mode_frame_size(&m);
	if (!m.sizeimage) {
		errno = EINVAL;
		return -1;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	t->image = malloc(m.sizeimage);
	if (!t->image) {
		free(t);
		return -1;
	}
	t->size = m.sizeimage;
	vv_testsrc_draw(&m, t->image);
	t->stall_after = vv_parse_option(path, "stall=");
	t->lose = strstr(path, "lose=") != NULL;
	t->lose_after = vv_parse_option(path, "lose=");
	t->back_ns = vv_parse_option(path, "back=") * 1000000ull;
	p = strstr(path, "back_size=");
	if (p && sscanf(p + 10, "%ux%u", &t->back_w, &t->back_h) != 2) {
		free(t->image);
		free(t);
		errno = EINVAL;
		return -1;
	}
	t->period_ns = 1000000000ull * m.interval_num / m.interval_den;
	src->priv = t;
	src->mode = m;
	return 0;
}

static int vv_testsrc_start(struct vcap_source *src)
{
	struct vv_testsrc *t = src->priv;

	t->sequence = 0;
	t->next_ns = vcap_now_ns();
	t->lost_ns = 0;
	src->no_signal = false;
	/* lose=0: no signal from the start. */
	if (t->lose && !t->lose_after) {
		t->lost_ns = t->next_ns;
		src->no_signal = true;
	}
	return 0;
}

static void vv_sleep_until(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ull, ns % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* A source change of the signal, as libvcap reports a DV input's. */
static int vv_testsrc_change(struct vcap_source *src, uint64_t now,
			     bool signal, uint64_t gone_ns)
{
	struct vcap_source_change *c = &src->change;

	c->what = signal ? VCAP_CHANGE_SIGNAL_BACK : VCAP_CHANGE_SIGNAL_LOST;
	c->signal = signal;
	if (signal) {
		c->mode = src->mode;
		/* No signal at start: no mode before to differ from. */
		if (c->old_mode.width)
			c->what |= vcap_mode_diff(&c->old_mode, &c->mode);
	} else {
		c->old_mode = src->mode;
		memset(&c->mode, 0, sizeof(c->mode));
	}
	c->time_ns = now;
	c->no_signal_ns = gone_ns;
	c->count++;
	src->no_signal = !signal;
	return VCAP_SOURCE_CHANGED;
}

/* The source comes back in back_size=: a new picture, the old kept. */
static int vv_testsrc_resize(struct vcap_source *src)
{
	struct vv_testsrc *t = src->priv;
	struct vcap_mode m = src->mode;
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(m.fourcc);
	uint8_t *image;

	m.width = t->back_w;
	m.height = t->back_h;
	m.bytesperline = m.width * pf->bpp;
	m.sizeimage = vcap_mode_frame_size(&m);
	image = m.sizeimage ? malloc(m.sizeimage) : NULL;
	if (!image || vv_testsrc_draw(&m, image)) {
		free(image);
		return -1;
	}
	free(t->old_image);
	t->old_image = t->image;
	t->image = image;
	t->size = m.sizeimage;
	src->mode = m;
	return 0;
}

/*
 * The signal lost (lose=) and back (back=): VCAP_SOURCE_CHANGED at each,
 * VCAP_TIMEOUT while it is gone, 0 while it is here.
 */
static int vv_testsrc_signal(struct vcap_source *src, uint64_t now,
			     uint64_t limit)
{
	struct vv_testsrc *t = src->priv;
	uint64_t back;

	if (!t->lose)
		return 0;
	if (!t->lost_ns) {
		if (t->sequence != t->lose_after)
			return 0;
		t->lost_ns = now;
		return vv_testsrc_change(src, now, false, 0);
	}
	back = t->back_ns ? t->lost_ns + t->back_ns : UINT64_MAX;
	if (back > limit) {
		vv_sleep_until(limit);
		return VCAP_TIMEOUT;
	}
	vv_sleep_until(back);
	now = vcap_now_ns();
	t->lose = false;
	t->next_ns = now;
	if (t->back_w && vv_testsrc_resize(src)) {
		errno = ENOMEM;
		return -1;
	}
	return vv_testsrc_change(src, now, true, now - t->lost_ns);
}

static int vv_testsrc_next(struct vcap_source *src, struct vcap_frame *frame,
			   int timeout_ms)
{
	struct vv_testsrc *t = src->priv;
	uint64_t now = vcap_now_ns();
	uint64_t limit = timeout_ms < 0 ? UINT64_MAX :
					  now + (uint64_t)timeout_ms * 1000000;
	int ret = vv_testsrc_signal(src, now, limit);

	if (ret)
		return ret;

	if ((t->stall_after && t->sequence >= t->stall_after) ||
	    t->next_ns > limit) {
		if (timeout_ms >= 0)
			vv_sleep_until(limit);
		return VCAP_TIMEOUT;
	}
	vv_sleep_until(t->next_ns);
	memset(frame, 0, sizeof(*frame));
	frame->data = t->image;
	frame->bytesused = t->size;
	frame->length = t->size;
	frame->sequence = t->sequence++;
	frame->timestamp_ns = t->next_ns;
	frame->dequeue_ns = vcap_now_ns();
	frame->flags = VCAP_FRAME_TS_MONOTONIC;
	frame->dmabuf_fd = -1;
	frame->mode = src->mode;
	/*
	 * Paced on an absolute clock so the rate does not drift; after a
	 * late frame the schedule restarts from now rather than bursting.
	 */
	t->next_ns += t->period_ns;
	if (t->next_ns < frame->dequeue_ns)
		t->next_ns = frame->dequeue_ns;
	return 0;
}

static int vv_testsrc_release(struct vcap_source *src,
			      struct vcap_frame *frame)
{
	(void)src;
	(void)frame;
	return 0;
}

static int vv_testsrc_stop(struct vcap_source *src)
{
	(void)src;
	return 0;
}

static void vv_testsrc_close(struct vcap_source *src)
{
	struct vv_testsrc *t = src->priv;

	if (t) {
		free(t->old_image);
		free(t->image);
		free(t);
	}
	src->priv = NULL;
}

const struct vcap_source_ops vv_testsrc_ops = {
	.name = "test",
	.open = vv_testsrc_open,
	.start = vv_testsrc_start,
	.next = vv_testsrc_next,
	.release = vv_testsrc_release,
	.stop = vv_testsrc_stop,
	.close = vv_testsrc_close,
};
