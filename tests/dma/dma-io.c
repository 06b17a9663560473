// SPDX-License-Identifier: GPL-2.0
/*
 * Frames the board writes into the driver's buffers: the transfer the
 * driver says it runs, USERPTR buffers inside a canary, and read().
 *
 * Environment: VCAP_TRANSFER (dma), the transfer /sys/class/vcap/vcap0/
 * transfer must name; VCAP_WIDTH, VCAP_HEIGHT (640x480), VCAP_FPS (30),
 * VCAP_FRAMES (300).
 *
 * userptr: every frame's stamp decodes (whole, not torn), stamps and
 * V4L2 sequence numbers advance together (a frame the driver did not
 * deliver shows in the sequence; fewer than a tenth missed), no error
 * flags; the canary around the
 * buffers is intact during the stream and, after STREAMOFF, in the
 * buffers too: the board wrote nothing outside what was posted and
 * nothing after it acknowledged the stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "dma-test.h"
#include "vtest.h"

TEST(transfer)
{
	const char *want = getenv("VCAP_TRANSFER");
	char got[32];

	ASSERT_EQ(dma_transfer(got, sizeof(got)), 0);
	TH_LOG("transfer: %s", got);
	EXPECT_EQ(strcmp(got, want && *want ? want : "dma"), 0);
}

TEST_TIMEOUT(userptr, 900)
{
	unsigned int width = dma_env("VCAP_WIDTH", 640);
	unsigned int height = dma_env("VCAP_HEIGHT", 480);
	unsigned int fps = dma_env("VCAP_FPS", 30);
	unsigned int frames = dma_env("VCAP_FRAMES", 300);
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int n, gaps = 0, torn = 0, errors = 0, mismatch = 0;
	uint64_t stamp = 0, last_stamp = 0;
	uint32_t last_seq = 0;
	struct v4l2_pix_format pix;
	struct dma_region r;
	struct v4l2_buffer b;
	long bad;
	int fd;

	fd = dma_start_userptr(width, height, fps, 8, &pix, &r);
	ASSERT_GE(fd, 0);
	for (n = 0; n < frames; n++) {
		enum vcap_stamp_result res;

		ASSERT_EQ(mem_dqbuf(fd, V4L2_MEMORY_USERPTR, &b, 5000), 0);
		ASSERT_LT(b.index, r.nbufs);
		ASSERT_EQ(b.m.userptr, (unsigned long)(r.base + r.off[b.index]));
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			errors++;
		} else {
			EXPECT_EQ(b.bytesused, pix.sizeimage);
			res = dma_stamp(&pix, r.base + r.off[b.index],
					b.bytesused, &stamp);
			if (res != VCAP_STAMP_OK) {
				torn++;
				TH_LOG("frame %u (sequence %u): stamp %s", n,
				       b.sequence, vcap_stamp_result_str(res));
			} else if (n) {
				if (stamp - last_stamp != b.sequence - last_seq)
					mismatch++;
				if (b.sequence != last_seq + 1)
					gaps++;
			}
			if (res == VCAP_STAMP_OK)
				last_stamp = stamp;
		}
		last_seq = b.sequence;
		if (n % 50 == 49) {
			bad = dma_region_check(&r, false);
			EXPECT_EQ(bad, -1);
			if (bad >= 0)
				TH_LOG("frame %u: canary changed at offset %ld",
				       n, bad);
		}
		ASSERT_EQ(ioctl(fd, VIDIOC_QBUF, &b), 0);
	}
	ASSERT_EQ(ioctl(fd, VIDIOC_STREAMOFF, &type), 0);
	TH_LOG("%u frames %ux%u at %u fps into USERPTR buffers: %u gaps, %u torn, %u errors, %u stamp/sequence mismatches",
	       frames, width, height, fps, gaps, torn, errors, mismatch);
	EXPECT_EQ(torn, 0);
	EXPECT_EQ(errors, 0);
	/*
	 * A reader the emulated guest starves misses frames, which the
	 * sequence shows; the stamps must agree with it (no drop the driver
	 * did not count), and a run that loses more than a tenth is broken.
	 */
	EXPECT_EQ(mismatch, 0);
	EXPECT_LE(gaps, frames / 10);

	/* Stopped: nothing may change anywhere, the buffers included. */
	dma_region_paint_all(&r);
	usleep(300000);
	bad = dma_region_check(&r, true);
	EXPECT_EQ(bad, -1);
	if (bad >= 0)
		TH_LOG("written after STREAMOFF at offset %ld", bad);
	close(fd);
	dma_region_free(&r);
}

TEST_TIMEOUT(read_frames, 600)
{
	unsigned int width = dma_env("VCAP_WIDTH", 640);
	unsigned int height = dma_env("VCAP_HEIGHT", 480);
	unsigned int fps = dma_env("VCAP_FPS", 30);
	unsigned int frames = dma_env("VCAP_FRAMES", 300) / 4;
	uint64_t stamp = 0, last = 0;
	struct v4l2_pix_format pix;
	struct v4l2_format fmt;
	unsigned int n, bad = 0;
	char path[32];
	uint8_t *frame;
	int fd;

	fd = mem_node_open(path, sizeof(path), &fmt);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(dma_set_mode(fd, width, height, fps, &pix), 0);
	frame = malloc(pix.sizeimage);
	ASSERT_NE(frame, NULL);
	for (n = 0; n < frames; n++) {
		ssize_t got = read(fd, frame, pix.sizeimage);

		ASSERT_EQ(got, (ssize_t)pix.sizeimage);
		if (dma_stamp(&pix, frame, got, &stamp) != VCAP_STAMP_OK ||
		    (n && stamp <= last))
			bad++;
		last = stamp;
	}
	TH_LOG("%u frames read(), %u bad or out of order", frames, bad);
	EXPECT_EQ(bad, 0);
	free(frame);
	close(fd);
}

VTEST_MAIN()
