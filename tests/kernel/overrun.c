// SPDX-License-Identifier: GPL-2.0
/*
 * A reader slower than the board: the software board at its top 4K rate
 * (3840x2160 YUYV at 60 fps) in a VRAM that holds three frames, read by a
 * process that copies every frame out.  Under emulation the kernel's copy
 * of a 4K frame can take longer than the board keeps the slot, and the
 * board rewrites it mid-copy.  Frames must keep coming: a buffer at least
 * every 5 s, in increasing sequence, each one either whole (its stamps
 * decode with a matching checksum) or returned with V4L2_BUF_FLAG_ERROR
 * and no payload; torn pixels are never presented as a good frame.
 *
 * Environment: VCAP_FRAMES (60).
 */
#include <poll.h>
#include <stdlib.h>

#include "vcap-stamp.h"
#include "vk-stream.h"
#include "vtest.h"

#define OVERRUN_WAIT_MS	5000

TEST_TIMEOUT(overrun_frames_keep_coming, 900)
{
	unsigned int frames = vk_env("VCAP_FRAMES", 60);
	unsigned int n, whole = 0, flagged = 0, bad = 0, gaps = 0;
	uint32_t last_seq = 0;
	struct vcap_frame_fmt ff;
	struct vk_stream s;
	struct v4l2_buffer b;
	void *copy;

	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 3840, 2160, 60, 4),
		  0);
	ff.fourcc = s.pix.pixelformat;
	ff.width = s.pix.width;
	ff.height = s.pix.height;
	ff.bytesperline = s.pix.bytesperline;
	ff.sizeimage = s.pix.sizeimage;
	copy = malloc(s.pix.sizeimage);
	ASSERT_NE(copy, NULL);
	for (n = 0; n < frames; n++) {
		struct pollfd pfd = { .fd = s.fd, .events = POLLIN };
		struct vcap_stamp st;

		if (poll(&pfd, 1, OVERRUN_WAIT_MS) != 1) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "no frame in %d ms after %u (%u whole, %u flagged)",
				   OVERRUN_WAIT_MS, n, whole, flagged);
			break;
		}
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		if (n && b.sequence <= last_seq) {
			TH_LOG("frame %u: sequence %u after %u", n, b.sequence,
			       last_seq);
			bad++;
		}
		gaps += n ? b.sequence - last_seq - 1 : 0;
		last_seq = b.sequence;
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			flagged++;
			EXPECT_EQ(b.bytesused, 0);
		} else {
			memcpy(copy, s.map[b.index], b.bytesused);
			if (b.bytesused == s.pix.sizeimage &&
			    vcap_stamp_check(&ff, copy, b.bytesused, &st) ==
			    VCAP_STAMP_OK) {
				whole++;
			} else {
				TH_LOG("frame %u (sequence %u): not whole, not flagged",
				       n, b.sequence);
				bad++;
			}
		}
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	vk_stream_stop(&s);
	free(copy);
	TH_LOG("%u buffers at 3840x2160, 60 fps: %u whole, %u flagged, %u frames skipped",
	       n, whole, flagged, gaps);
	EXPECT_EQ(bad, 0);
	EXPECT_GT(whole, 0);
}

VTEST_MAIN()
