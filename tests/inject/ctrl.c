// SPDX-License-Identifier: GPL-2.0
/*
 * A control change the board refuses, while streaming: the first board
 * request after arming fail_nth=1 fails, so S_CTRL of the test pattern
 * fails; the control still reads the value the board runs, frames keep
 * coming, and no later request carries the refused value to the board (a
 * flip change restarts the board with the pattern the driver keeps).
 * Unarmed, the same S_CTRL succeeds and the board runs the new pattern.
 */
#include <poll.h>

#include "knob.h"
#include "vk-stream.h"
#include "vtest.h"

static int inj_g_ctrl(int fd, uint32_t id, int32_t *val)
{
	struct v4l2_control c = { .id = id };
	int r = vk_xioctl(fd, VIDIOC_G_CTRL, &c);

	*val = c.value;
	return r;
}

static int inj_s_ctrl(int fd, uint32_t id, int32_t val)
{
	struct v4l2_control c = { .id = id, .value = val };

	return vk_xioctl(fd, VIDIOC_S_CTRL, &c);
}

static bool inj_frames(struct vk_stream *st, unsigned int n)
{
	struct pollfd pfd = { .fd = st->fd, .events = POLLIN };
	struct v4l2_buffer b;

	while (n--) {
		if (poll(&pfd, 1, 5000) != 1) {
			errno = ETIMEDOUT;
			return false;
		}
		if (vk_stream_dqbuf(st, &b) || vk_stream_qbuf(st, &b))
			return false;
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			errno = EIO;
			return false;
		}
	}
	return true;
}

TEST_TIMEOUT(refused_ctrl, 600)
{
	const volatile struct vcap_board_ctrl *ctrl;
	int32_t v0, v1, v, flip;
	struct inj_shot s;
	struct vk_stream st;
	char why[256];
	int r, err;

	if (inj_knob_open(why, sizeof(why))) {
		vtest_fail(_vtest, __FILE__, __LINE__, "%s", why);
		return;
	}
	ASSERT_EQ(inj_disarm(), 0);
	ctrl = vk_map_ctrl();
	ASSERT_NE(ctrl, NULL);
	ASSERT_EQ(vk_stream_start(&st, V4L2_PIX_FMT_YUYV, 640, 480, 15, 6), 0);
	ASSERT_TRUE(inj_frames(&st, 3));
	ASSERT_EQ(ctrl->status.state, VCAP_STATE_STREAMING);

	ASSERT_EQ(inj_g_ctrl(st.fd, V4L2_CID_TEST_PATTERN, &v0), 0);
	ASSERT_EQ(ctrl->request.pattern, v0);
	v1 = v0 == VCAP_PATTERN_GRADIENT ? VCAP_PATTERN_CHECKERBOARD :
					   VCAP_PATTERN_GRADIENT;
	TH_LOG("pattern %d; the board is asked for %d and refuses", v0, v1);

	ASSERT_EQ(inj_arm(1), 0);
	errno = 0;
	r = inj_s_ctrl(st.fd, V4L2_CID_TEST_PATTERN, v1);
	err = errno;
	ASSERT_EQ(inj_shot(1, &s), 0);
	ASSERT_EQ(inj_disarm(), 0);
	ASSERT_TRUE(s.fired);
	TH_LOG("fired at %s; S_CTRL returned %d (%s)", s.last, r,
	       strerror(err));
	EXPECT_EQ(strcmp(s.last, "request"), 0);
	EXPECT_EQ(r, -1);

	/* The control says what the board runs. */
	ASSERT_EQ(inj_g_ctrl(st.fd, V4L2_CID_TEST_PATTERN, &v), 0);
	EXPECT_EQ(v, v0);
	if (!inj_frames(&st, 5))
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "frames stopped after the refused S_CTRL: %s",
			   strerror(errno));
	EXPECT_EQ(ctrl->status.state, VCAP_STATE_STREAMING);

	/*
	 * The next request, for another control, must not carry the
	 * refused pattern to the board.
	 */
	ASSERT_EQ(inj_g_ctrl(st.fd, V4L2_CID_HFLIP, &flip), 0);
	ASSERT_EQ(inj_s_ctrl(st.fd, V4L2_CID_HFLIP, !flip), 0);
	ASSERT_EQ(inj_g_ctrl(st.fd, V4L2_CID_TEST_PATTERN, &v), 0);
	if (ctrl->request.pattern != (uint32_t)v)
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "after a flip change the board was asked for pattern %u while the control reads %d (refused: %d)",
			   ctrl->request.pattern, v, v1);
	ASSERT_TRUE(inj_frames(&st, 2));

	/* Unarmed, the same change goes through. */
	ASSERT_EQ(inj_s_ctrl(st.fd, V4L2_CID_TEST_PATTERN, v1), 0);
	ASSERT_EQ(inj_g_ctrl(st.fd, V4L2_CID_TEST_PATTERN, &v), 0);
	EXPECT_EQ(v, v1);
	EXPECT_EQ(ctrl->request.pattern, v1);
	if (!inj_frames(&st, 3))
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "no frames after the accepted S_CTRL: %s",
			   strerror(errno));
	inj_s_ctrl(st.fd, V4L2_CID_HFLIP, flip);
	vk_stream_stop(&st);
	vk_unmap_ctrl(ctrl);
}

VTEST_MAIN()
