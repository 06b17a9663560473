/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Conversion of any shown format to XRGB8888 (a native 32-bit word
 * 0x00RRGGBB, bytes B, G, R, X in memory), row by row with nearest-neighbour
 * column sampling.  YUV is read as BT.601 limited range, as the SDL sink's
 * YUV textures are set up to read it.
 */
#ifndef VV_CONVERT_H
#define VV_CONVERT_H

#include <stdint.h>

#include "vv-frame.h"

/*
 * Convert source row y: destination pixel i comes from source column
 * xmap[i] (each < width).  Rows of 4:2:0 chroma are shared by two lines.
 */
typedef void (*vv_row_fn)(const struct vv_planes *pl, uint32_t y,
			  const uint32_t *xmap, uint32_t n, uint32_t *dst);

/* NULL for a format with no converter. */
vv_row_fn vv_convert_row_fn(uint32_t fourcc);

/* One BT.601 limited-range sample to 0x00RRGGBB. */
uint32_t vv_yuv_to_xrgb(int y, int u, int v);

/*
 * Scale frame f into a dst_w x dst_h rectangle of an XRGB8888 buffer at
 * dst (dst_pitch bytes per row), keeping the aspect ratio: the picture is
 * centred and the borders are black.  xmap needs dst_w entries.
 * 0, or -EINVAL for an unknown or inconsistent frame.
 */
int vv_convert_fit(const struct vv_frame *f, uint32_t *dst, uint32_t dst_w,
		   uint32_t dst_h, uint32_t dst_pitch, uint32_t *xmap);

/* The aspect-keeping rectangle for a src_w x src_h picture in a box. */
struct vv_rect {
	int x, y, w, h;
};
struct vv_rect vv_fit_rect(uint32_t src_w, uint32_t src_h, uint32_t box_w,
			   uint32_t box_h);

#endif /* VV_CONVERT_H */
