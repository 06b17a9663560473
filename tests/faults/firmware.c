// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware misbehaves mid-stream and recovers: it hangs (no
 * heartbeat), dies (control page gone) and comes back, stalls (no frames,
 * heartbeat on), and changes resolution.  The driver notices within the
 * time docs/driver.md gives, returns buffers with V4L2_BUF_FLAG_ERROR or
 * sends V4L2_EVENT_SOURCE_CHANGE, never delivers a bad frame, and
 * streaming resumes without reloading anything.
 */
#include <pthread.h>

#include <vcap/board.h>

#include "fx.h"
#include "vtest.h"

/* DQBUF within ms: 0, or -1 with errno (ETIMEDOUT when nothing came). */
static int dq(struct vk_stream *s, struct v4l2_buffer *b, int ms)
{
	int r = fx_poll(s->fd, POLLIN, ms);

	if (r == 0) {
		errno = ETIMEDOUT;
		return -1;
	}
	if (r < 0)
		return -1;
	return vk_stream_dqbuf(s, b);
}

/* Good frames until n arrived; the time of the last, or 0. */
static double warm_up(struct vk_stream *s, unsigned int n)
{
	struct vcap_frame_fmt ff;
	struct v4l2_buffer b;
	struct vcap_stamp st;
	double t0 = fx_now(), last = 0;

	fx_frame_fmt(s, &ff);
	while (n && fx_now() - t0 < 15) {
		if (dq(s, &b, 1000) < 0) {
			if (errno == ETIMEDOUT)
				continue;
			return 0;
		}
		if (!(b.flags & V4L2_BUF_FLAG_ERROR) &&
		    vcap_stamp_check(&ff, s->map[b.index], b.bytesused, &st) ==
			    VCAP_STAMP_OK) {
			n--;
			last = fx_now();
		}
		if (vk_stream_qbuf(s, &b) < 0)
			return 0;
	}
	if (n)
		TH_LOG("warm-up: %u good frames missing after 15 s", n);
	return n ? 0 : last;
}

/*
 * A fault sent from a thread: the firmware fails while the application
 * goes on queueing buffers, as it would on a real board.  Blocked in the
 * relay's round trip instead, the application would let every buffer
 * fill, and a board that dies would find none queued to return.
 */
struct fault_cmd {
	const char *kind;
	unsigned int ms;
	int status;
	double t_ack;
	bool done;		/* written last, with release */
};

static void *fault_send(void *arg)
{
	struct fault_cmd *c = arg;

	c->status = fx_fw(NULL, 0, "fault %s %u", c->kind, c->ms);
	c->t_ack = fx_now();
	__atomic_store_n(&c->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The board's heartbeat and magic, read every 5 ms from its mapped control
 * page: the time of the last beat seen, and of the magic's first loss.  A
 * fault is timed from what the board did, as the driver times it, without
 * the relay's latency in either direction.
 */
struct beat_watch {
	const volatile struct vcap_board_ctrl *ctrl;
	long long last_ns;	/* CLOCK_MONOTONIC of the last beat seen */
	long long gone_ns;	/* the magic first seen lost, or 0 */
	long long here_ns;	/* the magic last seen in place */
	bool stop;
};

static void *beat_watch(void *arg)
{
	struct beat_watch *w = arg;
	uint64_t beat = w->ctrl->status.heartbeat;

	__atomic_store_n(&w->last_ns, (long long)(fx_now() * 1e9),
			 __ATOMIC_RELEASE);
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		uint64_t b = w->ctrl->status.heartbeat;

		if (b != beat) {
			beat = b;
			__atomic_store_n(&w->last_ns,
					 (long long)(fx_now() * 1e9),
					 __ATOMIC_RELEASE);
		}
		if (w->ctrl->info.magic == VCAP_BOARD_MAGIC)
			__atomic_store_n(&w->here_ns,
					 (long long)(fx_now() * 1e9),
					 __ATOMIC_RELEASE);
		else if (!__atomic_load_n(&w->gone_ns, __ATOMIC_ACQUIRE))
			__atomic_store_n(&w->gone_ns,
					 (long long)(fx_now() * 1e9),
					 __ATOMIC_RELEASE);
		usleep(5000);
	}
	return NULL;
}

static double beat_last(struct beat_watch *w)
{
	return __atomic_load_n(&w->last_ns, __ATOMIC_ACQUIRE) / 1e9;
}

/*
 * When the magic went, or 0 while it is in place.  A watcher the guest
 * has not run since the loss has not seen it yet: the loss then lies
 * after the last time it saw the magic, the earliest (and so the
 * strictest) time to judge the driver's detection from.
 */
static double beat_gone(struct beat_watch *w)
{
	long long gone = __atomic_load_n(&w->gone_ns, __ATOMIC_ACQUIRE);

	if (!gone && w->ctrl->info.magic != VCAP_BOARD_MAGIC)
		gone = __atomic_load_n(&w->here_ns, __ATOMIC_ACQUIRE);
	return gone / 1e9;
}

struct outcome {
	double detect;		/* fault sent -> first error buffer */
	double detect_min;	/* fault acknowledged -> first error buffer */
	double detect_beat;	/* last heartbeat seen -> first error buffer */
	double detect_gone;	/* magic seen lost -> first error buffer */
	double gap;		/* last good frame -> first good frame after */
	unsigned int errors;	/* buffers with V4L2_BUF_FLAG_ERROR */
	unsigned int eio;	/* DQBUF failed with EIO: restarted */
	unsigned int bad;	/* good buffers whose stamps fail */
	unsigned int after;	/* good frames after the fault */
	long long board_errors;	/* the driver's errors counter grew by */
};

/*
 * Stream 320x240 at 30 fps, send "fault KIND MS", and watch the frames
 * stop and come back (20 s at most).  A queue error (EIO) is counted, and the stream restarted as an
 * application would.
 */
static void fault_run(struct vtest_meta *_vtest, const char *kind,
		      unsigned int ms, struct outcome *o)
{
	struct vcap_frame_fmt ff;
	struct v4l2_buffer b;
	struct vcap_stamp st;
	struct vk_stream s;
	/* Static: a failed assertion returns while the thread may run. */
	static struct fault_cmd cmd;
	static struct beat_watch beat;
	double last_good, t_sent, t_err = 0, t_beat = 0, t_gone = 0, t0, now;
	pthread_t thr, beat_thr;
	bool acked = false;
	char name[32];
	long long e0;

	memset(o, 0, sizeof(*o));
	ASSERT_EQ(fx_vram_name(name, sizeof(name)), 0);
	e0 = vk_stat(name, "errors");
	beat = (struct beat_watch){ .ctrl = vk_map_ctrl() };
	ASSERT_NE(beat.ctrl, NULL);
	ASSERT_EQ(pthread_create(&beat_thr, NULL, beat_watch, &beat), 0);
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 320, 240, 30, 6), 0);
	fx_frame_fmt(&s, &ff);
	last_good = warm_up(&s, 10);
	ASSERT_GT(last_good, 0);
	cmd = (struct fault_cmd){ .kind = kind, .ms = ms };
	t_sent = fx_now();
	ASSERT_EQ(pthread_create(&thr, NULL, fault_send, &cmd), 0);
	/*
	 * Watch at least for the fault's duration, then until ten good
	 * frames have followed the longest gap between good frames.
	 */
	for (t0 = fx_now(); fx_now() - t0 < 20 &&
	     (!acked || fx_now() - cmd.t_ack < ms / 1000.0 + 0.5 ||
	      o->after < 10);) {
		if (!acked && __atomic_load_n(&cmd.done, __ATOMIC_ACQUIRE)) {
			acked = true;
			if (cmd.status)
				break;
		}
		if (dq(&s, &b, 500) < 0) {
			if (errno == ETIMEDOUT)
				continue;
			ASSERT_EQ(errno, EIO);
			if (!o->eio++)
				TH_LOG("DQBUF: EIO after %.3f s; restarting the stream",
				       fx_now() - t_sent);
			vk_stream_stop(&s);
			while (vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 320, 240,
					       30, 6) < 0 &&
			       fx_now() - t0 < 20) {
				vk_stream_stop(&s);
				usleep(200000);
			}
			continue;
		}
		now = fx_now();
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			if (!o->errors++) {
				t_err = now;
				t_beat = beat_last(&beat);
				t_gone = beat_gone(&beat);
			}
		} else if (vcap_stamp_check(&ff, s.map[b.index], b.bytesused,
					    &st) != VCAP_STAMP_OK ||
			   b.bytesused != s.pix.sizeimage) {
			o->bad++;
		} else {
			if (now - last_good > 0.5 && now - last_good > o->gap) {
				o->gap = now - last_good;
				o->after = 0;
			}
			o->after++;
			last_good = now;
		}
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	pthread_join(thr, NULL);
	__atomic_store_n(&beat.stop, true, __ATOMIC_RELEASE);
	pthread_join(beat_thr, NULL);
	vk_unmap_ctrl(beat.ctrl);
	ASSERT_EQ(cmd.status, 0);
	if (o->errors) {
		o->detect = t_err - t_sent;
		o->detect_min = t_err - cmd.t_ack;
		o->detect_beat = t_err - t_beat;
		o->detect_gone = t_gone ? t_err - t_gone : -1;
	}
	vk_stream_stop(&s);
	o->board_errors = vk_stat(name, "errors") - e0;
	TH_LOG("fault %s %u: %u error buffers, the first %.3f-%.3f s after the fault and %.3f s after the last heartbeat (%.3f s after the magic was lost); %u queue errors; frames back after a %.3f s gap, %u good frames after, %u bad; driver errors +%lld",
	       kind, ms, o->errors, o->detect_min, o->detect, o->detect_beat,
	       o->detect_gone, o->eio, o->gap, o->after, o->bad, o->board_errors);
}

static double hb_timeout(void)
{
	return fx_param("heartbeat_timeout_ms", 2000) / 1000.0;
}

/*
 * A hung board (no heartbeat, no frames): declared dead after
 * heartbeat_timeout_ms, checked by a 100 ms watchdog; frames come back
 * with the heartbeat.
 */
TEST_TIMEOUT(firmware_hang, 60)
{
	struct outcome o;

	fault_run(_vtest, "hang", 4000, &o);
	EXPECT_EQ(o.bad, 0);
	EXPECT_GE(o.errors, 1);
	EXPECT_GE(o.board_errors, 1);
	EXPECT_EQ(o.eio, 0);
	/*
	 * Timed from the last beat: the heartbeat timeout, the 100 ms
	 * watchdog, the firmware's tick.  Not early: the hang began after
	 * the fault was sent.
	 */
	EXPECT_LE(o.detect_beat, hb_timeout() + 0.6);
	EXPECT_GE(o.detect, hb_timeout() - 0.3);
	EXPECT_GE(o.after, 10);
	EXPECT_GE(o.gap, 3.0);
	EXPECT_LE(o.gap, 4.0 + 3.0);
}

/* The board vanishes (magic cleared) for 3 s, then comes back fresh. */
TEST_TIMEOUT(firmware_die, 60)
{
	struct outcome o;

	fault_run(_vtest, "die", 3000, &o);
	EXPECT_EQ(o.bad, 0);
	EXPECT_GE(o.errors, 1);
	EXPECT_GE(o.board_errors, 1);
	/*
	 * The watchdog reads the magic every 100 ms.  Timed from the loss
	 * the watcher saw; -1 if it never saw the magic gone.
	 */
	EXPECT_GE(o.detect_gone, 0);
	EXPECT_LE(o.detect_gone, 0.8);
	/* docs/driver.md: delivery resumes by itself, no restart. */
	EXPECT_EQ(o.eio, 0);
	EXPECT_GE(o.after, 10);
	EXPECT_GE(o.gap, 2.0);
	EXPECT_LE(o.gap, 3.0 + 3.0);
}

/*
 * No frames for 3 s with the heartbeat going on: not a dead board, so no
 * error buffers; frames resume by themselves.
 */
TEST_TIMEOUT(firmware_stall, 60)
{
	struct outcome o;

	fault_run(_vtest, "stall", 3000, &o);
	EXPECT_EQ(o.bad, 0);
	EXPECT_EQ(o.errors, 0);
	EXPECT_EQ(o.eio, 0);
	EXPECT_EQ(o.board_errors, 0);
	EXPECT_GE(o.after, 10);
	EXPECT_GE(o.gap, 2.5);
	EXPECT_LE(o.gap, 3.0 + 3.0);
}

/*
 * The board changes resolution mid-stream: V4L2_EVENT_SOURCE_CHANGE
 * arrives, no frame of the new size lands in a buffer of the old
 * format, the queue errors, G_FMT and the VRAM node report the board's
 * new mode, and the application renegotiates to it and streams again.
 */
TEST_TIMEOUT(firmware_resize, 90)
{
	struct v4l2_event_subscription sub = {
		.type = V4L2_EVENT_SOURCE_CHANGE,
	};
	struct vcap_frame_fmt ff;
	struct v4l2_format gf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_buffer b;
	struct v4l2_event ev;
	struct vcap_stamp st;
	struct vcap_info in;
	struct vk_stream s;
	double t0, t_event = 0, t_eio = 0;
	unsigned int good = 0, bad = 0, i;
	char path[64];
	int vfd, r;

	ASSERT_EQ(vk_find_vram(path, sizeof(path), NULL, 0), 0);
	vfd = open(path, O_RDONLY);
	ASSERT_GE(vfd, 0);
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 15, 6), 0);
	ASSERT_EQ(ioctl(s.fd, VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	fx_frame_fmt(&s, &ff);
	ASSERT_GT(warm_up(&s, 5), 0);

	ASSERT_EQ(fx_fw(NULL, 0, "fault resize 320x240"), 0);
	t0 = fx_now();
	while (fx_now() - t0 < 10 && !(t_event && t_eio)) {
		r = fx_poll(s.fd, POLLIN | POLLPRI, 500);
		if (r <= 0)
			continue;
		if ((r & POLLPRI) && ioctl(s.fd, VIDIOC_DQEVENT, &ev) == 0 &&
		    ev.type == V4L2_EVENT_SOURCE_CHANGE && !t_event) {
			t_event = fx_now();
			EXPECT_TRUE(ev.u.src_change.changes &
				    V4L2_EVENT_SRC_CH_RESOLUTION);
		}
		if (!(r & (POLLIN | POLLERR)) || t_eio)
			continue;
		if (vk_stream_dqbuf(&s, &b) < 0) {
			if (errno == EIO)
				t_eio = fx_now();
			else if (errno != EAGAIN)
				ASSERT_EQ(errno, EIO);
			continue;
		}
		if (!(b.flags & V4L2_BUF_FLAG_ERROR)) {
			/* A good buffer is a whole 640x480 frame. */
			if (b.bytesused == s.pix.sizeimage &&
			    vcap_stamp_check(&ff, s.map[b.index], b.bytesused,
					     &st) == VCAP_STAMP_OK)
				good++;
			else
				bad++;
		}
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	TH_LOG("resize: event after %.3f s, queue error after %.3f s, %u good 640x480 frames after the request, %u bad",
	       t_event ? t_event - t0 : -1.0, t_eio ? t_eio - t0 : -1.0, good,
	       bad);
	EXPECT_GT(t_event, 0);
	EXPECT_GT(t_eio, 0);
	EXPECT_EQ(bad, 0);

	/* What the application can learn of the new mode. */
	ASSERT_EQ(ioctl(vfd, VCAP_IOC_QUERY, &in), 0);
	ASSERT_EQ(ioctl(s.fd, VIDIOC_G_FMT, &gf), 0);
	TH_LOG("after the change: VRAM node reports %ux%u (%s), G_FMT %ux%u",
	       in.width, in.height,
	       in.flags & VCAP_INFO_STREAMING ? "streaming" : "stopped",
	       gf.fmt.pix.width, gf.fmt.pix.height);
	EXPECT_TRUE(in.flags & VCAP_INFO_STREAMING);
	EXPECT_EQ(in.width, 320);
	EXPECT_EQ(in.height, 240);
	/* The format follows the source: G_FMT says what to allocate for. */
	EXPECT_EQ(gf.fmt.pix.width, 320);
	EXPECT_EQ(gf.fmt.pix.height, 240);
	EXPECT_EQ(gf.fmt.pix.sizeimage, 320 * 240 * 2);
	vk_stream_stop(&s);
	close(vfd);

	/* Renegotiate to the board's new size and stream whole frames. */
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 320, 240, 15, 6), 0);
	fx_frame_fmt(&s, &ff);
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(dq(&s, &b, 5000), 0);
		EXPECT_FALSE(b.flags & V4L2_BUF_FLAG_ERROR);
		EXPECT_EQ(b.bytesused, 320 * 240 * 2);
		EXPECT_EQ(vcap_stamp_check(&ff, s.map[b.index], b.bytesused,
					   &st), VCAP_STAMP_OK);
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	vk_stream_stop(&s);
	/* And back to the first size: the board follows the request. */
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 15, 6), 0);
	ASSERT_GT(warm_up(&s, 5), 0);
	vk_stream_stop(&s);
}

VTEST_MAIN()
