/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A board's clock in this machine's: the driver carries the time stamps a
 * PCI board writes (the firmware's CLOCK_MONOTONIC; for a live source the
 * source's own capture time) into the kernel's CLOCK_MONOTONIC.
 *
 * The offset between the two clocks is estimated from the stamps as the
 * driver sees them: a frame is always seen after the board stamped it, by
 * a delay that varies (the interrupt, the work queue, a stalled guest)
 * but has a floor.  The smallest difference seen is the best estimate;
 * it may rise by VCAP_CLOCK_DRIFT_PPM of the time elapsed, so clocks
 * running at slightly different rates are followed.  A stamp further than
 * VCAP_CLOCK_JUMP_NS from the estimate is an outlier and changes nothing,
 * unless VCAP_CLOCK_RESEED of them come in a row: then the board's clock
 * itself jumped (another host, a restarted board) and the estimate starts
 * again.  Stamps are board values, so every step is wrap-safe and nothing
 * a board writes can make an estimate go further than one stamp.
 */
#ifndef _VCAP_CLOCK_H
#define _VCAP_CLOCK_H

#include "vcap-types.h"

#define VCAP_CLOCK_DRIFT_PPM	200
#define VCAP_CLOCK_JUMP_NS	1000000000ull
#define VCAP_CLOCK_RESEED	8

struct vcap_clock {
	bool valid;
	u64 offset;		/* local minus board, modulo 2^64 */
	u64 at;			/* local time the offset was last set */
	u32 outliers;		/* in a row */
	u64 refused;		/* outliers over the clock's life */
};

void vcap_clock_reset(struct vcap_clock *c);
/* A board stamp seen at local time now, some time after it was made. */
void vcap_clock_sample(struct vcap_clock *c, u64 board_ns, u64 now);
/* board_ns in local time; 0 while there is no estimate. */
u64 vcap_clock_map(const struct vcap_clock *c, u64 board_ns);

#endif /* _VCAP_CLOCK_H */
