/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal V4L2 MMAP streamer for the vcap guest tests. */
#ifndef VK_STREAM_H
#define VK_STREAM_H

#include <sys/mman.h>
#include "vk.h"

#define VK_MAX_BUFS	16

struct vk_stream {
	int fd;
	struct v4l2_pix_format pix;
	unsigned int nbufs;
	void *map[VK_MAX_BUFS];
	size_t len[VK_MAX_BUFS];
};

/* perror() that leaves errno as it found it, for the caller to check. */
static inline void vk_perror(const char *what)
{
	int err = errno;

	perror(what);
	errno = err;
}

/*
 * Open the vcap node, set fourcc at width x height and 1/fps, map nbufs
 * MMAP buffers, queue them and start streaming.  0, or -1 with errno and
 * a message on stderr.
 */
static inline int vk_stream_start(struct vk_stream *s, uint32_t fourcc,
				  unsigned int width, unsigned int height,
				  unsigned int fps, unsigned int nbufs)
{
	struct v4l2_requestbuffers rb;
	struct v4l2_streamparm parm;
	struct v4l2_format fmt;
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	char path[64];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (vk_find_video(path, sizeof(path)) < 0) {
		vk_perror("vk: no vcap video node");
		return -1;
	}
	s->fd = open(path, O_RDWR);
	if (s->fd < 0) {
		vk_perror(path);
		return -1;
	}
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = type;
	fmt.fmt.pix.pixelformat = fourcc;
	fmt.fmt.pix.width = width;
	fmt.fmt.pix.height = height;
	if (vk_xioctl(s->fd, VIDIOC_S_FMT, &fmt) < 0) {
		vk_perror("vk: VIDIOC_S_FMT");
		return -1;
	}
	if (fmt.fmt.pix.width != width || fmt.fmt.pix.height != height ||
	    fmt.fmt.pix.pixelformat != fourcc) {
		fprintf(stderr, "vk: mode %ux%u not offered (got %ux%u)\n",
			width, height, fmt.fmt.pix.width, fmt.fmt.pix.height);
		errno = EINVAL;
		return -1;
	}
	s->pix = fmt.fmt.pix;
	memset(&parm, 0, sizeof(parm));
	parm.type = type;
	parm.parm.capture.timeperframe.numerator = 1;
	parm.parm.capture.timeperframe.denominator = fps;
	if (vk_xioctl(s->fd, VIDIOC_S_PARM, &parm) < 0) {
		vk_perror("vk: VIDIOC_S_PARM");
		return -1;
	}
	memset(&rb, 0, sizeof(rb));
	rb.count = nbufs;
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	if (vk_xioctl(s->fd, VIDIOC_REQBUFS, &rb) < 0) {
		vk_perror("vk: VIDIOC_REQBUFS");
		return -1;
	}
	s->nbufs = rb.count < VK_MAX_BUFS ? rb.count : VK_MAX_BUFS;
	for (i = 0; i < s->nbufs; i++) {
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (vk_xioctl(s->fd, VIDIOC_QUERYBUF, &b) < 0) {
			vk_perror("vk: VIDIOC_QUERYBUF");
			return -1;
		}
		s->len[i] = b.length;
		s->map[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, s->fd,
				 b.m.offset);
		if (s->map[i] == MAP_FAILED) {
			vk_perror("vk: mmap");
			s->map[i] = NULL;
			return -1;
		}
		if (vk_xioctl(s->fd, VIDIOC_QBUF, &b) < 0) {
			vk_perror("vk: VIDIOC_QBUF");
			return -1;
		}
	}
	if (vk_xioctl(s->fd, VIDIOC_STREAMON, &type) < 0) {
		vk_perror("vk: VIDIOC_STREAMON");
		return -1;
	}
	return 0;
}

static inline int vk_stream_dqbuf(struct vk_stream *s, struct v4l2_buffer *b)
{
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	return vk_xioctl(s->fd, VIDIOC_DQBUF, b);
}

static inline int vk_stream_qbuf(struct vk_stream *s, struct v4l2_buffer *b)
{
	return vk_xioctl(s->fd, VIDIOC_QBUF, b);
}

static inline void vk_stream_stop(struct vk_stream *s)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	if (s->fd >= 0)
		ioctl(s->fd, VIDIOC_STREAMOFF, &type);
	for (i = 0; i < s->nbufs; i++)
		if (s->map[i])
			munmap(s->map[i], s->len[i]);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->nbufs = 0;
}

/* Stream until killed: a background client for VRAM and unbind tests. */
static inline void vk_stream_forever(uint32_t fourcc, unsigned int width,
				     unsigned int height, unsigned int fps)
{
	struct vk_stream s;
	struct v4l2_buffer b;

	if (vk_stream_start(&s, fourcc, width, height, fps, 6) < 0)
		_exit(2);
	/*
	 * Exit 3 when an ioctl says the device is gone (ENODEV), as on
	 * removal, also from a DQBUF that was waiting; 4 on any other error.
	 */
	for (;;) {
		if (vk_stream_dqbuf(&s, &b) < 0 || vk_stream_qbuf(&s, &b) < 0)
			_exit(errno == ENODEV ? 3 : 4);
	}
}

#endif /* VK_STREAM_H */
