// SPDX-License-Identifier: GPL-2.0
/*
 * The HDMI input of a software board, through the V4L2 DV timings API:
 * inputs, the timings offered, what the receiver measures as the source
 * changes (played through the board's hdmi_source attribute), the format
 * following the timings, the EDID and hotplug, and a stream across a link
 * loss and a change of timings.
 */
#include <poll.h>

#include "vk-board.h"
#include "vk-stream.h"
#include "vtest.h"

#define SOURCE	"/sys/devices/platform/vcap-soft.0/hdmi_source"

static int set_source(const char *name)
{
	return vk_sysfs_write(SOURCE, name);
}

static int open_hdmi(void)
{
	char path[64];
	int fd, in = 0;

	if (vk_find_video(path, sizeof(path)) < 0)
		return -1;
	fd = open(path, O_RDWR);
	if (fd < 0 || vk_xioctl(fd, VIDIOC_S_INPUT, &in) < 0)
		return -1;
	return fd;
}

/* QUERY_DV_TIMINGS: 0 and t, or -1 with errno. */
static int query(int fd, struct v4l2_dv_timings *t)
{
	memset(t, 0, sizeof(*t));
	return vk_xioctl(fd, VIDIOC_QUERY_DV_TIMINGS, t);
}

static int query_errno(int fd)
{
	struct v4l2_dv_timings t;

	return query(fd, &t) ? errno : 0;
}

static __u32 input_status(int fd, __u32 index)
{
	struct v4l2_input in = { .index = index };

	return vk_xioctl(fd, VIDIOC_ENUMINPUT, &in) ? ~0u : in.status;
}

static int rx_power(int fd)
{
	struct v4l2_control c = { .id = V4L2_CID_DV_RX_POWER_PRESENT };

	return vk_xioctl(fd, VIDIOC_G_CTRL, &c) ? -1 : c.value;
}

/* The source change event, within ms; 0 or -1. */
static int wait_event(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLPRI };
	struct v4l2_event ev;

	while (poll(&p, 1, ms) == 1) {
		memset(&ev, 0, sizeof(ev));
		if (vk_xioctl(fd, VIDIOC_DQEVENT, &ev))
			return -1;
		if (ev.type == V4L2_EVENT_SOURCE_CHANGE &&
		    (ev.u.src_change.changes & V4L2_EVENT_SRC_CH_RESOLUTION))
			return 0;
	}
	return -1;
}

static void drain_events(int fd)
{
	while (!wait_event(fd, 0))
		;
}

/* Whether a buffer is ready within ms. */
static bool frame_ready(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* Take back the frames made before the source went; 0 or -1. */
static int drain_frames(struct vk_stream *s)
{
	struct v4l2_buffer b;

	while (frame_ready(s->fd, 300))
		if (vk_stream_dqbuf(s, &b) || vk_stream_qbuf(s, &b))
			return -1;
	return 0;
}

TEST(inputs)
{
	struct v4l2_input in = { .index = 0 };
	int fd = open_hdmi(), i = 7;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_ENUMINPUT, &in), 0);
	EXPECT_EQ(strcmp((char *)in.name, "HDMI"), 0);
	EXPECT_EQ(in.capabilities, V4L2_IN_CAP_DV_TIMINGS);
	in.index = 1;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_ENUMINPUT, &in), 0);
	EXPECT_EQ(strcmp((char *)in.name, "Test pattern generator"), 0);
	EXPECT_EQ(in.capabilities, 0);
	in.index = 2;
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUMINPUT, &in), -1);
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_S_INPUT, &i), -1);
	EXPECT_EQ(errno, EINVAL);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_INPUT, &i), 0);
	EXPECT_EQ(i, 0);

	/* The generator has no timings. */
	i = 1;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_INPUT, &i), 0);
	EXPECT_EQ(query_errno(fd), ENODATA);
	close(fd);
}

TEST(timings_offered)
{
	struct v4l2_enum_dv_timings e;
	struct v4l2_dv_timings_cap cap;
	bool p1080 = false, p720 = false;
	int fd = open_hdmi();

	ASSERT_GE(fd, 0);
	memset(&cap, 0, sizeof(cap));
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_DV_TIMINGS_CAP, &cap), 0);
	EXPECT_EQ(cap.type, V4L2_DV_BT_656_1120);
	for (e.index = 0;; e.index++) {
		struct v4l2_bt_timings *bt = &e.timings.bt;

		memset(&e.pad, 0, sizeof(e) - sizeof(e.index));
		if (vk_xioctl(fd, VIDIOC_ENUM_DV_TIMINGS, &e))
			break;
		EXPECT_GE(bt->width, cap.bt.min_width);
		EXPECT_LE(bt->width, cap.bt.max_width);
		EXPECT_LE(bt->pixelclock, cap.bt.max_pixelclock);
		EXPECT_EQ(bt->interlaced, 0);
		p1080 |= bt->width == 1920 && bt->pixelclock == 148500000;
		p720 |= bt->width == 1280 && bt->hfrontporch == 110;
	}
	EXPECT_EQ(errno, EINVAL);
	EXPECT_GE(e.index, 5);
	EXPECT_TRUE(p1080);
	EXPECT_TRUE(p720);
	memset(&e, 0, sizeof(e));
	e.pad = 1;
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_DV_TIMINGS, &e), -1);
	close(fd);
}

TEST(query_follows_the_source)
{
	static const struct { const char *name; __u32 w, h; __u64 clk; } s[] = {
		{ "720p60", 1280, 720, 74250000 },
		{ "1080p50", 1920, 1080, 148500000 },
		{ "640x480p60", 640, 480, 25175000 },
		{ "1080p60", 1920, 1080, 148500000 },
	};
	struct v4l2_dv_timings t;
	unsigned int i;
	int fd = open_hdmi();

	ASSERT_GE(fd, 0);
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		ASSERT_EQ(set_source(s[i].name), 0);
		ASSERT_EQ(query(fd, &t), 0);
		EXPECT_EQ(t.bt.width, s[i].w);
		EXPECT_EQ(t.bt.height, s[i].h);
		EXPECT_EQ(t.bt.pixelclock, s[i].clk);
		EXPECT_EQ(input_status(fd, 0), 0);
		EXPECT_EQ(rx_power(fd) & 1, 1);
	}
	ASSERT_EQ(set_source("none"), 0);
	EXPECT_EQ(query_errno(fd), ENOLINK);
	EXPECT_EQ(input_status(fd, 0), V4L2_IN_ST_NO_SIGNAL);
	/* The control follows through the watchdog, within its tick. */
	usleep(300000);
	EXPECT_EQ(rx_power(fd), 0);
	ASSERT_EQ(set_source("unstable"), 0);
	EXPECT_EQ(query_errno(fd), ENOLCK);
	EXPECT_EQ(input_status(fd, 0), V4L2_IN_ST_NO_H_LOCK);
	ASSERT_EQ(set_source("out-of-range"), 0);
	EXPECT_EQ(query_errno(fd), ERANGE);
	EXPECT_EQ(set_source("1080p61"), -1);
	ASSERT_EQ(set_source("1080p60"), 0);
	EXPECT_EQ(query_errno(fd), 0);
	close(fd);
}

TEST(format_follows_the_timings)
{
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_frmsizeenum fs;
	struct v4l2_dv_timings t;
	int fd = open_hdmi();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(set_source("720p60"), 0);
	ASSERT_EQ(query(fd, &t), 0);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_DV_TIMINGS, &t), 0);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_FMT, &f), 0);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	/* S_FMT chooses the pixel format only. */
	f.fmt.pix.width = 640;
	f.fmt.pix.height = 480;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_NV12;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_FMT, &f), 0);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	EXPECT_EQ(f.fmt.pix.pixelformat, V4L2_PIX_FMT_NV12);
	/* The source sets the rate. */
	parm.parm.capture.timeperframe.numerator = 1;
	parm.parm.capture.timeperframe.denominator = 5;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_PARM, &parm), 0);
	EXPECT_EQ(parm.parm.capture.timeperframe.numerator, 1);
	EXPECT_EQ(parm.parm.capture.timeperframe.denominator, 60);
	memset(&fs, 0, sizeof(fs));
	fs.pixel_format = V4L2_PIX_FMT_NV12;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs), 0);
	EXPECT_EQ(fs.discrete.width, 1280);
	fs.index = 1;
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs), -1);
	/* Timings the card does not offer. */
	t.bt.pixelclock = 12345678;
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_S_DV_TIMINGS, &t), -1);
	EXPECT_EQ(errno, EINVAL);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_DV_TIMINGS, &t), 0);
	EXPECT_EQ(t.bt.width, 1280);
	ASSERT_EQ(set_source("1080p60"), 0);
	close(fd);
}

static bool block_sums_to_zero(const unsigned char *b)
{
	unsigned char sum = 0;
	int i;

	for (i = 0; i < 128; i++)
		sum += b[i];
	return sum == 0;
}

static void fix_checksum(unsigned char *b)
{
	unsigned char sum = 0;
	int i;

	for (i = 0; i < 127; i++)
		sum += b[i];
	b[127] = (unsigned char)-sum;
}

TEST(edid_and_hotplug)
{
	static const unsigned char header[8] = { 0, 0xff, 0xff, 0xff, 0xff,
						 0xff, 0xff, 0 };
	unsigned char data[5 * 128], bad[128];
	struct v4l2_edid e;
	int fd = open_hdmi(), i;

	ASSERT_GE(fd, 0);
	memset(&e, 0, sizeof(e));
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_EDID, &e), 0);
	ASSERT_EQ(e.blocks, 2);
	e.edid = data;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_EDID, &e), 0);
	EXPECT_EQ(memcmp(data, header, 8), 0);
	EXPECT_TRUE(block_sums_to_zero(data));
	EXPECT_TRUE(block_sums_to_zero(data + 128));
	EXPECT_EQ(data[126], 1);
	EXPECT_EQ(data[128], 0x02);	/* CEA-861 extension */
	e.start_block = 2;
	e.blocks = 1;
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_G_EDID, &e), -1);
	e.start_block = 0;
	e.pad = 1;			/* the generator has no EDID */
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_G_EDID, &e), -1);
	EXPECT_EQ(errno, EINVAL);

	/* Too many blocks: E2BIG and the most the card takes. */
	memset(&e, 0, sizeof(e));
	e.blocks = 5;
	e.edid = data;
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_S_EDID, &e), -1);
	EXPECT_EQ(errno, E2BIG);
	EXPECT_EQ(e.blocks, 4);
	/* A bad checksum is refused, and the EDID in use stays. */
	memcpy(bad, data, 128);
	bad[20] ^= 1;
	e.blocks = 1;
	e.edid = bad;
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_S_EDID, &e), -1);
	EXPECT_EQ(errno, EINVAL);
	memset(&e, 0, sizeof(e));
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_EDID, &e), 0);
	EXPECT_EQ(e.blocks, 2);
	EXPECT_EQ(query_errno(fd), 0);

	/* No EDID: hotplug low, no link. */
	memset(&e, 0, sizeof(e));
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_EDID, &e), 0);
	for (i = 0; i < 20 && query_errno(fd) != ENOLINK; i++)
		usleep(50000);
	EXPECT_EQ(query_errno(fd), ENOLINK);
	EXPECT_EQ(input_status(fd, 0), V4L2_IN_ST_NO_SIGNAL);
	/* One block of it back: the link returns. */
	memcpy(bad, data, 128);
	bad[126] = 0;
	fix_checksum(bad);
	e.blocks = 1;
	e.edid = bad;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_EDID, &e), 0);
	for (i = 0; i < 20 && query_errno(fd); i++)
		usleep(50000);
	EXPECT_EQ(query_errno(fd), 0);
	e.blocks = 2;
	e.edid = data;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_EDID, &e), 0);
	close(fd);
}

TEST(streamon_waits_for_the_source)
{
	struct v4l2_dv_timings t;
	struct v4l2_buffer b;
	struct vk_stream s;
	int fd;

	/* Timings of a source that then goes: STREAMON waits for it. */
	ASSERT_EQ(set_source("640x480p60"), 0);
	fd = open_hdmi();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(query(fd, &t), 0);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_DV_TIMINGS, &t), 0);
	close(fd);
	ASSERT_EQ(set_source("none"), 0);
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 60, 6), 0);
	EXPECT_FALSE(frame_ready(s.fd, 1000));
	/* Another timing does not feed it either. */
	ASSERT_EQ(set_source("720p60"), 0);
	EXPECT_FALSE(frame_ready(s.fd, 1000));
	ASSERT_EQ(set_source("640x480p60"), 0);
	EXPECT_TRUE(frame_ready(s.fd, 3000));
	ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
	EXPECT_EQ(b.bytesused, 640 * 480 * 2);
	vk_stream_stop(&s);
	ASSERT_EQ(set_source("1080p60"), 0);
}

TEST_TIMEOUT(stream_across_link_loss_and_a_new_timing, 120)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_event_subscription sub = {
		.type = V4L2_EVENT_SOURCE_CHANGE,
	};
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_requestbuffers rb = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_dv_timings t;
	struct v4l2_buffer b;
	struct vk_stream s;
	__u32 last = 0;
	int i, fd;

	ASSERT_EQ(set_source("640x480p60"), 0);
	fd = open_hdmi();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(query(fd, &t), 0);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_DV_TIMINGS, &t), 0);
	close(fd);
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 60, 6), 0);
	ASSERT_EQ(vk_xioctl(s.fd, VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		last = b.sequence;
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	drain_events(s.fd);

	/* The source goes: an event, no frames, the format unchanged. */
	ASSERT_EQ(set_source("none"), 0);
	EXPECT_EQ(wait_event(s.fd, 2000), 0);
	EXPECT_EQ(input_status(s.fd, 0), V4L2_IN_ST_NO_SIGNAL);
	ASSERT_EQ(drain_frames(&s), 0);
	EXPECT_FALSE(frame_ready(s.fd, 1000));
	ASSERT_EQ(vk_xioctl(s.fd, VIDIOC_G_FMT, &f), 0);
	EXPECT_EQ(f.fmt.pix.width, 640);

	/* It comes back at the same timing: the frames resume by themselves. */
	ASSERT_EQ(set_source("640x480p60"), 0);
	EXPECT_EQ(wait_event(s.fd, 2000), 0);
	EXPECT_TRUE(frame_ready(s.fd, 3000));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		EXPECT_GT(b.sequence, last);
		last = b.sequence;
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}

	/* Another timing: an event, no frames, the format the old one's. */
	ASSERT_EQ(set_source("720p60"), 0);
	EXPECT_EQ(wait_event(s.fd, 2000), 0);
	ASSERT_EQ(drain_frames(&s), 0);
	EXPECT_FALSE(frame_ready(s.fd, 1000));
	ASSERT_EQ(vk_xioctl(s.fd, VIDIOC_G_FMT, &f), 0);
	EXPECT_EQ(f.fmt.pix.width, 640);
	ASSERT_EQ(query(s.fd, &t), 0);
	EXPECT_EQ(t.bt.width, 1280);
	/* Buffers of the old size still allocated: the timings wait. */
	EXPECT_EQ(vk_xioctl(s.fd, VIDIOC_S_DV_TIMINGS, &t), -1);
	EXPECT_EQ(errno, EBUSY);

	/* What an application does: stop, free, set, allocate, go on. */
	ASSERT_EQ(vk_xioctl(s.fd, VIDIOC_STREAMOFF, &type), 0);
	fd = s.fd;
	s.fd = -1;
	vk_stream_stop(&s);
	rb.count = 0;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_REQBUFS, &rb), 0);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_DV_TIMINGS, &t), 0);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_FMT, &f), 0);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	close(fd);
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 1280, 720, 60, 6), 0);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		EXPECT_EQ(b.bytesused, 1280 * 720 * 2);
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	vk_stream_stop(&s);
	ASSERT_EQ(set_source("1080p60"), 0);
}

VTEST_MAIN()
