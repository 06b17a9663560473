/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The on-screen overlay: its text, and the text drawn into a bitmap. */
#ifndef VV_OVERLAY_H
#define VV_OVERLAY_H

#include <stddef.h>
#include <stdint.h>

#include "vv-frame.h"

/* What the overlay reports, gathered by the UI loop. */
struct vv_overlay_info {
	struct vcap_mode mode;
	struct vv_capture_figures capture;
	double shown_fps;		/* frames the sink displayed per second */
	uint64_t shown;
	unsigned int copies;		/* of the frame shown last */
	double stalled_s;		/* seconds since the last frame, if long */
	int paused;
	const char *source;		/* device path or source name */
};

/* Overlay text, lines separated by '\n'; returns the length written. */
size_t vv_overlay_text(const struct vv_overlay_info *info, char *buf,
		       size_t len);

/* An ARGB8888 bitmap (0xAARRGGBB words) holding rendered text. */
struct vv_overlay_bitmap {
	uint32_t *pixels;
	int width;
	int height;			/* pitch is width * 4 */
	size_t capacity;		/* in pixels */
};

/*
 * Draw text at scale (1, 2, ...) as white on a translucent black box;
 * 0 or -ENOMEM.
 */
int vv_overlay_draw(struct vv_overlay_bitmap *bm, const char *text, int scale);
void vv_overlay_free(struct vv_overlay_bitmap *bm);

/*
 * Alpha-blend bm into the top-left corner of an XRGB8888 picture of
 * w x h pixels, pitch bytes per row (clipped to it).
 */
void vv_overlay_blend(const struct vv_overlay_bitmap *bm, uint32_t *dst,
		      int w, int h, uint32_t pitch);

#endif /* VV_OVERLAY_H */
