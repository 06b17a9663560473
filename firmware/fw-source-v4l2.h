/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The V4L2 source's logic that needs no device: its spec, the choice of
 * a mode among those a device offers, and a frame into the live core.
 */
#ifndef FW_SOURCE_V4L2_H
#define FW_SOURCE_V4L2_H

#include "fw-jpeg.h"
#include "fw-source-live.h"

#define FW_FMT_MJPEG	VCAP_FOURCC('M', 'J', 'P', 'G')
#define FW_FMT_JPEG	VCAP_FOURCC('J', 'P', 'E', 'G')

/* What the spec asks for; 0: any. */
struct fw_v4l2_want {
	char path[256];
	u32 width, height;
	u32 fps;
	u32 fourcc;
};

/* One mode a device offers: interval num/den seconds (0/0: unknown). */
struct fw_v4l2_mode {
	u32 fourcc;
	u32 width, height;
	u32 num, den;
};

/* "PATH[:WxH][@FPS][:FOURCC]": 0, or -1 with err saying what is expected. */
int fw_v4l2_parse_spec(const char *spec, struct fw_v4l2_want *want,
		       char *err, size_t errlen);

/* A format the board takes from a device: raw ones fw_convert() reads, MJPEG. */
bool fw_v4l2_format_ok(u32 fourcc);

/*
 * The mode to stream among the n a device offers: cur (the device's
 * mode now) when nothing is asked and it is offered; else of those that
 * match want, the one that plays best on the HDMI input: a size a timing
 * holds, 24 fps or more, the largest picture, the highest rate, raw
 * before MJPEG (no decoding), then the device's order.  Its index, or -1.
 */
int fw_v4l2_pick(const struct fw_v4l2_mode *modes, unsigned int n,
		 const struct fw_v4l2_want *want,
		 const struct fw_v4l2_mode *cur);

/*
 * One frame of len bytes at data, of the w x h fourcc stream with
 * bytesperline bpl (0: the tightest), into the live core with its
 * capture time: copied, or decoded with j.  0, or -1 with msg: the frame
 * is dropped and the one before stays the newest.
 */
int fw_v4l2_frame_in(struct fw_live *l, struct fw_jpeg *j, u32 fourcc,
		     u32 w, u32 h, u32 bpl, const u8 *data, size_t len,
		     u64 capture_ns, char *msg, size_t msglen);

/* The host's V4L2 capture devices, their formats, sizes and rates. */
void fw_v4l2_list(FILE *out);

#endif /* FW_SOURCE_V4L2_H */
