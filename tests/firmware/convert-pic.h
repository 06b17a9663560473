/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Pictures for the conversion tests and benchmark: drawn as 8-bit 4:4:4
 * YUV, packed into any format fw_convert() reads and read back from any
 * board format, by code of their own (not the firmware's).
 */
#ifndef CONVERT_PIC_H
#define CONVERT_PIC_H

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fw-convert.h"

/* w x h pixels of Y, U and V, one byte each. */
struct cpic {
	u32 w, h;
	u8 *y, *u, *v;
};

static inline int cpic_alloc(struct cpic *p, u32 w, u32 h)
{
	size_t n = (size_t)w * h;

	p->w = w;
	p->h = h;
	p->y = malloc(n * 3);
	p->u = p->y + n;
	p->v = p->y + 2 * n;
	return p->y ? 0 : -1;
}

static inline void cpic_free(struct cpic *p)
{
	free(p->y);
	p->y = NULL;
}

static inline u8 cpic_clamp(double v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (u8)lround(v);
}

/* BT.601 limited range, in floating point. */
static inline void cpic_to_rgb(double y, double u, double v, double *rgb)
{
	double c = 1.164383 * (y - 16);

	rgb[0] = c + 1.596027 * (v - 128);
	rgb[1] = c - 0.391762 * (u - 128) - 0.812968 * (v - 128);
	rgb[2] = c + 2.017232 * (u - 128);
}

static inline void cpic_from_rgb(double r, double g, double b, double *yuv)
{
	yuv[0] = 16 + 0.256788 * r + 0.504129 * g + 0.097906 * b;
	yuv[1] = 128 - 0.148223 * r - 0.290993 * g + 0.439216 * b;
	yuv[2] = 128 + 0.439216 * r - 0.367788 * g - 0.071427 * b;
}

/* Mean of p's chroma plane c over the sx x sy block at (x, y). */
static inline u8 cpic_avg(const struct cpic *p, const u8 *c, u32 x, u32 y,
			  u32 sx, u32 sy)
{
	u32 i, j, n = 0, sum = 0;

	for (j = y; j < y + sy && j < p->h; j++)
		for (i = x; i < x + sx && i < p->w; i++) {
			sum += c[(size_t)j * p->w + i];
			n++;
		}
	return (u8)((sum + n / 2) / n);
}

/*
 * p packed as fourcc, planes tightly packed: a new buffer of
 * fw_image_size() bytes, in im.  Chroma is the mean of its pixels.
 */
static inline u8 *cpic_pack(const struct cpic *p, u32 fourcc,
			    struct fw_image *im)
{
	u32 w = p->w, h = p->h, cw = (w + 1) / 2, ch = (h + 1) / 2, x, y, bpp;
	size_t luma = (size_t)w * h, i;
	u64 size = fw_image_size(fourcc, w, h);
	u8 *b = size ? malloc(size) : NULL, *q;
	double rgb[3];

	if (!b)
		return NULL;
	im->fourcc = fourcc;
	im->width = w;
	im->height = h;
	im->bytesperline = w;
	im->data = b;
	switch (fourcc) {
	case VCAP_FMT_GREY:
		memcpy(b, p->y, luma);
		break;
	case VCAP_FMT_YUV420:
	case VCAP_FMT_NV12:
		memcpy(b, p->y, luma);
		for (y = 0; y < ch; y++)
			for (x = 0; x < cw; x++) {
				u8 cu = cpic_avg(p, p->u, 2 * x, 2 * y, 2, 2);
				u8 cv = cpic_avg(p, p->v, 2 * x, 2 * y, 2, 2);

				if (fourcc == VCAP_FMT_NV12) {
					b[luma + ((size_t)y * cw + x) * 2] = cu;
					b[luma + ((size_t)y * cw + x) * 2 + 1] = cv;
				} else {
					b[luma + (size_t)y * cw + x] = cu;
					b[luma + (size_t)cw * ch + (size_t)y * cw + x] = cv;
				}
			}
		break;
	case FW_FMT_YUV422P:
		memcpy(b, p->y, luma);
		for (y = 0; y < h; y++)
			for (x = 0; x < cw; x++) {
				b[luma + (size_t)y * cw + x] =
					cpic_avg(p, p->u, 2 * x, y, 2, 1);
				b[luma + (size_t)cw * h + (size_t)y * cw + x] =
					cpic_avg(p, p->v, 2 * x, y, 2, 1);
			}
		break;
	case FW_FMT_YUV444P:
		memcpy(b, p->y, luma * 3);
		break;
	case VCAP_FMT_YUYV:
	case VCAP_FMT_UYVY:
		im->bytesperline = w * 2;
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++) {
				q = b + ((size_t)y * w + x) * 2;
				i = (size_t)y * w + x;
				q[fourcc == VCAP_FMT_YUYV ? 0 : 1] = p->y[i];
				q[fourcc == VCAP_FMT_YUYV ? 1 : 0] =
					x & 1 ? cpic_avg(p, p->v, x - 1, y, 2, 1) :
						cpic_avg(p, p->u, x, y, 2, 1);
			}
		break;
	default:
		bpp = fourcc == VCAP_FMT_RGB24 || fourcc == VCAP_FMT_BGR24 ? 3 : 4;
		im->bytesperline = w * bpp;
		for (i = 0; i < luma; i++) {
			cpic_to_rgb(p->y[i], p->u[i], p->v[i], rgb);
			q = b + i * bpp;
			switch (fourcc) {
			case VCAP_FMT_RGB24:
				q[0] = cpic_clamp(rgb[0]);
				q[1] = cpic_clamp(rgb[1]);
				q[2] = cpic_clamp(rgb[2]);
				break;
			case VCAP_FMT_XRGB32:
				q[0] = 0xff;
				q[1] = cpic_clamp(rgb[0]);
				q[2] = cpic_clamp(rgb[1]);
				q[3] = cpic_clamp(rgb[2]);
				break;
			default:	/* BGR24, XBGR32: B G R (X) */
				q[0] = cpic_clamp(rgb[2]);
				q[1] = cpic_clamp(rgb[1]);
				q[2] = cpic_clamp(rgb[0]);
				if (bpp == 4)
					q[3] = 0xff;
				break;
			}
		}
		break;
	}
	return b;
}

/* A board frame read back into p (allocated): chroma repeated. */
static inline int cpic_unpack(const struct vcap_frame_fmt *f, const u8 *d,
			      struct cpic *p)
{
	u32 w = f->width, h = f->height, x, y, bpl = f->bytesperline;
	const u8 *row, *q;
	double yuv[3];
	size_t i;

	if (cpic_alloc(p, w, h))
		return -1;
	for (y = 0; y < h; y++) {
		row = d + (size_t)y * bpl;
		for (x = 0; x < w; x++) {
			i = (size_t)y * w + x;
			p->u[i] = p->v[i] = 128;
			switch (f->fourcc) {
			case VCAP_FMT_YUYV:
				q = row + (x & ~1u) * 2;
				p->y[i] = row[x * 2];
				p->u[i] = q[1];
				p->v[i] = q[3];
				continue;
			case VCAP_FMT_UYVY:
				q = row + (x & ~1u) * 2;
				p->y[i] = row[x * 2 + 1];
				p->u[i] = q[0];
				p->v[i] = q[2];
				continue;
			case VCAP_FMT_NV12:
				q = d + (size_t)bpl * h + (size_t)(y / 2) * bpl +
				    (x & ~1u);
				p->u[i] = q[0];
				p->v[i] = q[1];
				break;
			case VCAP_FMT_YUV420:
				q = d + (size_t)bpl * h + (size_t)(y / 2) * (bpl / 2) +
				    x / 2;
				p->u[i] = q[0];
				p->v[i] = q[(size_t)(bpl / 2) * (h / 2)];
				break;
			case VCAP_FMT_GREY:
				break;
			case VCAP_FMT_RGB24:
				q = row + x * 3;
				cpic_from_rgb(q[0], q[1], q[2], yuv);
				goto rgb;
			case VCAP_FMT_BGR24:
				q = row + x * 3;
				cpic_from_rgb(q[2], q[1], q[0], yuv);
				goto rgb;
			case VCAP_FMT_XRGB32:
				q = row + x * 4;
				cpic_from_rgb(q[1], q[2], q[3], yuv);
				goto rgb;
			case VCAP_FMT_XBGR32:
				q = row + x * 4;
				cpic_from_rgb(q[2], q[1], q[0], yuv);
				goto rgb;
			}
			p->y[i] = row[x];
			continue;
rgb:
			p->y[i] = cpic_clamp(yuv[0]);
			p->u[i] = cpic_clamp(yuv[1]);
			p->v[i] = cpic_clamp(yuv[2]);
		}
	}
	return 0;
}

/* The smooth picture: luma and both chroma ramps, inside RGB's gamut. */
static inline void cpic_gradient(struct cpic *p)
{
	u32 x, y;
	size_t i;
	double u, v;

	for (y = 0; y < p->h; y++)
		for (x = 0; x < p->w; x++) {
			i = (size_t)y * p->w + x;
			u = (x + 0.5) / p->w;
			v = (y + 0.5) / p->h;
			p->y[i] = cpic_clamp(60 + 100 * u + 40 * v);
			p->u[i] = cpic_clamp(128 + 32 * (v - 0.5));
			p->v[i] = cpic_clamp(128 + 32 * (u - 0.5));
		}
}

/* A board frame's format at w x h, bytes per line the least. */
static inline struct vcap_frame_fmt cpic_fmt(u32 fourcc, u32 w, u32 h)
{
	const struct vcap_format_info *fi = vcap_format_find(fourcc);
	struct vcap_frame_fmt f = { fourcc, w, h, 0, 0 };

	f.bytesperline = vcap_format_min_bpl(fi, w);
	f.sizeimage = (u32)vcap_format_sizeimage(fi, f.bytesperline, h);
	return f;
}

#endif /* CONVERT_PIC_H */
