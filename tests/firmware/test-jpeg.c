// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * MJPEG decoding for the V4L2 source: JPEGs that ffmpeg makes from a
 * known picture (4:2:0, 4:2:2, 4:4:4, odd sizes) decode to that picture
 * within a PSNR bound; damaged ones (truncated, garbage, empty, another
 * size) fail with the reason, and the live source keeps the frame before.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "vtest.h"
#include "fw-pace.h"
#include "fw-source-v4l2.h"
#include "fw-test-run.h"

static char dir[64];

/* A shell command line: its exit status. */
static int run(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return system(line);
}

/* The whole of a file, *len bytes; NULL if it cannot be read. */
static u8 *slurp(const char *path, size_t *len)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	u8 *b;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) || !(b = malloc((size_t)st.st_size + 1))) {
		fclose(f);
		return NULL;
	}
	*len = fread(b, 1, (size_t)st.st_size, f);
	fclose(f);
	return b;
}

/*
 * ffmpeg's testsrc2 frame of w x h in pix_fmt (yuvj420p, yuvj422p,
 * yuvj444p) as a JPEG and as the raw planes it was made from.
 */
static bool make_jpeg(u32 w, u32 h, const char *pix_fmt, const char *name,
		      u8 **jpeg, size_t *jlen, u8 **ref, size_t *rlen)
{
	char jp[128], rp[128];

	snprintf(jp, sizeof(jp), "%s/%s.jpg", dir, name);
	snprintf(rp, sizeof(rp), "%s/%s.yuv", dir, name);
	/* testsrc2 makes even sizes only: odd ones are scaled to. */
	if (run("ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=1 -frames:v 1 -vf scale=%u:%u,format=%s -q:v 2 -f mjpeg %s && "
		"ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=1 -frames:v 1 -vf scale=%u:%u,format=%s -f rawvideo %s",
		w, h, pix_fmt, jp, w, h, pix_fmt, rp))
		return false;
	*jpeg = slurp(jp, jlen);
	*ref = slurp(rp, rlen);
	return *jpeg && *ref;
}

static double psnr(const u8 *a, const u8 *b, size_t n)
{
	double se = 0, d;
	size_t i;

	for (i = 0; i < n; i++) {
		d = (double)a[i] - b[i];
		se += d * d;
	}
	if (se == 0)
		return 99;
	return 10 * log10(255.0 * 255.0 * n / se);
}

/*
 * img's planes packed tight (w x h, chroma as fw_image_size() counts it),
 * read as fw_convert() reads them: chroma after bytesperline x height of
 * luma, (bytesperline + 1) / 2 a line when subsampled across.
 */
static void tight(const struct fw_image *img, u8 *out)
{
	u32 w = img->width, h = img->height, bpl = img->bytesperline;
	u32 cw = img->fourcc == FW_FMT_YUV444P ? w : (w + 1) / 2;
	u32 cbpl = img->fourcc == FW_FMT_YUV444P ? bpl : (bpl + 1) / 2;
	u32 ch = img->fourcc == VCAP_FMT_YUV420 ? (h + 1) / 2 : h;
	const u8 *c = img->data + (size_t)bpl * h;
	u32 y, p;

	for (y = 0; y < h; y++)
		memcpy(out + (size_t)y * w, img->data + (size_t)y * bpl, w);
	out += (size_t)w * h;
	for (p = 0; p < 2; p++)
		for (y = 0; y < ch; y++)
			memcpy(out + ((size_t)p * ch + y) * cw,
			       c + ((size_t)p * ch + y) * cbpl, cw);
}

struct jpeg_case {
	u32 w, h;
	const char *pix_fmt;
	u32 fourcc;		/* what it decodes to */
};

static const struct jpeg_case cases[] = {
	{ 640, 480, "yuvj420p", VCAP_FMT_YUV420 },
	{ 321, 241, "yuvj420p", VCAP_FMT_YUV420 },	/* odd both ways */
	{ 1280, 720, "yuvj422p", FW_FMT_YUV422P },
	{ 323, 240, "yuvj422p", FW_FMT_YUV422P },	/* odd width */
	{ 320, 239, "yuvj444p", FW_FMT_YUV444P },	/* odd height */
};

TEST_TIMEOUT(jpegs_decode_to_the_picture_they_were_made_from, 120)
{
	struct fw_jpeg *j = fw_jpeg_new();
	struct fw_image img;
	unsigned int i;
	char msg[256];

	ASSERT_TRUE(j);
	ASSERT_TRUE(mkdtemp(strcpy(dir, "/tmp/vcap-jpeg-XXXXXX")));
	/* ffmpeg is a dependency: missing, the test fails. */
	ASSERT_EQ(run("command -v ffmpeg >/dev/null"), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct jpeg_case *c = &cases[i];
		size_t jlen, rlen, size = fw_image_size(c->fourcc, c->w, c->h);
		size_t luma = (size_t)c->w * c->h;
		u8 *jpeg, *ref, *dst, *pic;
		char name[32];
		double py, pc;

		snprintf(name, sizeof(name), "c%u", i);
		ASSERT_TRUE(make_jpeg(c->w, c->h, c->pix_fmt, name, &jpeg,
				      &jlen, &ref, &rlen));
		ASSERT_EQ(rlen, size);
		dst = malloc(fw_jpeg_max_size(c->w, c->h));
		pic = malloc(size);
		ASSERT_TRUE(dst && pic);
		msg[0] = 0;
		EXPECT_EQ(fw_jpeg_decode(j, jpeg, jlen, c->w, c->h, dst, &img,
					 msg, sizeof(msg)), 0);
		if (msg[0])
			TH_LOG("%ux%u %s: %s", c->w, c->h, c->pix_fmt, msg);
		EXPECT_EQ(img.fourcc, c->fourcc);
		EXPECT_EQ(img.width, c->w);
		EXPECT_EQ(img.height, c->h);
		EXPECT_TRUE(img.data == dst);
		tight(&img, pic);
		py = psnr(pic, ref, luma);
		pc = psnr(pic + luma, ref + luma, size - luma);
		TH_LOG("%ux%u %s: %zu bytes, PSNR Y %.1f dB, CbCr %.1f dB",
		       c->w, c->h, c->pix_fmt, jlen, py, pc);
		/* -q:v 2 is near lossless: well above what a bad plane gives. */
		EXPECT_GT(py, 35.0);
		EXPECT_GT(pc, 35.0);
		free(pic);
		free(dst);
		free(jpeg);
		free(ref);
	}
	fw_jpeg_destroy(j);
	run("rm -rf %s", dir);
}

/* One bad JPEG: refused, msg containing what. */
static void bad(struct vtest_meta *_vtest, struct fw_jpeg *j, const u8 *data,
		size_t len, u32 w, u32 h, const char *what)
{
	u8 *dst = malloc(fw_jpeg_max_size(w, h));
	struct fw_image img;
	char msg[256] = "";

	ASSERT_TRUE(dst);
	EXPECT_EQ(fw_jpeg_decode(j, data, len, w, h, dst, &img, msg,
				 sizeof(msg)), -1);
	if (!strstr(msg, what))
		TH_LOG("expected '%s' in '%s'", what, msg);
	EXPECT_TRUE(strstr(msg, what));
	free(dst);
}

/* fw_live_render() of the newest frame as 640x480 YU12 into out. */
static void show(struct fw_live *l, u8 *out, u32 w, u32 h)
{
	struct fw_frame_req req = { 0 };

	req.fmt.fourcc = VCAP_FMT_YUV420;
	req.fmt.width = w;
	req.fmt.height = h;
	req.fmt.bytesperline = w;
	req.fmt.sizeimage = (u32)fw_image_size(VCAP_FMT_YUV420, w, h);
	req.src_w = w;
	req.src_h = h;
	fw_live_render(l, &req, out, 7);
}

TEST_TIMEOUT(damaged_jpegs_fail_and_the_frame_before_stays, 120)
{
	const u32 w = 640, h = 480;
	size_t jlen, rlen, fsz = fw_image_size(VCAP_FMT_YUV420, w, h);
	u8 *jpeg, *ref, *garbage, *shown, *again, *big, *bref;
	struct fw_jpeg *j = fw_jpeg_new();
	struct fw_live l;
	char msg[256];
	unsigned int i;
	size_t blen, brlen;

	ASSERT_TRUE(j);
	ASSERT_TRUE(mkdtemp(strcpy(dir, "/tmp/vcap-jpeg-XXXXXX")));
	ASSERT_EQ(run("command -v ffmpeg >/dev/null"), 0);
	ASSERT_TRUE(make_jpeg(w, h, "yuvj420p", "good", &jpeg, &jlen, &ref,
			      &rlen));
	ASSERT_TRUE(make_jpeg(1280, 720, "yuvj420p", "big", &big, &blen,
			      &bref, &brlen));
	garbage = malloc(4096);
	ASSERT_TRUE(garbage);
	srand(1);
	for (i = 0; i < 4096; i++)
		garbage[i] = (u8)rand();

	bad(_vtest, j, jpeg, 0, w, h, "empty frame (0 bytes)");
	bad(_vtest, j, garbage, 4096, w, h, "not a JPEG");
	/* A start of image, then noise: no header to be found. */
	garbage[0] = 0xff;
	garbage[1] = 0xd8;
	bad(_vtest, j, garbage, 4096, w, h, "JPEG");
	bad(_vtest, j, jpeg, jlen / 2, w, h, "damaged data");
	bad(_vtest, j, jpeg, 100, w, h, "JPEG");
	/* A picture larger than the stream's mode. */
	bad(_vtest, j, big, blen, w, h, "JPEG of 1280x720 in a 640x480 stream");
	/* The good one cut inside its header. */
	bad(_vtest, j, jpeg, 20, w, h, "JPEG");

	/* Through the V4L2 source's path into the live core. */
	ASSERT_EQ(fw_live_init(&l, "v4l2", "v4l2:test", msg, sizeof(msg)), 0);
	fw_live_stream_start(&l, w, h, 30, 1, false);
	ASSERT_EQ(fw_v4l2_frame_in(&l, j, FW_FMT_MJPEG, w, h, 0, jpeg, jlen,
				   1234567, msg, sizeof(msg)), 0);
	shown = malloc(fsz);
	again = malloc(fsz);
	ASSERT_TRUE(shown && again);
	show(&l, shown, w, h);
	EXPECT_EQ(fw_live_captured(&l), 1234567);
	/* Away from the stamp bands, the picture is the source's. */
	EXPECT_GT(psnr(shown + 32 * w, ref + 32 * w, (size_t)(h - 64) * w),
		  35.0);
	EXPECT_EQ(fw_v4l2_frame_in(&l, j, FW_FMT_MJPEG, w, h, 0, jpeg,
				   jlen / 3, 2345678, msg, sizeof(msg)), -1);
	EXPECT_EQ(fw_v4l2_frame_in(&l, j, FW_FMT_MJPEG, w, h, 0, big, blen,
				   2345678, msg, sizeof(msg)), -1);
	EXPECT_EQ(fw_v4l2_frame_in(&l, j, FW_FMT_MJPEG, w, h, 0, garbage, 0,
				   2345678, msg, sizeof(msg)), -1);
	show(&l, again, w, h);
	EXPECT_EQ(memcmp(shown, again, fsz), 0);
	EXPECT_EQ(fw_live_captured(&l), 1234567);
	EXPECT_EQ(t_live_stat(&l, "v4l2_frames_in"), 1);
	EXPECT_EQ(t_live_stat(&l, "v4l2_frames_repeated"), 1);
	fw_live_fini(&l);
	free(shown);
	free(again);
	free(garbage);
	free(jpeg);
	free(ref);
	free(big);
	free(bref);
	fw_jpeg_destroy(j);
	run("rm -rf %s", dir);
}

/* How long a frame takes: the budget of a 30 fps camera is 33 ms. */
TEST_TIMEOUT(decode_speed, 120)
{
	static const struct { u32 w, h; } sz[] = { { 1280, 720 }, { 1920, 1080 } };
	struct fw_jpeg *j = fw_jpeg_new();
	struct fw_image img;
	unsigned int i, k, n = 30;
	char msg[256], name[16];
	size_t jlen, rlen;
	u8 *jpeg, *ref, *dst;
	u64 t0, t;

	ASSERT_TRUE(j);
	ASSERT_TRUE(mkdtemp(strcpy(dir, "/tmp/vcap-jpeg-XXXXXX")));
	ASSERT_EQ(run("command -v ffmpeg >/dev/null"), 0);
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		ASSERT_TRUE(make_jpeg(sz[i].w, sz[i].h, "yuvj422p", name,
				      &jpeg, &jlen, &ref, &rlen));
		dst = malloc(fw_jpeg_max_size(sz[i].w, sz[i].h));
		ASSERT_TRUE(dst);
		t0 = fw_now_ns();
		for (k = 0; k < n; k++)
			ASSERT_EQ(fw_jpeg_decode(j, jpeg, jlen, sz[i].w,
						 sz[i].h, dst, &img, msg,
						 sizeof(msg)), 0);
		t = (fw_now_ns() - t0) / n;
		TH_LOG("%ux%u 4:2:2 MJPEG (%zu bytes): %.2f ms a frame",
		       sz[i].w, sz[i].h, jlen, t / 1e6);
		/* Even a loaded CI host decodes 1080p faster than 10 fps. */
		EXPECT_LT(t, 100000000ull);
		free(dst);
		free(jpeg);
		free(ref);
	}
	fw_jpeg_destroy(j);
	run("rm -rf %s", dir);
}

VTEST_MAIN()
