/*
 * vbench capture: V4L2 MMAP streaming, measured over wall time.
 *
 * The rate is frames dequeued divided by the wall time they took (buffer
 * timestamps are not trusted for it); drops are gaps in the buffers'
 * sequence numbers; CPU per frame is the whole guest's busy time, so the
 * driver's threads, interrupts and any producer count; latency is the time
 * from the buffer's monotonic timestamp to the return of VIDIOC_DQBUF.
 * The frames are not read: what is measured is the delivery path.
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
	unsigned int nbufs;
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
	     "  -b N        buffers (4)\n"
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

/* Dequeues one buffer, waiting up to 3 s; -1 on error or stall. */
static int vb_capture_dq(struct vb_capture *c, struct v4l2_buffer *b,
			 double *when)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	int r;

	r = poll(&pfd, 1, 3000);
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

static int vb_capture_run(struct vb_capture *c)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct vb_lat lat = { 0 };
	struct vb_cpu cpu0, cpu1, dcpu;
	long long frames = 0, drops = 0, errors = 0, backwards = 0, shorts = 0;
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
		r = vb_capture_dq(c, &b, &t);
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
			frames++;
			t_last = t;
			ts_last = b.timestamp.tv_sec * 1000000LL +
				  b.timestamp.tv_usec;
			if (have_prev && b.sequence > prev_seq + 1)
				drops += b.sequence - prev_seq - 1;
			if (have_prev && b.sequence <= prev_seq)
				backwards++;
			if (b.flags & V4L2_BUF_FLAG_ERROR)
				errors++;
			if (b.bytesused < c->sizeimage)
				shorts++;
			if (c->any_clock ||
			    (b.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
			    V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
				vb_lat_add(&lat, t - (b.timestamp.tv_sec +
						      b.timestamp.tv_usec * 1e-6));
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
	if (!measuring || !frames) {
		vb_lat_free(&lat);
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
	vb_json_int("frames", frames);
	vb_json_num("seconds", t_last - t0);
	vb_json_num("fps", frames / (t_last - t0));
	vb_json_int("drops", drops);
	vb_json_int("errors", errors);
	vb_json_int("backwards", backwards);
	vb_json_int("short", shorts);
	vb_json_int("stalled", r < 0);
	vb_json_num("cpu_ms_per_frame", dcpu.sys_busy / frames * 1e3);
	vb_json_num("proc_cpu_ms_per_frame", dcpu.proc / frames * 1e3);
	vb_json_num("cpu_busy", dcpu.sys_busy / (t_last - t0));
	vb_json_int("lat_samples", (long long)lat.n);
	vb_json_num("lat_p50_ms", vb_lat_pct(&lat, 50) * 1e3);
	vb_json_num("lat_p99_ms", vb_lat_pct(&lat, 99) * 1e3);
	vb_json_num("lat_max_ms", vb_lat_pct(&lat, 100) * 1e3);
	vb_json_int("ts_first_us", ts_first);
	vb_json_int("ts_last_us", ts_last);
	vb_json_end();
	if (c->lat_file)
		vb_lat_save(&lat, c->lat_file);
	vb_lat_free(&lat);
	return r < 0 ? 1 : 0;
}

int vb_capture_main(int argc, char **argv)
{
	struct vb_capture c = {
		.fourcc = vb_parse_fourcc("YUYV"), .width = 640, .height = 480,
		.req_fps = -1, .seconds = 3, .warmup = 0.5, .nbufs = 4,
		.input = -1, .fd = -1,
	};
	int opt, ret;

	while ((opt = getopt(argc, argv, "d:f:s:r:t:w:b:i:kML:h")) != -1) {
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
		case 'b': c.nbufs = (unsigned int)atoi(optarg); break;
		case 'i': c.input = atoi(optarg); break;
		case 'k': c.keep_fmt = 1; break;
		case 'M': c.any_clock = 1; break;
		case 'L': c.lat_file = optarg; break;
		case 'h': vb_capture_usage(); return 0;
		default: vb_capture_usage(); return 2;
		}
	}
	if (!c.dev || !c.fourcc || !c.nbufs || c.seconds <= 0) {
		vb_err("capture: needs -d DEV, a valid -f, -b and -t");
		return 2;
	}
	ret = vb_capture_setup(&c) ? 1 : vb_capture_run(&c) ? 1 : 0;
	vb_capture_teardown(&c);
	return ret;
}
