/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* JPEG frames (a camera's MJPEG) decoded into pictures fw_convert() takes. */
#ifndef FW_JPEG_H
#define FW_JPEG_H

#include "fw-convert.h"

struct fw_jpeg;

/* A decoder; NULL if the library cannot make one. */
struct fw_jpeg *fw_jpeg_new(void);
void fw_jpeg_destroy(struct fw_jpeg *j);

/* The room a w x h picture needs, in whatever layout it decodes to. */
size_t fw_jpeg_max_size(u32 w, u32 h);

/*
 * Decode the JPEG of len bytes at data, which must be w x h, into dst
 * (fw_jpeg_max_size() bytes): planar YUV in the JPEG's own subsampling
 * (4:2:0, 4:2:2, 4:4:4, grey), RGB24 for the others.  *img describes
 * it, data at dst.  0, or -1 with msg naming the problem: a frame that
 * is not a JPEG, is cut short or damaged, or has another size.
 */
int fw_jpeg_decode(struct fw_jpeg *j, const u8 *data, size_t len, u32 w,
		   u32 h, u8 *dst, struct fw_image *img, char *msg,
		   size_t msglen);

#endif /* FW_JPEG_H */
