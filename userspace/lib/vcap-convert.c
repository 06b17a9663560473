// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* Conversion of any table format to packed RGB24 (snapshots, previews). */
#include "vcap-priv.h"

#include <errno.h>

static uint8_t clamp8(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* BT.601, limited range, in 8.8 fixed point. */
static void yuv_to_rgb(int y, int u, int v, uint8_t *rgb)
{
	int c = 298 * (y - 16), d = u - 128, e = v - 128;

	rgb[0] = clamp8((c + 409 * e + 128) >> 8);
	rgb[1] = clamp8((c - 100 * d - 208 * e + 128) >> 8);
	rgb[2] = clamp8((c + 516 * d + 128) >> 8);
}

int vcap_convert_rgb24(const struct vcap_mode *mode, const void *src_v,
		       size_t len, uint8_t *dst)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(mode->fourcc);
	const uint8_t *src = src_v;
	size_t w = mode->width, h = mode->height, bpl, cbpl;
	char fcc[VCAP_FOURCC_STR_LEN];
	const uint8_t *cb = NULL, *cr = NULL;

	if (!pf || pf->layout == VCAP_LAYOUT_UNKNOWN)
		return vcap_set_error(EINVAL, "convert: format %s not supported",
				      vcap_fourcc_str(mode->fourcc, fcc));
	if (len < vcap_mode_frame_size(mode) || !vcap_mode_frame_size(mode))
		return vcap_set_error(EINVAL,
				      "convert: frame of %zu bytes too short for %ux%u",
				      len, mode->width, mode->height);
	bpl = mode->bytesperline ? mode->bytesperline : w * pf->bpp;
	cbpl = (bpl + 1) / 2;
	if (pf->layout == VCAP_LAYOUT_PLANAR_420 ||
	    pf->layout == VCAP_LAYOUT_PLANAR_422) {
		size_t crows = pf->layout == VCAP_LAYOUT_PLANAR_420 ?
			       (h + 1) / 2 : h;

		cb = src + bpl * h;
		cr = cb + cbpl * crows;
		if (pf->order[0]) {
			const uint8_t *t = cb;

			cb = cr;
			cr = t;
		}
	}
	for (size_t y = 0; y < h; y++) {
		const uint8_t *row = src + y * bpl;
		uint8_t *out = dst + y * w * 3;

		for (size_t x = 0; x < w; x++, out += 3) {
			const uint8_t *p, *c;

			switch (pf->layout) {
			case VCAP_LAYOUT_PACKED_YUV422:
				p = row + (x / 2) * 4;
				yuv_to_rgb(p[pf->order[x & 1 ? 2 : 0]],
					   p[pf->order[1]], p[pf->order[3]],
					   out);
				break;
			case VCAP_LAYOUT_SEMI_PLANAR_420:
				c = src + bpl * h + (y / 2) * bpl + (x / 2) * 2;
				yuv_to_rgb(row[x], c[pf->order[0] ? 1 : 0],
					   c[pf->order[0] ? 0 : 1], out);
				break;
			case VCAP_LAYOUT_PLANAR_420:
				yuv_to_rgb(row[x], cb[(y / 2) * cbpl + x / 2],
					   cr[(y / 2) * cbpl + x / 2], out);
				break;
			case VCAP_LAYOUT_PLANAR_422:
				yuv_to_rgb(row[x], cb[y * cbpl + x / 2],
					   cr[y * cbpl + x / 2], out);
				break;
			case VCAP_LAYOUT_GREY:
				out[0] = out[1] = out[2] = row[x];
				break;
			case VCAP_LAYOUT_RGB:
				p = row + x * pf->bpp;
				out[0] = p[pf->order[0]];
				out[1] = p[pf->order[1]];
				out[2] = p[pf->order[2]];
				break;
			default:
				break;
			}
		}
	}
	return 0;
}
