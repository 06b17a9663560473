// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Pattern -> stamp -> decode round trips, and the damage the decoder finds. */
#include <stdlib.h>
#include <string.h>
#include <vcap/board.h>
#include "vtest.h"
#include "vcap-format.h"
#include "vcap-pattern.h"
#include "vcap-stamp.h"

struct size {
	unsigned int w, h;
};

static const struct size sizes[] = {
	{ 160, 120 }, { 320, 240 }, { 642, 362 }, { 1920, 1080 },
};

/* A frame buffer for fmt, with bytesperline padded by pad bytes. */
static u8 *frame_alloc(struct vcap_frame_fmt *fmt, u32 fourcc, u32 w, u32 h,
		       u32 pad)
{
	const struct vcap_format_info *fi = vcap_format_find(fourcc);

	fmt->fourcc = fourcc;
	fmt->width = w;
	fmt->height = h;
	fmt->bytesperline = vcap_format_min_bpl(fi, w) + pad;
	fmt->sizeimage = (u32)vcap_format_sizeimage(fi, fmt->bytesperline, h);
	return calloc(1, fmt->sizeimage);
}

/*
 * Every format, size, flip and pattern: a full render decodes to its
 * sequence, and an incremental render equals a full one byte for byte,
 * whether the frame it draws over is the one before or one long gone.
 */
TEST_TIMEOUT(roundtrip_every_format, 300)
{
	/* Frames apart: the next, a ring of 8 slots, a box moved away. */
	static const u64 gaps[] = { 1, 8, 97 };
	unsigned int f, s, flags, p, i, checked = 0;

	for (f = 0; f < vcap_format_count(); f++)
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
	for (flags = 0; flags < 4; flags++)
	for (p = 0; p < VCAP_PATTERN_COUNT; p++) {
		const struct vcap_format_info *fi = vcap_format_by_index(f);
		struct vcap_frame_fmt fmt;
		struct vcap_stamp st;
		struct vcap_gen g;
		u64 seq, prev;
		u8 *a, *b;

		a = frame_alloc(&fmt, fi->fourcc, sizes[s].w, sizes[s].h,
				(s & 1) ? 64 : 0);
		b = calloc(1, fmt.sizeimage);
		ASSERT_TRUE(a && b);
		ASSERT_EQ(vcap_gen_init(&g, &fmt, p, flags), 0);
		vcap_gen_render(&g, a, 1000, VCAP_GEN_NONE);
		for (i = 0, seq = 1000; i < 6; i++) {
			prev = seq;
			seq += gaps[i % 3];
			vcap_gen_render(&g, a, seq, prev);
			vcap_gen_render(&g, b, seq, VCAP_GEN_NONE);
			if (memcmp(a, b, fmt.sizeimage)) {
				TH_LOG("%s %ux%u flags %u pattern %u seq %llu: incremental render differs",
				       fi->name, fmt.width, fmt.height, flags,
				       p, (unsigned long long)seq);
				ASSERT_TRUE(0);
			}
			memset(&st, 0, sizeof(st));
			ASSERT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage, &st),
				  VCAP_STAMP_OK);
			ASSERT_EQ(st.seq, seq);
			checked++;
		}
		free(a);
		free(b);
	}
	TH_LOG("%u frames checked", checked);
	ASSERT_EQ(checked, vcap_format_count() * 4 * 4 * VCAP_PATTERN_COUNT * 6);
}

/* BT.601 limited range, as the board converts. */
static int ref_y(const struct vcap_rgb *c)
{
	return ((66 * c->r + 129 * c->g + 25 * c->b + 128) >> 8) + 16;
}

static int ref_u(const struct vcap_rgb *c)
{
	return ((-38 * c->r - 74 * c->g + 112 * c->b + 128) >> 8) + 128;
}

static int ref_v(const struct vcap_rgb *c)
{
	return ((112 * c->r - 94 * c->g - 18 * c->b + 128) >> 8) + 128;
}

/*
 * Every pixel of the bars holds its bar's colour, at widths whose bar
 * edges fall on odd pixels too, flipped or not; and with the moving box,
 * drawn over a frame 8 behind, the rows through the box and through
 * where it was hold the box's colour inside it and the bars around it.
 */
TEST(bars_and_box_pixel_by_pixel)
{
	static const u32 fourccs[] = {
		VCAP_FMT_YUYV, VCAP_FMT_NV12, VCAP_FMT_RGB24, VCAP_FMT_XRGB32,
	};
	static const struct size bsizes[] = {
		{ 642, 362 }, { 646, 120 }, { 1920, 1080 },
	};
	unsigned int f, s, flip, pat, r, x, checked = 0;

	for (f = 0; f < sizeof(fourccs) / sizeof(fourccs[0]); f++)
	for (s = 0; s < sizeof(bsizes) / sizeof(bsizes[0]); s++)
	for (flip = 0; flip < 2; flip++)
	for (pat = 0; pat < 2; pat++)
	for (r = 0; r < 2; r++) {
		const struct vcap_format_info *fi = vcap_format_find(fourccs[f]);
		u32 w = bsizes[s].w, h = bsizes[s].h, y;
		struct vcap_rect box, was;
		struct vcap_frame_fmt fmt;
		struct vcap_gen g;
		const u8 *row, *uv;
		u8 *a;

		a = frame_alloc(&fmt, fourccs[f], w, h, 0);
		ASSERT_TRUE(a != NULL);
		ASSERT_EQ(vcap_gen_init(&g, &fmt, pat ? VCAP_PATTERN_MOVING_BOX :
						      VCAP_PATTERN_BARS,
					flip ? VCAP_REQ_HFLIP : 0), 0);
		vcap_gen_render(&g, a, 5, VCAP_GEN_NONE);
		vcap_gen_render(&g, a, 13, 5);
		vcap_gen_box(&g, 13, &box);
		vcap_gen_box(&g, 5, &was);
		if (!pat)
			y = r ? h / 2 : h / 3;
		else
			y = r ? (box.y0 + box.y1) / 2 : (was.y0 + was.y1) / 2;
		y &= ~1u;
		row = a + (size_t)y * fmt.bytesperline;
		uv = a + (size_t)fmt.bytesperline * h +
		     (size_t)(y / 2) * fmt.bytesperline;
		for (x = 0; x < w; x++) {
			u32 px = flip ? w - 1 - x : x;
			const struct vcap_rgb *c =
				&vcap_bar_colours[px * VCAP_NUM_BARS / w];

			if (pat && x >= box.x0 && x < box.x1 &&
			    y >= box.y0 && y < box.y1)
				c = &vcap_box_colour;
			const u8 *p = row + x * fi->bpp;
			int got[4] = { p[0], -1, -1, -1 }, want[4];

			switch (fourccs[f]) {
			case VCAP_FMT_YUYV:
				want[0] = ref_y(c);
				if (!(x & 1)) {
					got[1] = p[1];
					got[2] = p[3];
				}
				want[1] = x & 1 ? -1 : ref_u(c);
				want[2] = x & 1 ? -1 : ref_v(c);
				want[3] = -1;
				break;
			case VCAP_FMT_NV12:
				want[0] = ref_y(c);
				if (!(x & 1)) {
					got[1] = uv[x];
					got[2] = uv[x + 1];
				}
				want[1] = x & 1 ? -1 : ref_u(c);
				want[2] = x & 1 ? -1 : ref_v(c);
				want[3] = -1;
				break;
			case VCAP_FMT_RGB24:
				got[1] = p[1];
				got[2] = p[2];
				want[0] = c->r;
				want[1] = c->g;
				want[2] = c->b;
				want[3] = -1;
				break;
			default:
				got[1] = p[1];
				got[2] = p[2];
				got[3] = p[3];
				want[0] = 0xff;
				want[1] = c->r;
				want[2] = c->g;
				want[3] = c->b;
				break;
			}
			if (memcmp(got, want, sizeof(got))) {
				TH_LOG("%s %ux%u flip %u pattern %u row %u: pixel %u is %d %d %d %d, not %d %d %d %d",
				       fi->name, w, h, flip, pat, y, x, got[0],
				       got[1], got[2], got[3], want[0],
				       want[1], want[2], want[3]);
				ASSERT_TRUE(0);
			}
			checked++;
		}
		free(a);
	}
	ASSERT_EQ(checked, 4 * 2 * 2 * 2 * (642 + 646 + 1920));
}

TEST(big_sequence_numbers)
{
	struct vcap_frame_fmt fmt;
	struct vcap_stamp st;
	struct vcap_gen g;
	u8 *a = frame_alloc(&fmt, VCAP_FMT_NV12, 3840, 2160, 0);
	u64 seqs[] = { 0, 1, 0xffffffffull, 0x100000000ull,
		       0xfffffffffffffffeull };
	unsigned int i;

	ASSERT_TRUE(a);
	ASSERT_EQ(vcap_gen_init(&g, &fmt, VCAP_PATTERN_MOVING_BOX, 0), 0);
	for (i = 0; i < 5; i++) {
		vcap_gen_render(&g, a, seqs[i], VCAP_GEN_NONE);
		ASSERT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage, &st),
			  VCAP_STAMP_OK);
		ASSERT_EQ(st.seq, seqs[i]);
	}
	free(a);
}

/* The top of one frame over the bottom of the next is a torn frame. */
TEST(torn_frame_detected)
{
	unsigned int f;

	for (f = 0; f < vcap_format_count(); f++) {
		const struct vcap_format_info *fi = vcap_format_by_index(f);
		struct vcap_frame_fmt fmt;
		struct vcap_gen g;
		u8 *a = frame_alloc(&fmt, fi->fourcc, 640, 480, 0);
		u8 *b = calloc(1, fmt.sizeimage);
		size_t half = fmt.bytesperline * (fmt.height / 2);

		ASSERT_TRUE(a && b);
		ASSERT_EQ(vcap_gen_init(&g, &fmt, VCAP_PATTERN_BARS, 0), 0);
		vcap_gen_render(&g, a, 7, VCAP_GEN_NONE);
		vcap_gen_render(&g, b, 8, VCAP_GEN_NONE);
		memcpy(a + half, b + half, fmt.sizeimage - half);
		EXPECT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage, NULL),
			  VCAP_STAMP_TORN);
		free(a);
		free(b);
	}
}

/* Stamps from one frame over the box of another: the sum catches it. */
TEST(stale_content_detected)
{
	unsigned int f;

	for (f = 0; f < vcap_format_count(); f++) {
		const struct vcap_format_info *fi = vcap_format_by_index(f);
		struct vcap_frame_fmt fmt;
		struct vcap_gen g;
		u8 *a = frame_alloc(&fmt, fi->fourcc, 640, 480, 0);
		u8 *b = calloc(1, fmt.sizeimage);
		size_t band = fmt.bytesperline * 16;

		ASSERT_TRUE(a && b);
		ASSERT_EQ(vcap_gen_init(&g, &fmt, VCAP_PATTERN_MOVING_BOX, 0),
			  0);
		vcap_gen_render(&g, a, 20, VCAP_GEN_NONE);
		vcap_gen_render(&g, b, 30, VCAP_GEN_NONE);
		/* Frame 30's middle under frame 20's stamps. */
		memcpy(a + band, b + band,
		       fmt.bytesperline * (fmt.height - 32));
		if (fi->planar)
			memcpy(a + fmt.bytesperline * fmt.height,
			       b + fmt.bytesperline * fmt.height,
			       fmt.sizeimage - fmt.bytesperline * fmt.height);
		EXPECT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage, NULL),
			  VCAP_STAMP_BAD_SUM);
		free(a);
		free(b);
	}
}

/* One cell of the top stamp flipped: its CRC catches it. */
TEST(corrupt_stamp_detected)
{
	unsigned int f, cell;

	for (f = 0; f < vcap_format_count(); f++)
	for (cell = 8; cell < VCAP_STAMP_CELLS; cell += 9) {
		const struct vcap_format_info *fi = vcap_format_by_index(f);
		struct vcap_frame_fmt fmt;
		struct vcap_stamp_geom sg;
		struct vcap_gen g;
		u8 *a = frame_alloc(&fmt, fi->fourcc, 320, 240, 0);
		u32 x, y;

		ASSERT_TRUE(a);
		ASSERT_EQ(vcap_gen_init(&g, &fmt, VCAP_PATTERN_GRADIENT, 0), 0);
		ASSERT_EQ(vcap_stamp_geom(&fmt, &sg), 0);
		vcap_gen_render(&g, a, 0x123456789ull, VCAP_GEN_NONE);
		ASSERT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage, NULL),
			  VCAP_STAMP_OK);
		/* Invert the whole cell in every row of the band. */
		for (y = 0; y < sg.band_h; y++)
			for (x = sg.x0 + cell * sg.cell_w;
			     x < sg.x0 + (cell + 1) * sg.cell_w; x++) {
				u8 *row = a + y * fmt.bytesperline;
				unsigned int i;

				for (i = 0; i < fi->bpp; i++)
					row[x * fi->bpp + i] ^= 0xff;
			}
		EXPECT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage, NULL),
			  VCAP_STAMP_CORRUPT);
		free(a);
	}
}

TEST(missing_and_short)
{
	struct vcap_frame_fmt fmt;
	struct vcap_gen g;
	u8 *a = frame_alloc(&fmt, VCAP_FMT_YUYV, 640, 480, 0);

	ASSERT_TRUE(a);
	EXPECT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage, NULL),
		  VCAP_STAMP_MISSING);
	ASSERT_EQ(vcap_gen_init(&g, &fmt, VCAP_PATTERN_BARS, 0), 0);
	vcap_gen_render(&g, a, 3, VCAP_GEN_NONE);
	EXPECT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage - 1, NULL),
		  VCAP_STAMP_MISSING);
	fmt.fourcc = VCAP_FOURCC('M', 'J', 'P', 'G');
	EXPECT_EQ((int)vcap_stamp_check(&fmt, a, 1u << 30, NULL),
		  VCAP_STAMP_MISSING);
	free(a);
}

TEST(gen_init_refuses_bad_geometry)
{
	struct vcap_frame_fmt fmt;
	struct vcap_gen g;
	u8 *a = frame_alloc(&fmt, VCAP_FMT_NV12, 640, 480, 0);
	struct vcap_frame_fmt bad;

	ASSERT_TRUE(a);
	EXPECT_EQ(vcap_gen_init(&g, &fmt, VCAP_PATTERN_COUNT, 0), -EINVAL);
	EXPECT_EQ(vcap_gen_init(&g, &fmt, 0, 4), -EINVAL);
	bad = fmt;
	bad.width = 641;
	EXPECT_EQ(vcap_gen_init(&g, &bad, 0, 0), -EINVAL);
	bad = fmt;
	bad.sizeimage--;
	EXPECT_EQ(vcap_gen_init(&g, &bad, 0, 0), -EINVAL);
	bad = fmt;
	bad.bytesperline = 639;
	EXPECT_EQ(vcap_gen_init(&g, &bad, 0, 0), -EINVAL);
	bad = fmt;
	bad.height = 4000;
	EXPECT_EQ(vcap_gen_init(&g, &bad, 0, 0), -EINVAL);
	free(a);
}

/*
 * Whether pixel (x, y) has colour c: Y, and Cb Cr at even x (NV12 and
 * YU12: at even rows), or R G B.
 */
static bool pixel_is(const struct vcap_frame_fmt *fmt, const u8 *frame,
		     u32 x, u32 y, const struct vcap_rgb *c)
{
	const struct vcap_format_info *fi = vcap_format_find(fmt->fourcc);
	size_t bpl = fmt->bytesperline, luma = bpl * fmt->height;
	const u8 *p = frame + (size_t)y * bpl + (size_t)x * fi->bpp;
	const u8 *cb, *cr;
	bool chroma = !(x & 1) && !(fi->planar && (y & 1));

	switch (fi->order) {
	case VCAP_ORDER_YUYV:
		return p[0] == ref_y(c) &&
		       (!chroma || (p[1] == ref_u(c) && p[3] == ref_v(c)));
	case VCAP_ORDER_UYVY:
		return p[1] == ref_y(c) &&
		       (!chroma || (p[0] == ref_u(c) && p[2] == ref_v(c)));
	case VCAP_ORDER_Y:
		if (p[0] != ref_y(c))
			return false;
		if (!chroma || fi->planar == VCAP_PLANAR_NONE)
			return true;
		if (fi->planar == VCAP_PLANAR_NV) {
			cb = frame + luma + (y / 2) * bpl + x;
			cr = cb + 1;
		} else {
			cb = frame + luma + (y / 2) * (bpl / 2) + x / 2;
			cr = cb + luma / 4;
		}
		return *cb == ref_u(c) && *cr == ref_v(c);
	case VCAP_ORDER_RGB:
		return p[0] == c->r && p[1] == c->g && p[2] == c->b;
	case VCAP_ORDER_BGR:
		return p[0] == c->b && p[1] == c->g && p[2] == c->r;
	case VCAP_ORDER_XRGB:
		return p[0] == 0xff && p[1] == c->r && p[2] == c->g &&
		       p[3] == c->b;
	default:
		return p[0] == c->b && p[1] == c->g && p[2] == c->r &&
		       p[3] == 0xff;
	}
}

TEST(letterbox_geometry)
{
	static const struct {
		u32 fourcc, w, h, src_w, src_h;
		struct vcap_rect pic;
	} cases[] = {
		/* Letterbox, pillarbox, the same aspect, the same size. */
		{ VCAP_FMT_YUYV, 640, 480, 1920, 1080, { 0, 60, 640, 420 } },
		{ VCAP_FMT_NV12, 1280, 720, 640, 480, { 160, 0, 1120, 720 } },
		{ VCAP_FMT_RGB24, 1280, 720, 3840, 2160, { 0, 0, 1280, 720 } },
		{ VCAP_FMT_GREY, 1920, 1080, 1920, 1080, { 0, 0, 1920, 1080 } },
		/* 1280 x 720 * 480 / 640 = 540 rows high, 90 above. */
		{ VCAP_FMT_YUV420, 1280, 960, 1280, 720, { 0, 120, 1280, 840 } },
		/* 160 x 1080 / 1920 = 90 rows: odd bars become even ones. */
		{ VCAP_FMT_NV12, 160, 120, 1920, 1080, { 0, 14, 160, 104 } },
		/* 240 x 4 / 3 = 320 wide, rounded to the pixel pair. */
		{ VCAP_FMT_XRGB32, 322, 240, 640, 480, { 0, 0, 320, 240 } },
		{ VCAP_FMT_YUYV, 162, 120, 160, 120, { 0, 0, 160, 120 } },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vcap_frame_fmt fmt;
		struct vcap_rect r;
		u8 *a = frame_alloc(&fmt, cases[i].fourcc, cases[i].w,
				    cases[i].h, 0);

		ASSERT_TRUE(a);
		vcap_letterbox(&fmt, cases[i].src_w, cases[i].src_h, &r);
		TH_LOG("%ux%u in %ux%u: %u,%u..%u,%u", cases[i].src_w,
		       cases[i].src_h, cases[i].w, cases[i].h, r.x0, r.y0,
		       r.x1, r.y1);
		EXPECT_EQ(r.x0, cases[i].pic.x0);
		EXPECT_EQ(r.y0, cases[i].pic.y0);
		EXPECT_EQ(r.x1, cases[i].pic.x1);
		EXPECT_EQ(r.y1, cases[i].pic.y1);
		free(a);
	}
}

/*
 * A source scaled into a frame of another aspect: the bars of its
 * picture, at the picture's scale, flipped inside it, black around it
 * (outside the stamp bands), in every format.
 */
TEST(scaled_bars_and_black_borders)
{
	static const struct {
		u32 w, h, src_w, src_h;
	} cases[] = {
		{ 640, 480, 1920, 1080 },	/* letterbox */
		{ 1280, 720, 640, 480 },	/* pillarbox */
	};
	const struct vcap_rgb *black = &vcap_bar_colours[7];
	unsigned int f, i, flip, x, y, checked = 0;

	for (f = 0; f < vcap_format_count(); f++)
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	for (flip = 0; flip < 2; flip++) {
		const struct vcap_format_info *fi = vcap_format_by_index(f);
		struct vcap_stamp_geom sg;
		struct vcap_frame_fmt fmt;
		struct vcap_stamp st;
		struct vcap_gen g;
		struct vcap_rect r;
		u32 pw;
		u8 *a;

		a = frame_alloc(&fmt, fi->fourcc, cases[i].w, cases[i].h, 0);
		ASSERT_TRUE(a);
		memset(a, 0x5a, fmt.sizeimage);
		ASSERT_EQ(vcap_gen_init_scaled(&g, &fmt, VCAP_PATTERN_BARS,
					       flip ? VCAP_REQ_HFLIP |
						      VCAP_REQ_VFLIP : 0,
					       cases[i].src_w, cases[i].src_h),
			  0);
		vcap_letterbox(&fmt, cases[i].src_w, cases[i].src_h, &r);
		ASSERT_EQ(memcmp(&g.pic, &r, sizeof(r)), 0);
		ASSERT_EQ(vcap_stamp_geom(&fmt, &sg), 0);
		vcap_gen_render(&g, a, 77, VCAP_GEN_NONE);
		pw = r.x1 - r.x0;
		for (y = sg.band_h; y < fmt.height - sg.band_h; y++)
			for (x = 0; x < fmt.width; x++) {
				const struct vcap_rgb *c = black;
				u32 px = x - r.x0;

				if (x >= r.x0 && x < r.x1 && y >= r.y0 &&
				    y < r.y1) {
					if (flip)
						px = pw - 1 - px;
					c = &vcap_bar_colours[px * VCAP_NUM_BARS / pw];
				}
				if (!pixel_is(&fmt, a, x, y, c)) {
					TH_LOG("%s %ux%u from %ux%u flip %u: pixel %u,%u is not %u %u %u",
					       fi->name, fmt.width, fmt.height,
					       cases[i].src_w, cases[i].src_h,
					       flip, x, y, c->r, c->g, c->b);
					ASSERT_TRUE(0);
				}
				checked++;
			}
		ASSERT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage, &st),
			  VCAP_STAMP_OK);
		ASSERT_EQ(st.seq, 77);
		free(a);
	}
	TH_LOG("%u pixels checked", checked);
}

/*
 * Scaled sources, every format, pattern and flip: the stamps verify, an
 * incremental render equals a full one, and the box stays in the picture.
 */
TEST_TIMEOUT(scaled_roundtrip_every_format, 300)
{
	static const struct {
		u32 w, h, src_w, src_h;
	} cases[] = {
		{ 640, 480, 1920, 1080 }, { 1280, 720, 640, 480 },
		{ 320, 240, 1280, 720 }, { 160, 120, 3840, 2160 },
		/* Odd sizes, for the formats without subsampling. */
		{ 641, 361, 1920, 1080 }, { 642, 361, 640, 480 },
	};
	unsigned int f, i, flags, p, n;

	for (f = 0; f < vcap_format_count(); f++)
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	for (flags = 0; flags < 4; flags++)
	for (p = 0; p < VCAP_PATTERN_COUNT; p++) {
		const struct vcap_format_info *fi = vcap_format_by_index(f);
		struct vcap_frame_fmt fmt;
		struct vcap_rect box;
		struct vcap_stamp st;
		struct vcap_gen g;
		u64 seq = 500, prev;
		u8 *a, *b;

		if (cases[i].w % fi->hsub || cases[i].h % fi->vsub)
			continue;
		a = frame_alloc(&fmt, fi->fourcc, cases[i].w, cases[i].h,
				(i & 1) ? 64 : 0);
		b = calloc(1, fmt.sizeimage);
		ASSERT_TRUE(a && b);
		ASSERT_EQ(vcap_gen_init_scaled(&g, &fmt, p, flags,
					       cases[i].src_w, cases[i].src_h),
			  0);
		vcap_gen_render(&g, a, seq, VCAP_GEN_NONE);
		for (n = 0; n < 5; n++) {
			prev = seq;
			seq += 1 + n * 19;
			vcap_gen_render(&g, a, seq, prev);
			vcap_gen_render(&g, b, seq, VCAP_GEN_NONE);
			if (memcmp(a, b, fmt.sizeimage)) {
				TH_LOG("%s %ux%u from %ux%u flags %u pattern %u: incremental render differs",
				       fi->name, fmt.width, fmt.height,
				       cases[i].src_w, cases[i].src_h, flags,
				       p);
				ASSERT_TRUE(0);
			}
			ASSERT_EQ((int)vcap_stamp_check(&fmt, a, fmt.sizeimage,
							&st),
				  VCAP_STAMP_OK);
			ASSERT_EQ(st.seq, seq);
			vcap_gen_box(&g, seq, &box);
			ASSERT_TRUE(box.x0 >= g.pic.x0 && box.x1 <= g.pic.x1 &&
				    box.y0 >= g.pic.y0 && box.y1 <= g.pic.y1 &&
				    box.x1 > box.x0 && box.y1 > box.y0);
		}
		free(a);
		free(b);
	}
}

/* A source of the frame's own size is vcap_gen_init(), byte for byte. */
TEST(scaled_identity)
{
	unsigned int f, p, flags;

	for (f = 0; f < vcap_format_count(); f++)
	for (p = 0; p < VCAP_PATTERN_COUNT; p++)
	for (flags = 0; flags < 4; flags++) {
		const struct vcap_format_info *fi = vcap_format_by_index(f);
		struct vcap_frame_fmt fmt;
		struct vcap_gen g, s;
		u8 *a, *b;

		a = frame_alloc(&fmt, fi->fourcc, 642, 362, 64);
		b = calloc(1, fmt.sizeimage);
		ASSERT_TRUE(a && b);
		ASSERT_EQ(vcap_gen_init(&g, &fmt, p, flags), 0);
		ASSERT_EQ(vcap_gen_init_scaled(&s, &fmt, p, flags, 642, 362),
			  0);
		vcap_gen_render(&g, a, 3, VCAP_GEN_NONE);
		vcap_gen_render(&s, b, 3, VCAP_GEN_NONE);
		vcap_gen_render(&g, a, 40, 3);
		vcap_gen_render(&s, b, 40, 3);
		ASSERT_EQ(memcmp(a, b, fmt.sizeimage), 0);
		free(a);
		free(b);
	}
}

TEST(gen_init_scaled_refuses_bad_source)
{
	struct vcap_frame_fmt fmt;
	struct vcap_gen g;
	u8 *a = frame_alloc(&fmt, VCAP_FMT_YUYV, 640, 480, 0);

	ASSERT_TRUE(a);
	EXPECT_EQ(vcap_gen_init_scaled(&g, &fmt, 0, 0, 0, 1080), -EINVAL);
	EXPECT_EQ(vcap_gen_init_scaled(&g, &fmt, 0, 0, 1920, 0), -EINVAL);
	EXPECT_EQ(vcap_gen_init_scaled(&g, &fmt, 0, 0, 3842, 2160), -EINVAL);
	EXPECT_EQ(vcap_gen_init_scaled(&g, &fmt, 0, 0, 3840, 2162), -EINVAL);
	EXPECT_EQ(vcap_gen_init_scaled(&g, &fmt, VCAP_PATTERN_COUNT, 0, 1920,
				       1080), -EINVAL);
	EXPECT_EQ(vcap_gen_init_scaled(&g, &fmt, 0, 0, 1920, 1080), 0);
	free(a);
}

VTEST_MAIN()
