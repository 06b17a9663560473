// SPDX-License-Identifier: GPL-2.0 OR MIT
/* mem-node: vcap's capture node and its buffers, for the buffer tests. */
#include "mem-node.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int mem_node_open(char *path, size_t path_size, struct v4l2_format *fmt)
{
	const unsigned int need = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
	struct v4l2_capability cap;
	char name[32];
	int fd, i;

	for (i = 0; i < 64; i++) {
		snprintf(name, sizeof(name), "/dev/video%d", i);
		fd = open(name, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&cap, 0, sizeof(cap));
		if (ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0 &&
		    strcmp((const char *)cap.driver, "vcap") == 0 &&
		    (cap.device_caps & need) == need) {
			memset(fmt, 0, sizeof(*fmt));
			fmt->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			if (ioctl(fd, VIDIOC_G_FMT, fmt) == 0) {
				snprintf(path, path_size, "%s", name);
				return fd;
			}
		}
		close(fd);
	}
	errno = ENODEV;
	return -1;
}

int mem_reqbufs(int fd, unsigned int memory, unsigned int count,
		unsigned int *caps)
{
	struct v4l2_requestbuffers req;

	memset(&req, 0, sizeof(req));
	req.count = count;
	req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	req.memory = memory;
	if (ioctl(fd, VIDIOC_REQBUFS, &req))
		return -1;
	if (caps)
		*caps = req.capabilities;
	return (int)req.count;
}

int mem_querybuf(int fd, unsigned int index, struct v4l2_buffer *buf)
{
	memset(buf, 0, sizeof(*buf));
	buf->index = index;
	buf->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	buf->memory = V4L2_MEMORY_MMAP;
	return ioctl(fd, VIDIOC_QUERYBUF, buf);
}

void *mem_map(int fd, unsigned int index, size_t *length)
{
	struct v4l2_buffer buf;

	if (mem_querybuf(fd, index, &buf))
		return MAP_FAILED;
	*length = buf.length;
	return mmap(NULL, buf.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    buf.m.offset);
}

static uint8_t mem_pattern(size_t off, unsigned int seed)
{
	return (uint8_t)((off >> 12) * 131 + (off & 0xfff) * 7 + seed * 29 + 1);
}

void mem_fill(void *p, size_t length, unsigned int seed)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < length; i++)
		b[i] = mem_pattern(i, seed);
}

long mem_check(const void *p, size_t length, unsigned int seed)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < length; i++)
		if (b[i] != mem_pattern(i, seed))
			return (long)i;
	return -1;
}

long mem_find_nonzero(const void *p, size_t length)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < length; i++)
		if (b[i])
			return (long)i;
	return -1;
}

static sigjmp_buf mem_probe_env;
static volatile sig_atomic_t mem_probe_sig;

static void mem_probe_handler(int sig)
{
	mem_probe_sig = sig;
	siglongjmp(mem_probe_env, 1);
}

int mem_probe_read(const void *p)
{
	struct sigaction sa, old_segv, old_bus;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = mem_probe_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	mem_probe_sig = 0;
	if (sigsetjmp(mem_probe_env, 1) == 0)
		(void)*(const volatile uint8_t *)p;
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return mem_probe_sig;
}

int mem_vcap_buffers(void)
{
	char line[512];
	FILE *f;
	int n = 0;

	f = fopen("/proc/vmallocinfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "vcap_mem_alloc"))
			n++;
	fclose(f);
	return n;
}

int mem_dqbuf(int fd, unsigned int memory, struct v4l2_buffer *buf,
	      int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int r;

	r = poll(&pfd, 1, timeout_ms);
	if (r <= 0) {
		if (!r)
			errno = ETIMEDOUT;
		return -1;
	}
	memset(buf, 0, sizeof(*buf));
	buf->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	buf->memory = memory;
	return ioctl(fd, VIDIOC_DQBUF, buf);
}
