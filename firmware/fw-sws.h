/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Scaling and colour conversion through libswscale, its contexts cached. */
#ifndef FW_SWS_H
#define FW_SWS_H

#include "fw-convert.h"

/*
 * Draw src, scaled bilinear and converted, into the rectangle pic of dst
 * (fmt), flipped inside it; nothing outside pic is written.  pic's edges
 * are even.  0, -ENOTSUP if libswscale refuses the conversion (said once
 * on stderr), -ENOMEM.
 */
int fw_sws_draw(const struct fw_image *src, const struct vcap_frame_fmt *fmt,
		u8 *dst, const struct vcap_rect *pic, u32 flags);

/* What the cache did, for the tests. */
struct fw_sws_stats {
	u64 made;		/* contexts made */
	u64 reused;		/* conversions with a cached context */
	u64 refused;		/* conversions libswscale refused */
};

void fw_sws_get_stats(struct fw_sws_stats *st);

/* Free the cached contexts now; the cache also frees them at exit. */
void fw_sws_release(void);

#endif /* FW_SWS_H */
