/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* A tiny built-in 5x7 bitmap font for the overlay (no SDL_ttf needed). */
#ifndef VV_FONT_H
#define VV_FONT_H

#include <stdint.h>

#define VV_FONT_WIDTH	5
#define VV_FONT_HEIGHT	7
#define VV_FONT_ADVANCE	6	/* glyph plus one column of space */
#define VV_FONT_LINE	9	/* glyph plus two rows of space */

/*
 * The rows of character c, top first, bit 4 the leftmost pixel.  Lower
 * case shows as upper case; a character the font lacks shows as '?'.
 */
const uint8_t *vv_font_glyph(char c);

#endif /* VV_FONT_H */
