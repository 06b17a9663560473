/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* One captured frame as the viewer holds it: pixels, geometry, timing. */
#ifndef VV_FRAME_H
#define VV_FRAME_H

#include <libvcap.h>
#include <stddef.h>
#include <stdint.h>

/* What the capture side knew about the stream when it took this frame. */
struct vv_capture_figures {
	double fps;			/* frames delivered per second, recent */
	uint64_t frames;		/* delivered since start */
	uint64_t drops;			/* sequence gaps at the source */
	uint64_t replaced;		/* overwritten before the UI took them */
	double latency_p50_ms;		/* buffer timestamp to dequeue */
	double latency_p99_ms;
};

struct vv_frame {
	struct vcap_mode mode;		/* geometry of data */
	uint8_t *data;			/* mode.sizeimage valid bytes */
	size_t capacity;		/* allocated bytes at data */
	uint64_t sequence;
	uint64_t timestamp_ns;		/* the source's buffer timestamp */
	uint64_t received_ns;		/* CLOCK_MONOTONIC when dequeued */
	struct vv_capture_figures figures;
};

/* Grow f to hold size bytes; 0 or -ENOMEM.  Contents are not kept. */
int vv_frame_reserve(struct vv_frame *f, size_t size);
void vv_frame_release(struct vv_frame *f);

/* The planes of a packed, NV12 or YUV420 frame. */
struct vv_planes {
	const uint8_t *p[3];
	uint32_t pitch[3];
	unsigned int count;
};

/* 0, or -EINVAL when the frame's format is unknown or data too short. */
int vv_frame_planes(const struct vv_frame *f, struct vv_planes *pl);

#endif /* VV_FRAME_H */
