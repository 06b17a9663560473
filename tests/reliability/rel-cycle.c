// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * rel-cycle: the user-space side of the leak and unload tests.
 *
 *   rel-cycle cycles N     N times: open, set a small format at the
 *                          highest frame rate, allocate and map
 *                          buffers, stream until a frame arrives, stop,
 *                          unmap, close (and, with REL_VRAM, open, query,
 *                          map, wait for a frame and close the VRAM node)
 *   rel-cycle reload N     N times: load the module REL_KO with the
 *                          parameters REL_PARAMS, wait for its nodes, one
 *                          cycle as above, unload it (as insmod and rmmod
 *                          do, without a process for each)
 *   rel-cycle hold-fd FILE open the V4L2 node, create FILE, wait for
 *                          SIGTERM
 *   rel-cycle hold-map FILE
 *                          map a buffer (and VRAM), close every fd,
 *                          create FILE, wait for SIGTERM
 *
 * Nodes from the environment: REL_VIDEO and REL_VRAM, and for reload
 * REL_KO, REL_PARAMS and REL_MODULE (see rel-dev.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <linux/vcap.h>

#define NBUF	16	/* at most; 3 are asked for */

static const char *video, *vram;
static volatile uint8_t sink;

static void die(const char *what)
{
	fprintf(stderr, "rel-cycle: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int xioctl(int fd, unsigned long cmd, void *arg, const char *what)
{
	int r;

	do {
		r = ioctl(fd, cmd, arg);
	} while (r && errno == EINTR);
	if (r)
		die(what);
	return r;
}

/* Buffers allocated and mapped; returns their number. */
static unsigned int map_buffers(int fd, void **map, size_t *len)
{
	struct v4l2_requestbuffers r = {
		.count = 3, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	unsigned int i;

	xioctl(fd, VIDIOC_REQBUFS, &r, "REQBUFS");
	if (r.count == 0 || r.count > NBUF) {
		errno = EINVAL;
		die("REQBUFS count");
	}
	for (i = 0; i < r.count; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = r.type, .memory = r.memory,
		};

		xioctl(fd, VIDIOC_QUERYBUF, &b, "QUERYBUF");
		len[i] = b.length;
		map[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE,
			      MAP_SHARED, fd, b.m.offset);
		if (map[i] == MAP_FAILED)
			die("mmap of a buffer");
	}
	return r.count;
}

static void one_cycle(void)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_streamparm parm = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.parm.capture.timeperframe = { 1, 1000 },
	};
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct pollfd pfd;
	void *map[NBUF];
	size_t len[NBUF];
	unsigned int i, n;
	int fd = open(video, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		die(video);
	xioctl(fd, VIDIOC_G_FMT, &f, "G_FMT");
	f.fmt.pix.width = 160;
	f.fmt.pix.height = 120;
	xioctl(fd, VIDIOC_S_FMT, &f, "S_FMT");
	/*
	 * The highest rate the mode offers: the one frame a cycle waits for
	 * comes after one frame period, and the default (30 fps) would make
	 * that wait most of the cycle.
	 */
	xioctl(fd, VIDIOC_S_PARM, &parm, "S_PARM");
	n = map_buffers(fd, map, len);
	for (i = 0; i < n; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = type, .memory = V4L2_MEMORY_MMAP,
		};

		xioctl(fd, VIDIOC_QBUF, &b, "QBUF");
	}
	xioctl(fd, VIDIOC_STREAMON, &type, "STREAMON");
	pfd.fd = fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 10000) != 1) {
		errno = ETIMEDOUT;
		die("no frame within 10 s");
	}
	{
		struct v4l2_buffer b = {
			.type = type, .memory = V4L2_MEMORY_MMAP,
		};

		xioctl(fd, VIDIOC_DQBUF, &b, "DQBUF");
		if (b.index >= n || b.bytesused == 0) {
			errno = EINVAL;
			die("DQBUF returned a bad buffer");
		}
		/* read the frame through the mapping */
		sink = ((volatile uint8_t *)map[b.index])[b.bytesused - 1];
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type, "STREAMOFF");
	for (i = 0; i < n; i++)
		munmap(map[i], len[i]);
	close(fd);
}

static void vram_cycle(void)
{
	struct vcap_info info;
	struct vcap_wait wt;
	int fd = open(vram, O_RDONLY | O_CLOEXEC);
	void *p;

	if (fd < 0)
		die(vram);
	memset(&info, 0, sizeof(info));
	xioctl(fd, VCAP_IOC_QUERY, &info, "VCAP_IOC_QUERY");
	p = mmap(NULL, info.map_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap of VRAM");
	memset(&wt, 0, sizeof(wt));
	wt.timeout_ms = 0;
	/* whether a frame is there or not: the call must not leak */
	if (ioctl(fd, VCAP_IOC_WAIT_FRAME, &wt) == 0)
		sink = ((volatile uint8_t *)p)[wt.slot];
	munmap(p, info.map_size);
	close(fd);
}

/* Wait up to 10 s for a character device node to appear. */
static void wait_node(const char *path)
{
	struct timespec ts = { 0, 10 * 1000000 };
	struct stat st;
	int i;

	for (i = 0; i < 1000; i++) {
		if (!stat(path, &st) && S_ISCHR(st.st_mode))
			return;
		nanosleep(&ts, NULL);
	}
	errno = ENOENT;
	die(path);
}

/* One round: load, stream, unload.  Any failure ends the run. */
static void reload_round(const char *ko, const char *params,
			 const char *mod, unsigned long i)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die(ko);
	if (syscall(SYS_finit_module, fd, params, 0)) {
		fprintf(stderr, "rel-cycle: load %lu: %s\n", i,
			strerror(errno));
		exit(1);
	}
	close(fd);
	wait_node(video);
	if (vram)
		wait_node(vram);
	one_cycle();
	if (vram)
		vram_cycle();
	/* as rmmod: refused, not waited for, while the module is in use */
	if (syscall(SYS_delete_module, mod, O_NONBLOCK)) {
		fprintf(stderr, "rel-cycle: unload %lu: %s\n", i,
			strerror(errno));
		exit(1);
	}
}

static double since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void ready(const char *file)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(file);
	close(fd);
	while (!stop)
		pause();
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	struct timespec t0;

	video = getenv("REL_VIDEO");
	vram = getenv("REL_VRAM");
	if (vram && !*vram)
		vram = NULL;
	if (argc != 3 || !video || !*video) {
		fprintf(stderr,
			"usage: rel-cycle cycles|reload N | hold-fd|hold-map FILE\n");
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);

	if (!strcmp(argv[1], "cycles")) {
		unsigned long i, n = strtoul(argv[2], NULL, 0);

		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < n; i++) {
			one_cycle();
			if (vram)
				vram_cycle();
		}
		printf("rel-cycle: %lu cycles in %.1f s\n", n, since(&t0));
		return 0;
	}
	if (!strcmp(argv[1], "reload")) {
		unsigned long i, n = strtoul(argv[2], NULL, 0);
		const char *ko = getenv("REL_KO");
		const char *params = getenv("REL_PARAMS");
		const char *mod = getenv("REL_MODULE");

		if (!ko || !*ko || !mod || !*mod) {
			fprintf(stderr, "rel-cycle: no REL_KO or REL_MODULE\n");
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < n; i++)
			reload_round(ko, params ? params : "", mod, i);
		printf("rel-cycle: %lu load/stream/unload rounds in %.1f s\n",
		       n, since(&t0));
		return 0;
	}
	if (!strcmp(argv[1], "hold-fd")) {
		if (open(video, O_RDWR | O_CLOEXEC) < 0)
			die(video);
		ready(argv[2]);
		return 0;
	}
	if (!strcmp(argv[1], "hold-map")) {
		void *map[NBUF];
		size_t len[NBUF];
		int fd = open(video, O_RDWR | O_CLOEXEC);

		if (fd < 0)
			die(video);
		map_buffers(fd, map, len);
		close(fd);
		if (vram) {
			fd = open(vram, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				die(vram);
			if (mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) ==
			    MAP_FAILED)
				die("mmap of VRAM");
			close(fd);
		}
		ready(argv[2]);
		return 0;
	}
	fprintf(stderr, "rel-cycle: unknown mode '%s'\n", argv[1]);
	return 2;
}
