// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* YUV4MPEG2: planar frame packing for the writer, and a checking reader. */
#include "vcap-priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vcap_y4m_reader {
	FILE *f;
	struct vcap_y4m_header hdr;
	uint64_t frames;
};

static size_t cdiv(size_t a, size_t b)
{
	return (a + b - 1) / b;
}

size_t vcap_y4m_frame_size(const char *colorspace, uint32_t w, uint32_t h)
{
	size_t luma = (size_t)w * h;

	if (!strncmp(colorspace, "420", 3))
		return luma + 2 * cdiv(w, 2) * cdiv(h, 2);
	if (!strncmp(colorspace, "422", 3))
		return luma + 2 * cdiv(w, 2) * h;
	if (!strncmp(colorspace, "444", 3) && !strchr(colorspace, 'a'))
		return 3 * luma;
	if (!strcmp(colorspace, "mono"))
		return luma;
	return 0;
}

/* Copy rows of width bytes from a strided plane into a tight one. */
static uint8_t *copy_plane(uint8_t *dst, const uint8_t *src, size_t stride,
			   size_t width, size_t rows)
{
	for (size_t y = 0; y < rows; y++) {
		memcpy(dst, src + y * stride, width);
		dst += width;
	}
	return dst;
}

int vcap_y4m_pack(const struct vcap_mode *mode, const void *src_v,
		  uint8_t *dst)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(mode->fourcc);
	const uint8_t *src = src_v;
	size_t w = mode->width, h = mode->height;
	size_t cw = cdiv(w, 2), ch = cdiv(h, 2);
	size_t bpl;
	uint8_t *y, *u, *v;

	if (!pf || !pf->y4m_tag)
		return -1;
	bpl = mode->bytesperline ? mode->bytesperline : w * pf->bpp;
	switch (pf->layout) {
	case VCAP_LAYOUT_GREY:
		copy_plane(dst, src, bpl, w, h);
		return 0;
	case VCAP_LAYOUT_PACKED_YUV422:
		y = dst;
		u = y + w * h;
		v = u + cw * h;
		for (size_t r = 0; r < h; r++) {
			const uint8_t *s = src + r * bpl;

			for (size_t x = 0; x < cw; x++, s += 4) {
				y[2 * x] = s[pf->order[0]];
				if (2 * x + 1 < w)
					y[2 * x + 1] = s[pf->order[2]];
				u[x] = s[pf->order[1]];
				v[x] = s[pf->order[3]];
			}
			y += w;
			u += cw;
			v += cw;
		}
		return 0;
	case VCAP_LAYOUT_SEMI_PLANAR_420: {
		const uint8_t *c = src + bpl * h;

		y = copy_plane(dst, src, bpl, w, h);
		u = y;
		v = u + cw * ch;
		if (pf->order[0]) {
			uint8_t *t = u;

			u = v;
			v = t;
		}
		for (size_t r = 0; r < ch; r++) {
			const uint8_t *s = c + r * bpl;

			for (size_t x = 0; x < cw; x++) {
				u[x] = s[2 * x];
				v[x] = s[2 * x + 1];
			}
			u += cw;
			v += cw;
		}
		return 0;
	}
	case VCAP_LAYOUT_PLANAR_420:
	case VCAP_LAYOUT_PLANAR_422: {
		size_t cbpl = cdiv(bpl, 2);
		size_t crows = pf->layout == VCAP_LAYOUT_PLANAR_420 ? ch : h;
		const uint8_t *p1 = src + bpl * h;
		const uint8_t *p2 = p1 + cbpl * crows;

		y = copy_plane(dst, src, bpl, w, h);
		if (pf->order[0]) {
			const uint8_t *t = p1;

			p1 = p2;
			p2 = t;
		}
		y = copy_plane(y, p1, cbpl, cw, crows);
		copy_plane(y, p2, cbpl, cw, crows);
		return 0;
	}
	default:
		return -1;
	}
}

struct vcap_y4m_reader *vcap_y4m_open(FILE *f,
				      struct vcap_y4m_header *header)
{
	struct vcap_y4m_reader *r;
	char line[256], *tok, *save;

	if (!fgets(line, sizeof(line), f)) {
		vcap_set_error(EINVAL, "y4m: empty file");
		return NULL;
	}
	if (!strchr(line, '\n')) {
		vcap_set_error(EINVAL, "y4m: header line too long");
		return NULL;
	}
	if (strncmp(line, "YUV4MPEG2 ", 10)) {
		vcap_set_error(EINVAL, "y4m: no YUV4MPEG2 signature");
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		vcap_set_error(ENOMEM, "y4m");
		return NULL;
	}
	r->f = f;
	strcpy(r->hdr.colorspace, "420jpeg");
	line[strcspn(line, "\n")] = '\0';
	for (tok = strtok_r(line + 10, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		switch (tok[0]) {
		case 'W':
			r->hdr.width = strtoul(tok + 1, NULL, 10);
			break;
		case 'H':
			r->hdr.height = strtoul(tok + 1, NULL, 10);
			break;
		case 'F':
			if (sscanf(tok + 1, "%u:%u", &r->hdr.fps_num,
				   &r->hdr.fps_den) != 2)
				goto bad;
			break;
		case 'C':
			snprintf(r->hdr.colorspace, sizeof(r->hdr.colorspace),
				 "%s", tok + 1);
			break;
		default:	/* I, A, X: not needed to read frames */
			break;
		}
	}
	if (!r->hdr.width || !r->hdr.height || r->hdr.width > 65536 ||
	    r->hdr.height > 65536)
		goto bad;
	r->hdr.frame_size = vcap_y4m_frame_size(r->hdr.colorspace,
						r->hdr.width, r->hdr.height);
	if (!r->hdr.frame_size) {
		vcap_set_error(EINVAL, "y4m: colourspace C%s not supported",
			       r->hdr.colorspace);
		free(r);
		return NULL;
	}
	*header = r->hdr;
	return r;
bad:
	vcap_set_error(EINVAL, "y4m: bad header field '%s'", tok ? tok : "W/H");
	free(r);
	return NULL;
}

int vcap_y4m_read(struct vcap_y4m_reader *r, void *buf)
{
	char line[128];
	size_t n;

	if (!fgets(line, sizeof(line), r->f)) {
		if (ferror(r->f))
			return vcap_set_error(errno, "y4m: read");
		return VCAP_END;
	}
	if (strncmp(line, "FRAME", 5) || (line[5] != '\n' && line[5] != ' ') ||
	    !strchr(line, '\n'))
		return vcap_set_error(EINVAL, "y4m: frame %llu: no FRAME marker",
				      (unsigned long long)r->frames);
	n = fread(buf, 1, r->hdr.frame_size, r->f);
	if (n != r->hdr.frame_size)
		return vcap_set_error(EINVAL,
				      "y4m: frame %llu truncated (%zu of %zu bytes)",
				      (unsigned long long)r->frames, n,
				      r->hdr.frame_size);
	r->frames++;
	return 0;
}

void vcap_y4m_close(struct vcap_y4m_reader *r)
{
	free(r);
}
