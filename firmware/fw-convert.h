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

/* Where the planes of a picture lie, chroma planes following plane 0. */
struct fw_planes {
	unsigned int n;		/* 1 to 3 */
	u64 off[3];		/* of each plane's first row */
	u32 bpl[3];
	u32 bytes[3];		/* of the pixels of one row */
	u32 rows[3];
};

/* The planes of a width x height picture of fourcc, bpl bytes per line. */
void fw_image_planes(u32 fourcc, u32 width, u32 height, u32 bpl,
		     struct fw_planes *p);

/*
 * Draw src into dst (fmt) as a src_w x src_h source shows it: scaled to
 * fit that source's picture in fmt (vcap_letterbox()), flipped inside
 * it, black around it.  Through libswscale, bilinear; by the firmware's
 * own nearest neighbour scaler where the library refuses a conversion.
 */
void fw_convert(const struct fw_image *src, const struct vcap_frame_fmt *fmt,
		u8 *dst, u32 flags, u32 src_w, u32 src_h);

/* Who draws the picture: fw_convert()'s choice, or one of them. */
enum fw_convert_impl {
	FW_CONVERT_AUTO,	/* the library, by hand where it refuses */
	FW_CONVERT_LIBRARY,	/* the library only: black where it refuses */
	FW_CONVERT_NEAREST,	/* by hand, nearest neighbour */
};

/*
 * fw_convert() by impl, for the tests and the benchmark.  0, or a
 * negative errno when the picture could not be drawn as asked (left
 * black).
 */
int fw_convert_with(enum fw_convert_impl impl, const struct fw_image *src,
		    const struct vcap_frame_fmt *fmt, u8 *dst, u32 flags,
		    u32 src_w, u32 src_h);

#endif /* FW_CONVERT_H */
