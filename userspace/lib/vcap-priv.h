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

#pragma GCC visibility pop

#endif /* VCAP_PRIV_H */
