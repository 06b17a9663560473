// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* PNG snapshots: written with libvcap, read back with libpng, colours kept. */
#include <libvcap.h>
#include <png.h>
#include <unistd.h>

#include "ut.h"

#define W 64
#define H 32

static void read_back(const char *path, uint8_t *rgb)
{
	png_image img;

	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	CHECK(png_image_begin_read_from_file(&img, path));
	CHECK_EQ(img.width, W);
	CHECK_EQ(img.height, H);
	img.format = PNG_FORMAT_RGB;
	CHECK(png_image_finish_read(&img, NULL, rgb, 0, NULL));
}

int main(void)
{
	char path[] = "/tmp/vcap-test-png-XXXXXX";
	struct vcap_mode m = { .width = W, .height = H };
	uint8_t yuyv[W * H * 2], rgb[W * H * 3];
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	/* Left half white, right half BT.601 red. */
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x += 2) {
			uint8_t *p = yuyv + y * W * 2 + x * 2;
			int red = x >= W / 2;

			p[0] = p[2] = red ? 81 : 235;
			p[1] = red ? 90 : 128;
			p[3] = red ? 240 : 128;
		}
	m.fourcc = vcap_fourcc_parse("YUYV");
	CHECK_EQ(vcap_png_write(path, &m, yuyv, sizeof(yuyv)), 0);
	read_back(path, rgb);
	CHECK(rgb[0] == 255 && rgb[1] == 255 && rgb[2] == 255);
	uint8_t *r = rgb + ((H - 1) * W + W - 1) * 3;

	CHECK(r[0] == 255 && r[1] <= 2 && r[2] <= 2);

	/* Unsupported format and too-short data: an error, no crash. */
	m.fourcc = vcap_fourcc_parse("MJPG");
	CHECK_EQ(vcap_png_write(path, &m, yuyv, sizeof(yuyv)), -1);
	CHECK_STR(vcap_last_error(), path);
	m.fourcc = vcap_fourcc_parse("YUYV");
	CHECK_EQ(vcap_png_write(path, &m, yuyv, 100), -1);
	CHECK_EQ(vcap_png_write("/nonexistent/x.png", &m, yuyv, sizeof(yuyv)),
		 -1);
	CHECK_STR(vcap_last_error(), "/nonexistent/x.png: open");
	unlink(path);
	UT_DONE();
}
