// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The on-screen overlay: its text, and the text drawn into a bitmap. */
#include "vv-overlay.h"
#include "vv-font.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define VV_OVERLAY_MARGIN	3	/* pixels of box around the text */
#define VV_OVERLAY_BOX		0xa0000000u
#define VV_OVERLAY_INK		0xffffffffu

size_t vv_overlay_text(const struct vv_overlay_info *info, char *buf,
		       size_t len)
{
	const struct vv_capture_figures *c = &info->capture;
	char cc[5];
	int n;

	n = snprintf(buf, len,
		     "%s %ux%u %s\n"
		     "FPS %.1f IN %.1f SHOWN\n"
		     "DROPS %llu SKIPPED %llu\n"
		     "COPIES %u\n"
		     "LATENCY P50 %.1f P99 %.1f MS%s%s",
		     vcap_fourcc_str(info->mode.fourcc, cc), info->mode.width,
		     info->mode.height, info->source ? info->source : "",
		     c->fps, info->shown_fps, (unsigned long long)c->drops,
		     (unsigned long long)c->replaced, info->copies,
		     c->latency_p50_ms,
		     c->latency_p99_ms, info->paused ? "\nPAUSED" : "",
		     info->stalled_s >= 1.0 ? "\nNO FRAMES" : "");
	if (n < 0)
		return 0;
	return (size_t)n < len ? (size_t)n : len ? len - 1 : 0;
}

static void vv_text_extent(const char *text, int *cols, int *lines)
{
	int col = 0;

	*cols = 0;
	*lines = 1;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			(*lines)++;
			col = 0;
			continue;
		}
		if (++col > *cols)
			*cols = col;
	}
}

int vv_overlay_draw(struct vv_overlay_bitmap *bm, const char *text, int scale)
{
	int cols, lines, x0, y0;
	size_t need;

	if (scale < 1)
		scale = 1;
	vv_text_extent(text, &cols, &lines);
	bm->width = (cols * VV_FONT_ADVANCE + 2 * VV_OVERLAY_MARGIN) * scale;
	bm->height = (lines * VV_FONT_LINE + 2 * VV_OVERLAY_MARGIN) * scale;
	need = (size_t)bm->width * bm->height;
	if (need > bm->capacity) {
		uint32_t *p = realloc(bm->pixels, need * sizeof(*p));

		if (!p)
			return -ENOMEM;
		bm->pixels = p;
		bm->capacity = need;
	}
	for (size_t i = 0; i < need; i++)
		bm->pixels[i] = VV_OVERLAY_BOX;

	x0 = y0 = VV_OVERLAY_MARGIN;
	for (const char *p = text; *p; p++) {
		const uint8_t *g;

		if (*p == '\n') {
			x0 = VV_OVERLAY_MARGIN;
			y0 += VV_FONT_LINE;
			continue;
		}
		g = vv_font_glyph(*p);
		for (int gy = 0; gy < VV_FONT_HEIGHT; gy++)
			for (int gx = 0; gx < VV_FONT_WIDTH; gx++) {
				if (!(g[gy] & (0x10 >> gx)))
					continue;
				for (int sy = 0; sy < scale; sy++)
					for (int sx = 0; sx < scale; sx++)
						bm->pixels[((y0 + gy) * scale + sy) *
							   bm->width +
							   (x0 + gx) * scale + sx] =
							VV_OVERLAY_INK;
			}
		x0 += VV_FONT_ADVANCE;
	}
	return 0;
}

void vv_overlay_free(struct vv_overlay_bitmap *bm)
{
	free(bm->pixels);
	bm->pixels = NULL;
	bm->capacity = 0;
}

void vv_overlay_blend(const struct vv_overlay_bitmap *bm, uint32_t *dst,
		      int w, int h, uint32_t pitch)
{
	int bw = bm->width < w ? bm->width : w;
	int bh = bm->height < h ? bm->height : h;

	for (int y = 0; y < bh; y++) {
		uint32_t *row = (uint32_t *)((uint8_t *)dst + (size_t)y * pitch);

		for (int x = 0; x < bw; x++) {
			uint32_t o = bm->pixels[y * bm->width + x];
			uint32_t a = o >> 24, p = row[x], out = 0;

			for (int sh = 0; sh < 24; sh += 8) {
				uint32_t c = ((o >> sh & 0xff) * a +
					      (p >> sh & 0xff) * (255 - a)) /
					     255;

				out |= c << sh;
			}
			row[x] = out;
		}
	}
}
