// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * Y4M and raw writers: write frames, parse them back, compare with planes
 * extracted here independently; and the file stays whole on a full disk.
 */
#include <libvcap.h>

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ut.h"

#define FCC(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | \
	 ((uint32_t)(d) << 24))

static char dir[] = "/tmp/vcap-test-y4m-XXXXXX";

static uint32_t rng = 12345;

static uint8_t rnd(void)
{
	rng = rng * 1103515245 + 12345;
	return rng >> 16;
}

/* The reference: tight Y, U, V planes of a frame, computed pixel by pixel. */
static void reference(const struct vcap_mode *m, const uint8_t *src,
		      uint8_t *out)
{
	uint32_t w = m->width, h = m->height, bpl = m->bytesperline;
	uint32_t cw = (w + 1) / 2, ch = (h + 1) / 2;
	uint8_t *y = out;

	for (uint32_t r = 0; r < h; r++)
		for (uint32_t x = 0; x < w; x++) {
			switch (m->fourcc) {
			case FCC('Y', 'U', 'Y', 'V'):
				*y++ = src[r * bpl + 2 * x];
				break;
			case FCC('U', 'Y', 'V', 'Y'):
				*y++ = src[r * bpl + 2 * x + 1];
				break;
			default:
				*y++ = src[r * bpl + x];
				break;
			}
		}
	if (m->fourcc == FCC('G', 'R', 'E', 'Y'))
		return;
	uint8_t *u = y;

	if (m->fourcc == FCC('Y', 'U', 'Y', 'V') ||
	    m->fourcc == FCC('U', 'Y', 'V', 'Y')) {
		int uo = m->fourcc == FCC('Y', 'U', 'Y', 'V') ? 1 : 0;
		uint8_t *v = u + cw * h;

		for (uint32_t r = 0; r < h; r++)
			for (uint32_t x = 0; x < cw; x++) {
				*u++ = src[r * bpl + 4 * x + uo];
				*v++ = src[r * bpl + 4 * x + uo + 2];
			}
		return;
	}
	if (m->fourcc == FCC('N', 'V', '1', '2') ||
	    m->fourcc == FCC('N', 'V', '2', '1')) {
		const uint8_t *c = src + bpl * h;
		int swap = m->fourcc == FCC('N', 'V', '2', '1');
		uint8_t *v = u + cw * ch;

		for (uint32_t r = 0; r < ch; r++)
			for (uint32_t x = 0; x < cw; x++) {
				*u++ = c[r * bpl + 2 * x + swap];
				*v++ = c[r * bpl + 2 * x + !swap];
			}
		return;
	}
	/* YU12 / YV12 / 422P: chroma planes at half the stride. */
	uint32_t crows = m->fourcc == FCC('4', '2', '2', 'P') ? h : ch;
	uint32_t cbpl = (bpl + 1) / 2;
	const uint8_t *p1 = src + bpl * h, *p2 = p1 + cbpl * crows;

	if (m->fourcc == FCC('Y', 'V', '1', '2')) {
		const uint8_t *t = p1;

		p1 = p2;
		p2 = t;
	}
	for (uint32_t r = 0; r < crows; r++)
		for (uint32_t x = 0; x < cw; x++)
			*u++ = p1[r * cbpl + x];
	for (uint32_t r = 0; r < crows; r++)
		for (uint32_t x = 0; x < cw; x++)
			*u++ = p2[r * cbpl + x];
}

static void round_trip(const char *name, uint32_t w, uint32_t h,
		       uint32_t pad, const char *ctag)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_by_name(name);
	struct vcap_mode m = { 0 };
	struct vcap_y4m_header hdr;
	struct vcap_y4m_reader *r;
	uint8_t *frames[3], *ref, *got;
	struct vcap_writer *wr;
	char path[128];
	size_t size;
	FILE *f;

	CHECK(pf);
	m.fourcc = pf->fourcc;
	m.width = w;
	m.height = h;
	m.bytesperline = w * pf->bpp + pad;
	m.interval_num = 1001;
	m.interval_den = 30000;
	size = vcap_mode_frame_size(&m);
	CHECK(size > 0);
	snprintf(path, sizeof(path), "%s/%s-%ux%u.y4m", dir, name, w, h);
	wr = vcap_writer_open(VCAP_WRITER_Y4M, path, &m);
	CHECK(wr);
	for (int i = 0; i < 3; i++) {
		frames[i] = malloc(size);
		for (size_t j = 0; j < size; j++)
			frames[i][j] = rnd();
		CHECK_EQ(vcap_writer_write(wr, frames[i], size), 0);
	}
	CHECK_EQ(vcap_writer_frames(wr), 3);
	/* A short frame is refused and does not break the file. */
	CHECK_EQ(vcap_writer_write(wr, frames[0], size - 1), -1);
	CHECK_STR(vcap_last_error(), "short");
	CHECK_EQ(vcap_writer_close(wr), 0);

	f = fopen(path, "rb");
	CHECK(f);
	r = vcap_y4m_open(f, &hdr);
	CHECK(r);
	CHECK_EQ(hdr.width, w);
	CHECK_EQ(hdr.height, h);
	CHECK_EQ(hdr.fps_num, 30000);
	CHECK_EQ(hdr.fps_den, 1001);
	CHECK(!strcmp(hdr.colorspace, ctag));
	ref = malloc(hdr.frame_size);
	got = malloc(hdr.frame_size);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(vcap_y4m_read(r, got), 0);
		reference(&m, frames[i], ref);
		CHECK(!memcmp(ref, got, hdr.frame_size));
		free(frames[i]);
	}
	CHECK_EQ(vcap_y4m_read(r, got), VCAP_END);
	vcap_y4m_close(r);
	fclose(f);
	free(ref);
	free(got);
	unlink(path);
}

static void test_refusals(void)
{
	struct vcap_mode m = { .fourcc = FCC('R', 'G', 'B', '3'),
			       .width = 64, .height = 48 };
	char path[128];

	snprintf(path, sizeof(path), "%s/rgb.y4m", dir);
	CHECK(!vcap_writer_open(VCAP_WRITER_Y4M, path, &m));
	CHECK_STR(vcap_last_error(), "Y4M cannot hold RGB3");
	CHECK_EQ(access(path, F_OK), -1);	/* nothing created */
	m.fourcc = FCC('M', 'J', 'P', 'G');
	CHECK(!vcap_writer_open(VCAP_WRITER_Y4M, path, &m));
	/* Raw takes any bytes. */
	struct vcap_writer *w = vcap_writer_open(VCAP_WRITER_RAW, path, &m);

	CHECK(w);
	CHECK_EQ(vcap_writer_write(w, "abc", 3), 0);
	CHECK_EQ(vcap_writer_close(w), 0);
	unlink(path);
	/* No such directory: the open fails naming the file. */
	CHECK(!vcap_writer_open(VCAP_WRITER_RAW, "/nonexistent/dir/x", &m));
	CHECK_STR(vcap_last_error(), "/nonexistent/dir/x: open");
}

/* The disk fills mid-frame: the file is cut back to whole frames. */
static void test_full_disk(void)
{
	struct vcap_mode m = { .fourcc = FCC('Y', 'U', 'Y', 'V'),
			       .width = 64, .height = 48,
			       .interval_num = 1, .interval_den = 25 };
	size_t size = vcap_mode_frame_size(&m);
	struct rlimit old, lim;
	struct vcap_y4m_header hdr;
	struct vcap_y4m_reader *r;
	struct vcap_writer *w;
	uint8_t *buf = calloc(1, size);
	char path[128];
	int frames = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/full.y4m", dir);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 100 + 2 * (6 + size) + size / 2;	/* 2.5 frames */
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
	w = vcap_writer_open(VCAP_WRITER_Y4M, path, &m);
	CHECK(w);
	while (vcap_writer_write(w, buf, size) == 0)
		frames++;
	CHECK_EQ(frames, 2);
	CHECK_EQ(vcap_last_errno(), EFBIG);
	CHECK_STR(vcap_last_error(), "kept with 2 whole frames");
	CHECK_EQ(vcap_writer_write(w, buf, size), -1);	/* stays failed */
	CHECK_EQ(vcap_writer_close(w), -1);
	setrlimit(RLIMIT_FSIZE, &old);

	f = fopen(path, "rb");
	CHECK(f);
	r = vcap_y4m_open(f, &hdr);
	CHECK(r);
	CHECK_EQ(vcap_y4m_read(r, buf), 0);
	CHECK_EQ(vcap_y4m_read(r, buf), 0);
	CHECK_EQ(vcap_y4m_read(r, buf), VCAP_END);	/* no partial frame */
	vcap_y4m_close(r);
	fclose(f);
	unlink(path);

	/* /dev/full: ENOSPC, named. */
	w = vcap_writer_open(VCAP_WRITER_RAW, "/dev/full", &m);
	CHECK(w);
	CHECK_EQ(vcap_writer_write(w, buf, size), -1);
	CHECK_EQ(vcap_last_errno(), ENOSPC);
	CHECK_STR(vcap_last_error(), "/dev/full: write frame");
	vcap_writer_close(w);
	free(buf);
}

/* The reader rejects broken files with a reason. */
static void test_reader_errors(void)
{
	struct vcap_y4m_header hdr;
	char path[128];
	uint8_t buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.y4m", dir);
	const char *bad[] = {
		"",
		"RIFF W4 H4\n",
		"YUV4MPEG2 W0 H4 F1:1\n",
		"YUV4MPEG2 W4 H4 Fx\n",
		"YUV4MPEG2 W4 H4 F1:1 C411\n",
	};
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = fopen(path, "wb+");
		fputs(bad[i], f);
		rewind(f);
		CHECK(!vcap_y4m_open(f, &hdr));
		fclose(f);
	}
	/* A truncated frame is an error, not the end. */
	f = fopen(path, "wb+");
	fputs("YUV4MPEG2 W4 H2 F1:1 Cmono\nFRAME\n12345678FRAME\n1234", f);
	rewind(f);
	struct vcap_y4m_reader *r = vcap_y4m_open(f, &hdr);

	CHECK(r);
	CHECK_EQ(hdr.frame_size, 8);
	CHECK_EQ(vcap_y4m_read(r, buf), 0);
	CHECK_EQ(vcap_y4m_read(r, buf), -1);
	CHECK_STR(vcap_last_error(), "frame 1 truncated");
	vcap_y4m_close(r);
	fclose(f);
	unlink(path);
}

int main(void)
{
	CHECK(mkdtemp(dir));
	round_trip("YUYV", 64, 48, 0, "422");
	round_trip("YUYV", 62, 7, 12, "422");
	round_trip("UYVY", 32, 16, 8, "422");
	round_trip("NV12", 64, 48, 0, "420mpeg2");
	round_trip("NV21", 32, 18, 16, "420mpeg2");
	round_trip("YU12", 64, 48, 0, "420mpeg2");
	round_trip("YU12", 30, 10, 2, "420mpeg2");
	round_trip("YV12", 64, 48, 0, "420mpeg2");
	round_trip("422P", 64, 48, 0, "422");
	round_trip("GREY", 33, 17, 3, "mono");
	test_refusals();
	test_full_disk();
	test_reader_errors();
	rmdir(dir);
	UT_DONE();
}
