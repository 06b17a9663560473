/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Scaling and colour conversion of file frames into a board format. */
#ifndef FW_CONVERT_H
#define FW_CONVERT_H

#include "vcap-pattern.h"

/* Planar layouts a Y4M file may carry, besides the board's own formats. */
#define FW_FMT_YUV422P	VCAP_FOURCC('4', '2', '2', 'P')
#define FW_FMT_YUV444P	VCAP_FOURCC('4', '4', '4', 'P')

/* A source picture: any board format, or one of the planar ones above. */
struct fw_image {
	u32 fourcc;
	u32 width;
	u32 height;
	u32 bytesperline;	/* of plane 0 */
	const u8 *data;
};

/* Bytes of one picture with tightly packed planes; 0 if unknown. */
u64 fw_image_size(u32 fourcc, u32 width, u32 height);

/*
 * Draw src into dst (fmt) as a src_w x src_h source shows it: scaled by
 * nearest neighbour to fit that source's picture in fmt (vcap_letterbox()),
 * flipped inside it, black around it.
 */
void fw_convert(const struct fw_image *src, const struct vcap_frame_fmt *fmt,
		u8 *dst, u32 flags, u32 src_w, u32 src_h);

#endif /* FW_CONVERT_H */
