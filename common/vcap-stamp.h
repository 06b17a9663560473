/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Frame stamps: a frame number and a frame checksum drawn into the luma of
 * a band near the top and one near the bottom of every pattern frame, so
 * that any reader can prove order, no drops and no tearing.
 */
#ifndef _VCAP_STAMP_H
#define _VCAP_STAMP_H

#include "vcap-types.h"
#include "vcap-pattern.h"

struct vcap_stamp {
	u64 seq;		/* frame number */
	u32 checksum;		/* of the frame content outside the stamps */
};

enum vcap_stamp_result {
	VCAP_STAMP_OK = 0,	/* both stamps decode and agree */
	VCAP_STAMP_MISSING,	/* no stamp found (not a vcap frame) */
	VCAP_STAMP_CORRUPT,	/* a stamp fails its own check */
	VCAP_STAMP_TORN,	/* top and bottom disagree */
	VCAP_STAMP_BAD_SUM,	/* stamps agree, content does not match */
};

/*
 * Geometry of a stamp band: VCAP_STAMP_CELLS cells of cell_w pixels,
 * centred, band_h rows high, at rows 0.. and height - band_h.. of the luma.
 */
#define VCAP_STAMP_CELLS	136
#define VCAP_STAMP_SYNC		0x9au
#define VCAP_SUM_ROW_STEP	16	/* every 16th row is summed ... */
#define VCAP_SUM_ROW_FIRST	8	/* ... starting at row 8 */

struct vcap_stamp_geom {
	u32 cell_w;
	u32 x0;			/* first cell's column */
	u32 band_h;
};

/* 0, or -EINVAL if fmt cannot carry a stamp. */
int vcap_stamp_geom(const struct vcap_frame_fmt *fmt,
		    struct vcap_stamp_geom *sg);

/*
 * The frame checksum: a Fletcher-style sum over every 16th row of each
 * plane (visible bytes only), luma rows inside the stamp bands left out.
 */
u32 vcap_stamp_sum(const struct vcap_frame_fmt *fmt, const void *frame);

/* Draw both stamps for seq into a rendered frame. */
void vcap_stamp_write(const struct vcap_frame_fmt *fmt, void *frame,
		      u64 seq, u32 checksum);

/* Decode and check a frame; out gets the top stamp when it decodes. */
enum vcap_stamp_result vcap_stamp_check(const struct vcap_frame_fmt *fmt,
					const void *frame, size_t len,
					struct vcap_stamp *out);

const char *vcap_stamp_result_str(enum vcap_stamp_result r);

#endif /* _VCAP_STAMP_H */
