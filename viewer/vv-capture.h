/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The capture thread: takes frames from a libvcap source and hands each
 * to the one-slot buffer as a view of the source's own buffer, with no
 * copy.  A V4L2 buffer stays out of the driver's queue while the slot or
 * the UI holds it, and goes back when a newer frame replaces it.  The
 * thread never waits for the UI.  It also follows the source's signal,
 * for the UI to show NO SIGNAL while there is none.
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

/*
 * The source's signal as the capture thread last saw it: from libvcap's
 * source changes (a DV input losing its lock, finding timings again) and
 * from frames the source flags as filler without a signal (a vcap
 * board's VRAM).
 */
struct vv_signal {
	bool present;
	uint64_t lost;			/* times it went away */
	uint64_t back;			/* times it came back, or first came */
	uint64_t changes;		/* changes seen, for the UI to notice */
	uint64_t since_ns;		/* when present last changed */
	uint64_t absent_ns;		/* time without, up to since_ns */
	/* The last libvcap change; count 0 if none came yet. */
	struct vcap_source_change change;
};

struct vv_capture {
	struct vcap_source *src;	/* capture thread only while running */
	struct vv_slot *slot;
	struct vcap_stats *stats;	/* capture thread only */
	struct vv_frame *frame;		/* capture thread only: being filled */
	enum vv_hold hold;
	pthread_t thread;
	bool running;			/* owner (UI) thread only */
	pthread_mutex_t lock;
	struct vv_signal signal;	/* protected by lock */
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

/* A copy of the signal's state, taken under its lock. */
void vv_capture_signal(struct vv_capture *c, struct vv_signal *out);

/* "v4l2-mmap held", "vram seqlock read" or "test static": for --stats. */
const char *vv_capture_path(const struct vv_capture *c);

#endif /* VV_CAPTURE_H */
