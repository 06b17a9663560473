// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* The pixel format table: layouts, Y4M tags, names, frame sizes. */
#include "vcap-priv.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define FCC(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | \
	 ((uint32_t)(d) << 24))

/*
 * 4:2:0 is written as "420mpeg2": V4L2's default chroma siting for these
 * formats is the MPEG-2 one (co-sited left, between lines vertically).
 * Packed 4:2:2 is converted to planar "422" since Y4M has no packed form.
 * RGB has no Y4M colourspace: capture it raw, or snapshot to PNG.
 */
static const struct vcap_pixfmt pixfmts[] = {
	{ FCC('Y', 'U', 'Y', 'V'), "YUYV", VCAP_LAYOUT_PACKED_YUV422, 2,
	  { 0, 1, 2, 3 }, "422", true },
	{ FCC('U', 'Y', 'V', 'Y'), "UYVY", VCAP_LAYOUT_PACKED_YUV422, 2,
	  { 1, 0, 3, 2 }, "422", true },
	{ FCC('Y', 'V', 'Y', 'U'), "YVYU", VCAP_LAYOUT_PACKED_YUV422, 2,
	  { 0, 3, 2, 1 }, "422", false },
	{ FCC('V', 'Y', 'U', 'Y'), "VYUY", VCAP_LAYOUT_PACKED_YUV422, 2,
	  { 1, 2, 3, 0 }, "422", false },
	{ FCC('N', 'V', '1', '2'), "NV12", VCAP_LAYOUT_SEMI_PLANAR_420, 1,
	  { 0 }, "420mpeg2", true },
	{ FCC('N', 'V', '2', '1'), "NV21", VCAP_LAYOUT_SEMI_PLANAR_420, 1,
	  { 1 }, "420mpeg2", false },
	{ FCC('Y', 'U', '1', '2'), "YU12", VCAP_LAYOUT_PLANAR_420, 1,
	  { 0 }, "420mpeg2", true },
	{ FCC('Y', 'V', '1', '2'), "YV12", VCAP_LAYOUT_PLANAR_420, 1,
	  { 1 }, "420mpeg2", false },
	{ FCC('4', '2', '2', 'P'), "422P", VCAP_LAYOUT_PLANAR_422, 1,
	  { 0 }, "422", false },
	{ FCC('G', 'R', 'E', 'Y'), "GREY", VCAP_LAYOUT_GREY, 1,
	  { 0 }, "mono", true },
	{ FCC('R', 'G', 'B', '3'), "RGB24", VCAP_LAYOUT_RGB, 3,
	  { 0, 1, 2 }, NULL, true },
	{ FCC('B', 'G', 'R', '3'), "BGR24", VCAP_LAYOUT_RGB, 3,
	  { 2, 1, 0 }, NULL, true },
	{ FCC('B', 'X', '2', '4'), "XRGB32", VCAP_LAYOUT_RGB, 4,
	  { 1, 2, 3 }, NULL, true },
	{ FCC('X', 'R', '2', '4'), "XBGR32", VCAP_LAYOUT_RGB, 4,
	  { 2, 1, 0 }, NULL, true },
	{ FCC('B', 'A', '2', '4'), "ARGB32", VCAP_LAYOUT_RGB, 4,
	  { 1, 2, 3 }, NULL, false },
	{ FCC('A', 'R', '2', '4'), "ABGR32", VCAP_LAYOUT_RGB, 4,
	  { 2, 1, 0 }, NULL, false },
	{ FCC('X', 'B', '2', '4'), "RGBX32", VCAP_LAYOUT_RGB, 4,
	  { 0, 1, 2 }, NULL, false },
	{ FCC('R', 'X', '2', '4'), "BGRX32", VCAP_LAYOUT_RGB, 4,
	  { 3, 2, 1 }, NULL, false },
	{ FCC('B', 'G', 'R', '4'), "BGR32", VCAP_LAYOUT_RGB, 4,
	  { 2, 1, 0 }, NULL, false },
};

#define NUM_PIXFMTS (sizeof(pixfmts) / sizeof(pixfmts[0]))

const struct vcap_pixfmt *vcap_pixfmt_find(uint32_t fourcc)
{
	for (size_t i = 0; i < NUM_PIXFMTS; i++)
		if (pixfmts[i].fourcc == fourcc)
			return &pixfmts[i];
	return NULL;
}

const struct vcap_pixfmt *vcap_pixfmt_by_name(const char *name)
{
	for (size_t i = 0; i < NUM_PIXFMTS; i++)
		if (!strcasecmp(pixfmts[i].name, name))
			return &pixfmts[i];
	return NULL;
}

const struct vcap_pixfmt *vcap_pixfmt_by_index(unsigned int index)
{
	return index < NUM_PIXFMTS ? &pixfmts[index] : NULL;
}

unsigned int vcap_pixfmt_count(void)
{
	return NUM_PIXFMTS;
}

const char *vcap_fourcc_str(uint32_t fourcc, char buf[VCAP_FOURCC_STR_LEN])
{
	for (int i = 0; i < 4; i++) {
		unsigned char c = (fourcc >> (8 * i)) & 0xff;

		buf[i] = isprint(c) ? (char)c : '.';
	}
	buf[4] = '\0';
	return buf;
}

uint32_t vcap_fourcc_parse(const char *s)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_by_name(s);
	size_t len = strlen(s);

	if (pf)
		return pf->fourcc;
	/* A raw code: 1-4 printable characters, padded with spaces. */
	if (len == 0 || len > 4)
		return 0;
	char c[4] = { ' ', ' ', ' ', ' ' };

	for (size_t i = 0; i < len; i++) {
		if (!isprint((unsigned char)s[i]))
			return 0;
		c[i] = s[i];
	}
	return FCC(c[0], c[1], c[2], c[3]);
}

size_t vcap_mode_frame_size(const struct vcap_mode *mode)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(mode->fourcc);
	uint64_t w = mode->width, h = mode->height, bpl, y, c;

	if (!pf || !w || !h || w > 65536 || h > 65536)
		return 0;
	bpl = mode->bytesperline ? mode->bytesperline : w * pf->bpp;
	if (bpl < w * pf->bpp)
		return 0;
	y = bpl * h;
	switch (pf->layout) {
	case VCAP_LAYOUT_SEMI_PLANAR_420:
		c = bpl * ((h + 1) / 2);
		break;
	case VCAP_LAYOUT_PLANAR_420:
		c = 2 * ((bpl + 1) / 2) * ((h + 1) / 2);
		break;
	case VCAP_LAYOUT_PLANAR_422:
		c = 2 * ((bpl + 1) / 2) * h;
		break;
	default:
		c = 0;
		break;
	}
	return (size_t)(y + c);
}

const char *vcap_mode_str(const struct vcap_mode *mode, char *buf,
			  size_t size)
{
	char fcc[VCAP_FOURCC_STR_LEN];

	if (mode->interval_num && mode->interval_den)
		snprintf(buf, size, "%s %ux%u @ %.6g fps",
			 vcap_fourcc_str(mode->fourcc, fcc), mode->width,
			 mode->height,
			 (double)mode->interval_den / mode->interval_num);
	else
		snprintf(buf, size, "%s %ux%u",
			 vcap_fourcc_str(mode->fourcc, fcc), mode->width,
			 mode->height);
	return buf;
}
