// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The HDMI timings the board knows: each plays at the frame rate of its
 * name, survives the trip through the control page, and is what the
 * match accepts and what feeds a capture of its size and rate; a measured
 * timing off the table, a broken one or another rate is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vtest.h"
#include "vcap-timings.h"

TEST(every_timing_plays_at_the_rate_its_name_says)
{
	unsigned int i, n = vcap_timings_count();

	ASSERT_GE(n, 8);
	for (i = 0; i < n; i++) {
		const struct vcap_timing_def *d = vcap_timings_get(i);
		struct vcap_board_timing bt;
		struct vcap_timing t;
		unsigned int fps;
		char *p;

		ASSERT_NE(d, NULL);
		p = strrchr(d->name, 'p');
		ASSERT_NE(p, NULL);
		fps = (unsigned int)strtoul(p + 1, NULL, 10);
		EXPECT_TRUE(vcap_timing_rate_is(&d->t, 1, fps));
		EXPECT_FALSE(vcap_timing_rate_is(&d->t, 1, fps + 1));
		EXPECT_FALSE(vcap_timing_rate_is(&d->t, 1001, fps * 1000));
		vcap_timing_to_board(&d->t, &bt);
		ASSERT_EQ(vcap_timing_from_board(&bt, &t), 0);
		EXPECT_EQ(memcmp(&t, &d->t, sizeof(t)), 0);
		EXPECT_EQ(vcap_timings_match(&t), d);
		EXPECT_EQ(vcap_timings_by_name(d->name), d);
	}
	EXPECT_EQ(vcap_timings_get(n), NULL);
	EXPECT_EQ(vcap_timings_by_name("1080p61"), NULL);
	EXPECT_EQ(vcap_timings_by_name("1080p6"), NULL);
	EXPECT_EQ(vcap_timings_by_name(""), NULL);
}

TEST(a_measured_timing_matches_within_half_a_percent)
{
	struct vcap_timing t = vcap_timings_by_name("1080p60")->t;

	t.pixelclock = 148500000 + 500000;
	EXPECT_EQ(vcap_timings_match(&t), vcap_timings_by_name("1080p60"));
	t.pixelclock = 148500000 + 800000;
	EXPECT_EQ(vcap_timings_match(&t), NULL);
	t = vcap_timings_by_name("1080p60")->t;
	t.hbackporch++;
	EXPECT_EQ(vcap_timings_match(&t), NULL);
	t = vcap_timings_by_name("720p60")->t;
	t.polarities = 0;
	EXPECT_EQ(vcap_timings_match(&t), NULL);
}

TEST(broken_board_timings_are_refused)
{
	const struct vcap_timing good = vcap_timings_by_name("720p50")->t;
	struct vcap_board_timing bt;
	struct vcap_timing t;

	vcap_timing_to_board(&good, &bt);
	bt.width = 0;
	EXPECT_EQ(vcap_timing_from_board(&bt, &t), -EINVAL);
	vcap_timing_to_board(&good, &bt);
	bt.height = htole32(0xffffffff);
	EXPECT_EQ(vcap_timing_from_board(&bt, &t), -EINVAL);
	vcap_timing_to_board(&good, &bt);
	bt.pixelclock = htole64(~0ull);
	EXPECT_EQ(vcap_timing_from_board(&bt, &t), -EINVAL);
	vcap_timing_to_board(&good, &bt);
	bt.pixelclock = 0;
	EXPECT_EQ(vcap_timing_from_board(&bt, &t), -EINVAL);
	vcap_timing_to_board(&good, &bt);
	bt.vbackporch = htole32(1u << 31);
	EXPECT_EQ(vcap_timing_from_board(&bt, &t), -EINVAL);
	vcap_timing_to_board(&good, &bt);
	bt.interlaced = htole32(1);
	EXPECT_EQ(vcap_timing_from_board(&bt, &t), -EINVAL);
	vcap_timing_to_board(&good, &bt);
	bt.polarities = htole32(4);
	EXPECT_EQ(vcap_timing_from_board(&bt, &t), -EINVAL);
}

TEST(only_a_locked_source_of_the_size_and_rate_feeds_a_capture)
{
	const struct vcap_timing *src = &vcap_timings_by_name("1080p50")->t;

	EXPECT_TRUE(vcap_timings_link_feeds(VCAP_LINK_LOCKED, src, 1920, 1080,
					    1, 50));
	EXPECT_TRUE(vcap_timings_link_feeds(VCAP_LINK_LOCKED, src, 1920, 1080,
					    2, 100));
	EXPECT_FALSE(vcap_timings_link_feeds(VCAP_LINK_NO_SIGNAL, src, 1920,
					     1080, 1, 50));
	EXPECT_FALSE(vcap_timings_link_feeds(VCAP_LINK_UNSTABLE, src, 1920,
					     1080, 1, 50));
	EXPECT_FALSE(vcap_timings_link_feeds(VCAP_LINK_OUT_OF_RANGE, src, 1920,
					     1080, 1, 50));
	EXPECT_FALSE(vcap_timings_link_feeds(VCAP_LINK_LOCKED, src, 1920, 1080,
					     1, 60));
	EXPECT_FALSE(vcap_timings_link_feeds(VCAP_LINK_LOCKED, src, 1280, 720,
					     1, 50));
	EXPECT_FALSE(vcap_timings_link_feeds(VCAP_LINK_LOCKED, src, 1920, 1080,
					     0, 50));
}

VTEST_MAIN()
