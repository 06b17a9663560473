/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Frame pacing on an absolute CLOCK_MONOTONIC schedule: frame n is due at
 * start + n * interval, computed from n each time, so errors never add up.
 */
#ifndef FW_PACE_H
#define FW_PACE_H

#include <stdint.h>

struct fw_pace {
	uint64_t start_ns;
	uint32_t num;		/* interval: num / den seconds */
	uint32_t den;
	uint64_t n;		/* index of the next frame */
	uint64_t late;		/* deadlines missed by more than an interval */
};

uint64_t fw_now_ns(void);

void fw_pace_start(struct fw_pace *p, uint32_t num, uint32_t den,
		   uint64_t now_ns);

/* When the next frame is due. */
uint64_t fw_pace_deadline(const struct fw_pace *p);

/*
 * Account for a frame produced at now_ns and move to the next deadline.
 * A producer more than one interval behind skips the deadlines it missed
 * (counted in late) instead of bursting to catch up.
 */
void fw_pace_advance(struct fw_pace *p, uint64_t now_ns);

/* Move past every deadline up to now_ns without counting them late. */
void fw_pace_skip_to(struct fw_pace *p, uint64_t now_ns);

/*
 * Keep the next frame due no earlier than now_ns: the schedule waits
 * with it, and frame numbers go on from it without a gap.
 */
void fw_pace_hold(struct fw_pace *p, uint64_t now_ns);
/*
 * Another interval from now on: the next frame, still numbered n, is
 * due now, and the numbers go on from it.
 */
void fw_pace_retime(struct fw_pace *p, uint32_t num, uint32_t den,
		    uint64_t now_ns);

#endif /* FW_PACE_H */
