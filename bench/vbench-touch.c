/*
 * vbench touch: the cost of the first touch of a mapped capture buffer.
 *
 * Maps BYTES of buffer 0 of a capture device, with or without
 * MAP_POPULATE, and times mmap() plus a read of one byte per page; the
 * mapping is then dropped and made again, and the median is reported.
 * With no device it does the same on anonymous memory (write touches), as
 * a reference for what a page fault costs in this guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vbench.h"

#define VB_TOUCH_MAX_ITER	64

static void vb_touch_usage(void)
{
	puts("usage: vbench touch [-d DEV -f FOURCC -s WxH] [options]\n"
	     "  -d DEV      capture device; without it, anonymous memory\n"
	     "  -B BYTES    bytes to map and touch (8 MiB)\n"
	     "  -p          map with MAP_POPULATE\n"
	     "  -n N        repetitions (9)");
}

static int vb_touch_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double vb_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), vb_touch_cmp);
	return v[n / 2];
}

/* Sets the format and allocates one buffer; returns its mmap offset. */
static int vb_touch_buffer(int fd, const char *dev, uint32_t fourcc,
			   unsigned int w, unsigned int h, size_t bytes,
			   off_t *offset)
{
	struct v4l2_format fmt;
	struct v4l2_requestbuffers req;
	struct v4l2_buffer b;

	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fmt.fmt.pix.pixelformat = fourcc;
	fmt.fmt.pix.width = w;
	fmt.fmt.pix.height = h;
	if (vb_xioctl(fd, VIDIOC_S_FMT, &fmt)) {
		vb_err("%s: VIDIOC_S_FMT: %s", dev, strerror(errno));
		return -1;
	}
	memset(&req, 0, sizeof(req));
	req.count = 1;
	req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	req.memory = V4L2_MEMORY_MMAP;
	if (vb_xioctl(fd, VIDIOC_REQBUFS, &req) || !req.count) {
		vb_err("%s: VIDIOC_REQBUFS: %s", dev, strerror(errno));
		return -1;
	}
	memset(&b, 0, sizeof(b));
	b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b.memory = V4L2_MEMORY_MMAP;
	if (vb_xioctl(fd, VIDIOC_QUERYBUF, &b)) {
		vb_err("%s: VIDIOC_QUERYBUF: %s", dev, strerror(errno));
		return -1;
	}
	if (b.length < bytes) {
		vb_err("%s: buffer is %u bytes, fewer than %zu", dev, b.length,
		       bytes);
		return -1;
	}
	*offset = b.m.offset;
	return 0;
}

int vb_touch_main(int argc, char **argv)
{
	const char *dev = NULL;
	uint32_t fourcc = vb_parse_fourcc("YUYV");
	unsigned int w = 1920, h = 2160;
	size_t bytes = 8u << 20, pg = (size_t)sysconf(_SC_PAGESIZE), off;
	double mm[VB_TOUCH_MAX_ITER], tot[VB_TOUCH_MAX_ITER];
	int opt, fd = -1, populate = 0, n = 9, i;
	off_t offset = 0;
	char drv[32] = "anonymous";
	volatile unsigned char sink = 0;

	while ((opt = getopt(argc, argv, "d:f:s:B:pn:h")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'f': fourcc = vb_parse_fourcc(optarg); break;
		case 's':
			if (vb_parse_size(optarg, &w, &h)) {
				vb_err("touch: bad size '%s'", optarg);
				return 2;
			}
			break;
		case 'B': bytes = strtoull(optarg, NULL, 0); break;
		case 'p': populate = 1; break;
		case 'n': n = atoi(optarg); break;
		case 'h': vb_touch_usage(); return 0;
		default: vb_touch_usage(); return 2;
		}
	}
	if (n < 1 || n > VB_TOUCH_MAX_ITER || !bytes || !fourcc) {
		vb_err("touch: bad -n, -B or -f");
		return 2;
	}
	if (dev) {
		struct v4l2_capability cap;

		fd = open(dev, O_RDWR);
		if (fd < 0) {
			vb_err("%s: %s", dev, strerror(errno));
			return 1;
		}
		if (vb_xioctl(fd, VIDIOC_QUERYCAP, &cap) == 0)
			snprintf(drv, sizeof(drv), "%s", (char *)cap.driver);
		if (vb_touch_buffer(fd, dev, fourcc, w, h, bytes, &offset)) {
			close(fd);
			return 1;
		}
	}

	for (i = 0; i < n; i++) {
		int flags = (dev ? MAP_SHARED : MAP_PRIVATE | MAP_ANONYMOUS) |
			    (populate ? MAP_POPULATE : 0);
		int prot = dev ? PROT_READ : PROT_READ | PROT_WRITE;
		double t0, t1, t2;
		unsigned char *p;

		t0 = vb_now();
		p = mmap(NULL, bytes, prot, flags, fd, offset);
		t1 = vb_now();
		if (p == MAP_FAILED) {
			vb_err("touch: mmap: %s", strerror(errno));
			if (fd >= 0)
				close(fd);
			return 1;
		}
		for (off = 0; off < bytes; off += pg) {
			if (dev)
				sink += p[off];
			else
				p[off] = 1;
		}
		t2 = vb_now();
		munmap(p, bytes);
		mm[i] = t1 - t0;
		tot[i] = t2 - t0;
	}
	if (fd >= 0)
		close(fd);

	vb_json_begin();
	vb_json_str("tool", "touch");
	vb_json_str("driver", drv);
	vb_json_int("populate", populate);
	vb_json_int("bytes", (long long)bytes);
	vb_json_int("pages", (long long)(bytes / pg));
	vb_json_int("iterations", n);
	vb_json_num("mmap_us", vb_median(mm, n) * 1e6);
	vb_json_num("total_us", vb_median(tot, n) * 1e6);
	vb_json_num("us_per_page", vb_median(tot, n) * 1e6 / (bytes / pg));
	vb_json_end();
	(void)sink;
	return 0;
}
