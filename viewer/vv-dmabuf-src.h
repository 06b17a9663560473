/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A V4L2 capture source that captures into the display's buffers
 * (V4L2_MEMORY_DMABUF on the dma-bufs of a struct vv_scanout), for the
 * KMS output's zero-copy path.  Frames are views of those buffers, held
 * out of the driver's queue like MMAP ones; a buffer given back while on
 * screen is queued when the display flips away from it.  It does not
 * follow DV source changes: an input with DV timings keeps libvcap's
 * MMAP source.
 */
#ifndef VV_DMABUF_SRC_H
#define VV_DMABUF_SRC_H

#include <libvcap.h>
#include <stddef.h>

#include "vv-scanout.h"

#define VV_DMABUF_SRC_KIND	"v4l2-dmabuf"

extern const struct vcap_source_ops vv_dmabuf_src_ops;

/*
 * Whether src can capture into dma-bufs: a single-planar capture node
 * with streaming and DMABUF memory, whose input has no DV timings.  Asks
 * for *count buffers and sets it to how many the driver streams with.
 * 0, or -1 with why (size bytes) saying what is missing.
 */
int vv_dmabuf_src_check(struct vcap_source *src, unsigned int *count,
			char *why, size_t size);

/* Capture into so's buffers; before the source starts. */
void vv_dmabuf_src_attach(struct vcap_source *src, struct vv_scanout *so);

#endif /* VV_DMABUF_SRC_H */
