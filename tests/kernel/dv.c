// SPDX-License-Identifier: GPL-2.0
/*
 * The HDMI input of a software board, through the V4L2 DV timings API:
 * inputs, the timings offered, what the receiver measures as the source
 * changes (played through the board's hdmi_source attribute), the format
 * following the timings, the EDID and hotplug, and a stream across a link
 * loss and a change of timings; the scaler: the picture sizes it offers
 * at the timings, a stream at a size of its own (stamps, letterbox), and
 * a size chosen across new timings.
 */
#include <poll.h>

#include "vk-board.h"
#include "vk-stream.h"
#include "vtest.h"
#include "vcap-pattern.h"
#include "vcap-stamp.h"

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

/* The source plays name and the input takes its timings; 0 or -1. */
static int set_timings(int fd, const char *name)
{
	struct v4l2_dv_timings t;

	if (set_source(name) || query(fd, &t))
		return -1;
	return vk_xioctl(fd, VIDIOC_S_DV_TIMINGS, &t);
}

/* S_FMT or TRY_FMT of fourcc at w x h; the format back in f. */
static int set_fmt(int fd, unsigned long ioc, __u32 fourcc, __u32 w, __u32 h,
		   struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.pixelformat = fourcc;
	f->fmt.pix.width = w;
	f->fmt.pix.height = h;
	return vk_xioctl(fd, ioc, f);
}

static void get_fmt(int fd, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (vk_xioctl(fd, VIDIOC_G_FMT, f))
		memset(&f->fmt, 0, sizeof(f->fmt));
}

/* Back to 1080p60 and YUYV following the timings, as the tests start. */
static void reset_hdmi(void)
{
	struct v4l2_format f;
	int fd = open_hdmi();

	if (fd < 0)
		return;
	set_timings(fd, "1080p60");
	set_fmt(fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 1920, 1080, &f);
	close(fd);
}

TEST(format_follows_the_timings)
{
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_dv_timings t;
	int fd = open_hdmi();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(set_timings(fd, "720p60"), 0);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	/* S_FMT at the timings' size: a pixel format, following them. */
	ASSERT_EQ(set_fmt(fd, VIDIOC_S_FMT, V4L2_PIX_FMT_NV12, 1280, 720, &f),
		  0);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	EXPECT_EQ(f.fmt.pix.pixelformat, V4L2_PIX_FMT_NV12);
	/* The source sets the rate. */
	parm.parm.capture.timeperframe.numerator = 1;
	parm.parm.capture.timeperframe.denominator = 5;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_PARM, &parm), 0);
	EXPECT_EQ(parm.parm.capture.timeperframe.numerator, 1);
	EXPECT_EQ(parm.parm.capture.timeperframe.denominator, 60);
	/* Timings the card does not offer. */
	ASSERT_EQ(query(fd, &t), 0);
	t.bt.pixelclock = 12345678;
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_S_DV_TIMINGS, &t), -1);
	EXPECT_EQ(errno, EINVAL);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_DV_TIMINGS, &t), 0);
	EXPECT_EQ(t.bt.width, 1280);
	/* New timings: the format follows, in the same pixel format. */
	ASSERT_EQ(set_timings(fd, "1080p60"), 0);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 1920);
	EXPECT_EQ(f.fmt.pix.height, 1080);
	EXPECT_EQ(f.fmt.pix.pixelformat, V4L2_PIX_FMT_NV12);
	close(fd);
	reset_hdmi();
}

/* The scaler's steps: 4:2:0 formats pair rows ... */
static __u32 vstep_of(__u32 fourcc)
{
	return fourcc == V4L2_PIX_FMT_NV12 || fourcc == V4L2_PIX_FMT_YUV420 ?
	       2 : 1;
}

/* ... and they and 4:2:2 formats pair columns. */
static __u32 hstep_of(__u32 fourcc)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_YUYV:
	case V4L2_PIX_FMT_UYVY:
	case V4L2_PIX_FMT_NV12:
	case V4L2_PIX_FMT_YUV420:
		return 2;
	default:
		return 1;
	}
}

TEST(scaler_sizes_at_1080p)
{
	struct v4l2_fmtdesc fd_desc = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_frmivalenum fi;
	struct v4l2_frmsizeenum fs;
	struct v4l2_dv_timings t, q;
	struct v4l2_format f;
	unsigned int nfmts = 0;
	int fd = open_hdmi();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(set_timings(fd, "1080p60"), 0);
	for (fd_desc.index = 0;
	     !vk_xioctl(fd, VIDIOC_ENUM_FMT, &fd_desc); fd_desc.index++) {
		__u32 fcc = fd_desc.pixelformat;

		nfmts++;
		memset(&fs, 0, sizeof(fs));
		fs.pixel_format = fcc;
		ASSERT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs), 0);
		EXPECT_EQ(fs.type, V4L2_FRMSIZE_TYPE_STEPWISE);
		EXPECT_EQ(fs.stepwise.min_width, VCAP_SCALE_MIN_WIDTH);
		EXPECT_EQ(fs.stepwise.min_height, VCAP_SCALE_MIN_HEIGHT);
		EXPECT_EQ(fs.stepwise.max_width, 1920);
		EXPECT_EQ(fs.stepwise.max_height, 1080);
		EXPECT_EQ(fs.stepwise.step_width, hstep_of(fcc));
		EXPECT_EQ(fs.stepwise.step_height, vstep_of(fcc));
		fs.index = 1;
		EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs), -1);
		EXPECT_EQ(errno, EINVAL);

		/* The timings' interval at any size in range, none outside. */
		memset(&fi, 0, sizeof(fi));
		fi.pixel_format = fcc;
		fi.width = 640;
		fi.height = 480;
		ASSERT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi), 0);
		EXPECT_EQ(fi.type, V4L2_FRMIVAL_TYPE_DISCRETE);
		EXPECT_EQ(fi.discrete.numerator, 1);
		EXPECT_EQ(fi.discrete.denominator, 60);
		fi.width = VCAP_SCALE_MIN_WIDTH;
		fi.height = VCAP_SCALE_MIN_HEIGHT;
		EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi), 0);
		fi.width = 1920;
		fi.height = 1080;
		EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi), 0);
		fi.index = 1;
		EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi), -1);
		fi.index = 0;
		fi.width = 1922;
		EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi), -1);
		fi.width = 158;
		EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi), -1);
		fi.width = 640;
		fi.height = 481;
		EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi),
			  vstep_of(fcc) == 2 ? -1 : 0);
		fi.width = 641;
		fi.height = 480;
		EXPECT_EQ(vk_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi),
			  hstep_of(fcc) == 2 ? -1 : 0);

		/* TRY_FMT: sizes in range are kept, others bounded. */
		ASSERT_EQ(set_fmt(fd, VIDIOC_TRY_FMT, fcc, 640, 480, &f), 0);
		EXPECT_EQ(f.fmt.pix.pixelformat, fcc);
		EXPECT_EQ(f.fmt.pix.width, 640);
		EXPECT_EQ(f.fmt.pix.height, 480);
		EXPECT_GE(f.fmt.pix.sizeimage, 640 * 480);
		ASSERT_EQ(set_fmt(fd, VIDIOC_TRY_FMT, fcc, 1280, 720, &f), 0);
		EXPECT_EQ(f.fmt.pix.width, 1280);
		EXPECT_EQ(f.fmt.pix.height, 720);
		ASSERT_EQ(set_fmt(fd, VIDIOC_TRY_FMT, fcc, 4000, 3000, &f), 0);
		EXPECT_EQ(f.fmt.pix.width, 1920);
		EXPECT_EQ(f.fmt.pix.height, 1080);
		ASSERT_EQ(set_fmt(fd, VIDIOC_TRY_FMT, fcc, 10, 10, &f), 0);
		EXPECT_EQ(f.fmt.pix.width, VCAP_SCALE_MIN_WIDTH);
		EXPECT_EQ(f.fmt.pix.height, VCAP_SCALE_MIN_HEIGHT);
		ASSERT_EQ(set_fmt(fd, VIDIOC_TRY_FMT, fcc, 0, 0, &f), 0);
		EXPECT_EQ(f.fmt.pix.width, VCAP_SCALE_MIN_WIDTH);
		ASSERT_EQ(set_fmt(fd, VIDIOC_TRY_FMT, fcc, 641, 481, &f), 0);
		EXPECT_EQ(f.fmt.pix.width % hstep_of(fcc), 0);
		EXPECT_EQ(f.fmt.pix.height % vstep_of(fcc), 0);
		EXPECT_LE(abs((int)f.fmt.pix.width - 641), 1);
		EXPECT_LE(abs((int)f.fmt.pix.height - 481), 1);
	}
	EXPECT_GE(nfmts, 2);

	/* S_FMT takes a size of its own; the timings stay the source's. */
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_DV_TIMINGS, &t), 0);
	ASSERT_EQ(set_fmt(fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 640, 480, &f),
		  0);
	EXPECT_EQ(f.fmt.pix.width, 640);
	EXPECT_EQ(f.fmt.pix.height, 480);
	EXPECT_EQ(f.fmt.pix.bytesperline, 1280);
	EXPECT_EQ(f.fmt.pix.sizeimage, 640 * 480 * 2);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 640);
	EXPECT_EQ(f.fmt.pix.height, 480);
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_G_DV_TIMINGS, &q), 0);
	EXPECT_EQ(memcmp(&q, &t, sizeof(q)), 0);
	ASSERT_EQ(query(fd, &q), 0);
	EXPECT_EQ(q.bt.width, 1920);
	EXPECT_EQ(q.bt.height, 1080);
	EXPECT_EQ(input_status(fd, 0), 0);
	/* LOG_STATUS says the picture is scaled, and from what. */
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_LOG_STATUS, NULL), 0);
	EXPECT_EQ(system("dmesg | tail -n 40 | grep -q 'HDMI picture: 640x480 scaled from 1920x1080'"),
		  0);
	ASSERT_EQ(set_fmt(fd, VIDIOC_S_FMT, V4L2_PIX_FMT_NV12, 1280, 720, &f),
		  0);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	EXPECT_EQ(f.fmt.pix.sizeimage, 1280 * 720 * 3 / 2);
	close(fd);
	reset_hdmi();
}

/* Whether every luma sample of rows [y0, y1) is black (Y 16, or less). */
static bool rows_black(const struct v4l2_pix_format *pix, const __u8 *p,
		       __u32 y0, __u32 y1)
{
	__u32 x, y, step = pix->pixelformat == V4L2_PIX_FMT_NV12 ? 1 : 2;
	__u32 off = pix->pixelformat == V4L2_PIX_FMT_UYVY ? 1 : 0;

	for (y = y0; y < y1; y++)
		for (x = 0; x < pix->width; x++)
			if (p[y * pix->bytesperline + x * step + off] > 20)
				return false;
	return true;
}

/*
 * Frames at the stream's picture size, stamped, in order, with black
 * rows above and below a picture scaled from src_w x src_h: the count.
 */
static int scaled_frames(struct vk_stream *s, int n, __u32 src_w,
			 __u32 src_h)
{
	struct vcap_frame_fmt ff = {
		.fourcc = s->pix.pixelformat,
		.width = s->pix.width,
		.height = s->pix.height,
		.bytesperline = s->pix.bytesperline,
		.sizeimage = s->pix.sizeimage,
	};
	struct vcap_stamp_geom sg;
	struct vcap_rect pic;
	__u32 black_rows;
	unsigned long long last = 0;
	struct vcap_stamp st = { 0 };
	struct v4l2_buffer b;
	int i, good = 0;

	if (vcap_stamp_geom(&ff, &sg))
		return -1;
	vcap_letterbox(&ff, src_w, src_h, &pic);
	black_rows = pic.y0;
	if (pic.x0 || pic.x1 != ff.width || ff.height - pic.y1 != black_rows)
		return -1;
	for (i = 0; i < n; i++) {
		if (vk_stream_dqbuf(s, &b))
			return -1;
		if (!(b.flags & V4L2_BUF_FLAG_ERROR) &&
		    b.bytesused == s->pix.sizeimage &&
		    vcap_stamp_check(&ff, s->map[b.index], b.bytesused, &st) ==
		    VCAP_STAMP_OK && (!i || st.seq == last + 1)) {
			bool ok = true;

			/* The letterbox: black between the stamps and picture. */
			if (black_rows)
				ok = rows_black(&s->pix, s->map[b.index],
						sg.band_h + 2, black_rows - 2) &&
				     rows_black(&s->pix, s->map[b.index],
						s->pix.height - black_rows + 2,
						s->pix.height - sg.band_h - 2) &&
				     !rows_black(&s->pix, s->map[b.index],
						 black_rows + 2,
						 s->pix.height - black_rows -
						 2);
			if (ok)
				good++;
			else
				TH_LOG("frame %u: letterbox rows not black",
				       b.sequence);
		} else {
			TH_LOG("frame %u: flags %#x, %u bytes, stamp bad or out of order",
			       b.sequence, b.flags, b.bytesused);
		}
		last = st.seq;
		if (vk_stream_qbuf(s, &b))
			return -1;
	}
	return good;
}

TEST_TIMEOUT(scaled_streams, 120)
{
	struct v4l2_dv_timings t;
	struct vk_stream s;
	int fd = open_hdmi();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(set_timings(fd, "1080p60"), 0);
	close(fd);
	/* 16:9 into 4:3: 640x360 centred, 60 black rows above and below. */
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 60, 6), 0);
	EXPECT_EQ(scaled_frames(&s, 20, 1920, 1080), 20);
	ASSERT_EQ(vk_xioctl(s.fd, VIDIOC_G_DV_TIMINGS, &t), 0);
	EXPECT_EQ(t.bt.width, 1920);
	ASSERT_EQ(query(s.fd, &t), 0);
	EXPECT_EQ(t.bt.height, 1080);
	vk_stream_stop(&s);
	/* The same aspect: the whole frame is picture. */
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_NV12, 1280, 720, 60, 6), 0);
	EXPECT_EQ(scaled_frames(&s, 10, 1920, 1080), 10);
	vk_stream_stop(&s);
	reset_hdmi();
}

TEST(new_timings_keep_the_size)
{
	struct v4l2_format f;
	int fd = open_hdmi(), in;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(set_timings(fd, "1080p60"), 0);
	ASSERT_EQ(set_fmt(fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 1280, 720, &f),
		  0);
	/* Fits 720p: kept. */
	ASSERT_EQ(set_timings(fd, "720p60"), 0);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	/* Larger than 640x480: bounded by it. */
	ASSERT_EQ(set_timings(fd, "640x480p60"), 0);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 640);
	EXPECT_EQ(f.fmt.pix.height, 480);
	EXPECT_EQ(f.fmt.pix.sizeimage, 640 * 480 * 2);
	/* Back at 1080p the choice is still 1280x720, across S_INPUT too. */
	ASSERT_EQ(set_timings(fd, "1080p60"), 0);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	in = 1;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_INPUT, &in), 0);
	in = 0;
	ASSERT_EQ(vk_xioctl(fd, VIDIOC_S_INPUT, &in), 0);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	/* S_FMT at the timings' size: following them again. */
	ASSERT_EQ(set_fmt(fd, VIDIOC_S_FMT, V4L2_PIX_FMT_YUYV, 1920, 1080, &f),
		  0);
	EXPECT_EQ(vk_xioctl(fd, VIDIOC_LOG_STATUS, NULL), 0);
	EXPECT_EQ(system("dmesg | tail -n 40 | grep -q 'HDMI picture: 1920x1080, follows the timings'"),
		  0);
	ASSERT_EQ(set_timings(fd, "720p60"), 0);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 1280);
	EXPECT_EQ(f.fmt.pix.height, 720);
	ASSERT_EQ(set_timings(fd, "1080p60"), 0);
	get_fmt(fd, &f);
	EXPECT_EQ(f.fmt.pix.width, 1920);
	EXPECT_EQ(f.fmt.pix.height, 1080);
	close(fd);
	reset_hdmi();
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
