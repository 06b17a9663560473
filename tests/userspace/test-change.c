// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* libvcap source changes: mode differences, their text, stats segments. */
#include <libvcap.h>

#include "ut.h"

#define YUYV 0x56595559u	/* v4l2_fourcc('Y', 'U', 'Y', 'V') */
#define NV12 0x3231564eu	/* v4l2_fourcc('N', 'V', '1', '2') */

static const struct vcap_mode p1080 = {
	.fourcc = YUYV, .width = 1920, .height = 1080, .bytesperline = 3840,
	.sizeimage = 3840 * 1080, .interval_num = 1, .interval_den = 60,
};
static const struct vcap_mode p720 = {
	.fourcc = YUYV, .width = 1280, .height = 720, .bytesperline = 2560,
	.sizeimage = 2560 * 720, .interval_num = 1, .interval_den = 60,
};

static void test_diff(void)
{
	struct vcap_mode m = p1080;

	CHECK_EQ(vcap_mode_diff(&p1080, &p1080), 0);
	CHECK_EQ(vcap_mode_diff(&p1080, &p720), VCAP_CHANGE_SIZE);
	m.interval_den = 30;
	CHECK_EQ(vcap_mode_diff(&p1080, &m), VCAP_CHANGE_RATE);
	/* The same rate as another fraction is no change. */
	m.interval_num = 2;
	m.interval_den = 120;
	CHECK_EQ(vcap_mode_diff(&p1080, &m), 0);
	/* An unknown interval or stride matches any. */
	m = p1080;
	m.interval_num = m.interval_den = 0;
	m.bytesperline = 0;
	CHECK_EQ(vcap_mode_diff(&p1080, &m), 0);
	m = p1080;
	m.bytesperline = 4096;
	CHECK_EQ(vcap_mode_diff(&p1080, &m), VCAP_CHANGE_SIZE);
	m = p720;
	m.fourcc = NV12;
	m.interval_den = 50;
	CHECK_EQ(vcap_mode_diff(&p1080, &m),
		 VCAP_CHANGE_FORMAT | VCAP_CHANGE_SIZE | VCAP_CHANGE_RATE);
}

static void test_str(void)
{
	struct vcap_source_change c = {
		.what = VCAP_CHANGE_SIZE, .signal = true,
		.old_mode = p1080, .mode = p720, .count = 1,
	};
	char buf[256], tiny[12];

	CHECK_STR(vcap_change_str(&c, buf, sizeof(buf)),
		  "YUYV 1920x1080 @ 60 fps -> YUYV 1280x720 @ 60 fps (size)");
	c.what = VCAP_CHANGE_SIGNAL_LOST;
	c.signal = false;
	CHECK_EQ(strcmp(vcap_change_str(&c, buf, sizeof(buf)), "signal lost"),
		 0);
	c.what = VCAP_CHANGE_SIGNAL_BACK;
	c.signal = true;
	c.old_mode = p720;
	c.no_signal_ns = 2104000000ull;
	vcap_change_str(&c, buf, sizeof(buf));
	CHECK_STR(buf, "signal back after 2.104 s: YUYV 1280x720 @ 60 fps (unchanged)");
	c.what = VCAP_CHANGE_SIGNAL_BACK | VCAP_CHANGE_SIZE | VCAP_CHANGE_RATE;
	c.old_mode = p1080;
	c.old_mode.interval_den = 30;
	vcap_change_str(&c, buf, sizeof(buf));
	CHECK_STR(buf, "signal back after 2.104 s: YUYV 1920x1080 @ 30 fps -> YUYV 1280x720 @ 60 fps (size, rate)");
	/* A short buffer is cut, still terminated. */
	vcap_change_str(&c, tiny, sizeof(tiny));
	CHECK_EQ(strlen(tiny), sizeof(tiny) - 1);
	CHECK_EQ(strncmp(tiny, "signal back", sizeof(tiny) - 1), 0);
}

static void test_segments(void)
{
	struct vcap_stats *st = vcap_stats_new(0);
	struct vcap_stats_summary s;

	CHECK(st);
	vcap_stats_start(st);
	for (uint64_t i = 0; i < 10; i++)
		vcap_stats_add(st, i, 0, 1000 * (i + 1), 0);
	/* A restarted stream numbers from 0 again: no step back counted. */
	vcap_stats_new_segment(st);
	for (uint64_t i = 0; i < 5; i++)
		vcap_stats_add(st, i, 0, 20000 + 1000 * i, 0);
	/* A gap inside the new segment still counts. */
	vcap_stats_add(st, 7, 0, 30000, 0);
	vcap_stats_stop(st);
	vcap_stats_get(st, &s);
	CHECK_EQ(s.frames, 16);
	CHECK_EQ(s.reorders, 0);
	CHECK_EQ(s.drops, 2);
	/* Without the new segment the restart is a step back. */
	vcap_stats_start(st);
	vcap_stats_add(st, 9, 0, 1000, 0);
	vcap_stats_add(st, 0, 0, 2000, 0);
	vcap_stats_get(st, &s);
	CHECK_EQ(s.reorders, 1);
	vcap_stats_destroy(st);
}

int main(void)
{
	test_diff();
	test_str();
	test_segments();
	UT_DONE();
}
