// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Conversion of any shown format to XRGB8888, one converter per format. */
#include "vv-convert.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <string.h>

static inline uint8_t vv_clamp8(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

static inline uint32_t vv_rgb(uint32_t r, uint32_t g, uint32_t b)
{
	return r << 16 | g << 8 | b;
}

uint32_t vv_yuv_to_xrgb(int y, int u, int v)
{
	int c = 298 * (y - 16), d = u - 128, e = v - 128;

	return vv_rgb(vv_clamp8((c + 409 * e + 128) >> 8),
		      vv_clamp8((c - 100 * d - 208 * e + 128) >> 8),
		      vv_clamp8((c + 516 * d + 128) >> 8));
}

/* Packed 4:2:2: a macropixel of 4 bytes holds two lumas and one Cb/Cr. */
static void vv_row_422(const struct vv_planes *pl, uint32_t y,
		       const uint32_t *xmap, uint32_t n, uint32_t *dst,
		       int yo, int uo, int vo)
{
	const uint8_t *row = pl->p[0] + (size_t)y * pl->pitch[0];

	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *m = row + (xmap[i] & ~1u) * 2;

		dst[i] = vv_yuv_to_xrgb(m[yo + (xmap[i] & 1) * 2], m[uo],
					m[vo]);
	}
}

static void vv_row_yuyv(const struct vv_planes *pl, uint32_t y,
			const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	vv_row_422(pl, y, xmap, n, dst, 0, 1, 3);
}

static void vv_row_uyvy(const struct vv_planes *pl, uint32_t y,
			const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	vv_row_422(pl, y, xmap, n, dst, 1, 0, 2);
}

static void vv_row_nv12(const struct vv_planes *pl, uint32_t y,
			const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	const uint8_t *luma = pl->p[0] + (size_t)y * pl->pitch[0];
	const uint8_t *chroma = pl->p[1] + (size_t)(y / 2) * pl->pitch[1];

	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *c = chroma + (xmap[i] & ~1u);

		dst[i] = vv_yuv_to_xrgb(luma[xmap[i]], c[0], c[1]);
	}
}

static void vv_row_yuv420(const struct vv_planes *pl, uint32_t y,
			  const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	const uint8_t *luma = pl->p[0] + (size_t)y * pl->pitch[0];
	const uint8_t *cb = pl->p[1] + (size_t)(y / 2) * pl->pitch[1];
	const uint8_t *cr = pl->p[2] + (size_t)(y / 2) * pl->pitch[2];

	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = xmap[i];

		dst[i] = vv_yuv_to_xrgb(luma[x], cb[x / 2], cr[x / 2]);
	}
}

/* 3 or 4 bytes per pixel, the red/green/blue bytes at r, g, b. */
static void vv_row_rgb(const struct vv_planes *pl, uint32_t y,
		       const uint32_t *xmap, uint32_t n, uint32_t *dst,
		       unsigned int bpp, int r, int g, int b)
{
	const uint8_t *row = pl->p[0] + (size_t)y * pl->pitch[0];

	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *p = row + (size_t)xmap[i] * bpp;

		dst[i] = vv_rgb(p[r], p[g], p[b]);
	}
}

static void vv_row_rgb24(const struct vv_planes *pl, uint32_t y,
			 const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	vv_row_rgb(pl, y, xmap, n, dst, 3, 0, 1, 2);
}

static void vv_row_bgr24(const struct vv_planes *pl, uint32_t y,
			 const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	vv_row_rgb(pl, y, xmap, n, dst, 3, 2, 1, 0);
}

/* V4L2's XRGB32 is X, R, G, B in memory. */
static void vv_row_xrgb32(const struct vv_planes *pl, uint32_t y,
			  const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	vv_row_rgb(pl, y, xmap, n, dst, 4, 1, 2, 3);
}

/* V4L2's XBGR32 is B, G, R, X in memory (DRM's XRGB8888). */
static void vv_row_xbgr32(const struct vv_planes *pl, uint32_t y,
			  const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	vv_row_rgb(pl, y, xmap, n, dst, 4, 2, 1, 0);
}

static void vv_row_grey(const struct vv_planes *pl, uint32_t y,
			const uint32_t *xmap, uint32_t n, uint32_t *dst)
{
	const uint8_t *row = pl->p[0] + (size_t)y * pl->pitch[0];

	for (uint32_t i = 0; i < n; i++) {
		uint32_t l = row[xmap[i]];

		dst[i] = vv_rgb(l, l, l);
	}
}

static const struct {
	uint32_t fourcc;
	vv_row_fn row;
} vv_converters[] = {
	{ V4L2_PIX_FMT_YUYV,   vv_row_yuyv },
	{ V4L2_PIX_FMT_UYVY,   vv_row_uyvy },
	{ V4L2_PIX_FMT_NV12,   vv_row_nv12 },
	{ V4L2_PIX_FMT_YUV420, vv_row_yuv420 },
	{ V4L2_PIX_FMT_RGB24,  vv_row_rgb24 },
	{ V4L2_PIX_FMT_BGR24,  vv_row_bgr24 },
	{ V4L2_PIX_FMT_XRGB32, vv_row_xrgb32 },
	{ V4L2_PIX_FMT_XBGR32, vv_row_xbgr32 },
	{ V4L2_PIX_FMT_GREY,   vv_row_grey },
};

vv_row_fn vv_convert_row_fn(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(vv_converters) / sizeof(vv_converters[0]);
	     i++)
		if (vv_converters[i].fourcc == fourcc)
			return vv_converters[i].row;
	return NULL;
}

struct vv_rect vv_fit_rect(uint32_t src_w, uint32_t src_h, uint32_t box_w,
			   uint32_t box_h)
{
	struct vv_rect r = { 0, 0, box_w, box_h };

	if (!src_w || !src_h || !box_w || !box_h)
		return r;
	/* Compare the aspect ratios in 64 bits: w/h against box_w/box_h. */
	if ((uint64_t)src_w * box_h > (uint64_t)box_w * src_h) {
		r.h = (uint64_t)box_w * src_h / src_w;
		if (!r.h)
			r.h = 1;
		r.y = (box_h - r.h) / 2;
	} else {
		r.w = (uint64_t)box_h * src_w / src_h;
		if (!r.w)
			r.w = 1;
		r.x = (box_w - r.w) / 2;
	}
	return r;
}

int vv_convert_fit(const struct vv_frame *f, uint32_t *dst, uint32_t dst_w,
		   uint32_t dst_h, uint32_t dst_pitch, uint32_t *xmap)
{
	vv_row_fn row = vv_convert_row_fn(f->mode.fourcc);
	struct vv_planes pl;
	struct vv_rect r;
	uint8_t *base = (uint8_t *)dst;

	if (!row || vv_frame_planes(f, &pl))
		return -EINVAL;
	r = vv_fit_rect(f->mode.width, f->mode.height, dst_w, dst_h);
	for (int i = 0; i < r.w; i++)
		xmap[i] = (uint64_t)i * f->mode.width / r.w;
	for (uint32_t y = 0; y < dst_h; y++) {
		uint32_t *line = (uint32_t *)(base + (size_t)y * dst_pitch);

		if ((int)y < r.y || (int)y >= r.y + r.h) {
			memset(line, 0, (size_t)dst_w * 4);
			continue;
		}
		memset(line, 0, (size_t)r.x * 4);
		row(&pl, (uint64_t)(y - r.y) * f->mode.height / r.h, xmap, r.w,
		    line + r.x);
		memset(line + r.x + r.w, 0, (size_t)(dst_w - r.x - r.w) * 4);
	}
	return 0;
}
