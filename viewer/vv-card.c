// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The NO SIGNAL card, drawn with the built-in font into a bitmap. */
#include "vv-card.h"
#include "vv-font.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define VV_CARD_BOX	0xff202830u	/* a dark slate, opaque */
#define VV_CARD_INK	0xffffffffu
#define VV_CARD_DIM	0xffb0b8c0u	/* the detail lines */
#define VV_CARD_MARGIN	2		/* in glyph pixels of the title */

/* Columns of the longest line of text, and its lines. */
static void vv_card_extent(const char *text, int *cols, int *lines)
{
	int col = 0;

	*cols = 0;
	*lines = *text ? 1 : 0;
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

/* One line of text at (x, y), each font pixel scale x scale. */
static void vv_card_text(struct vv_overlay_bitmap *bm, const char *text,
			 size_t len, int x, int y, int scale, uint32_t ink)
{
	for (size_t i = 0; i < len; i++, x += VV_FONT_ADVANCE * scale) {
		const uint8_t *g = vv_font_glyph(text[i]);

		for (int gy = 0; gy < VV_FONT_HEIGHT; gy++)
			for (int gx = 0; gx < VV_FONT_WIDTH; gx++) {
				if (!(g[gy] & (0x10 >> gx)))
					continue;
				for (int sy = 0; sy < scale; sy++) {
					uint32_t *row = bm->pixels +
							(size_t)(y + gy * scale + sy) *
								bm->width;

					for (int sx = 0; sx < scale; sx++)
						row[x + gx * scale + sx] = ink;
				}
			}
	}
}

int vv_card_draw(struct vv_overlay_bitmap *bm, const char *title,
		 const char *detail, int scale)
{
	int small, tcols, tlines, dcols, dlines, margin, y;
	size_t need;

	if (scale < 1)
		scale = 1;
	small = scale / 2 > 0 ? scale / 2 : 1;
	margin = VV_CARD_MARGIN * scale;
	vv_card_extent(title, &tcols, &tlines);
	vv_card_extent(detail, &dcols, &dlines);
	tcols *= VV_FONT_ADVANCE * scale;
	dcols *= VV_FONT_ADVANCE * small;
	bm->width = (tcols > dcols ? tcols : dcols) + 2 * margin;
	bm->height = 2 * margin + VV_FONT_HEIGHT * scale +
		     (dlines ? margin + dlines * VV_FONT_LINE * small : 0);
	need = (size_t)bm->width * bm->height;
	if (need > bm->capacity) {
		uint32_t *p = realloc(bm->pixels, need * sizeof(*p));

		if (!p)
			return -ENOMEM;
		bm->pixels = p;
		bm->capacity = need;
	}
	for (size_t i = 0; i < need; i++)
		bm->pixels[i] = VV_CARD_BOX;
	/* Each line centred in the box. */
	vv_card_text(bm, title, strcspn(title, "\n"),
		     (bm->width - tcols) / 2, margin, scale, VV_CARD_INK);
	y = 2 * margin + VV_FONT_HEIGHT * scale;
	for (const char *p = detail; *p;) {
		size_t n = strcspn(p, "\n");
		int w = (int)n * VV_FONT_ADVANCE * small;

		vv_card_text(bm, p, n, (bm->width - w) / 2, y, small,
			     VV_CARD_DIM);
		y += VV_FONT_LINE * small;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

int vv_card_scale(const char *title, uint32_t width)
{
	int cols = (int)strlen(title) * VV_FONT_ADVANCE;
	int scale = cols ? (int)(width / 3) / cols : 1;

	return scale > 1 ? scale : 1;
}
