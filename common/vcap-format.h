/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Pixel formats the board produces: plane layout and image size. */
#ifndef _VCAP_FORMAT_H
#define _VCAP_FORMAT_H

#include "vcap-types.h"

#define VCAP_FOURCC(a, b, c, d) \
	((u32)(a) | ((u32)(b) << 8) | ((u32)(c) << 16) | ((u32)(d) << 24))

/* The same values as V4L2_PIX_FMT_*. */
#define VCAP_FMT_YUYV		VCAP_FOURCC('Y', 'U', 'Y', 'V')
#define VCAP_FMT_UYVY		VCAP_FOURCC('U', 'Y', 'V', 'Y')
#define VCAP_FMT_NV12		VCAP_FOURCC('N', 'V', '1', '2')
#define VCAP_FMT_YUV420		VCAP_FOURCC('Y', 'U', '1', '2')
#define VCAP_FMT_RGB24		VCAP_FOURCC('R', 'G', 'B', '3')
#define VCAP_FMT_BGR24		VCAP_FOURCC('B', 'G', 'R', '3')
#define VCAP_FMT_XRGB32		VCAP_FOURCC('B', 'X', '2', '4')
#define VCAP_FMT_XBGR32		VCAP_FOURCC('X', 'R', '2', '4')
#define VCAP_FMT_GREY		VCAP_FOURCC('G', 'R', 'E', 'Y')

#define VCAP_MIN_WIDTH		160
#define VCAP_MIN_HEIGHT		120
#define VCAP_MAX_WIDTH		3840
#define VCAP_MAX_HEIGHT		2160
#define VCAP_MAX_BYTESPERLINE	(VCAP_MAX_WIDTH * 4 * 2)

#define VCAP_PLANAR_NONE	0
#define VCAP_PLANAR_NV		1
#define VCAP_PLANAR_YUV		2

/* Byte order of one pixel in packed formats (struct vcap_format_info.order). */
enum vcap_pixel_order {
	VCAP_ORDER_YUYV,
	VCAP_ORDER_UYVY,
	VCAP_ORDER_Y,		/* luma only, or luma plane of a 4:2:0 format */
	VCAP_ORDER_RGB,		/* R G B */
	VCAP_ORDER_BGR,		/* B G R */
	VCAP_ORDER_XRGB,	/* X R G B */
	VCAP_ORDER_BGRX,	/* B G R X */
};

struct vcap_format_info {
	u32 fourcc;
	const char *name;
	u8 bpp;			/* bytes per pixel in plane 0 (YUYV: 2) */
	/*
	 * 4:2:0 chroma planes follow the luma plane: VCAP_PLANAR_NV (one
	 * CbCr plane, NV12) or VCAP_PLANAR_YUV (Cb then Cr plane, YU12).
	 */
	u8 planar;
	u8 hsub;		/* horizontal alignment of the width */
	u8 vsub;		/* vertical alignment of the height */
	u8 order;		/* enum vcap_pixel_order */
	u8 is_rgb;
};

/* Table lookup; NULL for a format the board does not produce. */
const struct vcap_format_info *vcap_format_find(u32 fourcc);
const struct vcap_format_info *vcap_format_by_index(unsigned int index);
unsigned int vcap_format_count(void);

/* Smallest bytesperline of plane 0 for width (no overflow: width is bounded). */
u32 vcap_format_min_bpl(const struct vcap_format_info *fi, u32 width);

/*
 * Whole image size for a bytesperline of plane 0, chroma planes included;
 * 0 if the geometry is out of range.  Computed in 64 bits.
 */
u64 vcap_format_sizeimage(const struct vcap_format_info *fi, u32 bpl,
			  u32 height);

#endif /* _VCAP_FORMAT_H */
