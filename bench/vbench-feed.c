/*
 * vbench feed: a producer writing frames through a V4L2 output node, to
 * drive a loopback device.  With -c it copies a fresh frame into every
 * buffer (one memcpy per frame, as a capture driver's copy path costs);
 * without, it only queues buffers (the loopback's bookkeeping alone).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/videodev2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vbench.h"

#define VB_FEED_BUFS	8

static volatile sig_atomic_t vb_feed_stop;

static void vb_feed_on_signal(int sig)
{
	(void)sig;
	vb_feed_stop = 1;
}

static void vb_feed_usage(void)
{
	puts("usage: vbench feed -d DEV [-f FOURCC] [-s WxH] [options]\n"
	     "  -r FPS      pace frames at this rate (0 = as fast as possible)\n"
	     "  -t SECONDS  run this long, or until SIGTERM/SIGINT (5)\n"
	     "  -b N        buffers (2)\n"
	     "  -c          copy a fresh frame into each buffer\n"
	     "  -R FILE     create FILE once streaming\n"
	     "  -T FILE     write each frame's timestamp (us), one a line\n"
	     "Each buffer is queued with the time of its queueing as timestamp, so\n"
	     "that a reader can match the frames it got against those written.");
}

int vb_feed_main(int argc, char **argv)
{
	const char *dev = NULL, *ready = NULL, *ts_file = NULL;
	uint32_t fourcc = vb_parse_fourcc("YUYV");
	unsigned int width = 640, height = 480, nbufs = 2, i;
	double rate = 0, seconds = 5, t0, t;
	int opt, fd, fresh = 0, type = V4L2_BUF_TYPE_VIDEO_OUTPUT, ret = 1;
	void *maps[VB_FEED_BUFS] = { 0 };
	size_t lens[VB_FEED_BUFS] = { 0 };
	char *src[2] = { 0 };
	struct v4l2_format fmt;
	struct v4l2_requestbuffers req;
	struct vb_cpu cpu0, cpu1, d;
	long long frames = 0;
	long long *stamps = NULL;
	size_t nstamps = 0, cap_stamps = 0;

	while ((opt = getopt(argc, argv, "d:f:s:r:t:b:cR:T:h")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'f': fourcc = vb_parse_fourcc(optarg); break;
		case 's':
			if (vb_parse_size(optarg, &width, &height)) {
				vb_err("feed: bad size '%s'", optarg);
				return 2;
			}
			break;
		case 'r': rate = atof(optarg); break;
		case 't': seconds = atof(optarg); break;
		case 'b': nbufs = (unsigned int)atoi(optarg); break;
		case 'c': fresh = 1; break;
		case 'R': ready = optarg; break;
		case 'T': ts_file = optarg; break;
		case 'h': vb_feed_usage(); return 0;
		default: vb_feed_usage(); return 2;
		}
	}
	if (!dev || !fourcc || !nbufs || nbufs > VB_FEED_BUFS) {
		vb_err("feed: needs -d DEV, a valid -f and 1..%d buffers",
		       VB_FEED_BUFS);
		return 2;
	}
	fd = open(dev, O_RDWR);
	if (fd < 0) {
		vb_err("%s: %s", dev, strerror(errno));
		return 1;
	}
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	fmt.fmt.pix.pixelformat = fourcc;
	fmt.fmt.pix.width = width;
	fmt.fmt.pix.height = height;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	if (vb_xioctl(fd, VIDIOC_S_FMT, &fmt)) {
		vb_err("%s: VIDIOC_S_FMT (output): %s", dev, strerror(errno));
		goto out;
	}
	if (fmt.fmt.pix.width != width || fmt.fmt.pix.height != height ||
	    fmt.fmt.pix.pixelformat != fourcc) {
		vb_err("%s: output format not taken", dev);
		goto out;
	}
	memset(&req, 0, sizeof(req));
	req.count = nbufs;
	req.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	req.memory = V4L2_MEMORY_MMAP;
	if (vb_xioctl(fd, VIDIOC_REQBUFS, &req) || !req.count) {
		vb_err("%s: VIDIOC_REQBUFS (output): %s", dev, strerror(errno));
		goto out;
	}
	nbufs = req.count < VB_FEED_BUFS ? req.count : VB_FEED_BUFS;
	for (i = 0; i < 2; i++) {
		src[i] = malloc(fmt.fmt.pix.sizeimage);
		if (!src[i]) {
			vb_err("feed: out of memory");
			goto out;
		}
		memset(src[i], i ? 0x80 : 0x10, fmt.fmt.pix.sizeimage);
	}
	for (i = 0; i < nbufs; i++) {
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (vb_xioctl(fd, VIDIOC_QUERYBUF, &b)) {
			vb_err("%s: VIDIOC_QUERYBUF: %s", dev, strerror(errno));
			goto out;
		}
		lens[i] = b.length;
		maps[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE,
			       MAP_SHARED, fd, b.m.offset);
		if (maps[i] == MAP_FAILED) {
			maps[i] = NULL;
			vb_err("%s: mmap: %s", dev, strerror(errno));
			goto out;
		}
		memcpy(maps[i], src[0], fmt.fmt.pix.sizeimage);
		b.bytesused = fmt.fmt.pix.sizeimage;
		if (vb_xioctl(fd, VIDIOC_QBUF, &b)) {
			vb_err("%s: VIDIOC_QBUF: %s", dev, strerror(errno));
			goto out;
		}
	}
	if (vb_xioctl(fd, VIDIOC_STREAMON, &type)) {
		vb_err("%s: VIDIOC_STREAMON (output): %s", dev, strerror(errno));
		goto out;
	}
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = vb_feed_on_signal;
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
	}
	if (ready)
		close(open(ready, O_WRONLY | O_CREAT, 0644));

	vb_cpu_sample(&cpu0);
	t0 = t = vb_now();
	while (t - t0 < seconds && !vb_feed_stop) {
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		b.memory = V4L2_MEMORY_MMAP;
		if (vb_xioctl(fd, VIDIOC_DQBUF, &b)) {
			if (vb_feed_stop)
				break;
			vb_err("%s: VIDIOC_DQBUF (output): %s", dev,
			       strerror(errno));
			goto out;
		}
		if (fresh && b.index < nbufs)
			memcpy(maps[b.index], src[frames & 1],
			       fmt.fmt.pix.sizeimage);
		if (rate > 0)
			vb_sleep_until(t0 + frames / rate);
		b.bytesused = fmt.fmt.pix.sizeimage;
		{
			long long us = (long long)(vb_now() * 1e6);

			b.timestamp.tv_sec = us / 1000000;
			b.timestamp.tv_usec = us % 1000000;
			if (nstamps == cap_stamps) {
				size_t nc = cap_stamps ? cap_stamps * 2 : 4096;
				long long *p = realloc(stamps, nc * sizeof(*p));

				if (p) {
					stamps = p;
					cap_stamps = nc;
				}
			}
			if (nstamps < cap_stamps)
				stamps[nstamps++] = us;
		}
		if (vb_xioctl(fd, VIDIOC_QBUF, &b)) {
			vb_err("%s: VIDIOC_QBUF (output): %s", dev,
			       strerror(errno));
			goto out;
		}
		frames++;
		t = vb_now();
	}
	vb_cpu_sample(&cpu1);
	vb_cpu_delta(&cpu0, &cpu1, &d);
	vb_xioctl(fd, VIDIOC_STREAMOFF, &type);

	vb_json_begin();
	vb_json_str("tool", "feed");
	vb_json_str("device", dev);
	vb_json_int("fresh", fresh);
	vb_json_int("width", width);
	vb_json_int("height", height);
	vb_json_num("req_fps", rate);
	vb_json_int("frames", frames);
	vb_json_num("fps", frames / (t - t0));
	vb_json_num("proc_cpu_ms_per_frame", d.proc / frames * 1e3);
	vb_json_end();
	ret = 0;
	if (ts_file) {
		FILE *f = fopen(ts_file, "w");
		size_t k;

		if (!f) {
			vb_err("%s: %s", ts_file, strerror(errno));
			ret = 1;
		} else {
			for (k = 0; k < nstamps; k++)
				fprintf(f, "%lld\n", stamps[k]);
			if (fclose(f))
				ret = 1;
		}
	}
out:
	free(stamps);
	for (i = 0; i < VB_FEED_BUFS; i++)
		if (maps[i])
			munmap(maps[i], lens[i]);
	free(src[0]);
	free(src[1]);
	close(fd);
	return ret;
}
