/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The board's mode table and request check, shared by the firmware and the
 * kernel's software board so that both publish the same modes and refuse
 * the same requests.
 */
#ifndef _VCAP_MODES_H
#define _VCAP_MODES_H

#include "vcap-types.h"
#include <vcap/board.h>

/*
 * Highest pixel data rate the board sustains, bytes per second: a mode is
 * offered at an interval only if sizeimage / interval stays under it.
 */
#define VCAP_MODES_MAX_RATE	BIT_ULL(32)

/* Where a started mode lives in BAR2. */
struct vcap_ring_layout {
	u32 bytesperline;
	u32 sizeimage;
	u32 num_slots;		/* VCAP_MIN_SLOTS..VCAP_MAX_SLOTS */
	u32 interval_index;	/* into info.intervals[] */
	u64 slot_stride;	/* sizeimage rounded up to a page */
	u64 ring_offset;	/* BAR2 offset of slot 0: info.frame_offset */
};

/*
 * Fill info->intervals/num_intervals and info->modes/num_modes with every
 * format x size x interval the board produces in frame_size bytes of frame
 * area with at least VCAP_MIN_SLOTS slots.  Sorted by format, then size;
 * intervals from the shortest.  Nothing else in info is touched.
 */
void vcap_modes_fill(struct vcap_board_info *info, u64 frame_size);

/*
 * Check a request against the published modes and compute its ring in
 * frame_size bytes at info->frame_offset.  Returns VCAP_ERR_NONE (out
 * filled; zeroed for VCAP_CMD_STOP) or the VCAP_ERR_* that refuses it.
 */
int vcap_modes_check(const struct vcap_board_info *info, u64 frame_size,
		     const struct vcap_board_request *req,
		     struct vcap_ring_layout *out);

/* A short name for a VCAP_ERR_* code. */
const char *vcap_modes_err_str(u32 err);

#endif /* _VCAP_MODES_H */
