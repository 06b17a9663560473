/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compatibility with older kernels.  vcap is written against the newest
 * kernel API; each block below restores one interface on the kernels that
 * predate it and names the release that changed it.
 */
#ifndef _VCAP_COMPAT_H
#define _VCAP_COMPAT_H

#include <linux/version.h>

#endif /* _VCAP_COMPAT_H */
