// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * load: every reader at once, at full rate, for a fixed time.  One V4L2
 * streamer (mmap buffers) and N VRAM readers (mmap of the ring plus
 * VCAP_IOC_WAIT_FRAME) at the given size; every frame's stamps are
 * decoded.  Fails on a torn frame, on a frame lost without a sequence gap,
 * on sequence gaps the driver's own drop counter does not account for, and
 * on a reader that stops getting frames.  Prints frame rates and latency
 * percentiles.
 *
 *   load SECONDS [WIDTH HEIGHT [VRAM-READERS]]
 *
 * Nodes from REL_VIDEO and REL_VRAM (see rel-dev.sh).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <linux/vcap.h>

#include <vcap/board.h>
#include "vcap-stamp.h"

#define MAX_READERS	4
#define MAX_LAT		(1 << 20)

struct reader {
	const char *name;
	pthread_t thread;
	uint64_t frames;	/* decoded whole */
	uint64_t torn;		/* stamps bad on a frame read whole */
	uint64_t unaccounted;	/* stamp advanced more than the sequence */
	uint64_t gaps;		/* frames skipped by sequence */
	uint64_t overwritten;	/* VRAM: slot reused while being read */
	uint64_t errors;	/* calls that failed */
	uint64_t *lat;		/* ns */
	size_t nlat;
	char first_error[160];
};

static struct vcap_frame_fmt fmt;
static volatile int running = 1;
static const char *video, *vram;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void note(struct reader *r, const char *fmt_, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct reader *r, const char *fmt_, ...)
{
	va_list ap;

	r->errors++;
	if (r->first_error[0])
		return;
	va_start(ap, fmt_);
	vsnprintf(r->first_error, sizeof(r->first_error), fmt_, ap);
	va_end(ap);
}

static void add_lat(struct reader *r, uint64_t ns)
{
	if (r->nlat < MAX_LAT)
		r->lat[r->nlat++] = ns;
}

/* Frame check shared by both paths: stamps whole, order kept. */
static void check_frame(struct reader *r, const void *data, size_t len,
			uint64_t seq, uint64_t *last_seq, uint64_t *last_stamp,
			bool *have_last)
{
	struct vcap_stamp st;
	enum vcap_stamp_result res = vcap_stamp_check(&fmt, data, len, &st);

	if (res != VCAP_STAMP_OK) {
		r->torn++;
		if (r->torn <= 3)
			fprintf(stderr, "load: %s: frame %llu: %s\n", r->name,
				(unsigned long long)seq,
				vcap_stamp_result_str(res));
		*have_last = false;
		return;
	}
	r->frames++;
	if (*have_last) {
		if (seq > *last_seq + 1)
			r->gaps += seq - *last_seq - 1;
		if (st.seq - *last_stamp != seq - *last_seq) {
			r->unaccounted++;
			if (r->unaccounted <= 3)
				fprintf(stderr, "load: %s: sequence %llu -> "
					"%llu but stamp %llu -> %llu\n",
					r->name,
					(unsigned long long)*last_seq,
					(unsigned long long)seq,
					(unsigned long long)*last_stamp,
					(unsigned long long)st.seq);
		}
	}
	*last_seq = seq;
	*last_stamp = st.seq;
	*have_last = true;
}

/* ---- the V4L2 streamer ------------------------------------------------ */

static int v4l2_fd = -1;
static uint32_t v4l2_nbuf;
static void *v4l2_map[VIDEO_MAX_FRAME];

static int v4l2_setup(unsigned int width, unsigned int height)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers rq = {
		.count = 4, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	v4l2_fd = open(video, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (v4l2_fd < 0 || ioctl(v4l2_fd, VIDIOC_G_FMT, &f))
		return -1;
	f.fmt.pix.width = width;
	f.fmt.pix.height = height;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.bytesperline = 0;
	if (ioctl(v4l2_fd, VIDIOC_S_FMT, &f))
		return -1;
	if (f.fmt.pix.width != width || f.fmt.pix.height != height) {
		fprintf(stderr, "load: %ux%u not offered (got %ux%u)\n",
			width, height, f.fmt.pix.width, f.fmt.pix.height);
		return -1;
	}
	fmt.fourcc = f.fmt.pix.pixelformat;
	fmt.width = f.fmt.pix.width;
	fmt.height = f.fmt.pix.height;
	fmt.bytesperline = f.fmt.pix.bytesperline;
	fmt.sizeimage = f.fmt.pix.sizeimage;
	if (ioctl(v4l2_fd, VIDIOC_REQBUFS, &rq) || rq.count > VIDEO_MAX_FRAME)
		return -1;
	v4l2_nbuf = rq.count;
	for (i = 0; i < rq.count; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = type, .memory = V4L2_MEMORY_MMAP,
		};

		if (ioctl(v4l2_fd, VIDIOC_QUERYBUF, &b))
			return -1;
		v4l2_map[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED,
				   v4l2_fd, b.m.offset);
		if (v4l2_map[i] == MAP_FAILED ||
		    ioctl(v4l2_fd, VIDIOC_QBUF, &b))
			return -1;
	}
	return ioctl(v4l2_fd, VIDIOC_STREAMON, &type);
}

static void *v4l2_reader(void *arg)
{
	struct reader *r = arg;
	struct pollfd pfd = { .fd = v4l2_fd, .events = POLLIN };
	uint64_t last_seq = 0, last_stamp = 0;
	bool have = false;

	while (running) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};
		int n = poll(&pfd, 1, 2000);

		if (n == 0) {
			note(r, "no frame for 2 s");
			continue;
		}
		if (n < 0 || ioctl(v4l2_fd, VIDIOC_DQBUF, &b)) {
			if (errno != EAGAIN && errno != EINTR)
				note(r, "DQBUF: %s", strerror(errno));
			continue;
		}
		add_lat(r, now_ns() - ((uint64_t)b.timestamp.tv_sec *
				       1000000000ull +
				       (uint64_t)b.timestamp.tv_usec * 1000));
		if (b.flags & V4L2_BUF_FLAG_ERROR)
			note(r, "buffer %u flagged as error", b.sequence);
		else
			check_frame(r, v4l2_map[b.index], b.bytesused,
				    b.sequence, &last_seq, &last_stamp, &have);
		if (ioctl(v4l2_fd, VIDIOC_QBUF, &b))
			note(r, "QBUF: %s", strerror(errno));
	}
	return NULL;
}

/* ---- the VRAM readers ------------------------------------------------- */

static void *vram_reader(void *arg)
{
	struct reader *r = arg;
	const struct vcap_board_slot *slots;
	struct vcap_info info = { 0 };
	uint64_t last_seq = 0, last_stamp = 0, after = 0;
	bool have = false;
	uint8_t *base, *copy;
	int fd = open(vram, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, VCAP_IOC_QUERY, &info)) {
		note(r, "VRAM node: %s", strerror(errno));
		return NULL;
	}
	if (!(info.flags & VCAP_INFO_STREAMING) ||
	    info.width != fmt.width || info.height != fmt.height ||
	    info.sizeimage > info.slot_stride) {
		note(r, "VRAM mode %ux%u (flags %#x) is not the stream's",
		     info.width, info.height, info.flags);
		return NULL;
	}
	base = mmap(NULL, info.map_size, PROT_READ, MAP_SHARED, fd, 0);
	copy = malloc(info.sizeimage);
	if (base == MAP_FAILED || !copy) {
		note(r, "mmap of VRAM: %s", strerror(errno));
		return NULL;
	}
	slots = (const void *)(base + offsetof(struct vcap_board_ctrl, slots));
	while (running) {
		struct vcap_wait wt = { .after_seq = after, .timeout_ms = 2000 };
		const volatile struct vcap_board_slot *s;
		uint32_t l1, l2;
		uint64_t seq;

		if (ioctl(fd, VCAP_IOC_WAIT_FRAME, &wt)) {
			if (errno != EINTR)
				note(r, "WAIT_FRAME: %s", strerror(errno));
			continue;
		}
		add_lat(r, now_ns() - wt.timestamp_ns);
		after = wt.sequence;
		if (wt.slot >= info.num_slots) {
			note(r, "WAIT_FRAME: slot %u of %u", wt.slot,
			     info.num_slots);
			continue;
		}
		/* the slot's sequence lock, as the board ABI describes */
		s = &slots[wt.slot];
		l1 = le32toh(s->lock);
		atomic_thread_fence(memory_order_acquire);
		seq = le64toh(s->sequence);
		memcpy(copy, base + info.ring_offset +
		       wt.slot * info.slot_stride, info.sizeimage);
		atomic_thread_fence(memory_order_acquire);
		l2 = le32toh(s->lock);
		if ((l1 & 1) || l1 != l2 || seq != wt.sequence) {
			r->overwritten++;	/* too slow, not torn */
			continue;
		}
		check_frame(r, copy, info.sizeimage, seq, &last_seq,
			    &last_stamp, &have);
	}
	free(copy);
	munmap(base, info.map_size);
	close(fd);
	return NULL;
}

/* ---- figures ---------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double pct(const struct reader *r, double p)
{
	size_t i;

	if (!r->nlat)
		return 0;
	i = (size_t)(p * (double)(r->nlat - 1));
	return (double)r->lat[i] / 1e6;
}

static long long read_stat(const char *name)
{
	char path[256], buf[64];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/vcap/%s/stats/%s",
		 strrchr(vram, '/') + 1, name);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f))
		v = atoll(buf);
	if (f)
		fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	struct reader rd[1 + MAX_READERS];
	unsigned int width = 1280, height = 720, nvram = 2, i, n;
	long long dropped0, dropped1;
	double secs;
	int fail = 0;

	video = getenv("REL_VIDEO");
	vram = getenv("REL_VRAM");
	if (argc < 2 || !video || !*video || !vram || !*vram) {
		fprintf(stderr, "usage: load SECONDS [WIDTH HEIGHT "
			"[VRAM-READERS]] (REL_VIDEO, REL_VRAM set)\n");
		return 2;
	}
	secs = atof(argv[1]);
	if (argc >= 4) {
		width = (unsigned int)atoi(argv[2]);
		height = (unsigned int)atoi(argv[3]);
	}
	if (argc >= 5)
		nvram = (unsigned int)atoi(argv[4]);
	if (nvram > MAX_READERS)
		nvram = MAX_READERS;

	if (v4l2_setup(width, height)) {
		fprintf(stderr, "load: starting the V4L2 stream: %s\n",
			strerror(errno));
		return 1;
	}
	dropped0 = read_stat("dropped");
	memset(rd, 0, sizeof(rd));
	n = 1 + nvram;
	for (i = 0; i < n; i++) {
		rd[i].name = i ? "vram" : "v4l2";
		rd[i].lat = calloc(MAX_LAT, sizeof(uint64_t));
		pthread_create(&rd[i].thread, NULL,
			       i ? vram_reader : v4l2_reader, &rd[i]);
	}
	usleep((useconds_t)(secs * 1e6));
	running = 0;
	for (i = 0; i < n; i++)
		pthread_join(rd[i].thread, NULL);
	dropped1 = read_stat("dropped");

	printf("load: %ux%u %.4s for %.0f s, 1 V4L2 streamer + %u VRAM "
	       "readers\n", fmt.width, fmt.height, (char *)&fmt.fourcc, secs,
	       nvram);
	for (i = 0; i < n; i++) {
		struct reader *r = &rd[i];

		qsort(r->lat, r->nlat, sizeof(uint64_t), cmp_u64);
		printf("load: %s reader %u: %llu frames (%.1f fps), torn %llu, "
		       "unaccounted %llu, gaps %llu, overwritten while read "
		       "%llu, errors %llu; latency p50 %.2f ms p99 %.2f ms "
		       "max %.2f ms\n", r->name, i,
		       (unsigned long long)r->frames,
		       (double)r->frames / secs,
		       (unsigned long long)r->torn,
		       (unsigned long long)r->unaccounted,
		       (unsigned long long)r->gaps,
		       (unsigned long long)r->overwritten,
		       (unsigned long long)r->errors, pct(r, 0.5),
		       pct(r, 0.99), pct(r, 1.0));
		if (r->first_error[0])
			printf("load: %s reader %u: first error: %s\n",
			       r->name, i, r->first_error);
		if (r->torn || r->unaccounted || r->errors || !r->frames)
			fail = 1;
	}
	printf("load: driver's drop counter %lld -> %lld; V4L2 sequence gaps "
	       "%llu\n", dropped0, dropped1,
	       (unsigned long long)rd[0].gaps);
	if (dropped0 < 0 || dropped1 < 0 ||
	    (long long)rd[0].gaps > dropped1 - dropped0) {
		printf("load: FAIL: V4L2 gaps beyond the driver's count\n");
		fail = 1;
	}
	printf("load: %s\n", fail ? "FAILED" : "passed");
	return fail;
}
