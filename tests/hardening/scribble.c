// SPDX-License-Identifier: GPL-2.0
/*
 * A writable VRAM mapping scribbles over the control page while a V4L2
 * stream runs; once the page is put back, the stream restarts and delivers
 * whole frames again.
 *
 * Run with vram_writable=1.  For HARD_SCRIBBLE_S seconds (5) a child maps
 * the control page PROT_WRITE and writes random values into the board
 * info (geometry, mode and interval tables), every status field, the slot
 * headers and the request block, plus random bytes anywhere in the page;
 * then it writes back the copy it saved.  Meanwhile the streamer changes
 * the test pattern every 250 ms, so that the board gets requests while its
 * page is nonsense.  The stream must then stop
 * (STREAMOFF), start again (STREAMON; one retry after an error) and
 * deliver HARD_GOOD (10) frames whose stamps decode within 15 s.
 * HARD_SEED picks the random sequence.  hard-run.sh times the unload.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/wait.h>

#include <vcap/board.h>
#include <linux/vcap.h>

#include "hard.h"
#include "vcap-stamp.h"
#include "vk-stream.h"
#include "vtest.h"

#define RESTART_S	15

struct field {
	const char *name;
	unsigned int off;
	unsigned int size;
};

#define F(m) { #m, offsetof(struct vcap_board_ctrl, m), \
	       sizeof(((struct vcap_board_ctrl *)0)->m) }

/* Everything the brief names by field; modes[] and slots[] by index. */
static const struct field fields[] = {
	F(info.vram_size), F(info.frame_offset), F(info.frame_size),
	F(info.num_modes), F(info.num_intervals),
	F(request.seq), F(request.cmd), F(request.fourcc), F(request.width),
	F(request.height), F(request.bytesperline), F(request.interval_num),
	F(request.interval_den), F(request.pattern), F(request.flags),
	F(request.consumed_seq),
	F(status.ack_seq), F(status.error), F(status.state),
	F(status.mode_gen), F(status.fourcc), F(status.width),
	F(status.height), F(status.bytesperline), F(status.sizeimage),
	F(status.interval_num), F(status.interval_den), F(status.num_slots),
	F(status.ring_offset), F(status.slot_stride), F(status.heartbeat),
	F(status.frames_produced), F(status.frames_overwritten),
	F(status.frames_late), F(status.latest_slot), F(status.latest_seq),
};

static uint64_t rng;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

/* Values that break checks more often than uniform noise does. */
static uint64_t hostile(void)
{
	static const uint64_t edge[] = {
		0, 1, 2, 3, 7, 8, 9, 0xff, 0x1000, VCAP_CTRL_SIZE,
		VCAP_CTRL_SIZE + 1, 0x7fffffff, 0x80000000, 0xfffffffe,
		0xffffffff, 0x100000000ull, 0x7fffffffffffffffull, ~0ull,
		VCAP_MAX_MODES, VCAP_MAX_MODES + 1, VCAP_MAX_SLOTS + 1,
		0x32595559 /* YUYV */, 640, 480, 1920, 1080, 65535, 65536,
	};
	uint64_t r = rnd();

	switch (r % 4) {
	case 0:
		return edge[(r >> 8) % (sizeof(edge) / sizeof(edge[0]))];
	case 1:
		return (r >> 8) & 0xffff;
	case 2:
		return rnd() & 0xffffffff;
	default:
		return rnd();
	}
}

static void put(volatile uint8_t *page, unsigned int off, unsigned int size,
		uint64_t v)
{
	if (size == 8)
		*(volatile uint64_t *)(page + off) = v;
	else
		*(volatile uint32_t *)(page + off) = (uint32_t)v;
}

/* One random write; returns what it hit, for the log's tally. */
static int scribble_once(volatile uint8_t *page)
{
	const unsigned int nf = sizeof(fields) / sizeof(fields[0]);
	unsigned int which = rnd() % 5, i;

	switch (which) {
	case 0: {	/* a named info, request or status field */
		const struct field *f = &fields[rnd() % nf];

		put(page, f->off, f->size, hostile());
		break;
	}
	case 1:		/* a mode of the table */
		i = rnd() % VCAP_MAX_MODES;
		put(page, offsetof(struct vcap_board_ctrl, info.modes) +
		    i * sizeof(struct vcap_board_mode) + 4 * (rnd() % 4), 4,
		    hostile());
		break;
	case 2:		/* an interval */
		i = rnd() % VCAP_MAX_INTERVALS;
		put(page, offsetof(struct vcap_board_ctrl, info.intervals) +
		    i * sizeof(struct vcap_board_interval) + 4 * (rnd() % 2),
		    4, hostile());
		break;
	case 3: {	/* a slot header field */
		static const unsigned int off[] = { 0, 4, 8, 16, 24, 28 };
		unsigned int k = rnd() % 6;

		i = rnd() % VCAP_MAX_SLOTS;
		put(page, offsetof(struct vcap_board_ctrl, slots) +
		    i * sizeof(struct vcap_board_slot) + off[k],
		    k == 2 || k == 3 ? 8 : 4, hostile());
		break;
	}
	default:	/* a byte anywhere */
		page[rnd() % VCAP_CTRL_SIZE] = (uint8_t)rnd();
		break;
	}
	return which;
}

/* The scribbling process: 0 when it scribbled and put the page back. */
static int scribbler(double seconds)
{
	unsigned long count[5] = { 0 };
	volatile uint8_t *page;
	struct vcap_info in;
	static uint8_t saved[VCAP_CTRL_SIZE];
	char path[64];
	double end;
	int fd;

	if (vk_find_vram(path, sizeof(path), NULL, 0) < 0) {
		perror("scribbler: no VRAM node");
		return 2;
	}
	fd = open(path, O_RDWR);
	if (fd < 0 || ioctl(fd, VCAP_IOC_QUERY, &in) < 0) {
		perror(path);
		return 2;
	}
	if (!(in.flags & VCAP_INFO_WRITABLE)) {
		fprintf(stderr, "scribbler: %s not writable (vram_writable=1?)\n",
			path);
		return 2;
	}
	page = mmap(NULL, VCAP_CTRL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
	if (page == MAP_FAILED) {
		perror("scribbler: mmap PROT_WRITE");
		return 2;
	}
	memcpy(saved, (const void *)page, sizeof(saved));
	end = hard_now() + seconds;
	while (hard_now() < end) {
		int i;

		/* Bursts, with pauses for the driver to act on what it sees. */
		for (i = 0; i < 32; i++)
			count[scribble_once(page)]++;
		usleep(rnd() % 2000);
	}
	memcpy((void *)page, saved, sizeof(saved));
	__sync_synchronize();
	printf("# scribbled %lu fields, %lu modes, %lu intervals, %lu slot fields, %lu bytes; page restored\n",
	       count[0], count[1], count[2], count[3], count[4]);
	fflush(stdout);
	munmap((void *)page, VCAP_CTRL_SIZE);
	close(fd);
	return 0;
}

static bool frame_whole(const struct vk_stream *s, const struct v4l2_buffer *b)
{
	struct vcap_frame_fmt ff = {
		.fourcc = s->pix.pixelformat, .width = s->pix.width,
		.height = s->pix.height, .bytesperline = s->pix.bytesperline,
		.sizeimage = s->pix.sizeimage,
	};
	struct vcap_stamp st;

	if (b->flags & V4L2_BUF_FLAG_ERROR || b->bytesused != s->pix.sizeimage)
		return false;
	return vcap_stamp_check(&ff, s->map[b->index], b->bytesused, &st) ==
	       VCAP_STAMP_OK;
}

/* The next test pattern: a mode request to the board while streaming. */
static void next_pattern(int fd)
{
	struct v4l2_queryctrl q = { .id = V4L2_CID_TEST_PATTERN };
	struct v4l2_control c = { .id = V4L2_CID_TEST_PATTERN };

	if (ioctl(fd, VIDIOC_QUERYCTRL, &q) < 0 ||
	    ioctl(fd, VIDIOC_G_CTRL, &c) < 0)
		return;
	c.value = c.value >= q.maximum ? q.minimum : c.value + 1;
	ioctl(fd, VIDIOC_S_CTRL, &c);
}

/* Dequeue and requeue what arrives within ms; 1 if a buffer came. */
static int pump(struct vk_stream *s, int ms, struct v4l2_buffer *b)
{
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };

	if (poll(&pfd, 1, ms) <= 0)
		return 0;
	if (!(pfd.revents & POLLIN)) {
		/* EPOLLERR: not streaming or the queue is in error. */
		usleep(ms * 1000);
		return 0;
	}
	if (vk_stream_dqbuf(s, b) < 0)
		return -1;
	return 1;
}

TEST_TIMEOUT(scribble_control_page_then_restart, 150)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int secs = vk_env("HARD_SCRIBBLE_S", 5);
	unsigned int want = vk_env("HARD_GOOD", 10);
	unsigned int good = 0, bad = 0, during = 0, errs = 0, reqs = 0, i;
	struct v4l2_buffer b;
	struct vk_stream s;
	double t0, deadline, next;
	int status, r;
	pid_t pid;

	rng = vk_env("HARD_SEED", 20261204) | 1;
	TH_LOG("seed %llu, %u s of scribbling", (unsigned long long)rng, secs);
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 30, 6), 0);
	/* The stream works before the page is touched. */
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		ASSERT_TRUE(frame_whole(&s, &b));
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}

	fflush(stdout);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(scribbler(secs));
	/* Keep streaming while the page is scribbled on; errors allowed. */
	next = hard_now();
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (hard_now() >= next) {
			next_pattern(s.fd);
			reqs++;
			next += 0.25;
		}
		r = pump(&s, 100, &b);
		if (r < 0) {
			errs++;
		} else if (r > 0) {
			during++;
			vk_stream_qbuf(&s, &b);
		}
	}
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(WEXITSTATUS(status), 0);
	TH_LOG("while scribbled: %u buffers dequeued, %u DQBUF errors, %u pattern changes",
	       during, errs, reqs);

	/* The page is whole again: stop and start as any application would. */
	t0 = hard_now();
	ASSERT_EQ(vk_xioctl(s.fd, VIDIOC_STREAMOFF, &type), 0);
	TH_LOG("STREAMOFF took %.1f s", hard_now() - t0);
	{
		struct v4l2_control c = { .id = V4L2_CID_TEST_PATTERN };

		vk_xioctl(s.fd, VIDIOC_S_CTRL, &c);
	}
	for (i = 0; i < s.nbufs; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	t0 = hard_now();
	if (vk_xioctl(s.fd, VIDIOC_STREAMON, &type) < 0) {
		TH_LOG("STREAMON after the scribble: %s after %.1f s; retrying",
		       strerror(errno), hard_now() - t0);
		sleep(1);
		ASSERT_EQ(vk_xioctl(s.fd, VIDIOC_STREAMON, &type), 0);
	}
	TH_LOG("STREAMON took %.1f s", hard_now() - t0);

	deadline = t0 + RESTART_S;
	errs = 0;
	while (good < want && hard_now() < deadline) {
		r = pump(&s, 500, &b);
		if (r < 0) {
			if (!errs++)
				TH_LOG("DQBUF after restart: %s",
				       strerror(errno));
			continue;
		}
		if (!r)
			continue;
		if (frame_whole(&s, &b))
			good++;
		else
			bad++;
		vk_stream_qbuf(&s, &b);
	}
	TH_LOG("after restart: %u whole frames, %u bad, %u DQBUF errors in %.1f s",
	       good, bad, errs, hard_now() - t0);
	vk_stream_stop(&s);
	EXPECT_GE(good, want);
}

/*
 * The geometry a board publishes, rewritten on the page to point its
 * ring far outside the board's memory, then a new stream: the board must
 * lay out its ring from what it knows, never from the page.  A board
 * that believed the page would render into memory it does not own.
 */
TEST_TIMEOUT(geometry_on_the_page_is_not_the_boards, 120)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	volatile struct vcap_board_ctrl *ctrl;
	static uint8_t saved[VCAP_CTRL_SIZE];
	unsigned int good = 0, i;
	struct v4l2_buffer b;
	struct vk_stream s;
	char path[64];
	double deadline;
	int fd, r;

	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 30, 6), 0);
	ASSERT_EQ(vk_find_vram(path, sizeof(path), NULL, 0), 0);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	ctrl = mmap(NULL, VCAP_CTRL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
	ASSERT_NE(ctrl, MAP_FAILED);
	memcpy(saved, (const void *)ctrl, sizeof(saved));

	ASSERT_EQ(vk_xioctl(s.fd, VIDIOC_STREAMOFF, &type), 0);
	/* 1 TiB of VRAM, the frames 1 GiB in: far past the board's RAM. */
	ctrl->info.vram_size = 1ull << 40;
	ctrl->info.frame_offset = 1ull << 30;
	ctrl->info.frame_size = 1ull << 32;
	__sync_synchronize();
	for (i = 0; i < s.nbufs; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	r = vk_xioctl(s.fd, VIDIOC_STREAMON, &type);
	TH_LOG("STREAMON with the geometry rewritten: %s",
	       r ? strerror(errno) : "ok");
	/* Whatever the page said, the frames come from the board's RAM. */
	deadline = hard_now() + 10;
	while (!r && good < 10 && hard_now() < deadline) {
		int n = pump(&s, 500, &b);

		if (n <= 0)
			continue;
		if (frame_whole(&s, &b))
			good++;
		vk_stream_qbuf(&s, &b);
	}
	TH_LOG("%u whole frames with the geometry rewritten", good);
	EXPECT_EQ(r, 0);
	EXPECT_GE(good, 10);
	memcpy((void *)ctrl, saved, sizeof(saved));
	munmap((void *)ctrl, VCAP_CTRL_SIZE);
	close(fd);
	vk_stream_stop(&s);
}

VTEST_MAIN()
