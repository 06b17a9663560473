// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The capture thread with held buffers: a source whose buffers must come
 * back before it can fill them again, as V4L2 MMAP buffers do.  A frame
 * the UI holds is never refilled, and the frames keep coming with two
 * buffers (one always held by the UI) and while the UI holds one.
 */
#include <linux/videodev2.h>
#include <poll.h>
#include <stdatomic.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "vtest.h"
#include "vv-capture.h"

#define FAKE_MAX_BUFS	8
#define FAKE_W		8
#define FAKE_H		8
#define FAKE_SIZE	(FAKE_W * FAKE_H)

/* Buffers are queued (fillable) or out; efd counts the queued ones. */
struct fake {
	int efd;
	unsigned int count;
	uint8_t buf[FAKE_MAX_BUFS][FAKE_SIZE];
	bool queued[FAKE_MAX_BUFS];
	uint64_t sequence;
	atomic_uint bad;		/* a buffer given back twice */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int fake_open(struct vcap_source *src, const char *path,
		     const struct vcap_source_config *cfg)
{
	struct fake *f = calloc(1, sizeof(*f));

	(void)path;
	if (!f)
		return -1;
	f->count = cfg->num_buffers;
	f->efd = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
	src->mode.fourcc = V4L2_PIX_FMT_GREY;
	src->mode.width = FAKE_W;
	src->mode.height = FAKE_H;
	src->mode.bytesperline = FAKE_W;
	src->mode.sizeimage = FAKE_SIZE;
	src->priv = f;
	return 0;
}

static int fake_queue(struct fake *f, unsigned int i)
{
	uint64_t one = 1;

	f->queued[i] = true;
	return write(f->efd, &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}

static int fake_start(struct vcap_source *src)
{
	struct fake *f = src->priv;

	for (unsigned int i = 0; i < f->count; i++)
		if (fake_queue(f, i))
			return -1;
	return 0;
}

/* Fill a queued buffer with its sequence number and hand it out. */
static int fake_next(struct vcap_source *src, struct vcap_frame *frame,
		     int timeout_ms)
{
	struct fake *f = src->priv;
	struct pollfd pfd = { .fd = f->efd, .events = POLLIN };
	uint64_t n;
	unsigned int i;

	if (timeout_ms && poll(&pfd, 1, timeout_ms) <= 0)
		return VCAP_TIMEOUT;
	if (read(f->efd, &n, sizeof(n)) != sizeof(n))
		return VCAP_TIMEOUT;
	for (i = 0; i < f->count && !f->queued[i]; i++)
		;
	if (i == f->count)
		return -1;	/* counted queued, found none: a bug */
	f->queued[i] = false;
	memset(f->buf[i], (int)(f->sequence & 0xff), FAKE_SIZE);
	memset(frame, 0, sizeof(*frame));
	frame->data = f->buf[i];
	frame->bytesused = FAKE_SIZE;
	frame->length = FAKE_SIZE;
	frame->sequence = f->sequence++;
	frame->dequeue_ns = now_ns();
	frame->timestamp_ns = frame->dequeue_ns;
	frame->flags = VCAP_FRAME_TS_MONOTONIC;
	frame->index = i;
	frame->dmabuf_fd = -1;
	frame->mode = src->mode;
	frame->priv = i;
	return 0;
}

static int fake_release(struct vcap_source *src, struct vcap_frame *frame)
{
	struct fake *f = src->priv;

	if (frame->priv >= f->count || f->queued[frame->priv]) {
		atomic_fetch_add(&f->bad, 1);
		return 0;
	}
	return fake_queue(f, (unsigned int)frame->priv);
}

static int fake_stop(struct vcap_source *src)
{
	(void)src;
	return 0;
}

static void fake_close(struct vcap_source *src)
{
	struct fake *f = src->priv;

	close(f->efd);
	free(f);
}

static int fake_fd(struct vcap_source *src)
{
	return ((struct fake *)src->priv)->efd;
}

static const struct vcap_source_ops fake_ops = {
	.name = "fake",
	.open = fake_open,
	.start = fake_start,
	.next = fake_next,
	.release = fake_release,
	.stop = fake_stop,
	.close = fake_close,
	.fd = fake_fd,
};

struct rig {
	struct vcap_source *src;
	struct vv_slot slot;
	struct vv_capture capture;
	struct vv_frame *mine;
};

static void rig_up(struct vtest_meta *_vtest, struct rig *r,
		   unsigned int buffers)
{
	struct vcap_source_config cfg = { .num_buffers = buffers };

	r->src = vcap_source_open(&fake_ops, "fake", &cfg);
	ASSERT_NE(r->src, NULL);
	ASSERT_EQ(vv_slot_init(&r->slot), 0);
	ASSERT_EQ(vv_capture_init(&r->capture, r->src, &r->slot), 0);
	ASSERT_EQ((int)r->capture.hold, VV_HOLD_BUFFER);
	ASSERT_EQ(vv_capture_start(&r->capture), 0);
	r->mine = calloc(1, sizeof(*r->mine));
	ASSERT_NE(r->mine, NULL);
}

/* Tear down; how many buffers were given back twice. */
static unsigned int rig_down(struct rig *r)
{
	struct fake *f = r->src->priv;
	unsigned int bad;

	vv_capture_stop(&r->capture);
	bad = atomic_load(&f->bad);
	vv_capture_destroy(&r->capture);
	vv_slot_destroy(&r->slot);
	vcap_source_close(r->src);
	free(r->mine);
	return bad;
}

/* The held frame still shows the sequence it was filled with. */
static bool intact(const struct vv_frame *f)
{
	for (int i = 0; i < FAKE_SIZE; i++)
		if (f->data[i] != (uint8_t)(f->sequence & 0xff))
			return false;
	return true;
}

/*
 * Two buffers: while the UI holds one and the other waits in the slot,
 * the source has none.  Each take hands one back and must wake the
 * capture thread at once; without the wake each frame would wait out the
 * capture thread's 100 ms poll, and 300 frames would take 30 s.
 */
TEST(two_buffers_flow_while_the_ui_holds_one)
{
	struct rig r;
	uint64_t last = 0, t0 = now_ns();
	int got = 0;

	rig_up(_vtest, &r, 2);
	while (got < 300 && now_ns() - t0 < 10000000000ull) {
		if (!vv_slot_take(&r.slot, &r.mine, 100))
			continue;
		ASSERT_TRUE(r.mine->held);
		ASSERT_EQ(r.mine->copies, 0u);
		if (got++)
			ASSERT_GT(r.mine->sequence, last);
		last = r.mine->sequence;
		/* Held: the source cannot fill it again meanwhile. */
		usleep(100);
		ASSERT_TRUE(intact(r.mine));
	}
	TH_LOG("%d frames in %.2f s", got, (now_ns() - t0) / 1e9);
	ASSERT_EQ(got, 300);
	ASSERT_LT(now_ns() - t0, 5000000000ull);
	ASSERT_FALSE(vv_capture_failed(&r.capture));
	ASSERT_EQ(rig_down(&r), 0u);
}

/*
 * Three buffers: the UI holds one for a long time, and the capture goes
 * on through the other two, each replaced frame given straight back.
 */
TEST(capture_goes_on_while_the_ui_holds_a_frame)
{
	struct rig r;
	uint64_t held_seq;

	rig_up(_vtest, &r, 3);
	ASSERT_TRUE(vv_slot_take(&r.slot, &r.mine, 2000));
	held_seq = r.mine->sequence;
	usleep(200000);
	ASSERT_TRUE(intact(r.mine));
	ASSERT_EQ(r.mine->sequence, held_seq);
	ASSERT_TRUE(vv_slot_take(&r.slot, &r.mine, 2000));
	TH_LOG("held %llu, then took %llu, %llu replaced",
	       (unsigned long long)held_seq,
	       (unsigned long long)r.mine->sequence,
	       (unsigned long long)vv_slot_replaced(&r.slot));
	ASSERT_GT(r.mine->sequence, held_seq + 10);
	ASSERT_GT(vv_slot_replaced(&r.slot), 10u);
	ASSERT_TRUE(intact(r.mine));
	ASSERT_EQ(rig_down(&r), 0u);
}

VTEST_MAIN()
