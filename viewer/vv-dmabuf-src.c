// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The V4L2 source that captures into the display's dma-bufs. */
#include "vv-dmabuf-src.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

struct vv_dmabuf_src {
	struct vcap_v4l2 *dev;
	int fd;				/* the node, non-blocking */
	struct vv_scanout *so;		/* the display's buffers */
};

static struct vv_dmabuf_src *vv_dsrc(struct vcap_source *src)
{
	return src->priv;
}

static int vv_dsrc_ioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

static int vv_dsrc_open(struct vcap_source *src, const char *path,
			const struct vcap_source_config *cfg)
{
	static const struct vcap_mode keep;
	struct vv_dmabuf_src *d = calloc(1, sizeof(*d));

	if (!d)
		return -1;
	d->dev = vcap_v4l2_open(path);
	if (!d->dev)
		goto err_free;
	if (memcmp(&cfg->mode, &keep, sizeof(keep))) {
		if (vcap_v4l2_set_mode(d->dev, &cfg->mode, &src->mode) < 0)
			goto err_close;
	} else if (vcap_v4l2_get_mode(d->dev, &src->mode) < 0) {
		goto err_close;
	}
	d->fd = vcap_v4l2_fd(d->dev);
	src->priv = d;
	return 0;

err_close:
	vcap_v4l2_close(d->dev);
err_free:
	free(d);
	return -1;
}

int vv_dmabuf_src_check(struct vcap_source *src, unsigned int *count,
			char *why, size_t size)
{
	struct vv_dmabuf_src *d = vv_dsrc(src);
	struct v4l2_requestbuffers rb = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_DMABUF,
	};
	struct vcap_v4l2_caps caps;

	if (vcap_v4l2_caps(d->dev, &caps) || !caps.capture ||
	    !caps.streaming) {
		snprintf(why, size, "%s is not a streaming capture node",
			 src->path);
		return -1;
	}
	if (vcap_v4l2_follows_source(d->dev)) {
		snprintf(why, size,
			 "the input has DV timings, whose source changes only the MMAP source follows");
		return -1;
	}
	/* The driver says how many buffers it streams with, at least. */
	rb.count = *count;
	if (vv_dsrc_ioctl(d->fd, VIDIOC_REQBUFS, &rb)) {
		snprintf(why, size, "%s: VIDIOC_REQBUFS(DMABUF): %s",
			 src->path, strerror(errno));
		return -1;
	}
	*count = rb.count;
	rb.count = 0;
	vv_dsrc_ioctl(d->fd, VIDIOC_REQBUFS, &rb);
	if (*count > VV_SCANOUT_MAX) {
		snprintf(why, size,
			 "%s streams with %u buffers, more than the %u the display is asked for",
			 src->path, *count, VV_SCANOUT_MAX);
		return -1;
	}
	return 0;
}

void vv_dmabuf_src_attach(struct vcap_source *src, struct vv_scanout *so)
{
	vv_dsrc(src)->so = so;
}

/* QBUF buffer index with its dma-buf; under the set's lock. */
static int vv_dsrc_requeue(void *ctx, unsigned int index)
{
	struct vv_dmabuf_src *d = ctx;
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_DMABUF,
		.index = index,
	};

	b.m.fd = d->so->buf[index].fd;
	b.length = d->so->buf[index].length;
	return vv_dsrc_ioctl(d->fd, VIDIOC_QBUF, &b);
}

static int vv_dsrc_stop(struct vcap_source *src)
{
	struct vv_dmabuf_src *d = vv_dsrc(src);
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_requestbuffers rb = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_DMABUF,
	};

	if (d->so)
		vv_scanout_connect(d->so, NULL, NULL);
	vv_dsrc_ioctl(d->fd, VIDIOC_STREAMOFF, &type);
	vv_dsrc_ioctl(d->fd, VIDIOC_REQBUFS, &rb);
	return 0;
}

static int vv_dsrc_start(struct vcap_source *src)
{
	struct vv_dmabuf_src *d = vv_dsrc(src);
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_requestbuffers rb = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_DMABUF,
	};

	/* This source leaves errno; no older libvcap message stays. */
	vcap_clear_error();
	if (!d->so || !d->so->count) {
		errno = EINVAL;
		return -1;
	}
	rb.count = d->so->count;
	if (vv_dsrc_ioctl(d->fd, VIDIOC_REQBUFS, &rb))
		return -1;
	/* Every buffer index must be one of the display's. */
	if (rb.count != d->so->count) {
		errno = ENOBUFS;
		goto err_stop;
	}
	for (unsigned int i = 0; i < rb.count; i++)
		if (vv_dsrc_requeue(d, i))
			goto err_stop;
	if (vv_dsrc_ioctl(d->fd, VIDIOC_STREAMON, &type))
		goto err_stop;
	vv_scanout_connect(d->so, vv_dsrc_requeue, d);
	return 0;

err_stop:
	vv_dsrc_stop(src);
	return -1;
}

static int vv_dsrc_next(struct vcap_source *src, struct vcap_frame *f,
			int timeout_ms)
{
	struct vv_dmabuf_src *d = vv_dsrc(src);
	struct pollfd pfd = { .fd = d->fd, .events = POLLIN };
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_DMABUF,
	};
	const struct vv_scanout_buffer *sb;
	int r;

	vcap_clear_error();
	r = poll(&pfd, 1, timeout_ms);
	if (r < 0 && errno != EINTR)
		return -1;
	if (r <= 0)
		return VCAP_TIMEOUT;
	if (ioctl(d->fd, VIDIOC_DQBUF, &b))
		return errno == EAGAIN || errno == EINTR ? VCAP_TIMEOUT : -1;
	if (b.index >= d->so->count) {
		errno = EIO;
		return -1;
	}
	sb = &d->so->buf[b.index];
	memset(f, 0, sizeof(*f));
	f->dequeue_ns = vcap_now_ns();
	f->data = sb->map;
	f->length = sb->length;
	f->bytesused = b.bytesused <= sb->length ? b.bytesused : sb->length;
	f->sequence = b.sequence;
	f->timestamp_ns = (uint64_t)b.timestamp.tv_sec * 1000000000ull +
			  (uint64_t)b.timestamp.tv_usec * 1000ull;
	if ((b.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
	    V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
		f->flags |= VCAP_FRAME_TS_MONOTONIC;
	if (b.flags & V4L2_BUF_FLAG_ERROR)
		f->flags |= VCAP_FRAME_ERROR;
	f->index = b.index;
	f->dmabuf_fd = sb->fd;
	f->mode = src->mode;
	return 0;
}

static int vv_dsrc_release(struct vcap_source *src, struct vcap_frame *f)
{
	return vv_scanout_give_back(vv_dsrc(src)->so, f->index);
}

static void vv_dsrc_close(struct vcap_source *src)
{
	struct vv_dmabuf_src *d = vv_dsrc(src);

	vcap_v4l2_close(d->dev);
	free(d);
	src->priv = NULL;
}

static int vv_dsrc_fd(struct vcap_source *src)
{
	return vv_dsrc(src)->fd;
}

const struct vcap_source_ops vv_dmabuf_src_ops = {
	.name = VV_DMABUF_SRC_KIND,
	.open = vv_dsrc_open,
	.start = vv_dsrc_start,
	.next = vv_dsrc_next,
	.release = vv_dsrc_release,
	.stop = vv_dsrc_stop,
	.close = vv_dsrc_close,
	.fd = vv_dsrc_fd,
};
