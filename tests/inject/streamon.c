// SPDX-License-Identifier: GPL-2.0
/*
 * REQBUFS and STREAMON under fault injection: every injection point each
 * reaches fails once in turn.
 *
 * REQBUFS: for N = 1, 2, ... with the Nth point armed, REQBUFS fails with
 * ENOMEM when the point fired, and leaves no buffer (QUERYBUF finds none)
 * and no buffer memory behind (VmallocUsed back where it was).
 *
 * STREAMON, with every buffer queued: when the point fired STREAMON
 * fails, and the board is not left streaming: the control page's
 * status.state, read through a read-only mapping of /dev/vcapN, says
 * STOPPED.  A STREAMON that is not armed then delivers frames, STREAMOFF
 * stops the board again, and the walk goes on until STREAMON passes
 * every point.
 */
#include <poll.h>

#include <linux/vcap.h>

#include "bind.h"
#include "knob.h"
#include "vk.h"
#include "vtest.h"

#define INJ_MAX_POINTS		256
#define INJ_BUFS		4
/* One 640x480 YUYV buffer is 600 kB: less than one leaked shows. */
#define INJ_VMALLOC_TOL_KB	256

FIXTURE(node) {
	int fd;
	const volatile struct vcap_board_ctrl *ctrl;
	unsigned int nbufs;
};

FIXTURE_SETUP(node)
{
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	char path[64], why[256];

	self->fd = -1;
	if (inj_knob_open(why, sizeof(why))) {
		vtest_fail(_vtest, __FILE__, __LINE__, "%s", why);
		return;
	}
	ASSERT_EQ(inj_disarm(), 0);
	ASSERT_EQ(vk_find_video(path, sizeof(path)), 0);
	self->fd = open(path, O_RDWR);
	ASSERT_GE(self->fd, 0);
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	fmt.fmt.pix.width = 640;
	fmt.fmt.pix.height = 480;
	ASSERT_EQ(vk_xioctl(self->fd, VIDIOC_S_FMT, &fmt), 0);
	ASSERT_EQ(fmt.fmt.pix.width, 640);
	ASSERT_EQ(fmt.fmt.pix.height, 480);
	ASSERT_EQ(fmt.fmt.pix.pixelformat, V4L2_PIX_FMT_YUYV);
	parm.parm.capture.timeperframe.numerator = 1;
	parm.parm.capture.timeperframe.denominator = 15;
	ASSERT_EQ(vk_xioctl(self->fd, VIDIOC_S_PARM, &parm), 0);
	self->ctrl = vk_map_ctrl();
	ASSERT_NE(self->ctrl, NULL);
	ASSERT_EQ(self->ctrl->info.magic, VCAP_BOARD_MAGIC);
}

FIXTURE_TEARDOWN(node)
{
	inj_disarm();
	if (self->ctrl)
		vk_unmap_ctrl(self->ctrl);
	if (self->fd >= 0)
		close(self->fd);
}

static int inj_reqbufs(int fd, unsigned int count, unsigned int *got)
{
	struct v4l2_requestbuffers rb = {
		.count = count,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int r = vk_xioctl(fd, VIDIOC_REQBUFS, &rb);

	if (got)
		*got = rb.count;
	return r;
}

static int inj_qbuf(int fd, unsigned int i)
{
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
		.index = i,
	};

	return vk_xioctl(fd, VIDIOC_QBUF, &b);
}

static int inj_querybuf(int fd, unsigned int i)
{
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
		.index = i,
	};

	return vk_xioctl(fd, VIDIOC_QUERYBUF, &b);
}

static int inj_stream(int fd, bool on)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	return vk_xioctl(fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type);
}

/* n good frames, each requeued; false with errno when one did not come. */
static bool inj_frames(int fd, unsigned int n)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct v4l2_buffer b;

	while (n--) {
		if (poll(&pfd, 1, 5000) != 1) {
			errno = ETIMEDOUT;
			return false;
		}
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		if (vk_xioctl(fd, VIDIOC_DQBUF, &b) ||
		    vk_xioctl(fd, VIDIOC_QBUF, &b))
			return false;
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			errno = EIO;
			return false;
		}
	}
	return true;
}

static long long inj_vmalloc(void)
{
	usleep(100000);
	return vk_meminfo("VmallocUsed");
}

TEST_F_TIMEOUT(node, reqbufs_walk, 600)
{
	long long vm0, vm1;
	struct inj_shot s;
	unsigned int got;
	long n;

	vm0 = inj_vmalloc();
	for (n = 1; n <= INJ_MAX_POINTS; n++) {
		int r, err;

		ASSERT_EQ(inj_arm(n), 0);
		errno = 0;
		r = inj_reqbufs(self->fd, INJ_BUFS, &got);
		err = errno;
		if (inj_shot(n, &s)) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld: knob reads fail_nth %ld fail_hits %ld fail_last %s",
				   n, s.left, s.hits, s.last);
			return;
		}
		ASSERT_EQ(inj_disarm(), 0);
		if (!s.fired) {
			ASSERT_EQ(r, 0);
			TH_LOG("REQBUFS(%u): %ld points, each failed once; %u buffers",
			       INJ_BUFS, s.hits, got);
			ASSERT_GE(s.hits, 1);
			ASSERT_GE(got, INJ_BUFS);
			break;
		}
		if (r != -1 || err != ENOMEM) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld (%s): REQBUFS returned %d (%s), expected ENOMEM",
				   n, s.last, r, strerror(err));
			if (!r)
				inj_reqbufs(self->fd, 0, NULL);
			continue;
		}
		/* Nothing half made: no buffer to query. */
		EXPECT_ERRNO(inj_querybuf(self->fd, 0), EINVAL);
		ASSERT_EQ(inj_reqbufs(self->fd, 0, NULL), 0);
	}
	ASSERT_LE(n, INJ_MAX_POINTS);
	ASSERT_EQ(inj_reqbufs(self->fd, 0, NULL), 0);
	vm1 = inj_vmalloc();
	TH_LOG("VmallocUsed %lld -> %lld kB over the walk", vm0, vm1);
	EXPECT_LE(vm1 - vm0, INJ_VMALLOC_TOL_KB);
}

TEST_F_TIMEOUT(node, streamon_walk, 1200)
{
	unsigned int got, i;
	struct inj_shot s;
	long n;

	ASSERT_EQ(inj_reqbufs(self->fd, INJ_BUFS, &got), 0);
	self->nbufs = got;
	for (i = 0; i < got; i++)
		ASSERT_EQ(inj_qbuf(self->fd, i), 0);
	for (n = 1; n <= INJ_MAX_POINTS; n++) {
		uint32_t state, later;
		int r, err;

		ASSERT_EQ(inj_arm(n), 0);
		errno = 0;
		r = inj_stream(self->fd, true);
		err = errno;
		if (inj_shot(n, &s)) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld: knob reads fail_nth %ld fail_hits %ld fail_last %s",
				   n, s.left, s.hits, s.last);
			return;
		}
		ASSERT_EQ(inj_disarm(), 0);
		if (!s.fired) {
			ASSERT_EQ(r, 0);
			TH_LOG("STREAMON: %ld points, each failed once", s.hits);
			ASSERT_GE(s.hits, 1);
			if (!inj_frames(self->fd, 3))
				vtest_fail(_vtest, __FILE__, __LINE__,
					   "no frames after the walk: %s",
					   strerror(errno));
			ASSERT_EQ(inj_stream(self->fd, false), 0);
			EXPECT_EQ(self->ctrl->status.state, VCAP_STATE_STOPPED);
			return;
		}
		state = self->ctrl->status.state;
		if (r == 0) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld (%s): the point fired, yet STREAMON succeeded",
				   n, s.last);
		} else if (state != VCAP_STATE_STOPPED) {
			usleep(500000);
			later = self->ctrl->status.state;
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld (%s): STREAMON failed (%s) and left the board streaming: status.state %u (%u 0.5 s later)",
				   n, s.last, strerror(err), state, later);
		} else {
			TH_LOG("N=%ld (%s): STREAMON failed (%s), board stopped",
			       n, s.last, strerror(err));
		}
		/* Unarmed, the same queue streams. */
		if (r)
			ASSERT_EQ(inj_stream(self->fd, true), 0);
		if (!inj_frames(self->fd, 2))
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld: no frames from a clean STREAMON: %s",
				   n, strerror(errno));
		ASSERT_EQ(inj_stream(self->fd, false), 0);
		EXPECT_EQ(self->ctrl->status.state, VCAP_STATE_STOPPED);
		for (i = 0; i < got; i++)
			ASSERT_EQ(inj_qbuf(self->fd, i), 0);
	}
	vtest_fail(_vtest, __FILE__, __LINE__,
		   "STREAMON still fails at point %d: no end to the walk",
		   INJ_MAX_POINTS);
}

VTEST_MAIN()
