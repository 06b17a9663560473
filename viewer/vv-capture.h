/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The capture thread: takes frames from a libvcap source and hands each
 * to the one-slot buffer as a view of the source's own buffer, with no
 * copy.  A V4L2 buffer stays out of the driver's queue while the slot or
 * the UI holds it, and goes back when a newer frame replaces it.  The
 * thread never waits for the UI.
 */
#ifndef VV_CAPTURE_H
#define VV_CAPTURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "vv-slot.h"

/* How a source's frame views may be used once the source moves on. */
enum vv_hold {
	/* A driver buffer: dequeued until given back (V4L2 MMAP). */
	VV_HOLD_BUFFER,
	/*
	 * Board memory the board keeps writing (VRAM): read in place, then
	 * checked against the slot's sequence lock; a torn read is not shown.
	 */
	VV_HOLD_SEQLOCK,
	/* A picture that never changes while the source runs (test:bars). */
	VV_HOLD_STATIC,
};

struct vv_capture {
	struct vcap_source *src;	/* capture thread only while running */
	struct vv_slot *slot;
	struct vcap_stats *stats;	/* capture thread only */
	struct vv_frame *frame;		/* capture thread only: being filled */
	enum vv_hold hold;
	pthread_t thread;
	bool running;			/* owner (UI) thread only */
	atomic_bool stop;
	atomic_bool failed;		/* error[] is complete when set */
	char error[320];		/* written before failed is set */
};

/* src stays owned by the caller; 0 or -1 (out of memory). */
int vv_capture_init(struct vv_capture *c, struct vcap_source *src,
		    struct vv_slot *slot);
/* Start the source and the thread; 0, or -1 with c->error set. */
int vv_capture_start(struct vv_capture *c);
/* Ask the thread to end, join it and stop the source. */
void vv_capture_stop(struct vv_capture *c);
void vv_capture_destroy(struct vv_capture *c);

/* The thread ended on an error (c->error says which). */
bool vv_capture_failed(struct vv_capture *c);

/* "v4l2-mmap held", "vram seqlock read" or "test static": for --stats. */
const char *vv_capture_path(const struct vv_capture *c);

#endif /* VV_CAPTURE_H */
