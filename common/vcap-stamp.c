// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Frame stamps: the frame number and frame checksum, each with a CRC of its
 * own, drawn as black and white luma cells in a band at the top and at the
 * bottom of the frame, and their decoder.
 */
#include "vcap-stamp.h"

#define VCAP_STAMP_BIT_SEQ	8
#define VCAP_STAMP_BIT_SEQ_CRC	72
#define VCAP_STAMP_BIT_SUM	88
#define VCAP_STAMP_BIT_SUM_CRC	120

enum vcap_band_result {
	VCAP_BAND_OK,
	VCAP_BAND_NO_SYNC,
	VCAP_BAND_BAD_CRC,
};

/* CRC-16/CCITT over the big-endian bytes of v. */
static u16 vcap_crc16(u64 v, unsigned int bytes, u16 crc)
{
	unsigned int i, bit;

	for (i = bytes; i-- > 0;) {
		crc ^= (u16)(((v >> (8 * i)) & 0xff) << 8);
		for (bit = 0; bit < 8; bit++)
			crc = (crc & 0x8000) ? (u16)((crc << 1) ^ 0x1021) :
					       (u16)(crc << 1);
	}
	return crc;
}

static u16 vcap_crc_seq(u64 seq)
{
	return vcap_crc16(seq, 8, 0xffff);
}

static u16 vcap_crc_sum(u32 sum)
{
	return vcap_crc16(sum, 4, 0x1d0f);
}

int vcap_stamp_geom(const struct vcap_frame_fmt *fmt,
		    struct vcap_stamp_geom *sg)
{
	const struct vcap_format_info *fi = vcap_format_find(fmt->fourcc);
	u32 bh;

	if (!fi || fmt->width < VCAP_STAMP_CELLS ||
	    fmt->width > VCAP_MAX_WIDTH || fmt->height < 16 ||
	    fmt->height > VCAP_MAX_HEIGHT ||
	    fmt->bytesperline < vcap_format_min_bpl(fi, fmt->width))
		return -EINVAL;
	bh = (fmt->height / 32) & ~1u;
	if (bh < 4)
		bh = 4;
	if (bh > 16)
		bh = 16;
	sg->cell_w = fmt->width / VCAP_STAMP_CELLS;
	sg->x0 = (fmt->width - sg->cell_w * VCAP_STAMP_CELLS) / 2;
	sg->band_h = bh;
	return 0;
}

/* Luma of pixel (x, y): the Y sample, or green for RGB formats. */
static u8 vcap_luma(const struct vcap_format_info *fi,
		    const struct vcap_frame_fmt *fmt, const u8 *frame,
		    u32 x, u32 y)
{
	const u8 *row = frame + (size_t)y * fmt->bytesperline;

	switch (fi->order) {
	case VCAP_ORDER_YUYV:
		return row[x * 2];
	case VCAP_ORDER_UYVY:
		return row[x * 2 + 1];
	case VCAP_ORDER_RGB:
	case VCAP_ORDER_BGR:
		return row[x * 3 + 1];
	case VCAP_ORDER_XRGB:
		return row[x * 4 + 2];
	case VCAP_ORDER_BGRX:
		return row[x * 4 + 1];
	default:
		return row[x];
	}
}

static void vcap_put_luma(const struct vcap_format_info *fi, u8 *row, u32 x,
			  bool white)
{
	u8 yv = white ? 235 : 16, rgb = white ? 255 : 0;
	u8 *p = row + x * fi->bpp;

	switch (fi->order) {
	case VCAP_ORDER_YUYV:
		p[0] = yv;
		p[1] = 128;
		break;
	case VCAP_ORDER_UYVY:
		p[0] = 128;
		p[1] = yv;
		break;
	case VCAP_ORDER_Y:
		p[0] = yv;
		break;
	case VCAP_ORDER_XRGB:
	case VCAP_ORDER_BGRX:
		p[3] = rgb;
		fallthrough;
	default:
		p[0] = rgb;
		p[1] = rgb;
		p[2] = rgb;
		break;
	}
}

static bool vcap_stamp_bit(const struct vcap_stamp *st, u16 crc_seq,
			   u16 crc_sum, u32 i)
{
	if (i < VCAP_STAMP_BIT_SEQ)
		return (VCAP_STAMP_SYNC >> (7 - i)) & 1;
	if (i < VCAP_STAMP_BIT_SEQ_CRC)
		return (st->seq >> (63 - (i - VCAP_STAMP_BIT_SEQ))) & 1;
	if (i < VCAP_STAMP_BIT_SUM)
		return (crc_seq >> (15 - (i - VCAP_STAMP_BIT_SEQ_CRC))) & 1;
	if (i < VCAP_STAMP_BIT_SUM_CRC)
		return (st->checksum >> (31 - (i - VCAP_STAMP_BIT_SUM))) & 1;
	return (crc_sum >> (15 - (i - VCAP_STAMP_BIT_SUM_CRC))) & 1;
}

/* Pixels x .. x + n - 1 of row, all black or all white: one drawn, copied. */
static void vcap_put_run(const struct vcap_format_info *fi, u8 *row, u32 x,
			 u32 n, bool white)
{
	if (!n)
		return;
	vcap_put_luma(fi, row, x, white);
	vcap_repeat(row + (size_t)x * fi->bpp, fi->bpp, (size_t)n * fi->bpp);
}

void vcap_stamp_write(const struct vcap_frame_fmt *fmt, void *frame,
		      u64 seq, u32 checksum)
{
	const struct vcap_format_info *fi = vcap_format_find(fmt->fourcc);
	struct vcap_stamp st = { .seq = seq, .checksum = checksum };
	u16 crc_seq = vcap_crc_seq(seq), crc_sum = vcap_crc_sum(checksum);
	struct vcap_stamp_geom sg;
	size_t len;
	u8 *top, *row;
	u32 i, n, end;
	bool white;

	if (!fi || vcap_stamp_geom(fmt, &sg))
		return;
	top = frame;
	/* Black margins, then the cells, built once in the first row. */
	end = sg.x0 + sg.cell_w * VCAP_STAMP_CELLS;
	vcap_put_run(fi, top, 0, sg.x0, false);
	for (i = 0; i < VCAP_STAMP_CELLS; i += n) {
		white = vcap_stamp_bit(&st, crc_seq, crc_sum, i);
		for (n = 1; i + n < VCAP_STAMP_CELLS; n++)
			if (vcap_stamp_bit(&st, crc_seq, crc_sum, i + n) != white)
				break;
		vcap_put_run(fi, top, sg.x0 + i * sg.cell_w, n * sg.cell_w,
			     white);
	}
	vcap_put_run(fi, top, end, fmt->width - end, false);
	len = (size_t)fmt->width * fi->bpp;
	for (i = 1; i < sg.band_h; i++) {
		row = top + (size_t)i * fmt->bytesperline;
		vcap_memcpy(row, top, len);
	}
	for (i = fmt->height - sg.band_h; i < fmt->height; i++) {
		row = top + (size_t)i * fmt->bytesperline;
		vcap_memcpy(row, top, len);
	}
}

static enum vcap_band_result
vcap_stamp_decode(const struct vcap_format_info *fi,
		  const struct vcap_frame_fmt *fmt,
		  const struct vcap_stamp_geom *sg, const u8 *frame, u32 y,
		  struct vcap_stamp *st)
{
	u64 bits[3] = { 0, 0, 0 };
	u16 crc_seq, crc_sum;
	u32 i, x;

	for (i = 0; i < VCAP_STAMP_CELLS; i++) {
		x = sg->x0 + i * sg->cell_w + sg->cell_w / 2;
		if (vcap_luma(fi, fmt, frame, x, y) >= 128)
			bits[i / 64] |= BIT_ULL(63 - i % 64);
	}
	/* Cells 0-7 sync, 8-71 seq, 72-87 its CRC, 88-119 sum, 120-135 CRC. */
	if ((bits[0] >> 56) != VCAP_STAMP_SYNC)
		return VCAP_BAND_NO_SYNC;
	st->seq = (bits[0] << 8) | (bits[1] >> 56);
	crc_seq = (u16)(bits[1] >> 40);
	st->checksum = (u32)(bits[1] >> 8);
	crc_sum = (u16)(((bits[1] & 0xff) << 8) | (bits[2] >> 56));
	if (crc_seq != vcap_crc_seq(st->seq) ||
	    crc_sum != vcap_crc_sum(st->checksum))
		return VCAP_BAND_BAD_CRC;
	return VCAP_BAND_OK;
}

/* Fletcher-style running sum of n bytes, eight at a time. */
static void vcap_sum_bytes(u64 *a, u64 *b, const u8 *p, size_t n)
{
	u64 sa = *a, sb = *b, w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		vcap_memcpy(&w, p + i, 8);
		sa += w;
		sb += sa;
	}
	for (w = 0; i < n; i++)
		w = (w << 8) | p[i];
	sa += w;
	sb += sa;
	*a = sa;
	*b = sb;
}

u32 vcap_stamp_sum(const struct vcap_frame_fmt *fmt, const void *frame)
{
	const struct vcap_format_info *fi = vcap_format_find(fmt->fourcc);
	size_t bpl = fmt->bytesperline, luma = bpl * fmt->height;
	struct vcap_stamp_geom sg;
	const u8 *base = frame;
	u64 a = 0, b = 0, x;
	u32 y;

	if (!fi || vcap_stamp_geom(fmt, &sg))
		return 0;
	for (y = VCAP_SUM_ROW_FIRST; y < fmt->height - sg.band_h;
	     y += VCAP_SUM_ROW_STEP) {
		if (y < sg.band_h)
			continue;
		vcap_sum_bytes(&a, &b, base + y * bpl,
			       (size_t)fmt->width * fi->bpp);
	}
	for (y = VCAP_SUM_ROW_FIRST; fi->planar && y < fmt->height / 2;
	     y += VCAP_SUM_ROW_STEP) {
		if (fi->planar == VCAP_PLANAR_NV) {
			vcap_sum_bytes(&a, &b, base + luma + y * bpl,
				       fmt->width);
			continue;
		}
		vcap_sum_bytes(&a, &b, base + luma + y * (bpl / 2),
			       fmt->width / 2);
		vcap_sum_bytes(&a, &b, base + luma + luma / 4 + y * (bpl / 2),
			       fmt->width / 2);
	}
	x = (a * 0x9e3779b97f4a7c15ull) ^ b;
	return (u32)(x ^ (x >> 32));
}

enum vcap_stamp_result vcap_stamp_check(const struct vcap_frame_fmt *fmt,
					const void *frame, size_t len,
					struct vcap_stamp *out)
{
	const struct vcap_format_info *fi = vcap_format_find(fmt->fourcc);
	enum vcap_band_result rt, rb;
	struct vcap_stamp top, bot;
	struct vcap_stamp_geom sg;
	u64 need;

	if (!fi || vcap_stamp_geom(fmt, &sg))
		return VCAP_STAMP_MISSING;
	need = vcap_format_sizeimage(fi, fmt->bytesperline, fmt->height);
	if (!need || len < need)
		return VCAP_STAMP_MISSING;

	rt = vcap_stamp_decode(fi, fmt, &sg, frame, sg.band_h / 2, &top);
	rb = vcap_stamp_decode(fi, fmt, &sg, frame,
			       fmt->height - sg.band_h / 2 - 1, &bot);
	if (rt == VCAP_BAND_OK && out)
		*out = top;
	if (rt == VCAP_BAND_NO_SYNC && rb == VCAP_BAND_NO_SYNC)
		return VCAP_STAMP_MISSING;
	if (rt != VCAP_BAND_OK || rb != VCAP_BAND_OK)
		return VCAP_STAMP_CORRUPT;
	if (top.seq != bot.seq || top.checksum != bot.checksum)
		return VCAP_STAMP_TORN;
	if (vcap_stamp_sum(fmt, frame) != top.checksum)
		return VCAP_STAMP_BAD_SUM;
	return VCAP_STAMP_OK;
}

const char *vcap_stamp_result_str(enum vcap_stamp_result r)
{
	switch (r) {
	case VCAP_STAMP_OK:
		return "ok";
	case VCAP_STAMP_MISSING:
		return "no stamp";
	case VCAP_STAMP_CORRUPT:
		return "corrupt stamp";
	case VCAP_STAMP_TORN:
		return "torn frame";
	case VCAP_STAMP_BAD_SUM:
		return "content does not match its checksum";
	}
	return "unknown";
}
