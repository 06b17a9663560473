/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/* Helpers shared by libvcap's modules; not installed. */
#ifndef VCAP_PRIV_H
#define VCAP_PRIV_H

#include "libvcap.h"

/*
 * Record the thread's last error: fmt names the device and operation,
 * err (0: none) appends its strerror text.  Sets errno to err and
 * returns -1, so callers can "return vcap_set_error(...)".
 */
int vcap_set_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ioctl() retried on EINTR. */
int vcap_xioctl(int fd, unsigned long req, void *arg);

#endif /* VCAP_PRIV_H */
