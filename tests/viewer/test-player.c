// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The player against a display that is slow to set up, as SDL's software
 * renderer is under emulation when several viewers start at once: made
 * ready for the source's mode before the capture starts, it skips none of
 * the first frames.
 */
#include <linux/videodev2.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "vtest.h"
#include "vv-args.h"
#include "vv-capture.h"
#include "vv-player.h"
#include "vv-sink.h"
#include "vv-testsrc.h"

#define SLOW_START_MS	300

struct slow {
	unsigned int starts;
	unsigned int shown;
	uint64_t first_seq;	/* of the first frame shown */
};

static struct slow slow;

static int slow_init(struct vv_sink *s, const struct vv_sink_config *cfg)
{
	(void)s;
	(void)cfg;
	return 0;
}

static int slow_start(struct vv_sink *s, const struct vcap_mode *mode)
{
	struct timespec ts = { 0, SLOW_START_MS * 1000000L };

	(void)mode;
	slow.starts++;
	snprintf(s->path, sizeof(s->path), "slow");
	nanosleep(&ts, NULL);
	return 0;
}

static int slow_show(struct vv_sink *s, struct vv_frame *f,
		     const struct vv_overlay_bitmap *ov)
{
	(void)s;
	(void)ov;
	if (f) {
		f->copies++;
		if (!slow.shown++)
			slow.first_seq = f->sequence;
	}
	return 0;
}

static int slow_poll(struct vv_sink *s, enum vv_action *a, int max)
{
	(void)s;
	(void)a;
	(void)max;
	return 0;
}

static int slow_fullscreen(struct vv_sink *s, bool on)
{
	(void)s;
	(void)on;
	return 0;
}

static int slow_snapshot(struct vv_sink *s, const char *path)
{
	(void)s;
	(void)path;
	return 0;
}

static void slow_stop(struct vv_sink *s)
{
	(void)s;
}

static const struct vv_sink_ops slow_ops = {
	.name = "slow",
	.init = slow_init,
	.start = slow_start,
	.show = slow_show,
	.poll = slow_poll,
	.set_fullscreen = slow_fullscreen,
	.snapshot = slow_snapshot,
	.stop = slow_stop,
	.destroy = slow_stop,
};

/* As vcap-view wires them: the player prepared before the capture. */
TEST(a_slow_display_setup_skips_no_first_frame)
{
	static volatile sig_atomic_t quit;
	struct vcap_source_config cfg = { 0 };
	struct vv_options opt = { .device = "test:bars", .frames = 10,
				  .timeout_s = 10 };
	struct vv_sink sink = { .ops = &slow_ops };
	struct vcap_source *src;
	struct vv_capture cap;
	struct vv_player p;
	struct vv_slot slot;

	memset(&slow, 0, sizeof(slow));
	/* A frame every 50 ms: six of them while the display sets up. */
	cfg.mode.fourcc = V4L2_PIX_FMT_YUYV;
	cfg.mode.width = 64;
	cfg.mode.height = 48;
	cfg.mode.interval_num = 1;
	cfg.mode.interval_den = 20;
	src = vcap_source_open(&vv_testsrc_ops, "test:bars", &cfg);
	ASSERT_NE(src, NULL);
	ASSERT_EQ(vv_slot_init(&slot), 0);
	ASSERT_EQ(vv_capture_init(&cap, src, &slot), 0);
	ASSERT_EQ(sink.ops->init(&sink, NULL), 0);
	ASSERT_EQ(vv_player_init(&p, &opt, &sink, &slot, &cap, &quit), 0);
	ASSERT_EQ(vv_player_prepare(&p, &src->mode), 0);
	ASSERT_EQ(slow.starts, 1u);
	ASSERT_EQ(vv_capture_start(&cap), 0);
	ASSERT_EQ(vv_player_run(&p), 0);
	vv_player_destroy(&p);
	vv_capture_stop(&cap);
	TH_LOG("%u shown, the first frame %llu, %u starts, %llu replaced",
	       slow.shown, (unsigned long long)slow.first_seq, slow.starts,
	       (unsigned long long)vv_slot_replaced(&slot));
	ASSERT_EQ(slow.shown, 10u);
	/*
	 * The first frame found the display ready for its mode: it is the
	 * one shown first, and the set-up's six frame periods replaced
	 * none.  A loaded host may still delay the player past a frame
	 * period now and then: fewer replaced than the set-up would cost.
	 */
	ASSERT_EQ(slow.starts, 1u);
	ASSERT_EQ(slow.first_seq, 0u);
	ASSERT_LT(vv_slot_replaced(&slot), SLOW_START_MS / 50u / 2u);
	vv_capture_destroy(&cap);
	vv_slot_destroy(&slot);
	vcap_source_close(src);
}

/* A source whose mode is not known yet: the first frame sets it up. */
TEST(no_mode_no_preparation)
{
	static volatile sig_atomic_t quit;
	struct vv_options opt = { .device = "x" };
	struct vv_sink sink = { .ops = &slow_ops };
	struct vcap_mode none = { 0 };
	struct vv_player p;

	memset(&slow, 0, sizeof(slow));
	ASSERT_EQ(vv_player_init(&p, &opt, &sink, NULL, NULL, &quit), 0);
	ASSERT_EQ(vv_player_prepare(&p, &none), 0);
	ASSERT_EQ(slow.starts, 0u);
	ASSERT_FALSE(p.started);
	vv_player_destroy(&p);
}

VTEST_MAIN()
