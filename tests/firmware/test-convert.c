// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fw_convert(): every source layout into every board format, through
 * libswscale and by hand, against pictures of known content: PSNR of a
 * smooth gradient, exact black bars, flips by a corner marker, the
 * library's filter, buffers that end at an unmapped page, the context
 * cache, threads, and bad input.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vcap/board.h>
#include "convert-pic.h"
#include "fw-sws.h"
#include "vcap-stamp.h"
#include "vtest.h"

static const u32 src_fourccs[] = {
	VCAP_FMT_YUV420, FW_FMT_YUV422P, FW_FMT_YUV444P, VCAP_FMT_NV12,
	VCAP_FMT_YUYV, VCAP_FMT_UYVY, VCAP_FMT_RGB24, VCAP_FMT_BGR24,
	VCAP_FMT_XRGB32, VCAP_FMT_XBGR32, VCAP_FMT_GREY,
};

static const u32 dst_fourccs[] = {
	VCAP_FMT_YUYV, VCAP_FMT_UYVY, VCAP_FMT_NV12, VCAP_FMT_YUV420,
	VCAP_FMT_RGB24, VCAP_FMT_BGR24, VCAP_FMT_XRGB32, VCAP_FMT_XBGR32,
	VCAP_FMT_GREY,
};

static const enum fw_convert_impl impls[] = {
	FW_CONVERT_LIBRARY, FW_CONVERT_NEAREST,
};

static const char *impl_name(enum fw_convert_impl i)
{
	return i == FW_CONVERT_NEAREST ? "nearest" : "library";
}

static double psnr(const u8 *a, const u8 *b, u32 stride,
		   const struct vcap_rect *r)
{
	double mse = 0, d;
	u32 x, y;

	for (y = r->y0; y < r->y1; y++)
		for (x = r->x0; x < r->x1; x++) {
			d = (double)a[(size_t)y * stride + x] -
			    b[(size_t)y * stride + x];
			mse += d * d;
		}
	mse /= (double)(r->x1 - r->x0) * (r->y1 - r->y0);
	return mse == 0 ? 99 : 10 * log10(255.0 * 255.0 / mse);
}

/* How far from black the frame is outside pic: 0 when exactly black. */
static u32 bar_errors(const struct cpic *f, const struct vcap_rect *pic)
{
	u32 x, y, bad = 0;
	size_t i;

	for (y = 0; y < f->h; y++)
		for (x = 0; x < f->w; x++) {
			if (y >= pic->y0 && y < pic->y1 && x >= pic->x0 &&
			    x < pic->x1)
				continue;
			i = (size_t)y * f->w + x;
			bad += f->y[i] != 16 || f->u[i] != 128 ||
			       f->v[i] != 128;
		}
	return bad;
}

/* The X byte of every 32-bit pixel: 0 when all are 0xff. */
static u32 x_errors(const struct vcap_frame_fmt *f, const u8 *d)
{
	u32 x, y, k, bad = 0;

	if (f->fourcc != VCAP_FMT_XRGB32 && f->fourcc != VCAP_FMT_XBGR32)
		return 0;
	k = f->fourcc == VCAP_FMT_XRGB32 ? 0 : 3;
	for (y = 0; y < f->height; y++)
		for (x = 0; x < f->width; x++)
			bad += d[(size_t)y * f->bytesperline + x * 4 + k] != 0xff;
	return bad;
}

/*
 * The gradient as fmt should show it from a w x h source of fourcc:
 * drawn again at the picture's size (the gradient is a function of the
 * position in the picture), grey where the source has no chroma.
 */
static int expected(u32 src_fourcc, const struct vcap_frame_fmt *fmt,
		    const struct vcap_rect *pic, struct cpic *e)
{
	struct cpic g;
	u32 y;

	if (cpic_alloc(e, fmt->width, fmt->height) ||
	    cpic_alloc(&g, pic->x1 - pic->x0, pic->y1 - pic->y0))
		return -1;
	cpic_gradient(&g);
	memset(e->y, 16, (size_t)e->w * e->h);
	memset(e->u, 128, (size_t)e->w * e->h * 2);
	for (y = 0; y < g.h; y++) {
		size_t d = (size_t)(pic->y0 + y) * e->w + pic->x0;

		memcpy(e->y + d, g.y + (size_t)y * g.w, g.w);
		if (src_fourcc == VCAP_FMT_GREY || fmt->fourcc == VCAP_FMT_GREY)
			continue;
		memcpy(e->u + d, g.u + (size_t)y * g.w, g.w);
		memcpy(e->v + d, g.v + (size_t)y * g.w, g.w);
	}
	cpic_free(&g);
	return 0;
}

struct conv_result {
	int ret;
	double psnr_y, psnr_u, psnr_v;
	u32 bar_errors;
	u32 x_errors;
};

/*
 * A gradient of src_fourcc at sw x sh, converted by impl into fourcc at
 * dw x dh as a source of its size, and compared.
 */
static int convert_gradient(enum fw_convert_impl impl, u32 src_fourcc,
			    u32 sw, u32 sh, u32 fourcc, u32 dw, u32 dh,
			    struct conv_result *res)
{
	struct vcap_frame_fmt fmt = cpic_fmt(fourcc, dw, dh);
	struct cpic src, got, want;
	struct fw_image im;
	struct vcap_rect pic;
	u8 *sbuf, *frame;

	if (cpic_alloc(&src, sw, sh))
		return -1;
	cpic_gradient(&src);
	sbuf = cpic_pack(&src, src_fourcc, &im);
	frame = malloc(fmt.sizeimage);
	cpic_free(&src);
	if (!sbuf || !frame)
		return -1;
	memset(frame, 0x5a, fmt.sizeimage);
	res->ret = fw_convert_with(impl, &im, &fmt, frame, 0, sw, sh);
	vcap_letterbox(&fmt, sw, sh, &pic);
	if (cpic_unpack(&fmt, frame, &got) ||
	    expected(src_fourcc, &fmt, &pic, &want))
		return -1;
	res->psnr_y = psnr(got.y, want.y, dw, &pic);
	res->psnr_u = psnr(got.u, want.u, dw, &pic);
	res->psnr_v = psnr(got.v, want.v, dw, &pic);
	res->bar_errors = bar_errors(&got, &pic);
	res->x_errors = x_errors(&fmt, frame);
	cpic_free(&got);
	cpic_free(&want);
	free(sbuf);
	free(frame);
	return 0;
}

static void check_gradient(struct vtest_meta *_vtest,
			   enum fw_convert_impl impl, u32 sf, u32 sw, u32 sh,
			   u32 df, u32 dw, u32 dh, double min_db)
{
	struct conv_result r;
	bool ok;

	ASSERT_EQ(convert_gradient(impl, sf, sw, sh, df, dw, dh, &r), 0);
	ok = !r.ret && r.psnr_y >= min_db && r.psnr_u >= min_db &&
	     r.psnr_v >= min_db && !r.bar_errors && !r.x_errors;
	if (!ok)
		TH_LOG("%s: %.4s %ux%u -> %.4s %ux%u: ret %d, PSNR Y %.1f U %.1f V %.1f dB (want >= %.0f), %u bar pixels not black, %u X bytes not 0xff",
		       impl_name(impl), (const char *)&sf, sw, sh,
		       (const char *)&df, dw, dh, r.ret, r.psnr_y, r.psnr_u,
		       r.psnr_v, min_db, r.bar_errors, r.x_errors);
	EXPECT_TRUE(ok);
}

/* Same size: each layout in each board format, >= 40 dB, no fallback. */
TEST_TIMEOUT(every_layout_into_every_format_at_the_same_size, 120)
{
	struct fw_sws_stats before, after;
	unsigned int s, d, i;

	fw_sws_get_stats(&before);
	for (i = 0; i < ARRAY_SIZE(impls); i++)
		for (s = 0; s < ARRAY_SIZE(src_fourccs); s++)
			for (d = 0; d < ARRAY_SIZE(dst_fourccs); d++)
				check_gradient(_vtest, impls[i], src_fourccs[s],
					       640, 360, dst_fourccs[d], 640,
					       360, 40);
	fw_sws_get_stats(&after);
	EXPECT_EQ(after.refused, before.refused);
}

/*
 * Scaled: down, letterboxed, up, pillarboxed, odd source sizes, the
 * smallest picture and the largest frame; >= 30 dB against the gradient
 * drawn at the picture's size, bars exactly black.
 */
TEST_TIMEOUT(scaled_pictures_match_the_gradient_at_their_size, 300)
{
	static const struct {
		u32 sw, sh, dw, dh;
		bool all_formats;
	} cases[] = {
		{ 1920, 1080, 1280, 720, true },
		{ 1920, 1080, 640, 480, true },	/* letterbox */
		{ 1280, 720, 1920, 1080, true },	/* up */
		{ 640, 480, 1920, 1080, true },	/* pillarbox */
		{ 641, 361, 640, 480, true },	/* odd source */
		{ 1023, 767, 800, 600, true },
		{ 1920, 1080, 160, 120, true },	/* VCAP_SCALE_MIN */
		{ 3840, 2160, 3840, 2160, false },	/* the largest */
		{ 1920, 1080, 3840, 2160, false },
		{ 3840, 2160, 160, 120, false },
	};
	static const u32 few[] = { VCAP_FMT_YUYV, VCAP_FMT_NV12 };
	unsigned int c, d, i, n;
	u32 df;

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		n = cases[c].all_formats ? ARRAY_SIZE(dst_fourccs) : 2;
		for (d = 0; d < n; d++) {
			df = cases[c].all_formats ? dst_fourccs[d] : few[d];
			for (i = 0; i < ARRAY_SIZE(impls); i++)
				check_gradient(_vtest, impls[i],
					       VCAP_FMT_YUV420, cases[c].sw,
					       cases[c].sh, df, cases[c].dw,
					       cases[c].dh, 30);
		}
	}
	/* Every other source layout, scaled and letterboxed. */
	for (c = 0; c < ARRAY_SIZE(src_fourccs); c++)
		for (i = 0; i < ARRAY_SIZE(impls); i++)
			check_gradient(_vtest, impls[i], src_fourccs[c], 1280,
				       720, VCAP_FMT_YUYV, 640, 480, 30);
}

/* The marker's corner: bit 0 right, bit 1 bottom. */
static int marker_corner(const struct cpic *f, const struct vcap_rect *pic,
			 double *lo, double *hi)
{
	u32 pw = pic->x1 - pic->x0, ph = pic->y1 - pic->y0;
	u32 bw = pw / 8, bh = ph / 8, x, y, c;
	double mean[4];
	int bright = -1;

	*lo = 255;
	*hi = 0;
	for (c = 0; c < 4; c++) {
		/* The middle half of where the marker would be. */
		u32 x0 = pic->x0 + (c & 1 ? pw - 3 * bw / 4 : bw / 4);
		u32 y0 = pic->y0 + (c & 2 ? ph - 3 * bh / 4 : bh / 4);
		double sum = 0;

		for (y = y0; y < y0 + bh / 2; y++)
			for (x = x0; x < x0 + bw / 2; x++)
				sum += f->y[(size_t)y * f->w + x];
		mean[c] = sum / ((double)(bw / 2) * (bh / 2));
		if (mean[c] > 200)
			bright = bright < 0 ? (int)c : 4;
		if (mean[c] < *lo)
			*lo = mean[c];
		if (mean[c] > *hi)
			*hi = mean[c];
	}
	return bright;
}

/* Flips put the source's top left marker in the picture's right corner. */
TEST_TIMEOUT(flips_move_the_corner_marker, 120)
{
	static const struct {
		u32 sw, sh, dw, dh;
	} sizes[] = {
		{ 640, 360, 640, 360 }, { 1280, 720, 640, 480 },
		{ 320, 240, 854, 480 },
	};
	unsigned int s, d, i, fl;
	struct cpic src, got;
	struct fw_image im;
	struct vcap_rect pic;
	double lo, hi;
	u8 *sbuf, *frame;
	int corner;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		ASSERT_EQ(cpic_alloc(&src, sizes[s].sw, sizes[s].sh), 0);
		memset(src.y, 60, (size_t)src.w * src.h);
		memset(src.u, 128, (size_t)src.w * src.h * 2);
		for (u32 y = 0; y < src.h / 8; y++)
			memset(src.y + (size_t)y * src.w, 235, src.w / 8);
		sbuf = cpic_pack(&src, VCAP_FMT_YUV420, &im);
		ASSERT_TRUE(sbuf);
		for (d = 0; d < ARRAY_SIZE(dst_fourccs); d++) {
			struct vcap_frame_fmt fmt = cpic_fmt(dst_fourccs[d],
							     sizes[s].dw,
							     sizes[s].dh);

			frame = malloc(fmt.sizeimage);
			ASSERT_TRUE(frame);
			vcap_letterbox(&fmt, src.w, src.h, &pic);
			for (i = 0; i < ARRAY_SIZE(impls); i++)
				for (fl = 0; fl < 4; fl++) {
					EXPECT_EQ(fw_convert_with(impls[i], &im,
								  &fmt, frame, fl,
								  src.w, src.h), 0);
					ASSERT_EQ(cpic_unpack(&fmt, frame, &got), 0);
					corner = marker_corner(&got, &pic, &lo, &hi);
					if (corner != (int)fl || lo > 80)
						TH_LOG("%s %.4s %ux%u flips %u: marker at %d (corners %.0f..%.0f)",
						       impl_name(impls[i]),
						       (const char *)&fmt.fourcc,
						       fmt.width, fmt.height, fl,
						       corner, lo, hi);
					EXPECT_EQ(corner, (int)fl);
					EXPECT_LE(lo, 80);
					EXPECT_EQ(bar_errors(&got, &pic), 0);
					cpic_free(&got);
				}
			free(frame);
		}
		free(sbuf);
		cpic_free(&src);
	}
}

/* Standard deviation of the luma inside pic. */
static double luma_sd(const struct cpic *f, const struct vcap_rect *pic)
{
	double s = 0, s2 = 0, n = 0, v;
	u32 x, y;

	for (y = pic->y0; y < pic->y1; y++)
		for (x = pic->x0; x < pic->x1; x++) {
			v = f->y[(size_t)y * f->w + x];
			s += v;
			s2 += v * v;
			n++;
		}
	return sqrt(s2 / n - (s / n) * (s / n));
}

/*
 * One-pixel stripes shrunk by three: the library's filter averages them
 * to grey, where nearest neighbour (or a two-tap filter) keeps stripes
 * at the wrong pitch, aliased.
 */
TEST(shrinking_filters_fine_detail)
{
	struct vcap_frame_fmt fmt = cpic_fmt(VCAP_FMT_YUYV, 640, 360);
	struct cpic src, got;
	struct vcap_rect pic;
	struct fw_image im;
	double sd[2];
	unsigned int i;
	u8 *sbuf, *frame;
	u32 x, y;

	ASSERT_EQ(cpic_alloc(&src, 1920, 1080), 0);
	memset(src.u, 128, (size_t)src.w * src.h * 2);
	for (y = 0; y < src.h; y++)
		for (x = 0; x < src.w; x++)
			src.y[(size_t)y * src.w + x] = x & 1 ? 200 : 40;
	sbuf = cpic_pack(&src, VCAP_FMT_YUV420, &im);
	frame = malloc(fmt.sizeimage);
	ASSERT_TRUE(sbuf && frame);
	vcap_letterbox(&fmt, src.w, src.h, &pic);
	for (i = 0; i < ARRAY_SIZE(impls); i++) {
		EXPECT_EQ(fw_convert_with(impls[i], &im, &fmt, frame, 0, src.w,
					  src.h), 0);
		ASSERT_EQ(cpic_unpack(&fmt, frame, &got), 0);
		sd[i] = luma_sd(&got, &pic);
		cpic_free(&got);
	}
	TH_LOG("stripes shrunk by 3: luma deviation %.1f (library), %.1f (nearest)",
	       sd[0], sd[1]);
	EXPECT_LT(sd[0], 20);
	/* The stripes are there to lose: nearest neighbour keeps them. */
	EXPECT_GT(sd[1], 60);
	free(sbuf);
	free(frame);
	cpic_free(&src);
}

/* len bytes whose end is followed by an unmapped page. */
static u8 *guarded(size_t len, void **map, size_t *maplen)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t n = (len + pg - 1) / pg * pg + pg;
	u8 *m = mmap(NULL, n, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m + n - pg, pg, PROT_NONE)) {
		munmap(m, n);
		return NULL;
	}
	*map = m;
	*maplen = n;
	return m + n - pg - len;
}

/*
 * A source that is the end of its mapping (a file's last frame) and a
 * frame that is the end of its buffer: nothing is read or written past
 * either, at widths no vector size divides, flipped or not.  A stray
 * access is a fault, which fails the test.
 */
TEST_TIMEOUT(no_access_past_the_source_or_the_frame, 300)
{
	static const struct {
		u32 sw, sh, dw, dh;
	} sizes[] = {
		{ 642, 482, 642, 482 },	/* the library's unscaled paths */
		{ 1282, 722, 642, 482 },
		{ 322, 242, 1282, 722 },
		{ 642, 482, 162, 122 },
		{ 998, 561, 1000, 562 },
	};
	unsigned int s, a, b, fl;
	struct fw_image im;
	struct cpic src;
	void *smap, *dmap;
	size_t size, slen, dlen;
	u8 *sbuf, *sg, *dg;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		ASSERT_EQ(cpic_alloc(&src, sizes[s].sw, sizes[s].sh), 0);
		cpic_gradient(&src);
		for (a = 0; a < ARRAY_SIZE(src_fourccs); a++) {
			if (src_fourccs[a] == VCAP_FMT_NV12 && (src.w & 1))
				continue;
			sbuf = cpic_pack(&src, src_fourccs[a], &im);
			ASSERT_TRUE(sbuf);
			size = (size_t)fw_image_size(im.fourcc, im.width,
						     im.height);
			sg = guarded(size, &smap, &slen);
			ASSERT_TRUE(sg);
			memcpy(sg, sbuf, size);
			im.data = sg;
			for (b = 0; b < ARRAY_SIZE(dst_fourccs); b++) {
				struct vcap_frame_fmt fmt =
					cpic_fmt(dst_fourccs[b], sizes[s].dw,
						 sizes[s].dh);

				dg = guarded(fmt.sizeimage, &dmap, &dlen);
				ASSERT_TRUE(dg);
				for (fl = 0; fl < 4; fl += 3)
					EXPECT_EQ(fw_convert_with(FW_CONVERT_LIBRARY,
								  &im, &fmt, dg,
								  fl, src.w,
								  src.h), 0);
				munmap(dmap, dlen);
			}
			munmap(smap, slen);
			free(sbuf);
		}
		cpic_free(&src);
	}
}

/* One context per conversion, made once, freed on release. */
TEST(contexts_are_cached)
{
	struct vcap_frame_fmt a = cpic_fmt(VCAP_FMT_YUYV, 640, 480);
	struct vcap_frame_fmt b = cpic_fmt(VCAP_FMT_NV12, 320, 240);
	struct fw_sws_stats s0, s1;
	struct fw_image im;
	struct cpic src;
	u8 *sbuf, *frame;
	int i;

	ASSERT_EQ(cpic_alloc(&src, 1280, 720), 0);
	cpic_gradient(&src);
	sbuf = cpic_pack(&src, VCAP_FMT_YUV420, &im);
	frame = malloc(a.sizeimage);
	ASSERT_TRUE(sbuf && frame);
	fw_sws_release();
	fw_sws_get_stats(&s0);
	for (i = 0; i < 10; i++) {
		fw_convert(&im, &a, frame, 0, 1280, 720);
		fw_convert(&im, &b, frame, i & 3, 1280, 720);
	}
	fw_sws_get_stats(&s1);
	/* Flips are the copy's: the same context serves every flip. */
	EXPECT_EQ(s1.made - s0.made, 2);
	EXPECT_EQ(s1.reused - s0.reused, 18);
	/* More conversions than the cache holds: the oldest goes. */
	for (i = 0; i < 6; i++) {
		/* 16:9 into each: pictures 180 to 270 rows high. */
		struct vcap_frame_fmt c = cpic_fmt(VCAP_FMT_YUYV,
						   320 + 32 * i, 480);

		fw_convert(&im, &c, frame, 0, 1280, 720);
	}
	fw_convert(&im, &a, frame, 0, 1280, 720);
	fw_sws_get_stats(&s0);
	EXPECT_EQ(s0.made - s1.made, 7);
	fw_sws_release();
	fw_convert(&im, &a, frame, 0, 1280, 720);
	fw_sws_get_stats(&s1);
	EXPECT_EQ(s1.made - s0.made, 1);
	EXPECT_EQ(s1.refused, 0);
	free(sbuf);
	free(frame);
	cpic_free(&src);
}

struct conv_thread {
	u32 fourcc;
	int bad;
};

static void *conv_thread(void *arg)
{
	struct conv_thread *t = arg;
	struct conv_result r;
	int i;

	for (i = 0; i < 20; i++)
		if (convert_gradient(FW_CONVERT_AUTO, VCAP_FMT_YUV420, 1280, 720,
				     t->fourcc, 640, 480, &r) || r.ret ||
		    r.psnr_y < 30 || r.bar_errors)
			t->bad++;
	return NULL;
}

/* A live source's reader and the board convert at once. */
TEST_TIMEOUT(threads_convert_at_once, 120)
{
	struct conv_thread t[3] = {
		{ VCAP_FMT_YUYV, 0 }, { VCAP_FMT_NV12, 0 }, { VCAP_FMT_YUYV, 0 },
	};
	pthread_t th[3];
	int i;

	for (i = 0; i < 3; i++)
		ASSERT_EQ(pthread_create(&th[i], NULL, conv_thread, &t[i]), 0);
	for (i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(t[i].bad, 0);
	}
}

/* A source without pixels is a black frame, never a crash. */
TEST(bad_sources_are_black)
{
	struct vcap_frame_fmt fmt = cpic_fmt(VCAP_FMT_YUYV, 320, 240);
	struct vcap_rect none = { 0, 0, 0, 0 };
	u8 *frame = malloc(fmt.sizeimage), pix[64] = { 0 };
	struct fw_image im = { VCAP_FMT_YUV420, 4, 4, 4, NULL };
	struct cpic got;

	ASSERT_TRUE(frame);
	memset(frame, 0x5a, fmt.sizeimage);
	EXPECT_EQ(fw_convert_with(FW_CONVERT_AUTO, &im, &fmt, frame, 0, 4, 4),
		  -EINVAL);
	im.data = pix;
	im.width = 0;
	EXPECT_EQ(fw_convert_with(FW_CONVERT_AUTO, &im, &fmt, frame, 0, 4, 4),
		  -EINVAL);
	im.width = 4;
	im.fourcc = VCAP_FOURCC('M', 'J', 'P', 'G');
	EXPECT_EQ(fw_convert_with(FW_CONVERT_AUTO, &im, &fmt, frame, 0, 4, 4),
		  -EINVAL);
	ASSERT_EQ(cpic_unpack(&fmt, frame, &got), 0);
	EXPECT_EQ(bar_errors(&got, &none), 0);
	cpic_free(&got);
	free(frame);
}

/* Sources of a few pixels, in every layout: drawn, bars black. */
TEST_TIMEOUT(tiny_sources_scale_up, 120)
{
	static const u32 sizes[][2] = {
		{ 1, 1 }, { 2, 2 }, { 3, 1 }, { 1, 3 }, { 5, 3 }, { 8, 2 },
		{ 2, 9 }, { 16, 16 },
	};
	struct vcap_frame_fmt fmt = cpic_fmt(VCAP_FMT_NV12, 160, 120);
	unsigned int s, f;
	struct vcap_rect pic;
	struct fw_image im;
	struct cpic src, got;
	u8 *sbuf, *frame = malloc(fmt.sizeimage);
	u32 x, y;

	ASSERT_TRUE(frame);
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		ASSERT_EQ(cpic_alloc(&src, sizes[s][0], sizes[s][1]), 0);
		memset(src.y, 150, (size_t)src.w * src.h);
		memset(src.u, 128, (size_t)src.w * src.h * 2);
		for (f = 0; f < ARRAY_SIZE(src_fourccs); f++) {
			if (src_fourccs[f] == VCAP_FMT_NV12 && (src.w & 1))
				continue;
			sbuf = cpic_pack(&src, src_fourccs[f], &im);
			ASSERT_TRUE(sbuf);
			memset(frame, 0x5a, fmt.sizeimage);
			EXPECT_EQ(fw_convert_with(FW_CONVERT_AUTO, &im, &fmt,
						  frame, 3, src.w, src.h), 0);
			vcap_letterbox(&fmt, src.w, src.h, &pic);
			ASSERT_EQ(cpic_unpack(&fmt, frame, &got), 0);
			EXPECT_EQ(bar_errors(&got, &pic), 0);
			/* Flat grey 150: every pixel of the picture near it. */
			for (y = pic.y0; y < pic.y1; y++)
				for (x = pic.x0; x < pic.x1; x++)
					if (abs(got.y[(size_t)y * got.w + x] - 150) > 3) {
						TH_LOG("%.4s %ux%u: %u at %u,%u",
						       (const char *)&src_fourccs[f],
						       src.w, src.h,
						       got.y[(size_t)y * got.w + x],
						       x, y);
						EXPECT_TRUE(false);
						y = pic.y1;
						break;
					}
			cpic_free(&got);
			free(sbuf);
		}
		cpic_free(&src);
	}
	free(frame);
}

/* The stamps go on after the conversion and survive it. */
TEST(stamps_drawn_after_conversion_check)
{
	struct vcap_frame_fmt fmt = cpic_fmt(VCAP_FMT_NV12, 640, 480);
	struct vcap_stamp st;
	struct fw_image im;
	struct cpic src;
	u8 *sbuf, *frame = malloc(fmt.sizeimage);

	ASSERT_EQ(cpic_alloc(&src, 1920, 1080), 0);
	cpic_gradient(&src);
	sbuf = cpic_pack(&src, VCAP_FMT_YUV420, &im);
	ASSERT_TRUE(sbuf && frame);
	fw_convert(&im, &fmt, frame, VCAP_REQ_HFLIP, 1920, 1080);
	vcap_stamp_write(&fmt, frame, 77, vcap_stamp_sum(&fmt, frame));
	EXPECT_EQ((int)vcap_stamp_check(&fmt, frame, fmt.sizeimage, &st),
		  VCAP_STAMP_OK);
	EXPECT_EQ(st.seq, 77);
	free(sbuf);
	free(frame);
	cpic_free(&src);
}

VTEST_MAIN()
