// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A PCI board's stamps in the kernel's clock (common/vcap-clock.c): the
 * offset settles on the smallest delay, so stamps keep their spacing
 * through a jittery delivery; a stamp far off changes nothing, a clock
 * that jumped is followed after a few, a drifting one within its bound,
 * and stamps anywhere in the 64-bit range work.
 */
#include <stdint.h>
#include <stdlib.h>
#include "vtest.h"
#include "vcap-clock.h"

#define MS		1000000ull
#define PERIOD		(33 * MS + 366666)	/* 30 fps */

/* A delay of 1 to 20 ms, the shortest one frame in 8. */
static u64 delay(unsigned int i, unsigned int *seed)
{
	if (i % 8 == 3)
		return MS;
	return MS + (u64)(rand_r(seed) % (19 * MS));
}

static s64 err(const struct vcap_clock *c, u64 board, u64 truth)
{
	return (s64)(vcap_clock_map(c, board) - truth);
}

TEST(no_estimate_before_a_stamp)
{
	struct vcap_clock c;

	vcap_clock_reset(&c);
	EXPECT_FALSE(c.valid);
	EXPECT_EQ(vcap_clock_map(&c, 12345), 0);
	vcap_clock_sample(&c, 1000, 5000);
	EXPECT_TRUE(c.valid);
	EXPECT_EQ(vcap_clock_map(&c, 1000), 5000);
}

TEST(settles_on_the_shortest_delay_and_keeps_the_spacing)
{
	const u64 off = 7000000000000ull;	/* the board's host up for hours */
	unsigned int seed = 1, i;
	struct vcap_clock c;
	u64 board = 5 * MS, prev = 0;

	vcap_clock_reset(&c);
	for (i = 0; i < 300; i++, board += PERIOD) {
		u64 seen = board - off + delay(i, &seed);

		vcap_clock_sample(&c, board, seen);
		/* Never later than the frame was seen. */
		ASSERT_LE(vcap_clock_map(&c, board), seen);
		if (i >= 8) {
			/* The shortest delay was seen: the rest is drift. */
			EXPECT_GE(err(&c, board, board - off), (s64)MS);
			EXPECT_LE(err(&c, board, board - off), (s64)(MS + MS / 2));
		}
		if (i >= 8 && prev) {
			u64 t = vcap_clock_map(&c, board);
			s64 spacing = (s64)(t - prev);

			EXPECT_LE(llabs(spacing - (s64)PERIOD), (s64)(MS / 2));
		}
		if (i >= 8)
			prev = vcap_clock_map(&c, board);
	}
	EXPECT_EQ(c.refused, 0);
}

TEST(a_stamp_far_off_changes_nothing)
{
	struct vcap_clock c;
	u64 board = 100 * MS, local = 900 * MS, off;
	unsigned int i;

	vcap_clock_reset(&c);
	for (i = 0; i < 10; i++, board += PERIOD, local += PERIOD)
		vcap_clock_sample(&c, board, local + MS);
	off = c.offset;
	/* From the future, from the past, nonsense. */
	vcap_clock_sample(&c, board + 50ull * 1000 * MS, local);
	vcap_clock_sample(&c, board - 50ull * 1000 * MS, local);
	vcap_clock_sample(&c, board + (1ull << 63), local);
	EXPECT_EQ(c.offset, off);
	EXPECT_EQ(c.refused, 3);
	/* A good stamp after them ends the run of outliers. */
	vcap_clock_sample(&c, board, local + MS);
	EXPECT_EQ(c.outliers, 0);
	EXPECT_EQ(c.offset, off);
}

TEST(a_clock_that_jumped_is_followed)
{
	const u64 jump = 3600ull * 1000 * MS;	/* another host's clock */
	struct vcap_clock c;
	u64 board = 100 * MS, local = 900 * MS;
	unsigned int i;

	vcap_clock_reset(&c);
	for (i = 0; i < 10; i++, board += PERIOD, local += PERIOD)
		vcap_clock_sample(&c, board, local + MS);
	board += jump;
	for (i = 0; i < VCAP_CLOCK_RESEED - 1; i++, board += PERIOD,
	     local += PERIOD) {
		vcap_clock_sample(&c, board, local + MS);
		EXPECT_NE(vcap_clock_map(&c, board), local);
	}
	vcap_clock_sample(&c, board, local + MS);
	EXPECT_EQ(vcap_clock_map(&c, board), local + MS);
	EXPECT_EQ(c.refused, VCAP_CLOCK_RESEED);
}

TEST(a_drifting_clock_is_followed_within_its_bound)
{
	/* The board's clock runs 100 ppm slow against this one. */
	unsigned int seed = 7, i;
	struct vcap_clock c;
	u64 local = 10 * MS;

	vcap_clock_reset(&c);
	for (i = 0; i < 30 * 60; i++, local += PERIOD) {
		u64 made = local - delay(i, &seed);
		u64 stamp = made - made / 10000;

		vcap_clock_sample(&c, stamp, local);
		if (i >= 30) {
			s64 e = err(&c, stamp, made);

			/* Delay floor of 1 ms, plus what the drift adds. */
			EXPECT_GE(e, 0);
			EXPECT_LE(e, (s64)(3 * MS));
		}
	}
}

TEST(stamps_anywhere_in_the_range)
{
	struct vcap_clock c;
	u64 board = UINT64_MAX - 10 * PERIOD, local = 42;
	unsigned int i;

	vcap_clock_reset(&c);
	for (i = 0; i < 20; i++, board += PERIOD, local += PERIOD) {
		vcap_clock_sample(&c, board, local + MS);
		EXPECT_EQ(vcap_clock_map(&c, board), local + MS);
	}
	EXPECT_EQ(c.refused, 0);
}

VTEST_MAIN()
