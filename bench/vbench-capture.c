/*
 * vbench capture: V4L2 MMAP streaming, measured over wall time.
 *
 * The rate is frames dequeued divided by the wall time they took (buffer
 * timestamps are not trusted for it); drops are gaps in the buffers'
 * sequence numbers; CPU per frame is the whole guest's busy time, so the
 * driver's threads, interrupts and any producer count; latency is the time
 * from the buffer's monotonic timestamp to the return of VIDIOC_DQBUF.
 * The frames are not read: what is measured is the delivery path.
 *
 * With -S, the window is fixed on the clock instead: it opens at an absolute
 * CLOCK_MONOTONIC time and lasts -t seconds, so that captures started
 * together on several devices measure the same interval.  Frames dequeued
 * inside it are counted, the rate is those over the window's length, and
 * a stream whose first frame came after the window opened is reported late.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vbench.h"

#define VB_MAX_BUFS	32

struct vb_capture {
	const char *dev;
	uint32_t fourcc;
	unsigned int width, height;
	double req_fps;		/* <0: leave the rate alone, 0: fastest */
	double seconds, warmup;
	double start;		/* >0: the window opens at this CLOCK_MONOTONIC time */
	unsigned int nbufs;
	double slack_ms;	/* buffers for this long at the rate set */
	int input;
	int keep_fmt;
	int any_clock;		/* timestamps are CLOCK_MONOTONIC whatever the flags */
	const char *lat_file;

	int fd;
	void *maps[VB_MAX_BUFS];
	size_t lens[VB_MAX_BUFS];
	unsigned int sizeimage;
	double set_fps;
	char driver[32];
};

static void vb_capture_usage(void)
{
	puts("usage: vbench capture -d DEV [-f FOURCC] [-s WxH] [-r FPS] [options]\n"
	     "  -d DEV      capture device (/dev/videoN)\n"
	     "  -f FOURCC   pixel format (YUYV)\n"
	     "  -s WxH      frame size (640x480)\n"
	     "  -r FPS      frame rate to ask for; 0 = the fastest the driver lists;\n"
	     "              from a discrete list, the fastest not above FPS\n"
	     "              (default: leave the rate as it is)\n"
	     "  -t SECONDS  measured time (3)\n"
	     "  -w SECONDS  warm-up before measuring (0.5)\n"
	     "  -S TIME     the window opens at this CLOCK_MONOTONIC time (seconds,\n"
	     "              as 'vbench now' prints) and lasts -t; the device is set\n"
	     "              up at once and streams from -w seconds before TIME\n"
	     "              (at once if that has passed)\n"
	     "  -b N        buffers (4)\n"
	     "  -B MS       at least enough buffers for MS milliseconds of frames at\n"
	     "              the rate set (at most 32), so a reader at a high rate\n"
	     "              has as much slack in time as one at a low rate\n"
	     "  -i INPUT    select this input first\n"
	     "  -k          keep the device's format (only check it), for loopback\n"
	     "  -M          take timestamps as CLOCK_MONOTONIC even when the buffer\n"
	     "              flags do not say so (a producer that sets them)\n"
	     "  -L FILE     save every latency in microseconds, one a line");
}

static int vb_capture_setup(struct vb_capture *c)
{
	struct v4l2_capability cap;
	struct v4l2_format fmt;
	struct v4l2_streamparm parm;
	struct v4l2_requestbuffers req;
	unsigned int i;

	c->fd = open(c->dev, O_RDWR);
	if (c->fd < 0) {
		vb_err("%s: %s", c->dev, strerror(errno));
		return -1;
	}
	if (vb_xioctl(c->fd, VIDIOC_QUERYCAP, &cap)) {
		vb_err("%s: VIDIOC_QUERYCAP: %s", c->dev, strerror(errno));
		return -1;
	}
	snprintf(c->driver, sizeof(c->driver), "%s", (char *)cap.driver);
	if (c->input >= 0 && vb_xioctl(c->fd, VIDIOC_S_INPUT, &c->input)) {
		vb_err("%s: VIDIOC_S_INPUT %d: %s", c->dev, c->input,
		       strerror(errno));
		return -1;
	}

	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (c->keep_fmt) {
		if (vb_xioctl(c->fd, VIDIOC_G_FMT, &fmt)) {
			vb_err("%s: VIDIOC_G_FMT: %s", c->dev, strerror(errno));
			return -1;
		}
	} else {
		fmt.fmt.pix.pixelformat = c->fourcc;
		fmt.fmt.pix.width = c->width;
		fmt.fmt.pix.height = c->height;
		fmt.fmt.pix.field = V4L2_FIELD_NONE;
		if (vb_xioctl(c->fd, VIDIOC_S_FMT, &fmt)) {
			vb_err("%s: VIDIOC_S_FMT: %s", c->dev, strerror(errno));
			return -1;
		}
	}
	if (fmt.fmt.pix.pixelformat != c->fourcc ||
	    fmt.fmt.pix.width != c->width || fmt.fmt.pix.height != c->height) {
		char a[5], b[5];

		vb_err("%s: format is %s %ux%u, not %s %ux%u", c->dev,
		       vb_fourcc_str(fmt.fmt.pix.pixelformat, a),
		       fmt.fmt.pix.width, fmt.fmt.pix.height,
		       vb_fourcc_str(c->fourcc, b), c->width, c->height);
		return -1;
	}
	c->sizeimage = fmt.fmt.pix.sizeimage;

	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (c->req_fps >= 0) {
		struct v4l2_fract f = { 1000, (unsigned int)(c->req_fps * 1000) };

		if (c->req_fps == 0 &&
		    vb_fastest_interval(c->fd, c->fourcc, c->width, c->height, &f))
			f.denominator = 0;
		/* From a discrete list, never a rate above the one asked. */
		if (c->req_fps > 0)
			vb_interval_at_most(c->fd, c->fourcc, c->width, c->height,
					    c->req_fps, &f);
		if (f.denominator) {
			parm.parm.capture.timeperframe = f;
			/* Drivers with fixed timings refuse it; that is fine. */
			vb_xioctl(c->fd, VIDIOC_S_PARM, &parm);
		}
	}
	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (!vb_xioctl(c->fd, VIDIOC_G_PARM, &parm) &&
	    parm.parm.capture.timeperframe.numerator)
		c->set_fps = (double)parm.parm.capture.timeperframe.denominator /
			     parm.parm.capture.timeperframe.numerator;

	if (c->slack_ms > 0 && c->set_fps > 0) {
		double n = c->slack_ms * c->set_fps / 1000;

		if (n > VB_MAX_BUFS)
			n = VB_MAX_BUFS;
		if (n > c->nbufs)
			c->nbufs = (unsigned int)(n + 0.999);
	}
	memset(&req, 0, sizeof(req));
	req.count = c->nbufs;
	req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	req.memory = V4L2_MEMORY_MMAP;
	if (vb_xioctl(c->fd, VIDIOC_REQBUFS, &req) || !req.count) {
		vb_err("%s: VIDIOC_REQBUFS: %s", c->dev, strerror(errno));
		return -1;
	}
	c->nbufs = req.count < VB_MAX_BUFS ? req.count : VB_MAX_BUFS;
	for (i = 0; i < c->nbufs; i++) {
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (vb_xioctl(c->fd, VIDIOC_QUERYBUF, &b)) {
			vb_err("%s: VIDIOC_QUERYBUF: %s", c->dev, strerror(errno));
			return -1;
		}
		c->lens[i] = b.length;
		c->maps[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, c->fd,
				  b.m.offset);
		if (c->maps[i] == MAP_FAILED) {
			c->maps[i] = NULL;
			vb_err("%s: mmap: %s", c->dev, strerror(errno));
			return -1;
		}
		if (vb_xioctl(c->fd, VIDIOC_QBUF, &b)) {
			vb_err("%s: VIDIOC_QBUF: %s", c->dev, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void vb_capture_teardown(struct vb_capture *c)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	if (c->fd < 0)
		return;
	vb_xioctl(c->fd, VIDIOC_STREAMOFF, &type);
	for (i = 0; i < VB_MAX_BUFS; i++)
		if (c->maps[i])
			munmap(c->maps[i], c->lens[i]);
	close(c->fd);
}

/*
 * Dequeues one buffer, waiting up to 3 s, or only until the time until
 * when that is sooner (then 2 if no frame came); -1 on error or stall.
 */
static int vb_capture_dq(struct vb_capture *c, struct v4l2_buffer *b,
			 double *when, double until)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	double left = until > 0 ? until - vb_now() : 3;
	int bounded = left < 3, r;

	r = poll(&pfd, 1, !bounded ? 3000 : left > 0 ? (int)(left * 1000) + 1 : 0);
	if (r == 0 && bounded)
		return 2;
	if (r <= 0) {
		vb_err("%s: no frame for 3 s%s", c->dev, r ? " (poll failed)" : "");
		return -1;
	}
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	if (vb_xioctl(c->fd, VIDIOC_DQBUF, b)) {
		if (errno == EAGAIN)
			return 1;
		vb_err("%s: VIDIOC_DQBUF: %s", c->dev, strerror(errno));
		return -1;
	}
	*when = vb_now();
	return 0;
}

/* What the buffers dequeued in a window said. */
struct vb_tally {
	long long frames;
	long long drops;	/* gaps in the sequence */
	long long backwards;	/* a sequence not after the previous one */
	long long errors;	/* V4L2_BUF_FLAG_ERROR */
	long long shorts;	/* bytesused below the image size */
	struct vb_lat lat;	/* dequeue time minus the buffer's timestamp */
};

/* Count buffer b, dequeued at t; prev is the sequence before it, or NULL. */
static void vb_tally_frame(struct vb_tally *y, const struct vb_capture *c,
			   const struct v4l2_buffer *b, const uint32_t *prev,
			   double t)
{
	y->frames++;
	if (prev && b->sequence > *prev + 1)
		y->drops += b->sequence - *prev - 1;
	if (prev && b->sequence <= *prev)
		y->backwards++;
	if (b->flags & V4L2_BUF_FLAG_ERROR)
		y->errors++;
	if (b->bytesused < c->sizeimage)
		y->shorts++;
	if (c->any_clock ||
	    (b->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
	    V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
		vb_lat_add(&y->lat, t - (b->timestamp.tv_sec +
					 b->timestamp.tv_usec * 1e-6));
}

/* The tally's counts in the JSON line. */
static void vb_tally_json(const struct vb_tally *y)
{
	vb_json_int("drops", y->drops);
	vb_json_int("errors", y->errors);
	vb_json_int("backwards", y->backwards);
	vb_json_int("short", y->shorts);
}

/* The tally's latencies in the JSON line (vb_lat_pct sorts them). */
static void vb_tally_lat_json(struct vb_tally *y)
{
	vb_json_int("lat_samples", (long long)y->lat.n);
	vb_json_num("lat_p50_ms", vb_lat_pct(&y->lat, 50) * 1e3);
	vb_json_num("lat_p99_ms", vb_lat_pct(&y->lat, 99) * 1e3);
	vb_json_num("lat_max_ms", vb_lat_pct(&y->lat, 100) * 1e3);
}

/* Save every latency to file (if any), and free them. */
static void vb_tally_end(struct vb_tally *y, const char *file)
{
	if (file)
		vb_lat_save(&y->lat, file);
	vb_lat_free(&y->lat);
}

static int vb_capture_run(struct vb_capture *c)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct vb_tally y = { 0 };
	struct vb_cpu cpu0, cpu1, dcpu;
	double t, t0 = 0, t_end, t_last;
	uint32_t prev_seq = 0;
	long long ts_first = 0, ts_last = 0;
	int have_prev = 0, measuring = 0, r;
	struct v4l2_buffer b;

	if (vb_xioctl(c->fd, VIDIOC_STREAMON, &type)) {
		vb_err("%s: VIDIOC_STREAMON: %s", c->dev, strerror(errno));
		return -1;
	}
	t_last = t_end = vb_now() + c->warmup;
	for (;;) {
		r = vb_capture_dq(c, &b, &t, 0);
		if (r < 0)
			break;
		if (r > 0)
			continue;
		if (!measuring && t >= t_end) {
			/* This frame opens the window; it is not counted. */
			measuring = 1;
			t0 = t;
			t_end = t0 + c->seconds;
			vb_cpu_sample(&cpu0);
			ts_first = b.timestamp.tv_sec * 1000000LL +
				   b.timestamp.tv_usec;
		} else if (measuring) {
			t_last = t;
			ts_last = b.timestamp.tv_sec * 1000000LL +
				  b.timestamp.tv_usec;
			vb_tally_frame(&y, c, &b, have_prev ? &prev_seq : NULL,
				       t);
		}
		prev_seq = b.sequence;
		have_prev = 1;
		if (vb_xioctl(c->fd, VIDIOC_QBUF, &b)) {
			vb_err("%s: VIDIOC_QBUF: %s", c->dev, strerror(errno));
			r = -1;
			break;
		}
		if (measuring && t >= t_end)
			break;
	}
	vb_cpu_sample(&cpu1);
	vb_cpu_delta(&cpu0, &cpu1, &dcpu);
	if (!measuring || !y.frames) {
		vb_lat_free(&y.lat);
		return -1;
	}

	vb_json_begin();
	vb_json_str("tool", "capture");
	vb_json_str("device", c->dev);
	vb_json_str("driver", c->driver);
	{
		char s[5];

		vb_json_str("fourcc", vb_fourcc_str(c->fourcc, s));
	}
	vb_json_int("width", c->width);
	vb_json_int("height", c->height);
	vb_json_int("sizeimage", c->sizeimage);
	vb_json_int("buffers", c->nbufs);
	vb_json_num("req_fps", c->req_fps);
	vb_json_num("set_fps", c->set_fps);
	vb_json_int("frames", y.frames);
	vb_json_num("seconds", t_last - t0);
	vb_json_num("fps", y.frames / (t_last - t0));
	vb_tally_json(&y);
	vb_json_int("stalled", r < 0);
	vb_json_num("cpu_ms_per_frame", dcpu.sys_busy / y.frames * 1e3);
	vb_json_num("proc_cpu_ms_per_frame", dcpu.proc / y.frames * 1e3);
	vb_json_num("cpu_busy", dcpu.sys_busy / (t_last - t0));
	vb_tally_lat_json(&y);
	vb_json_int("ts_first_us", ts_first);
	vb_json_int("ts_last_us", ts_last);
	vb_json_end();
	vb_tally_end(&y, c->lat_file);
	return r < 0 ? 1 : 0;
}

/*
 * The window fixed on the clock: [start, start + seconds).  The stream is
 * started warmup seconds before it (at once if that has passed); frames
 * before the window are dequeued and queued again uncounted.  CPU is
 * sampled when the window opens and when it closes, whether a frame came
 * then or not.
 */
static int vb_capture_run_at(struct vb_capture *c)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct vb_tally y = { 0 };
	struct vb_cpu cpu0, cpu1, dcpu;
	long long before = 0;
	double t, t_on, t_first = 0, t_open = 0;
	double t_start = c->start, t_end = c->start + c->seconds;
	uint32_t prev_seq = 0;
	int have_prev = 0, open = 0, r = 0;
	struct v4l2_buffer b;

	if (vb_now() < t_start - c->warmup)
		vb_sleep_until(t_start - c->warmup);
	if (vb_xioctl(c->fd, VIDIOC_STREAMON, &type)) {
		vb_err("%s: VIDIOC_STREAMON: %s", c->dev, strerror(errno));
		return -1;
	}
	t_on = vb_now();
	for (;;) {
		r = vb_capture_dq(c, &b, &t, open ? t_end : t_start);
		if (r < 0)
			break;
		if (!open && vb_now() >= t_start) {
			open = 1;
			t_open = vb_now();
			vb_cpu_sample(&cpu0);
		}
		if (r == 2) {
			if (open && vb_now() >= t_end)
				break;
			continue;
		}
		if (r > 0)
			continue;
		if (!t_first)
			t_first = t;
		if (t >= t_end) {
			/* Dequeued after the window: not counted, the run ends. */
			r = 0;
			break;
		}
		if (t < t_start)
			before++;
		else
			vb_tally_frame(&y, c, &b, have_prev ? &prev_seq : NULL,
				       t);
		prev_seq = b.sequence;
		have_prev = 1;
		if (vb_xioctl(c->fd, VIDIOC_QBUF, &b)) {
			vb_err("%s: VIDIOC_QBUF: %s", c->dev, strerror(errno));
			r = -1;
			break;
		}
	}
	vb_cpu_sample(&cpu1);
	if (!open) {
		/* Stalled before the window: the whole guest's CPU is unknown. */
		cpu0 = cpu1;
		t_open = vb_now();
	}
	vb_cpu_delta(&cpu0, &cpu1, &dcpu);

	vb_json_begin();
	vb_json_str("tool", "capture");
	vb_json_str("device", c->dev);
	vb_json_str("driver", c->driver);
	{
		char s[5];

		vb_json_str("fourcc", vb_fourcc_str(c->fourcc, s));
	}
	vb_json_int("width", c->width);
	vb_json_int("height", c->height);
	vb_json_int("sizeimage", c->sizeimage);
	vb_json_int("buffers", c->nbufs);
	vb_json_num("req_fps", c->req_fps);
	vb_json_num("set_fps", c->set_fps);
	vb_json_num("window_start", t_start);
	vb_json_num("seconds", c->seconds);
	/*
	 * Relative to the window's opening: when streaming was asked for,
	 * when the first frame came (<0: before it), when the window was
	 * seen open (how late this process ran then).
	 */
	vb_json_num("streamon_s", t_on - t_start);
	vb_json_num("first_frame_s", t_first ? t_first - t_start : -1);
	vb_json_num("open_late_s", t_open - t_start);
	vb_json_int("late", !t_first || t_first > t_start);
	vb_json_int("frames_before", before);
	vb_json_int("frames", y.frames);
	vb_json_num("fps", y.frames / c->seconds);
	vb_tally_json(&y);
	vb_json_int("stalled", r < 0);
	vb_json_num("cpu_ms_per_frame",
		    y.frames ? dcpu.sys_busy / y.frames * 1e3 : 0);
	vb_json_num("proc_cpu_ms_per_frame",
		    y.frames ? dcpu.proc / y.frames * 1e3 : 0);
	vb_json_num("cpu_busy", open ? dcpu.sys_busy / (vb_now() - t_open) : 0);
	vb_tally_lat_json(&y);
	vb_json_end();
	vb_tally_end(&y, c->lat_file);
	return r < 0 || !y.frames ? 1 : 0;
}

int vb_capture_main(int argc, char **argv)
{
	struct vb_capture c = {
		.fourcc = vb_parse_fourcc("YUYV"), .width = 640, .height = 480,
		.req_fps = -1, .seconds = 3, .warmup = 0.5, .nbufs = 4,
		.input = -1, .fd = -1,
	};
	int opt, ret;

	while ((opt = getopt(argc, argv, "d:f:s:r:t:w:S:b:B:i:kML:h")) != -1) {
		switch (opt) {
		case 'd': c.dev = optarg; break;
		case 'f': c.fourcc = vb_parse_fourcc(optarg); break;
		case 's':
			if (vb_parse_size(optarg, &c.width, &c.height)) {
				vb_err("capture: bad size '%s'", optarg);
				return 2;
			}
			break;
		case 'r': c.req_fps = atof(optarg); break;
		case 't': c.seconds = atof(optarg); break;
		case 'w': c.warmup = atof(optarg); break;
		case 'S':
			c.start = atof(optarg);
			if (c.start <= 0) {
				vb_err("capture: bad start time '%s'", optarg);
				return 2;
			}
			break;
		case 'b': c.nbufs = (unsigned int)atoi(optarg); break;
		case 'B': c.slack_ms = atof(optarg); break;
		case 'i': c.input = atoi(optarg); break;
		case 'k': c.keep_fmt = 1; break;
		case 'M': c.any_clock = 1; break;
		case 'L': c.lat_file = optarg; break;
		case 'h': vb_capture_usage(); return 0;
		default: vb_capture_usage(); return 2;
		}
	}
	if (!c.dev || !c.fourcc || !c.nbufs || c.seconds <= 0 ||
	    c.slack_ms < 0) {
		vb_err("capture: needs -d DEV, a valid -f, -b and -t");
		return 2;
	}
	if (vb_capture_setup(&c))
		ret = 1;
	else if (c.start > 0)
		ret = vb_capture_run_at(&c) ? 1 : 0;
	else
		ret = vb_capture_run(&c) ? 1 : 0;
	vb_capture_teardown(&c);
	return ret;
}
