/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The HDMI timings of the board's receiver: the CEA-861 and DMT
 * progressive timings a source plays and the driver offers.  Shared by the
 * firmware and the software board, which play them, and by the driver,
 * which lists them and matches what the receiver measured against them.
 */
#ifndef _VCAP_TIMINGS_H
#define _VCAP_TIMINGS_H

#include "vcap-types.h"
#include <vcap/board.h>

/* vcap_board_timing.polarities: the values of V4L2_DV_{V,H}SYNC_POS_POL. */
#define VCAP_TIMING_VSYNC_POS	0x1u
#define VCAP_TIMING_HSYNC_POS	0x2u

/* A timing, in CPU byte order. */
struct vcap_timing {
	u32 width;
	u32 height;
	u64 pixelclock;			/* Hz */
	u32 hfrontporch;
	u32 hsync;
	u32 hbackporch;
	u32 vfrontporch;
	u32 vsync;
	u32 vbackporch;
	u32 polarities;			/* VCAP_TIMING_* */
	u32 interlaced;
};

/* One timing the board knows by name. */
struct vcap_timing_def {
	const char *name;		/* "1080p60": what source commands take */
	bool cea861;			/* CEA-861; else VESA DMT */
	struct vcap_timing t;
};

unsigned int vcap_timings_count(void);
/* The i-th known timing, from the smallest; NULL past the end. */
const struct vcap_timing_def *vcap_timings_get(unsigned int i);
const struct vcap_timing_def *vcap_timings_by_name(const char *name);
/* The known timing t is (same geometry, pixel clock within 0.5%), or NULL. */
const struct vcap_timing_def *vcap_timings_match(const struct vcap_timing *t);

/* Frame interval of t: num/den seconds, reduced to the timing's totals. */
void vcap_timing_interval(const struct vcap_timing *t, u64 *num, u64 *den);
/* Whether t's frame interval is num/den seconds, within 0.5%. */
bool vcap_timing_rate_is(const struct vcap_timing *t, u32 num, u32 den);

void vcap_timing_to_board(const struct vcap_timing *t,
			  struct vcap_board_timing *bt);
/*
 * A timing read from the board, checked: sizes and blanking within what
 * a receiver measures, a pixel clock up to 1.2 GHz, progressive.
 * Returns 0, or -EINVAL with t undefined.
 */
int vcap_timing_from_board(const struct vcap_board_timing *bt,
			   struct vcap_timing *t);

/*
 * Whether the receiver's link feeds a capture of width x height every
 * num/den seconds: locked, to a source of that size and rate.  A START on
 * the HDMI input is taken whatever the link; its frames flow while this
 * holds.
 */
bool vcap_timings_link_feeds(u32 link_state, const struct vcap_timing *src,
			     u32 width, u32 height, u32 num, u32 den);

#endif /* _VCAP_TIMINGS_H */
