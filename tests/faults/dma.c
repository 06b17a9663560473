// SPDX-License-Identifier: GPL-2.0
/*
 * A hostile board on the DMA path: completions that name the wrong
 * buffer, lengths past it, replays, reordered sequences, completions for
 * nothing posted and after the stop; and a board that stops answering.
 *
 * completions: FX_DMA_FAULTS lists firmware faults, comma-separated (each
 * the words after "vcap-fw ctl SOCKET fault").  For each, a stream into USERPTR buffers
 * inside a canary (tests/dma/dma-test.h) runs before, during and after
 * the fault, with a moment in which the test holds every buffer (nothing
 * posted): every buffer that comes back is a whole frame or flagged
 * V4L2_BUF_FLAG_ERROR, the driver counts the completions it refused
 * (stats/FX_REFUSED), nothing outside the posted buffers changes, the
 * stream recovers once the fault is cleared, and after STREAMOFF the
 * board writes nothing.  An entry "stop:FAULT" is injected just
 * before STREAMOFF instead (a completion after the stop acknowledgement,
 * which the driver never reads).
 *
 * dead_board: the firmware stops answering (FX_HANG, the words after
 * "fault", default "hang 6000") while it streams into MMAP buffers:
 * STREAMOFF returns within the request timeout, the pages the board
 * might still write are kept out of circulation (stats/FX_QUARANTINED
 * above 0) and said in the log, and once the board answers again the
 * node streams again.
 */
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "dma-test.h"
#include "fx.h"
#include "vtest.h"

#define W	320
#define H	240
#define FPS	30

static long long stat_of(const char *env_name, const char *def)
{
	const char *name = getenv(env_name);

	return vk_stat("vcap0", name && *name ? name : def);
}

struct run {
	int fd;
	struct v4l2_pix_format pix;
	struct dma_region r;
	unsigned int good, errors, bad;
};

static void start(struct vtest_meta *_vtest, struct run *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = dma_start_userptr(W, H, FPS, 6, &s->pix, &s->r);
	ASSERT_GE(s->fd, 0);
}

/*
 * Take frames for secs (or until n were good); a buffer that is neither
 * flagged nor a whole frame is bad.
 */
static void take(struct vtest_meta *_vtest, struct run *s,
			 double secs, unsigned int n)
{
	double t0 = fx_now();
	unsigned int good0 = s->good;
	struct v4l2_buffer b;
	uint64_t stamp;

	while (fx_now() - t0 < secs && s->good - good0 < n) {
		if (mem_dqbuf(s->fd, V4L2_MEMORY_USERPTR, &b, 500)) {
			ASSERT_EQ(errno, ETIMEDOUT);
			continue;
		}
		ASSERT_LT(b.index, s->r.nbufs);
		if (b.flags & V4L2_BUF_FLAG_ERROR)
			s->errors++;
		else if (b.bytesused == s->pix.sizeimage &&
			 dma_stamp(&s->pix, s->r.base + s->r.off[b.index],
				   b.bytesused, &stamp) == VCAP_STAMP_OK)
			s->good++;
		else
			s->bad++;
		ASSERT_EQ(ioctl(s->fd, VIDIOC_QBUF, &b), 0);
	}
}

/*
 * Hold every buffer for a moment: the board has nothing posted (what
 * the idle fault waits for), then gets them all back.
 */
static void starve(struct vtest_meta *_vtest, struct run *s)
{
	struct v4l2_buffer held[DMA_MAX_BUFS];
	unsigned int n = 0, i;
	double t0 = fx_now();

	while (n < s->r.nbufs && fx_now() - t0 < 5) {
		if (mem_dqbuf(s->fd, V4L2_MEMORY_USERPTR, &held[n], 500)) {
			ASSERT_EQ(errno, ETIMEDOUT);
			continue;
		}
		n++;
	}
	usleep(300000);
	for (i = 0; i < n; i++)
		ASSERT_EQ(ioctl(s->fd, VIDIOC_QBUF, &held[i]), 0);
}

static void stop_and_check(struct vtest_meta *_vtest, struct run *s,
			   const char *fault)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	long bad;

	ASSERT_EQ(ioctl(s->fd, VIDIOC_STREAMOFF, &type), 0);
	dma_region_paint_all(&s->r);
	usleep(400000);
	bad = dma_region_check(&s->r, true);
	if (bad >= 0)
		TH_LOG("%s: written after STREAMOFF at offset %ld", fault, bad);
	EXPECT_EQ(bad, -1);
	close(s->fd);
	dma_region_free(&s->r);
}

TEST_TIMEOUT(completions, 900)
{
	const char *list = getenv("FX_DMA_FAULTS");
	char faults[512], *save = NULL, *arg;

	ASSERT_TRUE(list && *list);
	snprintf(faults, sizeof(faults), "%s", list);
	for (arg = strtok_r(faults, ",", &save); arg;
	     arg = strtok_r(NULL, ",", &save)) {
		bool at_stop = !strncmp(arg, "stop:", 5);
		const char *fault = at_stop ? arg + 5 : arg;
		long long refused0, refused;
		struct run s;
		long bad;

		start(_vtest, &s);
		if (_vtest->failed)
			return;
		take(_vtest, &s, 10, 10);
		ASSERT_EQ(s.good, 10);
		refused0 = stat_of("FX_REFUSED", "dma_refused");
		ASSERT_GE(refused0, 0);
		if (at_stop) {
			ASSERT_EQ(fx_fw(NULL, 0, "fault %s", fault), 0);
			stop_and_check(_vtest, &s, arg);
			ASSERT_EQ(fx_fw(NULL, 0, "fault clear"), 0);
			/* The next stream is not disturbed by it. */
			start(_vtest, &s);
			take(_vtest, &s, 10, 20);
		} else {
			ASSERT_EQ(fx_fw(NULL, 0, "fault %s", fault), 0);
			take(_vtest, &s, 2, 1000);
			starve(_vtest, &s);
			take(_vtest, &s, 1, 1000);
			ASSERT_EQ(fx_fw(NULL, 0, "fault clear"), 0);
			bad = dma_region_check(&s.r, false);
			if (bad >= 0)
				TH_LOG("%s: written outside the buffers at offset %ld",
				       fault, bad);
			EXPECT_EQ(bad, -1);
			/* Recovered: frames come, whole, on the same queue. */
			s.good = 0;
			take(_vtest, &s, 15, 20);
		}
		refused = stat_of("FX_REFUSED", "dma_refused");
		TH_LOG("%s: %u good, %u flagged, %u bad after; %lld completions refused",
		       arg, s.good, s.errors, s.bad, refused - refused0);
		EXPECT_EQ(s.bad, 0);
		EXPECT_GE(s.good, 20);
		if (!at_stop)
			EXPECT_GT(refused, refused0);
		stop_and_check(_vtest, &s, arg);
		if (_vtest->failed)
			return;
	}
}

TEST_TIMEOUT(dead_board, 300)
{
	const char *hang = getenv("FX_HANG");
	struct vk_stream s;
	struct v4l2_buffer b;
	long long q0, q;
	double t0, took;
	int i, klog;

	klog = fx_klog_open();
	q0 = stat_of("FX_QUARANTINED", "dma_quarantined_pages");
	ASSERT_GE(q0, 0);
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, W, H, FPS, 6), 0);
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	ASSERT_EQ(fx_fw(NULL, 0, "fault %s", hang && *hang ? hang : "hang 6000"),
		  0);
	/*
	 * Every buffer the board completed before it stopped goes back to
	 * it, so that it holds some when the stream stops.
	 */
	for (i = 0; i < 6; i++) {
		struct pollfd pfd = { .fd = s.fd, .events = POLLIN };

		if (poll(&pfd, 1, 300) <= 0)
			break;
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	t0 = fx_now();
	vk_stream_stop(&s);
	took = fx_now() - t0;
	q = stat_of("FX_QUARANTINED", "dma_quarantined_pages");
	TH_LOG("STREAMOFF of a board that does not answer took %.1f s; %lld pages kept out of circulation",
	       took, q - q0);
	EXPECT_LT(took, 10.0);
	EXPECT_GT(q, q0);
	if (klog >= 0)
		EXPECT_GT(fx_klog_count(klog, "quarantin", true), 0);

	/* The board answers again: the node streams again. */
	sleep(7);
	ASSERT_EQ(fx_fw(NULL, 0, "fault clear"), 0);
	t0 = fx_now();
	while (vk_stream_start(&s, V4L2_PIX_FMT_YUYV, W, H, FPS, 6)) {
		vk_stream_stop(&s);
		ASSERT_LT(fx_now() - t0, 30.0);
		sleep(1);
	}
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		EXPECT_FALSE(b.flags & V4L2_BUF_FLAG_ERROR);
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	vk_stream_stop(&s);
}

VTEST_MAIN()
