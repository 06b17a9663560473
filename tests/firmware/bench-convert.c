// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fw_convert() through libswscale against the firmware's own nearest
 * neighbour scaler, side by side in one process, case by case: ns per
 * frame, median of ROUNDS, and their ratio.  Then libswscale's bilinear
 * against its two-tap fast bilinear on the scaled cases.  Exits non-zero
 * when the library, fw_convert()'s choice, is the slower one in a case
 * where both do the same work: at the same size and scaling up.  Shrunk,
 * the library filters every source pixel where nearest neighbour reads
 * one in four or nine: slower by design, for a picture without aliasing.
 */
#include <stdio.h>
#include <libswscale/swscale.h>
#include <vcap/board.h>
#include "bench-time.h"
#include "convert-pic.h"

#define ROUNDS 15

static const struct bench_case {
	const char *name;
	u32 sf, sw, sh, df, dw, dh, flags;
} cases[] = {
	{ "1920x1080 I420 -> YUYV, same size", VCAP_FMT_YUV420, 1920, 1080,
	  VCAP_FMT_YUYV, 1920, 1080, 0 },
	{ "1920x1080 I420 -> NV12, same size", VCAP_FMT_YUV420, 1920, 1080,
	  VCAP_FMT_NV12, 1920, 1080, 0 },
	{ "1920x1080 I420 -> YUYV 1280x720", VCAP_FMT_YUV420, 1920, 1080,
	  VCAP_FMT_YUYV, 1280, 720, 0 },
	{ "1920x1080 I420 -> NV12 1280x720", VCAP_FMT_YUV420, 1920, 1080,
	  VCAP_FMT_NV12, 1280, 720, 0 },
	{ "1920x1080 I420 -> YUYV 640x480 (letterbox)", VCAP_FMT_YUV420, 1920,
	  1080, VCAP_FMT_YUYV, 640, 480, 0 },
	{ "1280x720 I420 -> YUYV 1920x1080 (up)", VCAP_FMT_YUV420, 1280, 720,
	  VCAP_FMT_YUYV, 1920, 1080, 0 },
	{ "640x480 I420 -> YUYV 1920x1080 (4:3 pillarbox)", VCAP_FMT_YUV420,
	  640, 480, VCAP_FMT_YUYV, 1920, 1080, 0 },
	{ "1920x1080 I420 -> YUYV, both flips", VCAP_FMT_YUV420, 1920, 1080,
	  VCAP_FMT_YUYV, 1920, 1080, VCAP_REQ_HFLIP | VCAP_REQ_VFLIP },
	{ "1920x1080 I420 -> XRGB32, same size", VCAP_FMT_YUV420, 1920, 1080,
	  VCAP_FMT_XRGB32, 1920, 1080, 0 },
	{ "1920x1080 I420 -> XRGB32 1280x720", VCAP_FMT_YUV420, 1920, 1080,
	  VCAP_FMT_XRGB32, 1280, 720, 0 },
	{ "1920x1080 422P -> YUYV, same size", FW_FMT_YUV422P, 1920, 1080,
	  VCAP_FMT_YUYV, 1920, 1080, 0 },
	{ "1920x1080 YUYV -> NV12 1280x720", VCAP_FMT_YUYV, 1920, 1080,
	  VCAP_FMT_NV12, 1280, 720, 0 },
};

static u8 *gradient_image(u32 fourcc, u32 w, u32 h, struct fw_image *im)
{
	struct cpic p;
	u8 *b;

	if (cpic_alloc(&p, w, h))
		return NULL;
	cpic_gradient(&p);
	b = cpic_pack(&p, fourcc, im);
	cpic_free(&p);
	return b;
}

/* fw_convert_with() by hand and by the library, interleaved. */
static int bench_case(const struct bench_case *c)
{
	struct vcap_frame_fmt fmt = cpic_fmt(c->df, c->dw, c->dh);
	double t[2][ROUNDS], t0, m[2];
	struct fw_image im;
	u8 *src, *dst;
	int i, k;
	static const enum fw_convert_impl impl[2] = {
		FW_CONVERT_NEAREST, FW_CONVERT_LIBRARY,
	};

	src = gradient_image(c->sf, c->sw, c->sh, &im);
	dst = malloc(fmt.sizeimage);
	if (!src || !dst)
		return -1;
	for (k = 0; k < 2; k++)
		if (fw_convert_with(impl[k], &im, &fmt, dst, c->flags, c->sw,
				    c->sh))
			return -1;
	for (i = 0; i < ROUNDS; i++)
		for (k = 0; k < 2; k++) {
			t0 = bench_now();
			fw_convert_with(impl[k], &im, &fmt, dst, c->flags,
					c->sw, c->sh);
			t[k][i] = bench_now() - t0;
		}
	for (k = 0; k < 2; k++)
		m[k] = bench_median(t[k], ROUNDS);
	printf("%-48s %12.0f %12.0f %7.2f\n", c->name, m[0] * 1e9, m[1] * 1e9,
	       m[1] / m[0]);
	free(src);
	free(dst);
	return m[1] <= m[0] || c->dw * c->dh < c->sw * c->sh ? 0 : 1;
}

/* libswscale alone, I420 into YUYV: bilinear against fast bilinear. */
static void bench_filters(const struct bench_case *c)
{
	static const int flags[2] = { SWS_BILINEAR, SWS_FAST_BILINEAR };
	struct vcap_frame_fmt fmt = cpic_fmt(VCAP_FMT_YUYV, c->dw, c->dh);
	struct SwsContext *ctx[2];
	const u8 *sp[4] = { NULL };
	int ss[4] = { (int)c->sw, (int)(c->sw / 2), (int)(c->sw / 2) };
	int ds[4] = { (int)fmt.bytesperline };
	double t[2][ROUNDS], t0, m[2];
	struct fw_image im;
	u8 *src, *dp[4] = { NULL };
	int i, k;

	src = gradient_image(VCAP_FMT_YUV420, c->sw, c->sh, &im);
	dp[0] = malloc(fmt.sizeimage + 4096);
	if (!src || !dp[0])
		return;
	sp[0] = src;
	sp[1] = src + (size_t)c->sw * c->sh;
	sp[2] = sp[1] + (size_t)c->sw * c->sh / 4;
	for (k = 0; k < 2; k++)
		ctx[k] = sws_getContext((int)c->sw, (int)c->sh,
					AV_PIX_FMT_YUV420P, (int)c->dw,
					(int)c->dh, AV_PIX_FMT_YUYV422,
					flags[k], NULL, NULL, NULL);
	if (!ctx[0] || !ctx[1])
		return;
	for (i = 0; i < ROUNDS; i++)
		for (k = 0; k < 2; k++) {
			t0 = bench_now();
			sws_scale(ctx[k], sp, ss, 0, (int)c->sh, dp, ds);
			t[k][i] = bench_now() - t0;
		}
	for (k = 0; k < 2; k++) {
		m[k] = bench_median(t[k], ROUNDS);
		sws_freeContext(ctx[k]);
	}
	printf("%ux%u -> %ux%u%*s %12.0f %12.0f %7.2f\n", c->sw, c->sh, c->dw,
	       c->dh, 26, "", m[0] * 1e9, m[1] * 1e9, m[1] / m[0]);
	free(src);
	free(dp[0]);
}

int main(void)
{
	unsigned int i;
	int bad = 0, r;

	printf("fw_convert(), ns per frame, median of %d, same run\n", ROUNDS);
	printf("%-48s %12s %12s %7s\n", "case", "by hand", "libswscale",
	       "ratio");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		r = bench_case(&cases[i]);
		if (r < 0) {
			fprintf(stderr, "%s: cannot run\n", cases[i].name);
			return 1;
		}
		bad += r;
	}
	printf("\nlibswscale alone, I420 -> YUYV, ns per frame\n");
	printf("%-48s %12s %12s %7s\n", "scale", "bilinear", "fast bilin.",
	       "ratio");
	for (i = 2; i < 7; i++)
		if (cases[i].df == VCAP_FMT_YUYV)
			bench_filters(&cases[i]);
	if (bad)
		printf("\nthe library was slower in %d case(s) not shrunk\n",
		       bad);
	return bad ? 1 : 0;
}
