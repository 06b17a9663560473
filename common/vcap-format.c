// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The pixel formats the board produces, and their plane geometry. */
#include "vcap-format.h"

static const struct vcap_format_info vcap_formats[] = {
	{ VCAP_FMT_YUYV, "YUYV 4:2:2", 2, VCAP_PLANAR_NONE, 2, 1,
	  VCAP_ORDER_YUYV, 0 },
	{ VCAP_FMT_UYVY, "UYVY 4:2:2", 2, VCAP_PLANAR_NONE, 2, 1,
	  VCAP_ORDER_UYVY, 0 },
	{ VCAP_FMT_NV12, "Y/UV 4:2:0", 1, VCAP_PLANAR_NV, 2, 2,
	  VCAP_ORDER_Y, 0 },
	{ VCAP_FMT_YUV420, "Planar YUV 4:2:0", 1, VCAP_PLANAR_YUV, 2, 2,
	  VCAP_ORDER_Y, 0 },
	{ VCAP_FMT_RGB24, "24-bit RGB 8-8-8", 3, VCAP_PLANAR_NONE, 1, 1,
	  VCAP_ORDER_RGB, 1 },
	{ VCAP_FMT_BGR24, "24-bit BGR 8-8-8", 3, VCAP_PLANAR_NONE, 1, 1,
	  VCAP_ORDER_BGR, 1 },
	{ VCAP_FMT_XRGB32, "32-bit XRGB 8-8-8-8", 4, VCAP_PLANAR_NONE, 1, 1,
	  VCAP_ORDER_XRGB, 1 },
	{ VCAP_FMT_XBGR32, "32-bit BGRX 8-8-8-8", 4, VCAP_PLANAR_NONE, 1, 1,
	  VCAP_ORDER_BGRX, 1 },
	{ VCAP_FMT_GREY, "8-bit Greyscale", 1, VCAP_PLANAR_NONE, 1, 1,
	  VCAP_ORDER_Y, 0 },
};

#define VCAP_NUM_FORMATS ARRAY_SIZE(vcap_formats)

const struct vcap_format_info *vcap_format_find(u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < VCAP_NUM_FORMATS; i++)
		if (vcap_formats[i].fourcc == fourcc)
			return &vcap_formats[i];
	return NULL;
}

const struct vcap_format_info *vcap_format_by_index(unsigned int index)
{
	return index < VCAP_NUM_FORMATS ? &vcap_formats[index] : NULL;
}

unsigned int vcap_format_count(void)
{
	return VCAP_NUM_FORMATS;
}

u32 vcap_format_min_bpl(const struct vcap_format_info *fi, u32 width)
{
	if (width > VCAP_MAX_WIDTH)
		width = VCAP_MAX_WIDTH;
	return width * fi->bpp;
}

u64 vcap_format_sizeimage(const struct vcap_format_info *fi, u32 bpl,
			  u32 height)
{
	u64 luma;

	if (!bpl || bpl > VCAP_MAX_BYTESPERLINE || !height ||
	    height > VCAP_MAX_HEIGHT || height % fi->vsub)
		return 0;
	luma = (u64)bpl * height;
	if (fi->planar == VCAP_PLANAR_NONE)
		return luma;
	/* Both 4:2:0 layouts carry half a luma plane of chroma. */
	if (bpl % 2)
		return 0;
	return luma + luma / 2;
}
