/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/* Helpers shared by libvcap's modules; not installed. */
#ifndef VCAP_PRIV_H
#define VCAP_PRIV_H

#include "libvcap.h"

/* Everything below stays inside libvcap.so. */
#pragma GCC visibility push(hidden)

/*
 * Record the thread's last error: fmt names the device and operation,
 * err (0: none) appends its strerror text.  Sets errno to err and
 * returns -1, so callers can "return vcap_set_error(...)".
 */
int vcap_set_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ioctl() retried on EINTR. */
int vcap_xioctl(int fd, unsigned long req, void *arg);

/* Bytes of one Y4M frame for a C-tag value; 0 if unsupported. */
size_t vcap_y4m_frame_size(const char *colorspace, uint32_t w, uint32_t h);
/* Repack one frame of mode into tight Y4M planes; -1 if unsupported. */
int vcap_y4m_pack(const struct vcap_mode *mode, const void *src,
		  uint8_t *dst);

/* A V4L2 input's DV timings (vcap-v4l2-dv.c). */
struct vcap_dv {
	bool enabled;			/* the input has DV timings */
	uint32_t input;
	bool signal;			/* the last lock found one */
	uint32_t width, height;		/* of the timings locked to */
};

/*
 * Look at the current input; with DV timings, subscribe to its
 * source-change events and set dv->enabled.  -1 only if that fails.
 */
int vcap_dv_open(struct vcap_dv *dv, int fd, const char *path);
/*
 * QUERY_DV_TIMINGS and S_DV_TIMINGS (when they differ): 0 with
 * dv->signal set or cleared (no link, no lock, out of range), -1 on any
 * other error.  The queue must not be busy.
 */
int vcap_dv_lock(struct vcap_dv *dv, int fd, const char *path);
/* Drain pending events: 1 if a source change was among them, 0, or -1. */
int vcap_dv_take_event(struct vcap_dv *dv, int fd, const char *path);

#pragma GCC visibility pop

#endif /* VCAP_PRIV_H */
