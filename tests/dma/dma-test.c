// SPDX-License-Identifier: GPL-2.0
/* The DMA tests' common parts: see dma-test.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dma-test.h"

#define PAGE	4096u

static size_t page_up(size_t n)
{
	return (n + PAGE - 1) & ~(size_t)(PAGE - 1);
}

int dma_transfer(char *buf, size_t len)
{
	FILE *f = fopen("/sys/class/vcap/vcap0/transfer", "r");
	size_t n;

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int dma_region_init(struct dma_region *r, unsigned int nbufs,
		    size_t sizeimage)
{
	size_t stride = page_up(sizeimage + 256) + PAGE;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	if (!nbufs || nbufs > DMA_MAX_BUFS) {
		errno = EINVAL;
		return -1;
	}
	r->size = PAGE + nbufs * stride;
	r->base = mmap(NULL, r->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -1;
	}
	r->nbufs = nbufs;
	r->sizeimage = sizeimage;
	for (i = 0; i < nbufs; i++)
		r->off[i] = PAGE + i * stride + (i == 0 ? 256 : 0);
	dma_region_paint_all(r);
	return 0;
}

void dma_region_free(struct dma_region *r)
{
	if (r->base)
		munmap(r->base, r->size);
	r->base = NULL;
}

void dma_region_paint_all(struct dma_region *r)
{
	size_t i;

	for (i = 0; i < r->size; i++)
		r->base[i] = dma_canary(i);
}

static bool in_buffer(const struct dma_region *r, size_t off)
{
	unsigned int i;

	for (i = 0; i < r->nbufs; i++)
		if (off >= r->off[i] && off < r->off[i] + r->sizeimage)
			return true;
	return false;
}

long dma_region_check(const struct dma_region *r, bool all)
{
	size_t i;

	for (i = 0; i < r->size; i++) {
		if (r->base[i] == dma_canary(i))
			continue;
		if (all || !in_buffer(r, i))
			return (long)i;
	}
	return -1;
}

int dma_set_mode(int fd, unsigned int width, unsigned int height,
		 unsigned int fps, struct v4l2_pix_format *pix)
{
	struct v4l2_streamparm parm;
	struct v4l2_format fmt;

	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	fmt.fmt.pix.width = width;
	fmt.fmt.pix.height = height;
	if (ioctl(fd, VIDIOC_S_FMT, &fmt))
		return -1;
	if (fmt.fmt.pix.width != width || fmt.fmt.pix.height != height) {
		errno = EINVAL;
		return -1;
	}
	*pix = fmt.fmt.pix;
	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	parm.parm.capture.timeperframe.numerator = 1;
	parm.parm.capture.timeperframe.denominator = fps;
	return ioctl(fd, VIDIOC_S_PARM, &parm);
}

int dma_queue_userptr(int fd, struct dma_region *r)
{
	struct v4l2_buffer b;
	unsigned int i;
	int count;

	count = mem_reqbufs(fd, V4L2_MEMORY_USERPTR, r->nbufs, NULL);
	if (count < 0)
		return -1;
	if ((unsigned int)count < r->nbufs) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < r->nbufs; i++) {
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_USERPTR;
		b.index = i;
		b.m.userptr = (unsigned long)(r->base + r->off[i]);
		b.length = r->sizeimage;
		if (ioctl(fd, VIDIOC_QBUF, &b))
			return -1;
	}
	return 0;
}

int dma_start_userptr(unsigned int width, unsigned int height,
		      unsigned int fps, unsigned int nbufs,
		      struct v4l2_pix_format *pix, struct dma_region *r)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_format fmt;
	char path[32];
	int fd;

	memset(r, 0, sizeof(*r));
	fd = mem_node_open(path, sizeof(path), &fmt);
	if (fd < 0) {
		perror("dma: no vcap capture node");
		return -1;
	}
	if (dma_set_mode(fd, width, height, fps, pix)) {
		perror("dma: YUYV mode");
		goto err;
	}
	if (dma_region_init(r, nbufs, pix->sizeimage)) {
		perror("dma: buffer region");
		goto err;
	}
	if (dma_queue_userptr(fd, r) || ioctl(fd, VIDIOC_STREAMON, &type)) {
		perror("dma: USERPTR streaming");
		dma_region_free(r);
		goto err;
	}
	return fd;
err:
	close(fd);
	return -1;
}

unsigned int dma_env(const char *name, unsigned int def)
{
	const char *s = getenv(name);

	return s && *s ? (unsigned int)strtoul(s, NULL, 0) : def;
}

enum vcap_stamp_result dma_stamp(const struct v4l2_pix_format *pix,
				 const void *frame, size_t len, uint64_t *seq)
{
	struct vcap_frame_fmt ff = {
		.fourcc = pix->pixelformat,
		.width = pix->width,
		.height = pix->height,
		.bytesperline = pix->bytesperline,
		.sizeimage = pix->sizeimage,
	};
	struct vcap_stamp st;
	enum vcap_stamp_result r;

	if (len < pix->sizeimage)
		return VCAP_STAMP_MISSING;
	r = vcap_stamp_check(&ff, frame, len, &st);
	if (r == VCAP_STAMP_OK)
		*seq = st.seq;
	return r;
}
