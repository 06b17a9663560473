// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Scaling and colour conversion of file frames into a board format. */
#include <errno.h>
#include <string.h>
#include <vcap/board.h>
#include "fw-convert.h"
#include "fw-sws.h"

struct fw_yuv {
	u8 y, u, v;
};

static u8 clamp8(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (u8)v;
}

static void rgb_to_yuv(u8 r, u8 g, u8 b, struct fw_yuv *p)
{
	p->y = (u8)(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
	p->u = (u8)(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128);
	p->v = (u8)(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128);
}

static void yuv_to_rgb(const struct fw_yuv *p, u8 *r, u8 *g, u8 *b)
{
	int c = p->y - 16, d = p->u - 128, e = p->v - 128;

	*r = clamp8((298 * c + 409 * e + 128) >> 8);
	*g = clamp8((298 * c - 100 * d - 208 * e + 128) >> 8);
	*b = clamp8((298 * c + 516 * d + 128) >> 8);
}

void fw_image_planes(u32 fourcc, u32 width, u32 height, u32 bpl,
		     struct fw_planes *p)
{
	u32 cw = (width + 1) / 2, ch = (height + 1) / 2;
	u64 luma = (u64)bpl * height;

	p->n = 1;
	p->off[0] = 0;
	p->off[1] = p->off[2] = luma;
	p->bpl[0] = p->bpl[1] = p->bpl[2] = bpl;
	p->bytes[0] = width;
	p->bytes[1] = p->bytes[2] = 0;
	p->rows[0] = height;
	p->rows[1] = p->rows[2] = 0;
	switch (fourcc) {
	case VCAP_FMT_NV12:
		p->n = 2;
		p->bytes[1] = cw * 2;
		p->rows[1] = ch;
		return;
	case VCAP_FMT_YUV420:
	case FW_FMT_YUV422P:
	case FW_FMT_YUV444P:
		p->n = 3;
		p->bpl[1] = p->bpl[2] = (bpl + 1) / 2;
		p->bytes[1] = p->bytes[2] = cw;
		p->rows[1] = p->rows[2] = fourcc == VCAP_FMT_YUV420 ? ch : height;
		if (fourcc == FW_FMT_YUV444P) {
			p->bpl[1] = p->bpl[2] = bpl;
			p->bytes[1] = p->bytes[2] = width;
		}
		p->off[2] = luma + (u64)p->bpl[1] * p->rows[1];
		return;
	case VCAP_FMT_YUYV:
	case VCAP_FMT_UYVY:
		p->bytes[0] = width * 2;
		return;
	case VCAP_FMT_RGB24:
	case VCAP_FMT_BGR24:
		p->bytes[0] = width * 3;
		return;
	case VCAP_FMT_XRGB32:
	case VCAP_FMT_XBGR32:
		p->bytes[0] = width * 4;
		return;
	}
}

u64 fw_image_size(u32 fourcc, u32 width, u32 height)
{
	u64 luma = (u64)width * height;
	u64 cw = (width + 1) / 2, ch = (height + 1) / 2;

	switch (fourcc) {
	case VCAP_FMT_GREY:
		return luma;
	case VCAP_FMT_YUV420:
		return luma + 2 * cw * ch;
	case VCAP_FMT_NV12:
		return luma + 2 * cw * ch;
	case FW_FMT_YUV422P:
		return luma + 2 * cw * height;
	case FW_FMT_YUV444P:
		return luma * 3;
	case VCAP_FMT_YUYV:
	case VCAP_FMT_UYVY:
		return luma * 2;
	case VCAP_FMT_RGB24:
	case VCAP_FMT_BGR24:
		return luma * 3;
	case VCAP_FMT_XRGB32:
	case VCAP_FMT_XBGR32:
		return luma * 4;
	}
	return 0;
}

static void read_px(const struct fw_image *s, const struct fw_planes *pl,
		    u32 x, u32 y, struct fw_yuv *p)
{
	const u8 *row = s->data + (u64)y * s->bytesperline;
	const u8 *c1 = s->data + pl->off[1], *c2 = s->data + pl->off[2];
	const u8 *q;

	switch (s->fourcc) {
	case VCAP_FMT_YUYV:
		q = row + (x & ~1u) * 2;
		p->y = row[x * 2];
		p->u = q[1];
		p->v = q[3];
		return;
	case VCAP_FMT_UYVY:
		q = row + (x & ~1u) * 2;
		p->y = row[x * 2 + 1];
		p->u = q[0];
		p->v = q[2];
		return;
	case VCAP_FMT_RGB24:
		q = row + x * 3;
		rgb_to_yuv(q[0], q[1], q[2], p);
		return;
	case VCAP_FMT_BGR24:
		q = row + x * 3;
		rgb_to_yuv(q[2], q[1], q[0], p);
		return;
	case VCAP_FMT_XRGB32:
		q = row + x * 4;
		rgb_to_yuv(q[1], q[2], q[3], p);
		return;
	case VCAP_FMT_XBGR32:
		q = row + x * 4;
		rgb_to_yuv(q[2], q[1], q[0], p);
		return;
	}
	p->y = row[x];
	p->u = 128;
	p->v = 128;
	switch (s->fourcc) {
	case VCAP_FMT_NV12:
		q = c1 + (u64)(y / 2) * pl->bpl[1] + (x & ~1u);
		p->u = q[0];
		p->v = q[1];
		break;
	case VCAP_FMT_YUV420:
		p->u = c1[(u64)(y / 2) * pl->bpl[1] + x / 2];
		p->v = c2[(u64)(y / 2) * pl->bpl[1] + x / 2];
		break;
	case FW_FMT_YUV422P:
		p->u = c1[(u64)y * pl->bpl[1] + x / 2];
		p->v = c2[(u64)y * pl->bpl[1] + x / 2];
		break;
	case FW_FMT_YUV444P:
		p->u = c1[(u64)y * pl->bpl[1] + x];
		p->v = c2[(u64)y * pl->bpl[1] + x];
		break;
	}
}

static void write_px(const struct vcap_frame_fmt *f, u8 *dst,
		     const struct fw_planes *pl, u32 x, u32 y,
		     const struct fw_yuv *p)
{
	u8 *row = dst + (u64)y * f->bytesperline;
	u8 *q;

	switch (f->fourcc) {
	case VCAP_FMT_YUYV:
		row[x * 2] = p->y;
		row[x * 2 + 1] = (x & 1) ? p->v : p->u;
		return;
	case VCAP_FMT_UYVY:
		row[x * 2] = (x & 1) ? p->v : p->u;
		row[x * 2 + 1] = p->y;
		return;
	case VCAP_FMT_RGB24:
		q = row + x * 3;
		yuv_to_rgb(p, &q[0], &q[1], &q[2]);
		return;
	case VCAP_FMT_BGR24:
		q = row + x * 3;
		yuv_to_rgb(p, &q[2], &q[1], &q[0]);
		return;
	case VCAP_FMT_XRGB32:
		q = row + x * 4;
		q[0] = 0xff;
		yuv_to_rgb(p, &q[1], &q[2], &q[3]);
		return;
	case VCAP_FMT_XBGR32:
		q = row + x * 4;
		yuv_to_rgb(p, &q[2], &q[1], &q[0]);
		q[3] = 0xff;
		return;
	}
	row[x] = p->y;
	if ((x | y) & 1)
		return;
	if (f->fourcc == VCAP_FMT_NV12) {
		q = dst + pl->off[1] + (u64)(y / 2) * pl->bpl[1] + x;
		q[0] = p->u;
		q[1] = p->v;
	} else if (f->fourcc == VCAP_FMT_YUV420) {
		dst[pl->off[1] + (u64)(y / 2) * pl->bpl[1] + x / 2] = p->u;
		dst[pl->off[2] + (u64)(y / 2) * pl->bpl[1] + x / 2] = p->v;
	}
}

/*
 * The firmware's own scaler, nearest neighbour, one pixel at a time:
 * for what libswscale refuses (see fw-sws.c for why the library draws
 * the rest).  Only the picture pic is written.
 */
static void draw_nearest(const struct fw_image *src,
			 const struct vcap_frame_fmt *fmt, u8 *dst, u32 flags,
			 const struct vcap_rect *pic)
{
	u32 x, y, sx, sy, px, py, pw, ph;
	struct fw_planes s_pl, d_pl;
	struct fw_yuv p;

	fw_image_planes(src->fourcc, src->width, src->height,
			src->bytesperline, &s_pl);
	fw_image_planes(fmt->fourcc, fmt->width, fmt->height,
			fmt->bytesperline, &d_pl);
	pw = pic->x1 - pic->x0;
	ph = pic->y1 - pic->y0;
	for (y = pic->y0; y < pic->y1; y++) {
		py = y - pic->y0;
		if (flags & VCAP_REQ_VFLIP)
			py = ph - 1 - py;
		sy = (u32)((u64)py * src->height / ph);
		for (x = pic->x0; x < pic->x1; x++) {
			px = x - pic->x0;
			if (flags & VCAP_REQ_HFLIP)
				px = pw - 1 - px;
			sx = (u32)((u64)px * src->width / pw);
			read_px(src, &s_pl, sx, sy, &p);
			write_px(fmt, dst, &d_pl, x, y, &p);
		}
	}
}

/* Black of a board format: one unit of plane 0's bytes, or of chroma. */
static u32 black_unit(u32 fourcc, unsigned int plane, u8 *unit)
{
	static const u8 yuyv[4] = { 16, 128, 16, 128 };
	static const u8 uyvy[4] = { 128, 16, 128, 16 };
	static const u8 xrgb[4] = { 0xff, 0, 0, 0 };
	static const u8 xbgr[4] = { 0, 0, 0, 0xff };
	const u8 *u = NULL;

	unit[0] = plane ? 128 : 16;
	if (plane)
		return 1;
	switch (fourcc) {
	case VCAP_FMT_YUYV:
		u = yuyv;
		break;
	case VCAP_FMT_UYVY:
		u = uyvy;
		break;
	case VCAP_FMT_XRGB32:
		u = xrgb;
		break;
	case VCAP_FMT_XBGR32:
		u = xbgr;
		break;
	case VCAP_FMT_RGB24:
	case VCAP_FMT_BGR24:
		unit[0] = 0;
		return 1;
	default:
		return 1;
	}
	memcpy(unit, u, 4);
	return 4;
}

/* n bytes of a repeated unit: len divides n (spans start on even pixels). */
static void fill_span(u8 *d, u32 n, const u8 *unit, u32 len)
{
	u32 done;

	if (len == 1 || n < len) {
		memset(d, unit[0], n);
		return;
	}
	memcpy(d, unit, len);
	for (done = len; done < n; done *= 2)
		memcpy(d + done, d, done < n - done ? done : n - done);
}

/* Black in fmt everywhere but pic (all of it with pic NULL). */
static void fill_black(const struct vcap_frame_fmt *fmt, u8 *dst,
		       const struct vcap_rect *pic)
{
	u32 r, r0, r1, b0, b1, len;
	struct fw_planes pl;
	unsigned int i;
	u8 unit[4], *row;

	fw_image_planes(fmt->fourcc, fmt->width, fmt->height,
			fmt->bytesperline, &pl);
	for (i = 0; i < pl.n; i++) {
		len = black_unit(fmt->fourcc, i, unit);
		/* Every edge of pic is even: on each plane's sample grid. */
		r0 = r1 = b0 = b1 = 0;
		if (pic) {
			r0 = (u32)((u64)pic->y0 * pl.rows[i] / fmt->height);
			r1 = (u32)((u64)pic->y1 * pl.rows[i] / fmt->height);
			b0 = (u32)((u64)pic->x0 * pl.bytes[i] / fmt->width);
			b1 = (u32)((u64)pic->x1 * pl.bytes[i] / fmt->width);
		}
		for (r = 0; r < pl.rows[i]; r++) {
			row = dst + pl.off[i] + (u64)r * pl.bpl[i];
			if (r < r0 || r >= r1) {
				fill_span(row, pl.bytes[i], unit, len);
				continue;
			}
			fill_span(row, b0, unit, len);
			fill_span(row + b1, pl.bytes[i] - b1, unit, len);
		}
	}
}

int fw_convert_with(enum fw_convert_impl impl, const struct fw_image *src,
		    const struct vcap_frame_fmt *fmt, u8 *dst, u32 flags,
		    u32 src_w, u32 src_h)
{
	struct vcap_rect pic;
	int ret;

	vcap_letterbox(fmt, src_w, src_h, &pic);
	if (!src->data || !src->width || !src->height ||
	    !fw_image_size(src->fourcc, src->width, src->height)) {
		fill_black(fmt, dst, NULL);
		return -EINVAL;
	}
	fill_black(fmt, dst, &pic);
	if (impl != FW_CONVERT_NEAREST) {
		ret = fw_sws_draw(src, fmt, dst, &pic, flags);
		if (!ret)
			return 0;
		if (impl == FW_CONVERT_LIBRARY) {
			fill_black(fmt, dst, NULL);
			return ret;
		}
	}
	draw_nearest(src, fmt, dst, flags, &pic);
	return 0;
}

void fw_convert(const struct fw_image *src, const struct vcap_frame_fmt *fmt,
		u8 *dst, u32 flags, u32 src_w, u32 src_h)
{
	fw_convert_with(FW_CONVERT_AUTO, src, fmt, dst, flags, src_w, src_h);
}
