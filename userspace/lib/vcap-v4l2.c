// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* V4L2 single-planar capture: caps, enumeration, mode, MMAP streaming. */
#include "vcap-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define DEFAULT_BUFFERS	4
#define MAX_BUFFERS	32

struct vcap_v4l2_buf {
	void *start;
	size_t length;
	int dmabuf_fd;
	bool queued;
};

/* A mapping the caller still held when its buffers were reallocated. */
struct vcap_v4l2_orphan {
	void *start;
	size_t length;
	int dmabuf_fd;
	uint64_t priv;			/* the frame's vcap_frame.priv */
};

#define MAX_ORPHANS	(2 * MAX_BUFFERS)

struct vcap_v4l2 {
	int fd;
	char path[256];
	struct vcap_mode mode;		/* last G_FMT/S_FMT result */
	struct vcap_v4l2_buf bufs[MAX_BUFFERS];
	unsigned int num_bufs;
	bool streaming;			/* started by the caller */
	bool running;			/* buffers queued and STREAMON done */
	unsigned int want_bufs;		/* as asked at start */
	bool export_dmabuf;
	/* Buffer generation: a restart for a source change starts a new one. */
	uint32_t gen;
	struct vcap_v4l2_orphan orphans[MAX_ORPHANS];
	/* Following the source (DV inputs only). */
	struct vcap_dv dv;
	struct vcap_source_change change;
	struct vcap_mode signal_mode;	/* the last mode with a signal */
	uint64_t lost_ns;		/* when the signal went */
	bool mode_changed;		/* flag the next frame */
};

int vcap_xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret < 0 && errno == EINTR);
	return ret;
}

static int v4l2_fail(const struct vcap_v4l2 *dev, const char *op)
{
	return vcap_set_error(errno, "%s: %s", dev->path, op);
}

struct vcap_v4l2 *vcap_v4l2_open(const char *path)
{
	struct v4l2_capability cap;
	struct vcap_v4l2 *dev;
	struct stat st;
	uint32_t caps;

	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		vcap_set_error(ENOMEM, "%s: open", path);
		return NULL;
	}
	snprintf(dev->path, sizeof(dev->path), "%s", path);
	dev->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (dev->fd < 0) {
		v4l2_fail(dev, "open");
		goto err_free;
	}
	if (fstat(dev->fd, &st) == 0 && !S_ISCHR(st.st_mode)) {
		vcap_set_error(ENOTTY, "%s: not a device node", path);
		goto err_close;
	}
	memset(&cap, 0, sizeof(cap));
	if (vcap_xioctl(dev->fd, VIDIOC_QUERYCAP, &cap) < 0) {
		if (errno == ENOTTY || errno == EINVAL)
			vcap_set_error(ENOTTY,
				       "%s: VIDIOC_QUERYCAP: not a V4L2 device",
				       path);
		else
			v4l2_fail(dev, "VIDIOC_QUERYCAP");
		goto err_close;
	}
	caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps :
							   cap.capabilities;
	if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {
		if (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE)
			vcap_set_error(EOPNOTSUPP,
				       "%s: multiplanar capture (%s) is not supported",
				       path, (char *)cap.driver);
		else
			vcap_set_error(ENOTTY,
				       "%s: not a video capture device (%s, caps 0x%08x)",
				       path, (char *)cap.driver, caps);
		goto err_close;
	}
	if (!(caps & V4L2_CAP_STREAMING)) {
		vcap_set_error(EOPNOTSUPP, "%s: no streaming I/O (%s)", path,
			       (char *)cap.driver);
		goto err_close;
	}
	if (vcap_v4l2_get_mode(dev, &dev->mode) < 0)
		goto err_close;
	if (vcap_dv_open(&dev->dv, dev->fd, path) < 0)
		goto err_close;
	return dev;

err_close:
	close(dev->fd);
err_free:
	free(dev);
	return NULL;
}

void vcap_v4l2_close(struct vcap_v4l2 *dev)
{
	if (!dev)
		return;
	vcap_v4l2_stop(dev);
	close(dev->fd);
	free(dev);
}

int vcap_v4l2_fd(const struct vcap_v4l2 *dev)
{
	return dev->fd;
}

const char *vcap_v4l2_path(const struct vcap_v4l2 *dev)
{
	return dev->path;
}

int vcap_v4l2_caps(struct vcap_v4l2 *dev, struct vcap_v4l2_caps *caps)
{
	struct v4l2_capability cap;

	memset(&cap, 0, sizeof(cap));
	if (vcap_xioctl(dev->fd, VIDIOC_QUERYCAP, &cap) < 0)
		return v4l2_fail(dev, "VIDIOC_QUERYCAP");
	memset(caps, 0, sizeof(*caps));
	snprintf(caps->driver, sizeof(caps->driver), "%.15s",
		 (char *)cap.driver);
	snprintf(caps->card, sizeof(caps->card), "%.31s", (char *)cap.card);
	snprintf(caps->bus_info, sizeof(caps->bus_info), "%.31s",
		 (char *)cap.bus_info);
	caps->version = cap.version;
	caps->device_caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ?
			    cap.device_caps : cap.capabilities;
	caps->capture = caps->device_caps & V4L2_CAP_VIDEO_CAPTURE;
	caps->capture_mplane = caps->device_caps &
			       V4L2_CAP_VIDEO_CAPTURE_MPLANE;
	caps->streaming = caps->device_caps & V4L2_CAP_STREAMING;
	caps->readwrite = caps->device_caps & V4L2_CAP_READWRITE;
	return 0;
}

/* End of an enumeration is EINVAL; anything else is a real error. */
static int enum_result(const struct vcap_v4l2 *dev, const char *op)
{
	if (errno == EINVAL)
		return VCAP_END;
	return v4l2_fail(dev, op);
}

int vcap_v4l2_enum_format(struct vcap_v4l2 *dev, unsigned int index,
			  struct vcap_v4l2_fmtdesc *out)
{
	struct v4l2_fmtdesc fd;

	memset(&fd, 0, sizeof(fd));
	fd.index = index;
	fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (vcap_xioctl(dev->fd, VIDIOC_ENUM_FMT, &fd) < 0)
		return enum_result(dev, "VIDIOC_ENUM_FMT");
	out->fourcc = fd.pixelformat;
	out->flags = fd.flags;
	snprintf(out->description, sizeof(out->description), "%.31s",
		 (char *)fd.description);
	return 0;
}

int vcap_v4l2_enum_size(struct vcap_v4l2 *dev, uint32_t fourcc,
			unsigned int index, struct vcap_v4l2_size *out)
{
	struct v4l2_frmsizeenum fs;

	memset(&fs, 0, sizeof(fs));
	fs.index = index;
	fs.pixel_format = fourcc;
	if (vcap_xioctl(dev->fd, VIDIOC_ENUM_FRAMESIZES, &fs) < 0)
		return enum_result(dev, "VIDIOC_ENUM_FRAMESIZES");
	memset(out, 0, sizeof(*out));
	if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
		out->min_width = out->max_width = fs.discrete.width;
		out->min_height = out->max_height = fs.discrete.height;
	} else {
		/* Stepwise and continuous come as one range, at index 0. */
		if (index)
			return VCAP_END;
		out->min_width = fs.stepwise.min_width;
		out->max_width = fs.stepwise.max_width;
		out->step_width = fs.stepwise.step_width;
		out->min_height = fs.stepwise.min_height;
		out->max_height = fs.stepwise.max_height;
		out->step_height = fs.stepwise.step_height;
	}
	return 0;
}

int vcap_v4l2_enum_interval(struct vcap_v4l2 *dev, uint32_t fourcc,
			    uint32_t width, uint32_t height,
			    unsigned int index, struct vcap_v4l2_interval *out)
{
	struct v4l2_frmivalenum fi;

	memset(&fi, 0, sizeof(fi));
	fi.index = index;
	fi.pixel_format = fourcc;
	fi.width = width;
	fi.height = height;
	if (vcap_xioctl(dev->fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) < 0)
		return enum_result(dev, "VIDIOC_ENUM_FRAMEINTERVALS");
	memset(out, 0, sizeof(*out));
	if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
		out->min_num = out->max_num = fi.discrete.numerator;
		out->min_den = out->max_den = fi.discrete.denominator;
	} else {
		if (index)
			return VCAP_END;
		out->min_num = fi.stepwise.min.numerator;
		out->min_den = fi.stepwise.min.denominator;
		out->max_num = fi.stepwise.max.numerator;
		out->max_den = fi.stepwise.max.denominator;
		out->step_num = fi.stepwise.step.numerator;
		out->step_den = fi.stepwise.step.denominator;
	}
	return 0;
}

static void mode_from_pix(struct vcap_mode *mode,
			  const struct v4l2_pix_format *pix)
{
	mode->fourcc = pix->pixelformat;
	mode->width = pix->width;
	mode->height = pix->height;
	mode->bytesperline = pix->bytesperline;
	mode->sizeimage = pix->sizeimage;
}

int vcap_v4l2_get_mode(struct vcap_v4l2 *dev, struct vcap_mode *mode)
{
	struct v4l2_streamparm parm;
	struct v4l2_format fmt;

	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (vcap_xioctl(dev->fd, VIDIOC_G_FMT, &fmt) < 0)
		return v4l2_fail(dev, "VIDIOC_G_FMT");
	memset(mode, 0, sizeof(*mode));
	mode_from_pix(mode, &fmt.fmt.pix);
	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	/* G_PARM is optional: a device without it has no interval. */
	if (vcap_xioctl(dev->fd, VIDIOC_G_PARM, &parm) == 0) {
		mode->interval_num = parm.parm.capture.timeperframe.numerator;
		mode->interval_den =
			parm.parm.capture.timeperframe.denominator;
	}
	dev->mode = *mode;
	return 0;
}

int vcap_v4l2_set_mode(struct vcap_v4l2 *dev, const struct vcap_mode *want,
		       struct vcap_mode *got)
{
	struct v4l2_streamparm parm;
	struct v4l2_format fmt;
	char a[VCAP_FOURCC_STR_LEN], b[VCAP_FOURCC_STR_LEN];

	if (dev->streaming)
		return vcap_set_error(EBUSY, "%s: set mode while streaming",
				      dev->path);
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (vcap_xioctl(dev->fd, VIDIOC_G_FMT, &fmt) < 0)
		return v4l2_fail(dev, "VIDIOC_G_FMT");
	if (want->fourcc)
		fmt.fmt.pix.pixelformat = want->fourcc;
	if (want->width)
		fmt.fmt.pix.width = want->width;
	if (want->height)
		fmt.fmt.pix.height = want->height;
	fmt.fmt.pix.bytesperline = want->bytesperline;
	fmt.fmt.pix.sizeimage = 0;
	fmt.fmt.pix.field = V4L2_FIELD_ANY;
	if (vcap_xioctl(dev->fd, VIDIOC_S_FMT, &fmt) < 0)
		return v4l2_fail(dev, "VIDIOC_S_FMT");
	if (want->fourcc && fmt.fmt.pix.pixelformat != want->fourcc)
		return vcap_set_error(EINVAL,
				      "%s: VIDIOC_S_FMT: format %s not supported (driver chose %s)",
				      dev->path, vcap_fourcc_str(want->fourcc, a),
				      vcap_fourcc_str(fmt.fmt.pix.pixelformat,
						      b));
	if (want->interval_num && want->interval_den) {
		memset(&parm, 0, sizeof(parm));
		parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		parm.parm.capture.timeperframe.numerator = want->interval_num;
		parm.parm.capture.timeperframe.denominator =
			want->interval_den;
		if (vcap_xioctl(dev->fd, VIDIOC_S_PARM, &parm) < 0)
			return v4l2_fail(dev, "VIDIOC_S_PARM");
	}
	if (vcap_v4l2_get_mode(dev, &dev->mode) < 0)
		return -1;
	if (got)
		*got = dev->mode;
	return 0;
}

static uint64_t buf_priv(const struct vcap_v4l2 *dev, unsigned int index)
{
	return (uint64_t)dev->gen << 32 | index;
}

static void unmap_one(void *start, size_t length, int dmabuf_fd)
{
	if (start && start != MAP_FAILED)
		munmap(start, length);
	if (dmabuf_fd >= 0)
		close(dmabuf_fd);
}

/*
 * Unmap every buffer.  With keep_held, a buffer the caller holds keeps
 * its mapping as an orphan until released: vb2 frees its memory only
 * when the last mapping goes.
 */
static void unmap_all(struct vcap_v4l2 *dev, bool keep_held)
{
	for (unsigned int i = 0; i < dev->num_bufs; i++) {
		struct vcap_v4l2_buf *b = &dev->bufs[i];
		bool kept = false;

		if (keep_held && !b->queued && b->start) {
			for (unsigned int k = 0; k < MAX_ORPHANS; k++) {
				struct vcap_v4l2_orphan *o = &dev->orphans[k];

				if (o->start)
					continue;
				o->start = b->start;
				o->length = b->length;
				o->dmabuf_fd = b->dmabuf_fd;
				o->priv = buf_priv(dev, i);
				kept = true;
				break;
			}
		}
		if (!kept)
			unmap_one(b->start, b->length, b->dmabuf_fd);
		b->start = NULL;
		b->dmabuf_fd = -1;
	}
	dev->num_bufs = 0;
}

static void free_orphans(struct vcap_v4l2 *dev)
{
	for (unsigned int k = 0; k < MAX_ORPHANS; k++) {
		struct vcap_v4l2_orphan *o = &dev->orphans[k];

		unmap_one(o->start, o->length, o->dmabuf_fd);
		memset(o, 0, sizeof(*o));
	}
}

static void free_buffers(struct vcap_v4l2 *dev, bool keep_held)
{
	struct v4l2_requestbuffers req;

	unmap_all(dev, keep_held);
	memset(&req, 0, sizeof(req));
	req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	req.memory = V4L2_MEMORY_MMAP;
	vcap_xioctl(dev->fd, VIDIOC_REQBUFS, &req);
}

int vcap_v4l2_export(struct vcap_v4l2 *dev, unsigned int index)
{
	struct v4l2_exportbuffer eb;

	memset(&eb, 0, sizeof(eb));
	eb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	eb.index = index;
	eb.flags = O_RDONLY | O_CLOEXEC;
	if (vcap_xioctl(dev->fd, VIDIOC_EXPBUF, &eb) < 0)
		return v4l2_fail(dev, "VIDIOC_EXPBUF");
	return eb.fd;
}

static int queue_buffer(struct vcap_v4l2 *dev, unsigned int index)
{
	struct v4l2_buffer buf;

	memset(&buf, 0, sizeof(buf));
	buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	buf.memory = V4L2_MEMORY_MMAP;
	buf.index = index;
	if (vcap_xioctl(dev->fd, VIDIOC_QBUF, &buf) < 0)
		return v4l2_fail(dev, "VIDIOC_QBUF");
	dev->bufs[index].queued = true;
	return 0;
}

/* REQBUFS, mmap, QBUF every buffer and STREAMON, for dev->mode. */
static int queue_start(struct vcap_v4l2 *dev)
{
	struct v4l2_requestbuffers req;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (vcap_v4l2_get_mode(dev, &dev->mode) < 0)
		return -1;
	memset(&req, 0, sizeof(req));
	req.count = dev->want_bufs ? dev->want_bufs : DEFAULT_BUFFERS;
	if (req.count > MAX_BUFFERS)
		req.count = MAX_BUFFERS;
	req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	req.memory = V4L2_MEMORY_MMAP;
	if (vcap_xioctl(dev->fd, VIDIOC_REQBUFS, &req) < 0)
		return v4l2_fail(dev, "VIDIOC_REQBUFS");
	dev->gen++;
	if (req.count < 2 || req.count > MAX_BUFFERS) {
		vcap_set_error(ENOMEM, "%s: VIDIOC_REQBUFS: driver gave %u buffers",
			       dev->path, req.count);
		goto err_free;
	}
	for (unsigned int i = 0; i < req.count; i++) {
		struct vcap_v4l2_buf *b = &dev->bufs[i];
		struct v4l2_buffer buf;

		b->start = NULL;
		b->dmabuf_fd = -1;
		b->queued = false;
		dev->num_bufs = i + 1;
		memset(&buf, 0, sizeof(buf));
		buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		buf.memory = V4L2_MEMORY_MMAP;
		buf.index = i;
		if (vcap_xioctl(dev->fd, VIDIOC_QUERYBUF, &buf) < 0) {
			v4l2_fail(dev, "VIDIOC_QUERYBUF");
			goto err_free;
		}
		b->length = buf.length;
		b->start = mmap(NULL, buf.length, PROT_READ, MAP_SHARED,
				dev->fd, buf.m.offset);
		if (b->start == MAP_FAILED) {
			b->start = NULL;
			v4l2_fail(dev, "mmap");
			goto err_free;
		}
		/* A driver without EXPBUF simply has no dma-buf to offer. */
		if (dev->export_dmabuf) {
			b->dmabuf_fd = vcap_v4l2_export(dev, i);
			if (b->dmabuf_fd < 0)
				vcap_clear_error();
		}
	}
	for (unsigned int i = 0; i < dev->num_bufs; i++)
		if (queue_buffer(dev, i) < 0)
			goto err_free;
	if (vcap_xioctl(dev->fd, VIDIOC_STREAMON, &type) < 0) {
		v4l2_fail(dev, "VIDIOC_STREAMON");
		goto err_free;
	}
	dev->running = true;
	return 0;

err_free:
	{
		int err = errno;
		char msg[320];

		snprintf(msg, sizeof(msg), "%s", vcap_last_error());
		free_buffers(dev, false);
		vcap_set_error(0, "%s", msg);
		errno = err;
	}
	return -1;
}

/* STREAMOFF and give the buffers back; held ones stay mapped. */
static int queue_stop(struct vcap_v4l2 *dev, bool keep_held)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	int ret = 0;

	if (!dev->running)
		return 0;
	dev->running = false;
	/* A vanished device fails STREAMOFF; the buffers still go. */
	if (vcap_xioctl(dev->fd, VIDIOC_STREAMOFF, &type) < 0)
		ret = v4l2_fail(dev, "VIDIOC_STREAMOFF");
	free_buffers(dev, keep_held);
	return ret;
}

int vcap_v4l2_start(struct vcap_v4l2 *dev, unsigned int num_buffers,
		    bool export_dmabuf)
{
	if (dev->streaming)
		return vcap_set_error(EBUSY, "%s: already streaming",
				      dev->path);
	dev->want_bufs = num_buffers;
	dev->export_dmabuf = export_dmabuf;
	dev->mode_changed = false;
	if (dev->dv.enabled) {
		if (vcap_dv_lock(&dev->dv, dev->fd, dev->path) < 0)
			return -1;
		/* Without a signal, dequeue waits for a source. */
		if (!dev->dv.signal) {
			dev->lost_ns = vcap_now_ns();
			dev->streaming = true;
			return 0;
		}
	}
	if (queue_start(dev) < 0)
		return -1;
	dev->signal_mode = dev->mode;
	dev->streaming = true;
	return 0;
}

bool vcap_v4l2_follows_source(const struct vcap_v4l2 *dev)
{
	return dev->dv.enabled;
}

bool vcap_v4l2_has_signal(const struct vcap_v4l2 *dev)
{
	return !dev->dv.enabled || dev->dv.signal;
}

void vcap_v4l2_last_change(const struct vcap_v4l2 *dev,
			   struct vcap_source_change *out)
{
	*out = dev->change;
}

/*
 * A source change: stop, lock to the new timings, reread the format and
 * stream again, or stay stopped without a signal.  VCAP_SOURCE_CHANGED,
 * 0 if the timings are those in force (nothing to do), or -1.
 */
static int follow_source(struct vcap_v4l2 *dev)
{
	struct vcap_source_change *c = &dev->change;
	bool had_signal = dev->dv.signal;
	struct v4l2_dv_timings t;
	uint64_t now;

	/* The same timings, still locked: nothing to restart. */
	memset(&t, 0, sizeof(t));
	if (had_signal && dev->running &&
	    vcap_xioctl(dev->fd, VIDIOC_QUERY_DV_TIMINGS, &t) == 0 &&
	    t.bt.width == dev->dv.width && t.bt.height == dev->dv.height) {
		struct v4l2_dv_timings cur;

		memset(&cur, 0, sizeof(cur));
		if (vcap_xioctl(dev->fd, VIDIOC_G_DV_TIMINGS, &cur) == 0 &&
		    !memcmp(&cur.bt, &t.bt, sizeof(t.bt)))
			return 0;
	}
	if (queue_stop(dev, true) < 0)
		return -1;
	if (vcap_dv_lock(&dev->dv, dev->fd, dev->path) < 0)
		return -1;
	now = vcap_now_ns();
	c->count++;
	c->time_ns = now;
	c->no_signal_ns = 0;
	c->old_mode = dev->signal_mode;
	c->signal = dev->dv.signal;
	c->what = 0;
	if (!dev->dv.signal) {
		memset(&c->mode, 0, sizeof(c->mode));
		if (had_signal) {
			c->what = VCAP_CHANGE_SIGNAL_LOST;
			dev->lost_ns = now;
		}
		return VCAP_SOURCE_CHANGED;
	}
	if (queue_start(dev) < 0)
		return -1;
	c->mode = dev->mode;
	c->what = vcap_mode_diff(&c->old_mode, &c->mode);
	if (!had_signal) {
		c->what |= VCAP_CHANGE_SIGNAL_BACK;
		c->no_signal_ns = now - dev->lost_ns;
	}
	/* The first open without a signal has no mode to differ from. */
	if (!c->old_mode.width)
		c->what &= ~(VCAP_CHANGE_FORMAT | VCAP_CHANGE_SIZE |
			     VCAP_CHANGE_RATE);
	dev->signal_mode = dev->mode;
	dev->mode_changed = true;
	return VCAP_SOURCE_CHANGED;
}

/* Pending source-change events handled: as follow_source(), 0 if none. */
static int check_source(struct vcap_v4l2 *dev)
{
	int ret;

	if (!dev->dv.enabled)
		return 0;
	ret = vcap_dv_take_event(&dev->dv, dev->fd, dev->path);
	if (ret <= 0)
		return ret;
	return follow_source(dev);
}

static int remaining_ms(int timeout_ms, uint64_t deadline)
{
	uint64_t now;

	if (timeout_ms < 0)
		return -1;
	now = vcap_now_ns();
	if (now >= deadline)
		return 0;
	return (int)((deadline - now + 999999) / 1000000);
}

int vcap_v4l2_dequeue(struct vcap_v4l2 *dev, struct vcap_frame *frame,
		      int timeout_ms)
{
	struct pollfd pfd = { .fd = dev->fd };
	uint64_t deadline = vcap_now_ns() +
			    (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) *
			    1000000ull;
	struct v4l2_buffer buf;
	int ret;

	if (!dev->streaming)
		return vcap_set_error(EINVAL, "%s: dequeue: not streaming",
				      dev->path);
	for (;;) {
		ret = check_source(dev);
		if (ret != 0)
			return ret;
		if (dev->running) {
			memset(&buf, 0, sizeof(buf));
			buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			buf.memory = V4L2_MEMORY_MMAP;
			if (vcap_xioctl(dev->fd, VIDIOC_DQBUF, &buf) == 0)
				break;
			if (errno != EAGAIN)
				return v4l2_fail(dev, "VIDIOC_DQBUF");
		}
		/* Stopped for a lost signal: only events can come. */
		pfd.events = (dev->running ? POLLIN : 0) |
			     (dev->dv.enabled ? POLLPRI : 0);
		ret = poll(&pfd, 1, remaining_ms(timeout_ms, deadline));
		/* A signal ends the wait early, so callers can stop. */
		if (ret < 0 && errno == EINTR)
			return VCAP_TIMEOUT;
		if (ret < 0)
			return v4l2_fail(dev, "poll");
		if (ret == 0)
			return VCAP_TIMEOUT;
		if (pfd.revents & POLLPRI)
			continue;
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) {
			/* vb2 reports POLLERR for a dead or stopped queue. */
			memset(&buf, 0, sizeof(buf));
			buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			buf.memory = V4L2_MEMORY_MMAP;
			if (vcap_xioctl(dev->fd, VIDIOC_DQBUF, &buf) == 0)
				break;
			if (errno == EAGAIN)
				errno = EIO;
			return v4l2_fail(dev, "VIDIOC_DQBUF (device error)");
		}
	}
	if (buf.index >= dev->num_bufs)
		return vcap_set_error(EIO,
				      "%s: VIDIOC_DQBUF: buffer index %u out of range",
				      dev->path, buf.index);
	dev->bufs[buf.index].queued = false;
	memset(frame, 0, sizeof(*frame));
	frame->dequeue_ns = vcap_now_ns();
	frame->data = dev->bufs[buf.index].start;
	frame->length = dev->bufs[buf.index].length;
	frame->bytesused = buf.bytesused <= frame->length ? buf.bytesused :
							    frame->length;
	frame->sequence = buf.sequence;
	frame->timestamp_ns = (uint64_t)buf.timestamp.tv_sec * 1000000000ull +
			      (uint64_t)buf.timestamp.tv_usec * 1000ull;
	if ((buf.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
	    V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
		frame->flags |= VCAP_FRAME_TS_MONOTONIC;
	if (buf.flags & V4L2_BUF_FLAG_ERROR)
		frame->flags |= VCAP_FRAME_ERROR;
	if (dev->mode_changed)
		frame->flags |= VCAP_FRAME_MODE_CHANGED;
	dev->mode_changed = false;
	frame->index = buf.index;
	frame->dmabuf_fd = dev->bufs[buf.index].dmabuf_fd;
	frame->mode = dev->mode;
	frame->priv = buf_priv(dev, buf.index);
	return 0;
}

/* A frame of buffers reallocated since: its mapping goes now. */
static int release_orphan(struct vcap_v4l2 *dev, struct vcap_frame *frame)
{
	for (unsigned int k = 0; k < MAX_ORPHANS; k++) {
		struct vcap_v4l2_orphan *o = &dev->orphans[k];

		if (!o->start || o->priv != frame->priv)
			continue;
		unmap_one(o->start, o->length, o->dmabuf_fd);
		memset(o, 0, sizeof(*o));
		frame->data = NULL;
		return 0;
	}
	return vcap_set_error(EINVAL, "%s: release: buffer %u not held",
			      dev->path, (unsigned int)frame->priv);
}

int vcap_v4l2_release(struct vcap_v4l2 *dev, struct vcap_frame *frame)
{
	unsigned int index = (unsigned int)(frame->priv & 0xffffffffu);

	if (!dev->streaming)
		return 0;
	if (frame->priv >> 32 != dev->gen || !dev->running)
		return release_orphan(dev, frame);
	if (index >= dev->num_bufs || dev->bufs[index].queued)
		return vcap_set_error(EINVAL, "%s: release: buffer %u not held",
				      dev->path, index);
	frame->data = NULL;
	return queue_buffer(dev, index);
}

int vcap_v4l2_stop(struct vcap_v4l2 *dev)
{
	int ret;

	if (!dev->streaming)
		return 0;
	dev->streaming = false;
	ret = queue_stop(dev, false);
	free_orphans(dev);
	return ret;
}
