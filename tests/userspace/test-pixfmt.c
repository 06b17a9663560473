// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * The pixel format table: lookups, names, frame sizes (against the
 * board's own table for every board format) and RGB conversion colours.
 */
#include <libvcap.h>

#include "ut.h"
#include "vcap-format.h"

#define FCC(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | \
	 ((uint32_t)(d) << 24))

static void test_table(void)
{
	unsigned int n = vcap_pixfmt_count();

	CHECK(n >= 9);
	for (unsigned int i = 0; i < n; i++) {
		const struct vcap_pixfmt *a = vcap_pixfmt_by_index(i);

		CHECK(a && a->name && a->bpp >= 1 && a->bpp <= 4);
		CHECK(vcap_pixfmt_find(a->fourcc) == a);
		CHECK(vcap_pixfmt_by_name(a->name) == a);
		CHECK_EQ(vcap_fourcc_parse(a->name), a->fourcc);
		for (unsigned int j = i + 1; j < n; j++)
			CHECK(vcap_pixfmt_by_index(j)->fourcc != a->fourcc);
		/* Only planar-capable YUV and grey have a Y4M tag. */
		CHECK((a->y4m_tag == NULL) == (a->layout == VCAP_LAYOUT_RGB));
	}
	CHECK(!vcap_pixfmt_by_index(n));
	CHECK(!vcap_pixfmt_find(FCC('M', 'J', 'P', 'G')));
	CHECK(vcap_pixfmt_by_name("yuyv"));	/* any case */
	CHECK_EQ(vcap_fourcc_parse("MJPG"), FCC('M', 'J', 'P', 'G'));
	CHECK_EQ(vcap_fourcc_parse("Y16"), FCC('Y', '1', '6', ' '));
	CHECK_EQ(vcap_fourcc_parse(""), 0);
	CHECK_EQ(vcap_fourcc_parse("TOOLONG"), 0);

	char buf[VCAP_FOURCC_STR_LEN];

	CHECK(!strcmp(vcap_fourcc_str(FCC('N', 'V', '1', '2'), buf), "NV12"));
	CHECK(!strcmp(vcap_fourcc_str(0x01020304, buf), "...."));
	CHECK(!strcmp(vcap_pixfmt_find(FCC('Y', 'U', 'Y', 'V'))->y4m_tag,
		      "422"));
	CHECK(!strcmp(vcap_pixfmt_find(FCC('N', 'V', '1', '2'))->y4m_tag,
		      "420mpeg2"));
	CHECK(!strcmp(vcap_pixfmt_find(FCC('G', 'R', 'E', 'Y'))->y4m_tag,
		      "mono"));
}

static void test_sizes(void)
{
	struct vcap_mode m = { .width = 640, .height = 480 };

	m.fourcc = FCC('Y', 'U', 'Y', 'V');
	CHECK_EQ(vcap_mode_frame_size(&m), 614400);
	m.fourcc = FCC('N', 'V', '1', '2');
	CHECK_EQ(vcap_mode_frame_size(&m), 460800);
	m.fourcc = FCC('Y', 'U', '1', '2');
	CHECK_EQ(vcap_mode_frame_size(&m), 460800);
	m.fourcc = FCC('X', 'R', '2', '4');
	CHECK_EQ(vcap_mode_frame_size(&m), 1228800);
	m.fourcc = FCC('Y', 'U', 'Y', 'V');
	m.bytesperline = 1536;
	CHECK_EQ(vcap_mode_frame_size(&m), 1536 * 480);
	m.bytesperline = 100;			/* smaller than a line */
	CHECK_EQ(vcap_mode_frame_size(&m), 0);
	m.bytesperline = 0;
	m.width = 0;
	CHECK_EQ(vcap_mode_frame_size(&m), 0);
	m.width = 640;
	m.fourcc = FCC('M', 'J', 'P', 'G');
	CHECK_EQ(vcap_mode_frame_size(&m), 0);

	/* Every board format: the same size the board computes. */
	for (unsigned int i = 0; i < vcap_format_count(); i++) {
		const struct vcap_format_info *fi = vcap_format_by_index(i);
		uint32_t sizes[][2] = { { 160, 120 }, { 640, 480 },
					{ 1920, 1080 }, { 3840, 2160 } };

		for (unsigned int j = 0; j < 4; j++) {
			uint32_t bpl = vcap_format_min_bpl(fi, sizes[j][0]);
			struct vcap_mode bm = {
				.fourcc = fi->fourcc, .width = sizes[j][0],
				.height = sizes[j][1], .bytesperline = bpl,
			};

			CHECK(vcap_pixfmt_find(fi->fourcc));
			CHECK(vcap_pixfmt_find(fi->fourcc)->stamped);
			CHECK_EQ(vcap_mode_frame_size(&bm),
				 vcap_format_sizeimage(fi, bpl, sizes[j][1]));
			bm.bytesperline += 64;
			CHECK_EQ(vcap_mode_frame_size(&bm),
				 vcap_format_sizeimage(fi, bpl + 64,
						       sizes[j][1]));
		}
	}

	char s[96];

	m.fourcc = FCC('Y', 'U', 'Y', 'V');
	m.interval_num = 1001;
	m.interval_den = 30000;
	CHECK(!strcmp(vcap_mode_str(&m, s, sizeof(s)),
		      "YUYV 640x480 @ 29.97 fps"));
}

/* One pixel of a 2x2 frame in each format, converted back to RGB. */
static void test_convert(void)
{
	/* BT.601 limited: white, black and red (Y 81, U 90, V 240). */
	struct {
		const char *fmt;
		uint8_t data[16];
		uint8_t rgb[3];
	} cases[] = {
		{ "YUYV", { 235, 128, 235, 128, 235, 128, 235, 128 },
		  { 255, 255, 255 } },
		{ "UYVY", { 128, 16, 128, 16, 128, 16, 128, 16 }, { 0, 0, 0 } },
		{ "YUYV", { 81, 90, 81, 240, 81, 90, 81, 240 }, { 255, 0, 0 } },
		{ "NV12", { 81, 81, 81, 81, 90, 240 }, { 255, 0, 0 } },
		{ "NV21", { 81, 81, 81, 81, 240, 90 }, { 255, 0, 0 } },
		{ "YU12", { 81, 81, 81, 81, 90, 240 }, { 255, 0, 0 } },
		{ "YV12", { 81, 81, 81, 81, 240, 90 }, { 255, 0, 0 } },
		{ "GREY", { 77, 77, 77, 77 }, { 77, 77, 77 } },
		{ "RGB24", { 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3 }, { 1, 2, 3 } },
		{ "BGR24", { 3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1 }, { 1, 2, 3 } },
		{ "XBGR32", { 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0 },
		  { 1, 2, 3 } },
		{ "XRGB32", { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 },
		  { 1, 2, 3 } },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vcap_mode m = { .width = 2, .height = 2 };
		uint8_t out[12];

		m.fourcc = vcap_fourcc_parse(cases[i].fmt);
		CHECK_EQ(vcap_convert_rgb24(&m, cases[i].data,
					    vcap_mode_frame_size(&m), out), 0);
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < 3; c++) {
				int d = out[p * 3 + c] - cases[i].rgb[c];

				if (d < -2 || d > 2)
					fprintf(stderr, "%s pixel %d: %u %u %u\n",
						cases[i].fmt, p, out[p * 3],
						out[p * 3 + 1], out[p * 3 + 2]);
				CHECK(d >= -2 && d <= 2);
			}
	}
	struct vcap_mode m = { .fourcc = FCC('M', 'J', 'P', 'G'), .width = 2,
			       .height = 2 };
	uint8_t out[12], in[16] = { 0 };

	CHECK_EQ(vcap_convert_rgb24(&m, in, sizeof(in), out), -1);
	CHECK_STR(vcap_last_error(), "MJPG not supported");
	m.fourcc = FCC('Y', 'U', 'Y', 'V');
	CHECK_EQ(vcap_convert_rgb24(&m, in, 7, out), -1);
	CHECK_STR(vcap_last_error(), "too short");
}

int main(void)
{
	test_table();
	test_sizes();
	test_convert();
	UT_DONE();
}
