// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * First-touch cost of an 8 MiB vcap frame buffer: the time from mmap() to
 * having read every page once, without and with MAP_POPULATE, for each
 * pre-faulting setting of the allocator (module parameter prefault_pages:
 * 1 maps one page per fault, the default maps a batch).
 *
 * Runs as root in the guest with vcap loaded.  Exits non-zero when a
 * buffer cannot be made or mapped, or reads back wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include "mem-node.h"

#define BENCH_SIZE	(8u << 20)
#define BENCH_RUNS	7

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* An MMAP buffer of at least 8 MiB: its index, offset and length. */
static int make_buffer(int fd, struct v4l2_format *fmt, struct v4l2_buffer *b)
{
	struct v4l2_create_buffers cb;

	memset(&cb, 0, sizeof(cb));
	cb.count = 1;
	cb.memory = V4L2_MEMORY_MMAP;
	cb.format = *fmt;
	if (cb.format.fmt.pix.sizeimage < BENCH_SIZE)
		cb.format.fmt.pix.sizeimage = BENCH_SIZE;
	if (ioctl(fd, VIDIOC_CREATE_BUFS, &cb) || cb.count < 1) {
		fprintf(stderr, "mem-bench: CREATE_BUFS of %u bytes: %s\n",
			cb.format.fmt.pix.sizeimage, strerror(errno));
		return -1;
	}
	if (mem_querybuf(fd, cb.index, b))
		return -1;
	if (b->length < BENCH_SIZE) {
		fprintf(stderr, "mem-bench: buffer is %u bytes, not 8 MiB\n",
			b->length);
		return -1;
	}
	return 0;
}

/* Median microseconds from mmap() to every page read once. */
static int first_touch(int fd, const struct v4l2_buffer *b, int populate,
		       double *median)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	double t[BENCH_RUNS];
	unsigned long sum;
	uint8_t *p;
	size_t off;
	int i;

	for (i = 0; i < BENCH_RUNS; i++) {
		double t0 = now_us();

		p = mmap(NULL, BENCH_SIZE, PROT_READ, MAP_SHARED |
			 (populate ? MAP_POPULATE : 0), fd, b->m.offset);
		if (p == MAP_FAILED) {
			perror("mem-bench: mmap");
			return -1;
		}
		sum = 0;
		for (off = 0; off < BENCH_SIZE; off += page)
			sum += ((volatile uint8_t *)p)[off];
		t[i] = now_us() - t0;
		munmap(p, BENCH_SIZE);
		/* The buffer was filled with ones before the runs. */
		if (sum != BENCH_SIZE / page) {
			fprintf(stderr, "mem-bench: read back %lu, not %lu\n",
				sum, (unsigned long)(BENCH_SIZE / page));
			return -1;
		}
	}
	qsort(t, BENCH_RUNS, sizeof(t[0]), cmp_double);
	*median = t[BENCH_RUNS / 2];
	return 0;
}

static int read_param(const char *path, unsigned int *v)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%u", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int write_param(const char *path, unsigned int v)
{
	FILE *f = fopen(path, "we");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%u\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int main(void)
{
	char path[32], param[256] = "";
	struct v4l2_format fmt;
	struct v4l2_buffer b;
	static const unsigned int tried[] = { 1, 16, 64, 512 };
	unsigned int batch = 0, settings[4];
	double touch[4], pop[4];
	int fd, n = 0, i, ret = 1;
	glob_t g;
	uint8_t *p;

	fd = mem_node_open(path, sizeof(path), &fmt);
	if (fd < 0) {
		fprintf(stderr, "mem-bench: no vcap capture node\n");
		return 1;
	}
	if (make_buffer(fd, &fmt, &b))
		goto out;
	p = mmap(NULL, BENCH_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 b.m.offset);
	if (p == MAP_FAILED) {
		perror("mem-bench: mmap");
		goto out;
	}
	memset(p, 1, BENCH_SIZE);
	munmap(p, BENCH_SIZE);

	if (!glob("/sys/module/*/parameters/prefault_pages", 0, NULL, &g) &&
	    g.gl_pathc == 1) {
		snprintf(param, sizeof(param), "%s", g.gl_pathv[0]);
		if (read_param(param, &batch))
			param[0] = '\0';
	}
	globfree(&g);
	if (param[0]) {
		for (i = 0; i < 4; i++)
			settings[n++] = tried[i];
	} else {
		fprintf(stderr, "mem-bench: no prefault_pages setting to vary\n");
		settings[n++] = batch;
	}

	printf("first touch of an 8 MiB buffer on %s, median of %d runs\n",
	       path, BENCH_RUNS);
	for (i = 0; i < n; i++) {
		if (param[0] && write_param(param, settings[i])) {
			perror("mem-bench: prefault_pages");
			goto restore;
		}
		if (first_touch(fd, &b, 0, &touch[i]) ||
		    first_touch(fd, &b, 1, &pop[i]))
			goto restore;
		printf("prefault_pages=%-4u  touch %9.0f us  MAP_POPULATE %9.0f us  touch/populate %.2f\n",
		       settings[i], touch[i], pop[i], touch[i] / pop[i]);
	}
	for (i = 1; i < n; i++)
		printf("prefault_pages=%u vs 1: touch %.2fx faster, MAP_POPULATE %.2fx faster\n",
		       settings[i], touch[0] / touch[i], pop[0] / pop[i]);
	if (param[0])
		printf("module default: prefault_pages=%u\n", batch);
	ret = 0;
restore:
	if (param[0] && batch && write_param(param, batch))
		ret = 1;
out:
	close(fd);
	return ret;
}
