// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * MJPEG frames through libjpeg-turbo's TurboJPEG API (the 2.x calls
 * Debian 12 ships).  The common subsamplings decode straight to planar
 * YUV, no colour conversion; the rare ones (4:4:0, 4:1:1) and RGB JPEGs
 * decode to RGB24.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include "fw-jpeg.h"

struct fw_jpeg {
	tjhandle tj;
};

struct fw_jpeg *fw_jpeg_new(void)
{
	struct fw_jpeg *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->tj = tjInitDecompress();
	if (!j->tj) {
		free(j);
		return NULL;
	}
	return j;
}

void fw_jpeg_destroy(struct fw_jpeg *j)
{
	if (!j)
		return;
	if (j->tj)
		tjDestroy(j->tj);
	free(j);
}

size_t fw_jpeg_max_size(u32 w, u32 h)
{
	/*
	 * 4:4:4 planes and RGB24 are the largest: 3 bytes a pixel, of a
	 * picture rounded up to whole 2x2 samples.
	 */
	return (size_t)(w + 1) * (h + 1) * 3;
}

/* The planar layout of a subsampling fw_convert() reads; 0: none. */
static u32 jpeg_planar_fourcc(int samp)
{
	switch (samp) {
	case TJSAMP_420:
		return VCAP_FMT_YUV420;
	case TJSAMP_422:
		return FW_FMT_YUV422P;
	case TJSAMP_444:
		return FW_FMT_YUV444P;
	case TJSAMP_GRAY:
		return VCAP_FMT_GREY;
	}
	return 0;
}

static int jpeg_fail(struct fw_jpeg *j, const char *what, char *msg,
		     size_t msglen)
{
	/*
	 * A warning too fails the frame: it is what a JPEG cut short gives,
	 * with grey where the data ended.  The previous frame is better.
	 */
	snprintf(msg, msglen, "%s: %s%s", what,
		 tjGetErrorCode(j->tj) == TJERR_WARNING ? "damaged data: " : "",
		 tjGetErrorStr2(j->tj));
	/*
	 * After an error the handle can stay stuck in the bad stream's
	 * state and refuse every frame after it: a fresh one for the next.
	 */
	tjDestroy(j->tj);
	j->tj = tjInitDecompress();
	return -1;
}

int fw_jpeg_decode(struct fw_jpeg *j, const u8 *data, size_t len, u32 w,
		   u32 h, u8 *dst, struct fw_image *img, char *msg,
		   size_t msglen)
{
	int jw, jh, samp, cs, strides[3], rows[3], i;
	unsigned char *planes[3];
	u32 fourcc;

	if (!j->tj) {
		j->tj = tjInitDecompress();
		if (!j->tj) {
			snprintf(msg, msglen, "no JPEG decoder: %s",
				 tjGetErrorStr2(NULL));
			return -1;
		}
	}
	if (!len) {
		snprintf(msg, msglen, "empty frame (0 bytes), not a JPEG");
		return -1;
	}
	if (len < 4 || data[0] != 0xff || data[1] != 0xd8) {
		snprintf(msg, msglen,
			 "not a JPEG (%zu bytes, no start of image marker)",
			 len);
		return -1;
	}
	if (tjDecompressHeader3(j->tj, data, (unsigned long)len, &jw, &jh,
				&samp, &cs))
		return jpeg_fail(j, "bad JPEG header", msg, msglen);
	if ((u32)jw != w || (u32)jh != h) {
		snprintf(msg, msglen, "JPEG of %dx%d in a %ux%u stream", jw, jh,
			 w, h);
		return -1;
	}
	if (cs == TJCS_CMYK || cs == TJCS_YCCK) {
		snprintf(msg, msglen, "CMYK JPEG: not a camera's picture");
		return -1;
	}
	img->width = w;
	img->height = h;
	img->data = dst;
	fourcc = cs == TJCS_RGB ? 0 : jpeg_planar_fourcc(samp);
	if (!fourcc) {
		img->fourcc = VCAP_FMT_RGB24;
		img->bytesperline = w * 3;
		if (tjDecompress2(j->tj, data, (unsigned long)len, dst, (int)w,
				  (int)w * 3, (int)h, TJPF_RGB, 0))
			return jpeg_fail(j, "cannot decode JPEG", msg, msglen);
		return 0;
	}
	/*
	 * The decoder writes whole samples: luma of an odd size one column
	 * and (4:2:0) one row more.  The planes get that room, with the
	 * wider luma as the stride fw_convert() reads chroma strides from.
	 */
	for (i = 0; i < 3; i++) {
		strides[i] = tjPlaneWidth(i, (int)w, samp);
		rows[i] = tjPlaneHeight(i, (int)h, samp);
		/* Grey has one plane: the others (-1) take no room. */
		if (strides[i] < 0 || rows[i] < 0)
			strides[i] = rows[i] = 0;
	}
	img->fourcc = fourcc;
	img->bytesperline = (u32)strides[0];
	planes[0] = dst;
	planes[1] = dst + (size_t)strides[0] * rows[0];
	planes[2] = planes[1] + (size_t)strides[1] * rows[1];
	if (tjDecompressToYUVPlanes(j->tj, data, (unsigned long)len, planes,
				    (int)w, strides, (int)h, 0))
		return jpeg_fail(j, "cannot decode JPEG", msg, msglen);
	/* Chroma right below the picture's own rows, where it is looked for. */
	if ((u32)rows[0] > h)
		memmove(dst + (size_t)strides[0] * h, planes[1],
			(size_t)strides[1] * rows[1] +
			(size_t)strides[2] * rows[2]);
	return 0;
}
