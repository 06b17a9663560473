// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The uploader table and the per-format converters: every format maps,
 * known pixels convert exactly, and what SDL shows through each uploader
 * is the picture the source drew.
 */
#include <linux/videodev2.h>
#include <stdlib.h>

#include "vtest.h"
#include "vv-convert.h"
#include "vv-testsrc.h"
#include "vv-upload.h"

static const uint32_t formats[] = {
	V4L2_PIX_FMT_YUYV,   V4L2_PIX_FMT_UYVY,   V4L2_PIX_FMT_NV12,
	V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_RGB24,  V4L2_PIX_FMT_BGR24,
	V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_XBGR32, V4L2_PIX_FMT_GREY,
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static bool is_yuv(uint32_t fourcc)
{
	return fourcc == V4L2_PIX_FMT_YUYV || fourcc == V4L2_PIX_FMT_UYVY ||
	       fourcc == V4L2_PIX_FMT_NV12 || fourcc == V4L2_PIX_FMT_YUV420;
}

/* A frame of the test source's bars in mode m (w x h, tight). */
static struct vv_frame *bars_frame(uint32_t fourcc, uint32_t w, uint32_t h)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(fourcc);
	struct vv_frame *f = calloc(1, sizeof(*f));

	if (!pf || !f)
		return NULL;
	f->mode.fourcc = fourcc;
	f->mode.width = w;
	f->mode.height = h;
	f->mode.bytesperline = w * pf->bpp;
	f->mode.sizeimage = vcap_mode_frame_size(&f->mode);
	if (vv_frame_reserve(f, f->mode.sizeimage) ||
	    vv_testsrc_draw(&f->mode, f->store))
		return NULL;
	return f;
}

static void free_frame(struct vv_frame *f)
{
	vv_frame_release(f);
	free(f);
}

static int channel_diff(uint32_t a, uint32_t b)
{
	int d = 0;

	for (int sh = 0; sh < 24; sh += 8) {
		int c = abs((int)((a >> sh) & 0xff) - (int)((b >> sh) & 0xff));

		if (c > d)
			d = c;
	}
	return d;
}

/* The grey source holds the green channel of each bar as its luma. */
static uint32_t expected_bar(uint32_t fourcc, unsigned int bar)
{
	uint32_t rgb = vv_testsrc_bar_rgb(bar), g = (rgb >> 8) & 0xff;

	return fourcc == V4L2_PIX_FMT_GREY ? g << 16 | g << 8 | g : rgb;
}

TEST(every_format_has_an_uploader_and_a_converter)
{
	for (size_t i = 0; i < NFORMATS; i++) {
		const struct vv_uploader *u = vv_uploader_find(formats[i]);
		char cc[5];

		TH_LOG("%s", vcap_fourcc_str(formats[i], cc));
		ASSERT_NE(u, NULL);
		ASSERT_NE(u->upload, NULL);
		ASSERT_EQ(u->fourcc, formats[i]);
		ASSERT_NE(vv_convert_row_fn(formats[i]), NULL);
		ASSERT_NE(vcap_pixfmt_find(formats[i]), NULL);
		/* Straight into an SDL texture of its own format, but GREY. */
		ASSERT_EQ(vv_uploader_is_direct(u),
			  formats[i] != V4L2_PIX_FMT_GREY);
	}
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_YUYV)->sdl_format,
		  (uint32_t)SDL_PIXELFORMAT_YUY2);
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_UYVY)->sdl_format,
		  (uint32_t)SDL_PIXELFORMAT_UYVY);
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_NV12)->sdl_format,
		  (uint32_t)SDL_PIXELFORMAT_NV12);
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_YUV420)->sdl_format,
		  (uint32_t)SDL_PIXELFORMAT_IYUV);
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_RGB24)->sdl_format,
		  (uint32_t)SDL_PIXELFORMAT_RGB24);
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_BGR24)->sdl_format,
		  (uint32_t)SDL_PIXELFORMAT_BGR24);
	/* SDL names a 32-bit word, V4L2 the bytes in memory. */
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_XRGB32)->sdl_format,
		  (uint32_t)SDL_PIXELFORMAT_BGRX8888);
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_XBGR32)->sdl_format,
		  (uint32_t)SDL_PIXELFORMAT_XRGB8888);
	/* The table holds nothing else, and nothing unknown maps. */
	ASSERT_EQ(vv_uploader_at(NFORMATS), NULL);
	ASSERT_EQ(vv_uploader_find(V4L2_PIX_FMT_MJPEG), NULL);
	ASSERT_EQ(vv_convert_row_fn(V4L2_PIX_FMT_MJPEG), NULL);
}

/* One pixel of each format, with bytes chosen so that any swap shows. */
TEST(known_pixels_convert_exactly)
{
	static const struct {
		uint32_t fourcc;
		uint8_t bytes[4];
		uint32_t want;
	} cases[] = {
		{ V4L2_PIX_FMT_RGB24,  { 0x11, 0x22, 0x33 }, 0x112233 },
		{ V4L2_PIX_FMT_BGR24,  { 0x11, 0x22, 0x33 }, 0x332211 },
		{ V4L2_PIX_FMT_XRGB32, { 0xff, 0x11, 0x22, 0x33 }, 0x112233 },
		{ V4L2_PIX_FMT_XBGR32, { 0x11, 0x22, 0x33, 0xff }, 0x332211 },
		{ V4L2_PIX_FMT_GREY,   { 0x5a }, 0x5a5a5a },
		/* BT.601 limited range: 235 is white, 16 black. */
		{ V4L2_PIX_FMT_YUYV,   { 235, 128, 16, 128 }, 0xffffff },
		{ V4L2_PIX_FMT_UYVY,   { 128, 16, 128, 235 }, 0x000000 },
		/* Saturated red: Y 81, Cb 90, Cr 240. */
		{ V4L2_PIX_FMT_YUYV,   { 81, 90, 81, 240 }, 0xff0000 },
		{ V4L2_PIX_FMT_UYVY,   { 90, 81, 240, 81 }, 0xff0000 },
	};
	const uint32_t xmap[1] = { 0 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vv_planes pl = { { cases[i].bytes }, { 4 }, 1 };
		uint32_t out = 0xdeadbeef;

		vv_convert_row_fn(cases[i].fourcc)(&pl, 0, xmap, 1, &out);
		TH_LOG("case %zu: %06x", i, out);
		ASSERT_EQ(out, cases[i].want);
	}
	ASSERT_EQ(vv_yuv_to_xrgb(235, 128, 128), 0xffffffu);
	ASSERT_EQ(vv_yuv_to_xrgb(16, 128, 128), 0x000000u);
	ASSERT_EQ(vv_yuv_to_xrgb(126, 128, 128), 0x808080u);
	/* Out of range input clamps instead of wrapping. */
	ASSERT_EQ(vv_yuv_to_xrgb(255, 255, 255), 0xff7dffu);
	ASSERT_EQ(vv_yuv_to_xrgb(0, 0, 0), 0x008700u);
}

/* The odd pixel of a 4:2:2 pair and the chroma planes of 4:2:0. */
TEST(chroma_sharing_and_planes)
{
	uint8_t yuyv[8] = { 235, 128, 16, 128, 81, 90, 81, 240 };
	uint8_t nv12[4 * 2 + 4] = { 235, 16, 81, 81, 235, 16, 81, 81,
				    128, 128, 90, 240 };
	uint8_t i420[4 * 2 + 2 + 2] = { 235, 16, 81, 81, 235, 16, 81, 81,
					128, 90, 128, 240 };
	const uint32_t xmap[4] = { 0, 1, 2, 3 };
	uint32_t out[4];
	struct vv_planes pl = { { yuyv }, { 8 }, 1 };

	vv_convert_row_fn(V4L2_PIX_FMT_YUYV)(&pl, 0, xmap, 4, out);
	ASSERT_EQ(out[0], 0xffffffu);
	ASSERT_EQ(out[1], 0x000000u);
	ASSERT_EQ(out[2], 0xff0000u);
	ASSERT_EQ(out[3], 0xff0000u);

	pl = (struct vv_planes){ { nv12, nv12 + 8 }, { 4, 4 }, 2 };
	for (uint32_t y = 0; y < 2; y++) {
		vv_convert_row_fn(V4L2_PIX_FMT_NV12)(&pl, y, xmap, 4, out);
		ASSERT_EQ(out[0], 0xffffffu);
		ASSERT_EQ(out[1], 0x000000u);
		ASSERT_EQ(out[2], 0xff0000u);
		ASSERT_EQ(out[3], 0xff0000u);
	}
	pl = (struct vv_planes){ { i420, i420 + 8, i420 + 10 }, { 4, 2, 2 }, 3 };
	for (uint32_t y = 0; y < 2; y++) {
		vv_convert_row_fn(V4L2_PIX_FMT_YUV420)(&pl, y, xmap, 4, out);
		ASSERT_EQ(out[0], 0xffffffu);
		ASSERT_EQ(out[1], 0x000000u);
		ASSERT_EQ(out[2], 0xff0000u);
		ASSERT_EQ(out[3], 0xff0000u);
	}
}

/*
 * Whole frames of bars in every format convert to the bars' colours (YUV
 * within the rounding of one round trip), and agree with libvcap's own
 * RGB24 conversion.
 */
TEST(bars_in_every_format)
{
	const uint32_t w = 64, h = 16;

	for (size_t i = 0; i < NFORMATS; i++) {
		struct vv_frame *f = bars_frame(formats[i], w, h);
		uint32_t xmap[64], row[64];
		uint8_t *lib = malloc(w * h * 3);
		struct vv_planes pl;
		char cc[5];
		int tol = is_yuv(formats[i]) ? 2 : 0;

		ASSERT_NE(f, NULL);
		ASSERT_EQ(vv_frame_planes(f, &pl), 0);
		ASSERT_EQ(vcap_convert_rgb24(&f->mode, f->data,
					     f->mode.sizeimage, lib), 0);
		for (uint32_t x = 0; x < w; x++)
			xmap[x] = x;
		for (uint32_t y = 0; y < h; y++) {
			vv_convert_row_fn(formats[i])(&pl, y, xmap, w, row);
			for (uint32_t x = 0; x < w; x++) {
				uint8_t *l = lib + (y * w + x) * 3;
				uint32_t lv = l[0] << 16 | l[1] << 8 | l[2];
				uint32_t want = expected_bar(formats[i],
							     x * 8 / w);

				if (channel_diff(row[x], want) > tol ||
				    channel_diff(row[x], lv) > 1)
					TH_LOG("%s %u,%u: %06x, want %06x, libvcap %06x",
					       vcap_fourcc_str(formats[i], cc),
					       x, y, row[x], want, lv);
				ASSERT_LE(channel_diff(row[x], want), tol);
				ASSERT_LE(channel_diff(row[x], lv), 1);
			}
		}
		free(lib);
		free_frame(f);
	}
}

TEST(fit_rect_keeps_aspect)
{
	struct vv_rect r;

	r = vv_fit_rect(640, 480, 640, 480);
	ASSERT_EQ(r.x, 0);
	ASSERT_EQ(r.y, 0);
	ASSERT_EQ(r.w, 640);
	ASSERT_EQ(r.h, 480);
	/* 4:3 in 16:9: pillarbox. */
	r = vv_fit_rect(640, 480, 1920, 1080);
	ASSERT_EQ(r.w, 1440);
	ASSERT_EQ(r.h, 1080);
	ASSERT_EQ(r.x, 240);
	ASSERT_EQ(r.y, 0);
	/* 16:9 in 4:3: letterbox. */
	r = vv_fit_rect(1920, 1080, 1024, 768);
	ASSERT_EQ(r.w, 1024);
	ASSERT_EQ(r.h, 576);
	ASSERT_EQ(r.x, 0);
	ASSERT_EQ(r.y, 96);
	/* Degenerate sizes never give an empty picture or divide by 0. */
	r = vv_fit_rect(4000, 1, 100, 100);
	ASSERT_GE(r.h, 1);
	r = vv_fit_rect(0, 0, 100, 100);
	ASSERT_EQ(r.w, 100);
}

/* The KMS sink's path: scaled, centred, black borders. */
TEST(convert_fit_letterboxes)
{
	struct vv_frame *f = bars_frame(V4L2_PIX_FMT_RGB24, 160, 90);
	const uint32_t dw = 200, dh = 150, pitch = 256 * 4;
	uint32_t *dst = malloc(pitch * dh), xmap[200];
	struct vv_rect r = vv_fit_rect(160, 90, dw, dh);

	ASSERT_NE(f, NULL);
	memset(dst, 0x77, pitch * dh);
	ASSERT_EQ(vv_convert_fit(f, dst, dw, dh, pitch, xmap), 0);
	ASSERT_EQ(r.w, 200);
	ASSERT_EQ(r.h, 112);
	ASSERT_EQ(r.y, 19);
	for (uint32_t y = 0; y < dh; y++)
		for (uint32_t x = 0; x < dw; x++) {
			uint32_t got = dst[y * (pitch / 4) + x];
			bool in = (int)y >= r.y && (int)y < r.y + r.h;

			ASSERT_EQ(got, in ? vv_testsrc_bar_rgb(x * 8 / dw) :
					    0u);
		}
	/* Nothing written past the row's width, inside the pitch. */
	ASSERT_EQ(dst[dw], 0x77777777u);
	/* A frame shorter than its geometry is refused. */
	f->mode.sizeimage = 100;
	ASSERT_EQ(vv_convert_fit(f, dst, dw, dh, pitch, xmap), -EINVAL);
	free(dst);
	free_frame(f);
}

/*
 * Through SDL: each uploader fills a texture that a software renderer
 * draws 1:1; the read-back pixels are the bars (RGB formats exactly).
 */
TEST(uploaders_through_sdl)
{
	const uint32_t w = 128, h = 32;
	SDL_Renderer *ren;
	SDL_Surface *surf;

	ASSERT_EQ(SDL_Init(0), 0);
	surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32,
					      SDL_PIXELFORMAT_XRGB8888);
	ASSERT_NE(surf, NULL);
	ren = SDL_CreateSoftwareRenderer(surf);
	ASSERT_NE(ren, NULL);
	SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_BT601);
	for (size_t i = 0; i < NFORMATS; i++) {
		const struct vv_uploader *u = vv_uploader_find(formats[i]);
		struct vv_frame *f = bars_frame(formats[i], w, h);
		uint32_t xmap[128];
		SDL_Texture *tex;
		char cc[5];
		int tol = is_yuv(formats[i]) ? 3 : 0;

		ASSERT_NE(f, NULL);
		for (uint32_t x = 0; x < w; x++)
			xmap[x] = x;
		tex = SDL_CreateTexture(ren, u->sdl_format,
					SDL_TEXTUREACCESS_STREAMING, w, h);
		ASSERT_NE(tex, NULL);
		ASSERT_EQ(u->upload(tex, f, xmap), 0);
		/* The upload is the one copy; GREY's conversion another. */
		ASSERT_EQ(f->copies, formats[i] == V4L2_PIX_FMT_GREY ? 2u : 1u);
		SDL_RenderClear(ren);
		ASSERT_EQ(SDL_RenderCopy(ren, tex, NULL, NULL), 0);
		SDL_RenderPresent(ren);
		for (unsigned int b = 0; b < 8; b++) {
			uint32_t x = (2 * b + 1) * w / 16, y = h / 2;
			uint32_t got = ((uint32_t *)surf->pixels)
				[y * (surf->pitch / 4) + x] & 0xffffff;
			uint32_t want = expected_bar(formats[i], b);

			if (channel_diff(got, want) > tol)
				TH_LOG("%s bar %u: %06x, want %06x",
				       vcap_fourcc_str(formats[i], cc), b, got,
				       want);
			ASSERT_LE(channel_diff(got, want), tol);
		}
		SDL_DestroyTexture(tex);
		free_frame(f);
	}
	SDL_DestroyRenderer(ren);
	SDL_FreeSurface(surf);
	SDL_Quit();
}

VTEST_MAIN()
