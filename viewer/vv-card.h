/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The card shown in place of the picture while the source has no signal:
 * "NO SIGNAL" in large letters over a few lines of detail, drawn with the
 * built-in font into a bitmap that the sinks centre on black.
 */
#ifndef VV_CARD_H
#define VV_CARD_H

#include "vv-overlay.h"

/*
 * Draw title at scale (1, 2, ...) and detail ('\n' between lines, may
 * be empty) at half of it, as white on an opaque dark box; 0 or
 * -ENOMEM.
 */
int vv_card_draw(struct vv_overlay_bitmap *bm, const char *title,
		 const char *detail, int scale);

/* The title's scale that makes a card about a third of width pixels. */
int vv_card_scale(const char *title, uint32_t width);

#endif /* VV_CARD_H */
