// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Scaling and colour conversion of file frames into a board format. */
#include <vcap/board.h>
#include "fw-convert.h"

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

/* Plane geometry of a tightly packed or strided picture. */
static void planes(u32 fourcc, u32 w, u32 h, u32 bpl, u64 *c_off, u32 *c_bpl,
		   u64 *c2_off)
{
	u64 luma = (u64)bpl * h;

	*c_off = luma;
	*c_bpl = bpl;
	*c2_off = luma;
	switch (fourcc) {
	case VCAP_FMT_YUV420:
		*c_bpl = (bpl + 1) / 2;
		*c2_off = luma + (u64)*c_bpl * ((h + 1) / 2);
		break;
	case FW_FMT_YUV422P:
		*c_bpl = (bpl + 1) / 2;
		*c2_off = luma + (u64)*c_bpl * h;
		break;
	case FW_FMT_YUV444P:
		*c2_off = luma * 2;
		break;
	}
	(void)w;
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

static void read_px(const struct fw_image *s, u64 c_off, u32 c_bpl,
		    u64 c2_off, u32 x, u32 y, struct fw_yuv *p)
{
	const u8 *row = s->data + (u64)y * s->bytesperline;
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
		q = s->data + c_off + (u64)(y / 2) * c_bpl + (x & ~1u);
		p->u = q[0];
		p->v = q[1];
		break;
	case VCAP_FMT_YUV420:
		p->u = s->data[c_off + (u64)(y / 2) * c_bpl + x / 2];
		p->v = s->data[c2_off + (u64)(y / 2) * c_bpl + x / 2];
		break;
	case FW_FMT_YUV422P:
		p->u = s->data[c_off + (u64)y * c_bpl + x / 2];
		p->v = s->data[c2_off + (u64)y * c_bpl + x / 2];
		break;
	case FW_FMT_YUV444P:
		p->u = s->data[c_off + (u64)y * c_bpl + x];
		p->v = s->data[c2_off + (u64)y * c_bpl + x];
		break;
	}
}

static void write_px(const struct vcap_frame_fmt *f, u8 *dst, u64 c_off,
		     u32 c_bpl, u64 c2_off, u32 x, u32 y,
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
		q = dst + c_off + (u64)(y / 2) * c_bpl + x;
		q[0] = p->u;
		q[1] = p->v;
	} else if (f->fourcc == VCAP_FMT_YUV420) {
		dst[c_off + (u64)(y / 2) * c_bpl + x / 2] = p->u;
		dst[c2_off + (u64)(y / 2) * c_bpl + x / 2] = p->v;
	}
}

void fw_convert(const struct fw_image *src, const struct vcap_frame_fmt *fmt,
		u8 *dst, u32 flags, u32 src_w, u32 src_h)
{
	static const struct fw_yuv black = { 16, 128, 128 };
	u64 s_off, s_off2, d_off, d_off2;
	u32 s_bpl, d_bpl, x, y, sx, sy, px, py, pw, ph;
	struct vcap_rect pic;
	struct fw_yuv p;

	planes(src->fourcc, src->width, src->height, src->bytesperline,
	       &s_off, &s_bpl, &s_off2);
	planes(fmt->fourcc, fmt->width, fmt->height, fmt->bytesperline,
	       &d_off, &d_bpl, &d_off2);
	vcap_letterbox(fmt, src_w, src_h, &pic);
	pw = pic.x1 - pic.x0;
	ph = pic.y1 - pic.y0;
	for (y = 0; y < fmt->height; y++) {
		if (y < pic.y0 || y >= pic.y1) {
			for (x = 0; x < fmt->width; x++)
				write_px(fmt, dst, d_off, d_bpl, d_off2, x, y,
					 &black);
			continue;
		}
		for (x = 0; x < pic.x0; x++)
			write_px(fmt, dst, d_off, d_bpl, d_off2, x, y, &black);
		for (x = pic.x1; x < fmt->width; x++)
			write_px(fmt, dst, d_off, d_bpl, d_off2, x, y, &black);
		py = y - pic.y0;
		if (flags & VCAP_REQ_VFLIP)
			py = ph - 1 - py;
		sy = (u32)((u64)py * src->height / ph);
		for (x = pic.x0; x < pic.x1; x++) {
			px = x - pic.x0;
			if (flags & VCAP_REQ_HFLIP)
				px = pw - 1 - px;
			sx = (u32)((u64)px * src->width / pw);
			read_px(src, s_off, s_bpl, s_off2, sx, sy, &p);
			write_px(fmt, dst, d_off, d_bpl, d_off2, x, y, &p);
		}
	}
}
