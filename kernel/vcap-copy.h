/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap frame copies: the one copy of a frame from the board's ring into a
 * queued buffer.
 */
#ifndef _VCAP_COPY_H
#define _VCAP_COPY_H

#include <linux/compiler.h>
#include <linux/types.h>

void vcap_copy_frame(void *dst, const void *src, size_t len);
void vcap_copy_frame_fromio(void *dst, const void __iomem *src, size_t len);

#endif /* _VCAP_COPY_H */
