/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The capture thread: takes frames from a libvcap source, copies each into
 * the producer's frame and hands it to the one-slot buffer.  It never
 * waits for the UI.
 */
#ifndef VV_CAPTURE_H
#define VV_CAPTURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "vv-slot.h"

struct vv_capture {
	struct vcap_source *src;	/* capture thread only while running */
	struct vv_slot *slot;
	struct vcap_stats *stats;	/* capture thread only */
	struct vv_frame *frame;		/* capture thread only: being filled */
	uint64_t torn;			/* capture thread only */
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

#endif /* VV_CAPTURE_H */
