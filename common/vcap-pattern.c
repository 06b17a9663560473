// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The test pattern generator: draws a pattern in any board format, then the
 * stamps.  A pattern row is built once and copied down the rows where the
 * pattern does not change, so a frame costs about one copy; in the row, a
 * run of one colour is its first pair of pixels copied out.  A scaled
 * source's picture is drawn the same way inside its rectangle, black
 * around it.
 */
#include <vcap/board.h>
#include "vcap-pattern.h"
#include "vcap-stamp.h"

enum vcap_layer {
	VCAP_LAYER_BG,		/* the pattern itself */
	VCAP_LAYER_BOX,		/* the moving box */
	VCAP_LAYER_BLACK,	/* around a scaled picture */
};

const struct vcap_rgb vcap_bar_colours[VCAP_NUM_BARS] = {
	{ 255, 255, 255 }, { 255, 255, 0 }, { 0, 255, 255 }, { 0, 255, 0 },
	{ 255, 0, 255 }, { 255, 0, 0 }, { 0, 0, 255 }, { 0, 0, 0 },
};

const struct vcap_rgb vcap_box_colour = { 255, 128, 0 };

static const struct vcap_rgb vcap_solid[] = {
	[VCAP_PATTERN_SOLID_WHITE] = { 255, 255, 255 },
	[VCAP_PATTERN_SOLID_BLACK] = { 0, 0, 0 },
	[VCAP_PATTERN_SOLID_RED] = { 255, 0, 0 },
	[VCAP_PATTERN_SOLID_GREEN] = { 0, 255, 0 },
	[VCAP_PATTERN_SOLID_BLUE] = { 0, 0, 255 },
};

/* BT.601 limited range, integer only. */
static u8 vcap_rgb_y(const struct vcap_rgb *c)
{
	return (u8)(((66 * c->r + 129 * c->g + 25 * c->b + 128) >> 8) + 16);
}

static u8 vcap_rgb_u(const struct vcap_rgb *c)
{
	return (u8)(((-38 * c->r - 74 * c->g + 112 * c->b + 128) >> 8) + 128);
}

static u8 vcap_rgb_v(const struct vcap_rgb *c)
{
	return (u8)(((112 * c->r - 94 * c->g - 18 * c->b + 128) >> 8) + 128);
}

/* A length of the source in frame pixels, even (sizes are at most 3840). */
static u32 vcap_scale(u32 v, u32 to, u32 from)
{
	return (v * to / from) & ~1u;
}

static u32 vcap_pic_width(const struct vcap_gen *g)
{
	return g->pic.x1 - g->pic.x0;
}

static u32 vcap_pic_height(const struct vcap_gen *g)
{
	return g->pic.y1 - g->pic.y0;
}

/* The pattern's colour at memory position (x, y), inside the picture. */
static void vcap_colour_at(const struct vcap_gen *g, enum vcap_layer layer,
			   u32 x, u32 y, struct vcap_rgb *c)
{
	u32 w = vcap_pic_width(g), h = vcap_pic_height(g);
	u32 px = x - g->pic.x0, py = y - g->pic.y0;
	u32 v, sq;

	if (layer == VCAP_LAYER_BOX) {
		*c = vcap_box_colour;
		return;
	}
	if (layer == VCAP_LAYER_BLACK) {
		*c = vcap_bar_colours[7];
		return;
	}
	if (g->flags & VCAP_REQ_HFLIP)
		px = w - 1 - px;
	if (g->flags & VCAP_REQ_VFLIP)
		py = h - 1 - py;
	switch (g->pattern) {
	case VCAP_PATTERN_GRADIENT:
		v = px * 255 / (w - 1);
		c->r = (u8)v;
		c->g = (u8)v;
		c->b = (u8)v;
		break;
	case VCAP_PATTERN_CHECKERBOARD:
		sq = g->checker;
		*c = ((px / sq + py / sq) & 1) ? vcap_bar_colours[7] :
						 vcap_bar_colours[0];
		break;
	case VCAP_PATTERN_SOLID_WHITE:
	case VCAP_PATTERN_SOLID_BLACK:
	case VCAP_PATTERN_SOLID_RED:
	case VCAP_PATTERN_SOLID_GREEN:
	case VCAP_PATTERN_SOLID_BLUE:
		*c = vcap_solid[g->pattern];
		break;
	default:
		*c = vcap_bar_colours[px * VCAP_NUM_BARS / w];
		break;
	}
}

/* Rows from y down that repeat row y of the layer (at least 1). */
static u32 vcap_rows_same(const struct vcap_gen *g, enum vcap_layer layer,
			  u32 y)
{
	u32 sq = g->checker;

	if (layer != VCAP_LAYER_BG || g->pattern != VCAP_PATTERN_CHECKERBOARD)
		return g->fmt.height - y;
	if (g->flags & VCAP_REQ_VFLIP)
		return (g->pic.y1 - 1 - y) % sq + 1;
	return sq - (y - g->pic.y0) % sq;
}

static u8 *vcap_row(const struct vcap_gen *g, u8 *frame, u32 y)
{
	return frame + (size_t)y * g->fmt.bytesperline;
}

/* Chroma bytes of row cy in 4:2:0 plane p (1: Cb or CbCr, 2: Cr). */
static u8 *vcap_chroma_row(const struct vcap_gen *g, u8 *frame, int p,
			   u32 cy)
{
	size_t bpl = g->fmt.bytesperline;
	size_t luma = bpl * g->fmt.height;

	if (g->fi->planar == VCAP_PLANAR_NV)
		return frame + luma + cy * bpl;
	if (p == 1)
		return frame + luma + cy * (bpl / 2);
	return frame + luma + luma / 4 + cy * (bpl / 2);
}

/* Draw row y of a layer between x0 and x1, pixel by pixel. */
static void vcap_draw_span(const struct vcap_gen *g, u8 *frame,
			   enum vcap_layer layer, u32 y, u32 x0, u32 x1)
{
	u8 *row = vcap_row(g, frame, y);
	struct vcap_rgb c, c1;
	u32 x;

	switch (g->fi->order) {
	case VCAP_ORDER_YUYV:
	case VCAP_ORDER_UYVY:
		for (x = x0; x < x1; x += 2) {
			u8 *p = row + x * 2;
			u8 y0, y1, u, v;

			vcap_colour_at(g, layer, x, y, &c);
			vcap_colour_at(g, layer, x + 1, y, &c1);
			y0 = vcap_rgb_y(&c);
			y1 = vcap_rgb_y(&c1);
			u = vcap_rgb_u(&c);
			v = vcap_rgb_v(&c);
			if (g->fi->order == VCAP_ORDER_YUYV) {
				p[0] = y0;
				p[1] = u;
				p[2] = y1;
				p[3] = v;
			} else {
				p[0] = u;
				p[1] = y0;
				p[2] = v;
				p[3] = y1;
			}
		}
		break;
	case VCAP_ORDER_Y:
		for (x = x0; x < x1; x++) {
			vcap_colour_at(g, layer, x, y, &c);
			row[x] = vcap_rgb_y(&c);
		}
		if (g->fi->planar == VCAP_PLANAR_NONE || (y & 1))
			break;
		for (x = x0 & ~1u; x < x1; x += 2) {
			vcap_colour_at(g, layer, x, y, &c);
			if (g->fi->planar == VCAP_PLANAR_NV) {
				u8 *p = vcap_chroma_row(g, frame, 1, y / 2) + x;

				p[0] = vcap_rgb_u(&c);
				p[1] = vcap_rgb_v(&c);
			} else {
				vcap_chroma_row(g, frame, 1, y / 2)[x / 2] =
					vcap_rgb_u(&c);
				vcap_chroma_row(g, frame, 2, y / 2)[x / 2] =
					vcap_rgb_v(&c);
			}
		}
		break;
	default:
		for (x = x0; x < x1; x++) {
			u8 *p = row + x * g->fi->bpp;

			vcap_colour_at(g, layer, x, y, &c);
			switch (g->fi->order) {
			case VCAP_ORDER_RGB:
				p[0] = c.r;
				p[1] = c.g;
				p[2] = c.b;
				break;
			case VCAP_ORDER_BGR:
				p[0] = c.b;
				p[1] = c.g;
				p[2] = c.r;
				break;
			case VCAP_ORDER_XRGB:
				p[0] = 0xff;
				p[1] = c.r;
				p[2] = c.g;
				p[3] = c.b;
				break;
			default:
				p[0] = c.b;
				p[1] = c.g;
				p[2] = c.r;
				p[3] = 0xff;
				break;
			}
		}
		break;
	}
}

/*
 * Pixels x0 .. x1 - 1 of row y, all of one colour, x0 and x1 even: the
 * first pair is drawn and the rest of the span, chroma too, copies it.
 */
static void vcap_fill_span(const struct vcap_gen *g, u8 *frame,
			   enum vcap_layer layer, u32 y, u32 x0, u32 x1)
{
	size_t bpp = g->fi->bpp;

	vcap_draw_span(g, frame, layer, y, x0, x0 + 2);
	vcap_repeat(vcap_row(g, frame, y) + x0 * bpp, 2 * bpp,
		    (x1 - x0) * bpp);
	if (g->fi->planar == VCAP_PLANAR_NONE || (y & 1))
		return;
	if (g->fi->planar == VCAP_PLANAR_NV) {
		vcap_repeat(vcap_chroma_row(g, frame, 1, y / 2) + x0, 2,
			    x1 - x0);
		return;
	}
	vcap_repeat(vcap_chroma_row(g, frame, 1, y / 2) + x0 / 2, 1,
		    (x1 - x0) / 2);
	vcap_repeat(vcap_chroma_row(g, frame, 2, y / 2) + x0 / 2, 1,
		    (x1 - x0) / 2);
}

/*
 * Where the run of pixels of row y that have the colour of pixel x ends:
 * at the bar's edge for bars, at x1 for one colour throughout, and at the
 * next pixel where colours change within a few pixels.
 */
static u32 vcap_run_end(const struct vcap_gen *g, enum vcap_layer layer,
			u32 x, u32 x1)
{
	u32 w = vcap_pic_width(g), px = x - g->pic.x0, end, b, start;

	if (layer != VCAP_LAYER_BG)
		return x1;
	switch (g->pattern) {
	case VCAP_PATTERN_GRADIENT:
	case VCAP_PATTERN_CHECKERBOARD:
		return x + 1;
	case VCAP_PATTERN_SOLID_WHITE:
	case VCAP_PATTERN_SOLID_BLACK:
	case VCAP_PATTERN_SOLID_RED:
	case VCAP_PATTERN_SOLID_GREEN:
	case VCAP_PATTERN_SOLID_BLUE:
		return x1;
	default:
		/* Bar b holds the pixels px with px * 8 / w == b. */
		if (g->flags & VCAP_REQ_HFLIP) {
			b = (w - 1 - px) * VCAP_NUM_BARS / w;
			start = (b * w + VCAP_NUM_BARS - 1) / VCAP_NUM_BARS;
			end = w - start;
		} else {
			b = px * VCAP_NUM_BARS / w;
			end = ((b + 1) * w + VCAP_NUM_BARS - 1) / VCAP_NUM_BARS;
		}
		end += g->pic.x0;
		return end < x1 ? end : x1;
	}
}

/*
 * Row y of a layer between x0 and x1: runs of one colour are filled, the
 * pairs of pixels where the colour changes are drawn pixel by pixel.
 */
static void vcap_draw_row(const struct vcap_gen *g, u8 *frame,
			  enum vcap_layer layer, u32 y, u32 x0, u32 x1)
{
	u32 x = x0, end, even;

	while (x < x1) {
		end = vcap_run_end(g, layer, x, x1);
		even = x + ((end - x) & ~1u);
		if (!(x & 1) && even - x >= 8) {
			vcap_fill_span(g, frame, layer, y, x, even);
			x = even;
			continue;
		}
		end = x + 2 < x1 ? x + 2 : x1;
		vcap_draw_span(g, frame, layer, y, x, end);
		x = end;
	}
}

/* Copy columns x0..x1 of row y to rows y + 1 .. y + n - 1, chroma too. */
static void vcap_copy_down(const struct vcap_gen *g, u8 *frame, u32 y, u32 n,
			   u32 x0, u32 x1)
{
	size_t off = (size_t)x0 * g->fi->bpp, len = (size_t)(x1 - x0) * g->fi->bpp;
	const u8 *src = vcap_row(g, frame, y) + off;
	u32 i, cy;

	for (i = 1; i < n; i++)
		vcap_memcpy(vcap_row(g, frame, y + i) + off, src, len);
	if (g->fi->planar == VCAP_PLANAR_NONE)
		return;
	/* y and n are even: chroma rows y / 2 .. (y + n) / 2 - 1. */
	for (cy = y / 2 + 1; cy < (y + n) / 2; cy++) {
		if (g->fi->planar == VCAP_PLANAR_NV) {
			vcap_memcpy(vcap_chroma_row(g, frame, 1, cy) + x0,
				    vcap_chroma_row(g, frame, 1, y / 2) + x0,
				    x1 - x0);
			continue;
		}
		vcap_memcpy(vcap_chroma_row(g, frame, 1, cy) + x0 / 2,
			    vcap_chroma_row(g, frame, 1, y / 2) + x0 / 2,
			    (x1 - x0) / 2);
		vcap_memcpy(vcap_chroma_row(g, frame, 2, cy) + x0 / 2,
			    vcap_chroma_row(g, frame, 2, y / 2) + x0 / 2,
			    (x1 - x0) / 2);
	}
}

static void vcap_paint(const struct vcap_gen *g, u8 *frame,
		       enum vcap_layer layer, const struct vcap_rect *r)
{
	u32 y = r->y0, n;

	while (y < r->y1) {
		n = vcap_rows_same(g, layer, y);
		if (n > r->y1 - y)
			n = r->y1 - y;
		vcap_draw_row(g, frame, layer, y, r->x0, r->x1);
		vcap_copy_down(g, frame, y, n, r->x0, r->x1);
		y += n;
	}
}

/* Every byte of the image, random, seeded by the frame number. */
static void vcap_noise(const struct vcap_gen *g, u8 *frame, u64 seq)
{
	u64 s = seq * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	u32 size = g->fmt.sizeimage, i;

	for (i = 0; i + 8 <= size; i += 8) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		vcap_memcpy(frame + i, &s, 8);
	}
	for (; i < size; i++)
		frame[i] = (u8)(s >> (8 * (i & 7)));
}

/* A triangle wave of t over 0..range. */
static u32 vcap_bounce(u64 seq, u32 speed, u32 range)
{
	u32 t;

	if (!range)
		return 0;
	t = vcap_mod_u64(seq, 2 * range);
	t = (t * speed) % (2 * range);
	return t > range ? 2 * range - t : t;
}

/*
 * The box moves across the source, a quarter of its height wide (or its
 * width, if narrower), and is drawn where the source's picture shows it.
 */
void vcap_gen_box(const struct vcap_gen *g, u64 seq, struct vcap_rect *r)
{
	u32 pw = vcap_pic_width(g), ph = vcap_pic_height(g);
	u32 sw = g->src_w, sh = g->src_h;
	u32 size = (sh / 4 < sw ? sh / 4 : sw) & ~1u;
	u32 x = vcap_scale(vcap_bounce(seq, 8, sw - size) & ~1u, pw, sw);
	u32 y = vcap_scale(vcap_bounce(seq, 4, sh - size) & ~1u, ph, sh);
	u32 bw = vcap_scale(size, pw, sw), bh = vcap_scale(size, ph, sh);

	if (g->flags & VCAP_REQ_HFLIP)
		x = pw - bw - x;
	if (g->flags & VCAP_REQ_VFLIP)
		y = ph - bh - y;
	r->x0 = g->pic.x0 + x;
	r->y0 = g->pic.y0 + y;
	r->x1 = r->x0 + bw;
	r->y1 = r->y0 + bh;
}

void vcap_letterbox(const struct vcap_frame_fmt *fmt, u32 src_w, u32 src_h,
		    struct vcap_rect *pic)
{
	const struct vcap_format_info *fi = vcap_format_find(fmt->fourcc);
	u32 w = fmt->width, h = fmt->height, pw = w, ph = h;
	u32 sx = 2, sy = 2;

	if (fi && fi->hsub > sx)
		sx = fi->hsub;
	if (fi && fi->vsub > sy)
		sy = fi->vsub;
	/* Products stay under 2^32: every size is at most 3840 x 2160. */
	if (src_w && src_h && src_w * h > src_h * w) {
		/* Wider than the frame: bars above and below. */
		ph = (w * src_h + src_w * sy / 2) / (src_w * sy) * sy;
		ph = ph < sy ? sy : ph;
	} else if (src_w && src_h && src_w * h < src_h * w) {
		/* Narrower: bars left and right. */
		pw = (h * src_w + src_h * sx / 2) / (src_h * sx) * sx;
		pw = pw < sx ? sx : pw;
	}
	pic->x0 = (w - pw) / 2 / sx * sx;
	pic->y0 = (h - ph) / 2 / sy * sy;
	pic->x1 = pic->x0 + pw;
	pic->y1 = pic->y0 + ph;
}

int vcap_gen_init(struct vcap_gen *g, const struct vcap_frame_fmt *fmt,
		  u32 pattern, u32 flags)
{
	return vcap_gen_init_scaled(g, fmt, pattern, flags, fmt->width,
				    fmt->height);
}

int vcap_gen_init_scaled(struct vcap_gen *g, const struct vcap_frame_fmt *fmt,
			 u32 pattern, u32 flags, u32 src_w, u32 src_h)
{
	const struct vcap_format_info *fi = vcap_format_find(fmt->fourcc);
	u32 sq;

	if (src_w < VCAP_MIN_WIDTH || src_w > VCAP_MAX_WIDTH ||
	    src_h < VCAP_MIN_HEIGHT || src_h > VCAP_MAX_HEIGHT)
		return -EINVAL;
	if (!fi || pattern >= VCAP_PATTERN_COUNT ||
	    (flags & ~(VCAP_REQ_HFLIP | VCAP_REQ_VFLIP)))
		return -EINVAL;
	if (fmt->width < VCAP_MIN_WIDTH || fmt->width > VCAP_MAX_WIDTH ||
	    fmt->height < VCAP_MIN_HEIGHT || fmt->height > VCAP_MAX_HEIGHT ||
	    fmt->width % fi->hsub || fmt->height % fi->vsub)
		return -EINVAL;
	if (fmt->bytesperline < vcap_format_min_bpl(fi, fmt->width) ||
	    fmt->sizeimage < vcap_format_sizeimage(fi, fmt->bytesperline,
						   fmt->height) ||
	    !vcap_format_sizeimage(fi, fmt->bytesperline, fmt->height))
		return -EINVAL;
	g->fmt = *fmt;
	g->fi = fi;
	g->pattern = pattern;
	g->flags = flags;
	g->src_w = src_w;
	g->src_h = src_h;
	vcap_letterbox(fmt, src_w, src_h, &g->pic);
	/* An eighth of the source's height, as the picture shows it. */
	sq = (src_h / 8) & ~1u;
	sq = vcap_scale(sq < 2 ? 2 : sq, vcap_pic_height(g), src_h);
	g->checker = sq < 2 ? 2 : sq;
	return 0;
}

/*
 * Paint a layer where rectangle old is and rectangle now is not: the rows
 * of old above and below now, and beside now in the rows both share.
 * The box moves by painting the pattern where it was and is no longer,
 * and itself where it is and was not: a pixel that stays the same is not
 * written.
 */
static void vcap_paint_uncovered(const struct vcap_gen *g, u8 *frame,
				 enum vcap_layer layer,
				 const struct vcap_rect *old,
				 const struct vcap_rect *now)
{
	struct vcap_rect r;
	u32 y0, y1;

	if (now->x1 <= old->x0 || now->x0 >= old->x1 ||
	    now->y1 <= old->y0 || now->y0 >= old->y1) {
		vcap_paint(g, frame, layer, old);
		return;
	}
	y0 = old->y0 > now->y0 ? old->y0 : now->y0;
	y1 = old->y1 < now->y1 ? old->y1 : now->y1;
	r = (struct vcap_rect){ old->x0, old->y0, old->x1, y0 };
	if (r.y1 > r.y0)
		vcap_paint(g, frame, layer, &r);
	r = (struct vcap_rect){ old->x0, y1, old->x1, old->y1 };
	if (r.y1 > r.y0)
		vcap_paint(g, frame, layer, &r);
	r = (struct vcap_rect){ old->x0, y0, now->x0, y1 };
	if (r.x1 > r.x0)
		vcap_paint(g, frame, layer, &r);
	r = (struct vcap_rect){ now->x1, y0, old->x1, y1 };
	if (r.x1 > r.x0)
		vcap_paint(g, frame, layer, &r);
}

/* Black where the frame is not the picture. */
static void vcap_paint_border(const struct vcap_gen *g, u8 *frame)
{
	const struct vcap_rect *p = &g->pic;
	u32 w = g->fmt.width, h = g->fmt.height;
	const struct vcap_rect border[] = {
		{ 0, 0, w, p->y0 },
		{ 0, p->y1, w, h },
		{ 0, p->y0, p->x0, p->y1 },
		{ p->x1, p->y0, w, p->y1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(border); i++)
		if (border[i].x1 > border[i].x0 && border[i].y1 > border[i].y0)
			vcap_paint(g, frame, VCAP_LAYER_BLACK, &border[i]);
}

void vcap_gen_render(const struct vcap_gen *g, void *dst, u64 seq, u64 prev)
{
	struct vcap_rect was;
	struct vcap_rect box;
	u8 *frame = dst;

	if (prev == seq)
		return;
	if (g->pattern == VCAP_PATTERN_NOISE) {
		vcap_noise(g, frame, seq);
	} else if (prev == VCAP_GEN_NONE) {
		vcap_paint_border(g, frame);
		vcap_paint(g, frame, VCAP_LAYER_BG, &g->pic);
		if (g->pattern == VCAP_PATTERN_MOVING_BOX) {
			vcap_gen_box(g, seq, &box);
			vcap_paint(g, frame, VCAP_LAYER_BOX, &box);
		}
	} else if (g->pattern == VCAP_PATTERN_MOVING_BOX) {
		/* Only the box moves. */
		vcap_gen_box(g, prev, &was);
		vcap_gen_box(g, seq, &box);
		vcap_paint_uncovered(g, frame, VCAP_LAYER_BG, &was, &box);
		vcap_paint_uncovered(g, frame, VCAP_LAYER_BOX, &box, &was);
	}
	vcap_stamp_write(&g->fmt, frame, seq, vcap_stamp_sum(&g->fmt, frame));
}
