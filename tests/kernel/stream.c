// SPDX-License-Identifier: GPL-2.0
/*
 * V4L2 streaming from a vcap board: every frame arrives, in order, whole.
 *
 * Environment: VCAP_WIDTH, VCAP_HEIGHT (640x480), VCAP_FPS (15),
 * VCAP_FRAMES (1000).  Half a second of frames is queued (8 buffers at
 * least), so a guest the host stalls briefly still drops nothing.  Checks strictly consecutive sequence numbers (no
 * drops), strictly increasing monotonic timestamps, no error flags, and
 * that every frame's stamps decode (common/vcap-stamp) to consecutive
 * board frame numbers with a matching checksum (no tearing).
 *
 * VCAP_BOARD_LATE_OK=1: a board that misses a frame period skips its
 * frame number (vcap-fw does, when its host is too busy), and counts it
 * in status.frames_late; gaps up to that count are the board's own, not
 * drops by the driver.  The software board never skips numbers.
 *
 * At the mode's rate every frame period of the run is accounted for by
 * the board: a frame made, or a deadline counted late.
 *
 * VCAP_FREE_RUN=1: the software board runs free (its free_run attribute,
 * which must refuse anything but a boolean): frames come as fast as
 * buffers are queued, at least four times the mode's rate, with the same
 * checks.
 */
#include <time.h>

#include <vcap/board.h>
#include <linux/vcap.h>

#include "vcap-stamp.h"
#include "vk-board.h"
#include "vk-stream.h"
#include "vtest.h"

/* The board's frames_produced and frames_late through the VRAM node. */
static bool board_counts(uint64_t *produced, uint64_t *late)
{
	const volatile struct vcap_board_ctrl *c = vk_map_ctrl();

	*produced = 0;
	*late = 0;
	if (!c)
		return false;
	*produced = c->status.frames_produced;
	*late = c->status.frames_late;
	vk_unmap_ctrl(c);
	return true;
}

#define VK_FREE_RUN	"/sys/bus/platform/devices/vcap-soft.0/free_run"

/* What free_run reads: 0, 1, or -1. */
static int free_run_read(void)
{
	char buf[8] = "";
	int fd = open(VK_FREE_RUN, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n == 2 && (buf[0] == '0' || buf[0] == '1') && buf[1] == '\n')
		return buf[0] - '0';
	return -1;
}

TEST_TIMEOUT(stream_frames, 1500)
{
	bool free_run = vk_env("VCAP_FREE_RUN", 0);
	bool late_ok = vk_env("VCAP_BOARD_LATE_OK", 0);
	uint64_t made0, made, late0, late;
	bool counts;
	unsigned int width = vk_env("VCAP_WIDTH", 640);
	unsigned int height = vk_env("VCAP_HEIGHT", 480);
	unsigned int fps = vk_env("VCAP_FPS", 15);
	unsigned int frames = vk_env("VCAP_FRAMES", 1000);
	uint64_t last_ts = 0, last_stamp = 0;
	unsigned int n, gaps = 0, torn = 0, errors = 0;
	uint32_t last_seq = 0;
	struct vcap_frame_fmt ff;
	struct timespec t0, t1;
	struct vk_stream s;
	struct v4l2_buffer b;
	double secs;

	if (free_run) {
		ASSERT_EQ(free_run_read(), 0);
		EXPECT_EQ(vk_sysfs_write(VK_FREE_RUN, "maybe"), -1);
		EXPECT_EQ(errno, EINVAL);
		ASSERT_EQ(vk_sysfs_write(VK_FREE_RUN, "1"), 0);
		ASSERT_EQ(free_run_read(), 1);
	}
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, width, height, fps,
				  fps / 2 > 8 ? fps / 2 : 8), 0);
	ff.fourcc = s.pix.pixelformat;
	ff.width = s.pix.width;
	ff.height = s.pix.height;
	ff.bytesperline = s.pix.bytesperline;
	ff.sizeimage = s.pix.sizeimage;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	counts = board_counts(&made0, &late0);
	for (n = 0; n < frames; n++) {
		struct vcap_stamp st;
		enum vcap_stamp_result r;
		uint64_t ts;

		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		ts = (uint64_t)b.timestamp.tv_sec * 1000000000ull +
		     (uint64_t)b.timestamp.tv_usec * 1000ull;
		EXPECT_EQ(b.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK,
			  V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC);
		EXPECT_EQ(b.field, V4L2_FIELD_NONE);
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			errors++;
		} else {
			EXPECT_EQ(b.bytesused, s.pix.sizeimage);
			r = vcap_stamp_check(&ff, s.map[b.index], b.bytesused,
					     &st);
			if (r != VCAP_STAMP_OK) {
				torn++;
				TH_LOG("frame %u (sequence %u): stamp %s", n,
				       b.sequence, vcap_stamp_result_str(r));
			} else if (n && st.seq != last_stamp + 1) {
				TH_LOG("frame %u: stamp %llu after %llu", n,
				       (unsigned long long)st.seq,
				       (unsigned long long)last_stamp);
				gaps++;
			}
			if (r == VCAP_STAMP_OK)
				last_stamp = st.seq;
		}
		if (n) {
			if (b.sequence != last_seq + 1) {
				TH_LOG("frame %u: sequence %u after %u", n,
				       b.sequence, last_seq);
				gaps++;
			}
			EXPECT_GT(ts, last_ts);
		}
		last_seq = b.sequence;
		last_ts = ts;
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	counts = board_counts(&made, &late) && counts;
	made -= made0;
	late -= late0;
	vk_stream_stop(&s);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	TH_LOG("%u frames %ux%u YUYV at 1/%u s in %.1f s (%.1f fps): %u gaps, %u torn, %u errors; board made %llu, late %llu",
	       frames, width, height, fps, secs, frames / secs, gaps, torn,
	       errors, (unsigned long long)made, (unsigned long long)late);
	/*
	 * Periods in the window, less one at each end: the counters are
	 * read as the window opens and closes, not on a deadline.
	 */
	if (!free_run && counts)
		EXPECT_GE((int64_t)(made + late),
			  (int64_t)(secs * fps * 0.99) - 2);
	/* Each board gap shows twice: in the sequence and in the stamps. */
	if (late_ok)
		EXPECT_LE(gaps, 2 * late);
	else
		EXPECT_EQ(gaps, 0);
	EXPECT_EQ(torn, 0);
	EXPECT_EQ(errors, 0);
	if (free_run) {
		EXPECT_GE(frames / secs, 4.0 * fps);
		EXPECT_EQ(vk_sysfs_write(VK_FREE_RUN, "0"), 0);
		EXPECT_EQ(free_run_read(), 0);
	}
}

VTEST_MAIN()
