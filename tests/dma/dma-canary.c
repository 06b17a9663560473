// SPDX-License-Identifier: GPL-2.0
/*
 * The board writes nothing but what was posted, and nothing after the
 * stop: USERPTR buffers inside a canary (dma-test.h) through VCAP_FRAMES
 * frames (10000), with STREAMOFF/STREAMON, REQBUFS and close() racing the
 * board in between.
 *
 * Each round streams a pseudo-random number of frames, then stops in one
 * of three ways: STREAMOFF (and STREAMON again with the same buffers),
 * STREAMOFF and REQBUFS(0) (and new buffers in a new region), or close()
 * of the node while it streams (and a new open).  Every stop is followed
 * by painting the canary over the buffers as well and checking, after a
 * pause of several frame periods, that not one byte changed.  Every
 * frame's stamp decodes: whole, not torn.
 *
 * Environment: VCAP_WIDTH, VCAP_HEIGHT (320x240), VCAP_FPS (480),
 * VCAP_FRAMES (10000).
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

enum stop_kind { STOP_STREAMOFF, STOP_REQBUFS, STOP_CLOSE, STOP_KINDS };

static const char * const stop_names[STOP_KINDS] = {
	"STREAMOFF", "REQBUFS(0)", "close()",
};

static unsigned int rng(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

TEST_TIMEOUT(canary_races, 1500)
{
	unsigned int width = dma_env("VCAP_WIDTH", 320);
	unsigned int height = dma_env("VCAP_HEIGHT", 240);
	unsigned int fps = dma_env("VCAP_FPS", 480);
	unsigned int frames = dma_env("VCAP_FRAMES", 10000);
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int stops[STOP_KINDS] = { 0 };
	unsigned int done = 0, torn = 0, errors = 0, round = 0;
	unsigned int seed = 0x2545f491;
	struct v4l2_pix_format pix;
	struct v4l2_format fmt;
	struct dma_region r;
	struct v4l2_buffer b;
	struct timespec t0, t1;
	uint64_t stamp;
	char path[32];
	long bad;
	int fd;

	fd = dma_start_userptr(width, height, fps, 6, &pix, &r);
	ASSERT_GE(fd, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (done < frames) {
		unsigned int want = 10 + rng(&seed) % 400, n;
		enum stop_kind kind = rng(&seed) % STOP_KINDS;

		for (n = 0; n < want && done < frames; n++, done++) {
			ASSERT_EQ(mem_dqbuf(fd, V4L2_MEMORY_USERPTR, &b, 5000),
				  0);
			ASSERT_LT(b.index, r.nbufs);
			if (b.flags & V4L2_BUF_FLAG_ERROR)
				errors++;
			else if (dma_stamp(&pix, r.base + r.off[b.index],
					   b.bytesused, &stamp) !=
				 VCAP_STAMP_OK)
				torn++;
			ASSERT_EQ(ioctl(fd, VIDIOC_QBUF, &b), 0);
		}
		bad = dma_region_check(&r, false);
		ASSERT_EQ(bad, -1);

		/* Stop while the board writes, then prove it is silent. */
		if (kind == STOP_CLOSE) {
			close(fd);
			fd = -1;
		} else {
			ASSERT_EQ(ioctl(fd, VIDIOC_STREAMOFF, &type), 0);
		}
		dma_region_paint_all(&r);
		usleep(20000 + 4000000 / fps);
		bad = dma_region_check(&r, true);
		if (bad >= 0)
			TH_LOG("round %u: written after %s at offset %ld",
			       round, stop_names[kind], bad);
		ASSERT_EQ(bad, -1);
		stops[kind]++;
		round++;

		if (kind == STOP_CLOSE) {
			fd = mem_node_open(path, sizeof(path), &fmt);
			ASSERT_GE(fd, 0);
			ASSERT_EQ(dma_set_mode(fd, width, height, fps, &pix),
				  0);
		}
		if (kind != STOP_STREAMOFF) {
			if (kind == STOP_REQBUFS)
				ASSERT_EQ(mem_reqbufs(fd, V4L2_MEMORY_USERPTR,
						      0, NULL), 0);
			dma_region_free(&r);
			ASSERT_EQ(dma_region_init(&r, 3 + round % 4,
						  pix.sizeimage), 0);
		}
		ASSERT_EQ(dma_queue_userptr(fd, &r), 0);
		ASSERT_EQ(ioctl(fd, VIDIOC_STREAMON, &type), 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_EQ(ioctl(fd, VIDIOC_STREAMOFF, &type), 0);
	dma_region_paint_all(&r);
	usleep(100000);
	EXPECT_EQ(dma_region_check(&r, true), -1);
	close(fd);
	dma_region_free(&r);
	TH_LOG("%u frames %ux%u at %u fps in %.1f s, %u rounds (%u STREAMOFF, %u REQBUFS, %u close): %u torn, %u errors",
	       done, width, height, fps,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       round, stops[STOP_STREAMOFF], stops[STOP_REQBUFS],
	       stops[STOP_CLOSE], torn, errors);
	EXPECT_EQ(torn, 0);
	EXPECT_EQ(errors, 0);
}

VTEST_MAIN()
