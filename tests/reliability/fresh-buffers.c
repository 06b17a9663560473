// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fresh-buffers: a buffer never shows what its memory held before.  Fill
 * buffers (frames, then our own pattern), free them, allocate again: every
 * byte of every new buffer reads zero before the first frame lands, through
 * its mapping and through an exported dma-buf.  Meant to run on a kernel
 * booted with init_on_alloc=0, where only the driver zeroes.
 *
 * The node comes from REL_VIDEO (see rel-dev.sh).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include "vtest.h"

#define NBUF	16
#define ROUNDS	4

FIXTURE(buf) {
	int fd;
	unsigned int n;
	void *map[NBUF];
	size_t len[NBUF];
};

FIXTURE_SETUP(buf)
{
	const char *video = getenv("REL_VIDEO");

	ASSERT_TRUE(video && *video);
	self->fd = open(video, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(buf)
{
	unsigned int i;

	for (i = 0; i < self->n; i++)
		if (self->map[i] && self->map[i] != MAP_FAILED)
			munmap(self->map[i], self->len[i]);
	if (self->fd >= 0)
		close(self->fd);
}

static int alloc_map(FIXTURE(buf) *self, unsigned int count)
{
	struct v4l2_requestbuffers r = {
		.count = count, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	unsigned int i;

	if (ioctl(self->fd, VIDIOC_REQBUFS, &r) || r.count == 0 ||
	    r.count > NBUF)
		return -1;
	self->n = r.count;
	for (i = 0; i < r.count; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = r.type, .memory = r.memory,
		};

		if (ioctl(self->fd, VIDIOC_QUERYBUF, &b))
			return -1;
		self->len[i] = b.length;
		self->map[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, self->fd, b.m.offset);
		if (self->map[i] == MAP_FAILED)
			return -1;
	}
	return 0;
}

static void unmap_free(FIXTURE(buf) *self)
{
	struct v4l2_requestbuffers r = {
		.count = 0, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	unsigned int i;

	for (i = 0; i < self->n; i++) {
		munmap(self->map[i], self->len[i]);
		self->map[i] = NULL;
	}
	self->n = 0;
	ioctl(self->fd, VIDIOC_REQBUFS, &r);
}

/* Offset of the first non-zero byte, or -1. */
static long first_nonzero(const void *p, size_t len)
{
	const uint64_t *q = p;
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (q[i]) {
			const uint8_t *b = (const uint8_t *)&q[i];
			size_t j = 0;

			while (!b[j])
				j++;
			return (long)(i * 8 + j);
		}
	return -1;
}

/* Stream a few frames into the buffers so they hold real data. */
static int stream_some(FIXTURE(buf) *self, unsigned int frames,
		       unsigned int *nonzero)
{
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	unsigned int i;

	for (i = 0; i < self->n; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = type, .memory = V4L2_MEMORY_MMAP,
		};

		if (ioctl(self->fd, VIDIOC_QBUF, &b))
			return -1;
	}
	if (ioctl(self->fd, VIDIOC_STREAMON, &type))
		return -1;
	*nonzero = 0;
	for (i = 0; i < frames; i++) {
		struct v4l2_buffer b = {
			.type = type, .memory = V4L2_MEMORY_MMAP,
		};

		if (poll(&pfd, 1, 10000) != 1 ||
		    ioctl(self->fd, VIDIOC_DQBUF, &b))
			return -1;
		if (first_nonzero(self->map[b.index], b.bytesused) >= 0)
			(*nonzero)++;
		if (ioctl(self->fd, VIDIOC_QBUF, &b))
			return -1;
	}
	return ioctl(self->fd, VIDIOC_STREAMOFF, &type);
}

TEST_F(buf, new_buffers_read_zero)
{
	unsigned int round, i, nonzero;

	for (round = 0; round < ROUNDS; round++) {
		ASSERT_EQ(alloc_map(self, 4), 0);
		/* Nothing has landed yet: every byte is zero. */
		for (i = 0; i < self->n; i++) {
			long at = first_nonzero(self->map[i], self->len[i]);

			if (at >= 0)
				TH_LOG("round %u buffer %u: byte %ld of %zu is "
				       "%#x before any frame", round, i, at,
				       self->len[i],
				       ((uint8_t *)self->map[i])[at]);
			ASSERT_EQ(at, -1);
		}
		/* Real frames, then our own mark over every byte. */
		ASSERT_EQ(stream_some(self, 3, &nonzero), 0);
		ASSERT_GT(nonzero, 0u);
		for (i = 0; i < self->n; i++)
			memset(self->map[i], 0x5a, self->len[i]);
		unmap_free(self);
	}
	TH_LOG("%u rounds of %u buffers read zero after reallocation",
	       ROUNDS, 4);
}

TEST_F(buf, exported_buffers_read_zero)
{
	unsigned int round, i;

	for (round = 0; round < ROUNDS; round++) {
		ASSERT_EQ(alloc_map(self, 4), 0);
		for (i = 0; i < self->n; i++) {
			struct v4l2_exportbuffer e = {
				.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				.index = i, .flags = O_RDONLY | O_CLOEXEC,
			};
			void *p;
			long at;

			ASSERT_EQ(ioctl(self->fd, VIDIOC_EXPBUF, &e), 0);
			p = mmap(NULL, self->len[i], PROT_READ, MAP_SHARED,
				 e.fd, 0);
			ASSERT_NE(p, MAP_FAILED);
			at = first_nonzero(p, self->len[i]);
			munmap(p, self->len[i]);
			close(e.fd);
			ASSERT_EQ(at, -1);
		}
		for (i = 0; i < self->n; i++)
			memset(self->map[i], 0x5a, self->len[i]);
		unmap_free(self);
	}
}

VTEST_MAIN()
