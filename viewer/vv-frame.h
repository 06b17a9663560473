/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* One captured frame as the viewer holds it: pixels, geometry, timing. */
#ifndef VV_FRAME_H
#define VV_FRAME_H

#include <libvcap.h>
#include <stdbool.h>
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

/*
 * The pixels are either the source's own buffer (a view: a V4L2 buffer
 * held out of the driver's queue, a VRAM slot, the test source's picture)
 * or the frame's own store.  Whoever holds the frame reads data; only the
 * capture thread gives a view back to its source.
 */
struct vv_frame {
	struct vcap_mode mode;		/* geometry of data */
	const uint8_t *data;		/* mode.sizeimage valid bytes */
	size_t length;			/* bytes readable at data */
	struct vcap_source *src;	/* the view's source; NULL: own store */
	struct vcap_frame view;		/* valid while held */
	bool held;			/* view must go back to src */
	uint8_t *store;			/* own pixels, when not a view */
	size_t capacity;		/* allocated bytes at store */
	/* Copies of these pixels the viewer made, the display's included. */
	unsigned int copies;
	uint64_t sequence;
	uint64_t timestamp_ns;		/* the source's buffer timestamp */
	uint64_t received_ns;		/* CLOCK_MONOTONIC when dequeued */
	struct vv_capture_figures figures;
};

/*
 * Make f's own store hold size bytes and point data at it; 0 or -ENOMEM.
 * Contents are not kept.  Not for a held frame.
 */
int vv_frame_reserve(struct vv_frame *f, size_t size);
void vv_frame_release(struct vv_frame *f);

/*
 * After reading the pixels: whether they were one whole frame.  Only a
 * VRAM slot can change under its reader (the board owns the ring); the
 * check reads the slot's lock word in the read-only mapping, nothing the
 * capture thread changes.
 */
bool vv_frame_intact(const struct vv_frame *f);

/* The planes of a packed, NV12 or YUV420 frame. */
struct vv_planes {
	const uint8_t *p[3];
	uint32_t pitch[3];
	unsigned int count;
};

/* 0, or -EINVAL when the frame's format is unknown or data too short. */
int vv_frame_planes(const struct vv_frame *f, struct vv_planes *pl);

#endif /* VV_FRAME_H */
