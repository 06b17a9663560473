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

struct vcap_v4l2 {
	int fd;
	char path[256];
	struct vcap_mode mode;		/* last G_FMT/S_FMT result */
	struct vcap_v4l2_buf bufs[MAX_BUFFERS];
	unsigned int num_bufs;
	bool streaming;
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

static void unmap_all(struct vcap_v4l2 *dev)
{
	for (unsigned int i = 0; i < dev->num_bufs; i++) {
		struct vcap_v4l2_buf *b = &dev->bufs[i];

		if (b->start && b->start != MAP_FAILED)
			munmap(b->start, b->length);
		if (b->dmabuf_fd >= 0)
			close(b->dmabuf_fd);
		b->start = NULL;
		b->dmabuf_fd = -1;
	}
	dev->num_bufs = 0;
}

static void free_buffers(struct vcap_v4l2 *dev)
{
	struct v4l2_requestbuffers req;

	unmap_all(dev);
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

int vcap_v4l2_start(struct vcap_v4l2 *dev, unsigned int num_buffers,
		    bool export_dmabuf)
{
	struct v4l2_requestbuffers req;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (dev->streaming)
		return vcap_set_error(EBUSY, "%s: already streaming",
				      dev->path);
	if (vcap_v4l2_get_mode(dev, &dev->mode) < 0)
		return -1;
	memset(&req, 0, sizeof(req));
	req.count = num_buffers ? num_buffers : DEFAULT_BUFFERS;
	if (req.count > MAX_BUFFERS)
		req.count = MAX_BUFFERS;
	req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	req.memory = V4L2_MEMORY_MMAP;
	if (vcap_xioctl(dev->fd, VIDIOC_REQBUFS, &req) < 0)
		return v4l2_fail(dev, "VIDIOC_REQBUFS");
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
		if (export_dmabuf) {
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
	dev->streaming = true;
	return 0;

err_free:
	{
		int err = errno;
		char msg[320];

		snprintf(msg, sizeof(msg), "%s", vcap_last_error());
		free_buffers(dev);
		vcap_set_error(0, "%s", msg);
		errno = err;
	}
	return -1;
}

int vcap_v4l2_dequeue(struct vcap_v4l2 *dev, struct vcap_frame *frame,
		      int timeout_ms)
{
	struct pollfd pfd = { .fd = dev->fd, .events = POLLIN };
	struct v4l2_buffer buf;
	int ret;

	if (!dev->streaming)
		return vcap_set_error(EINVAL, "%s: dequeue: not streaming",
				      dev->path);
	for (;;) {
		memset(&buf, 0, sizeof(buf));
		buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		buf.memory = V4L2_MEMORY_MMAP;
		if (vcap_xioctl(dev->fd, VIDIOC_DQBUF, &buf) == 0)
			break;
		if (errno != EAGAIN)
			return v4l2_fail(dev, "VIDIOC_DQBUF");
		ret = poll(&pfd, 1, timeout_ms);
		/* A signal ends the wait early, so callers can stop. */
		if (ret < 0 && errno == EINTR)
			return VCAP_TIMEOUT;
		if (ret < 0)
			return v4l2_fail(dev, "poll");
		if (ret == 0)
			return VCAP_TIMEOUT;
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
	frame->index = buf.index;
	frame->dmabuf_fd = dev->bufs[buf.index].dmabuf_fd;
	frame->mode = dev->mode;
	frame->priv = buf.index;
	return 0;
}

int vcap_v4l2_release(struct vcap_v4l2 *dev, struct vcap_frame *frame)
{
	unsigned int index = (unsigned int)frame->priv;

	if (!dev->streaming)
		return 0;
	if (index >= dev->num_bufs || dev->bufs[index].queued)
		return vcap_set_error(EINVAL, "%s: release: buffer %u not held",
				      dev->path, index);
	frame->data = NULL;
	return queue_buffer(dev, index);
}

int vcap_v4l2_stop(struct vcap_v4l2 *dev)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	int ret = 0;

	if (!dev->streaming)
		return 0;
	dev->streaming = false;
	/* A vanished device fails STREAMOFF; the buffers still go. */
	if (vcap_xioctl(dev->fd, VIDIOC_STREAMOFF, &type) < 0)
		ret = v4l2_fail(dev, "VIDIOC_STREAMOFF");
	free_buffers(dev);
	return ret;
}
