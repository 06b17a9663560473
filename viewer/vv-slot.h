/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The one-slot "latest frame" buffer between the capture thread and the UI.
 *
 * Three frames circulate: the producer's, the consumer's and the one in the
 * slot.  Handing over is a pointer swap under a mutex, so the producer
 * never waits for the UI: a frame the UI has not taken yet is replaced by
 * the newer one and counted.
 *
 * A frame may be a view of a source buffer that must go back to the
 * source (a V4L2 buffer held out of the driver's queue).  The frame the
 * consumer hands back on a take stays in the slot as the spare until the
 * producer gets it; the producer can take the buffer back from it sooner,
 * woken through wake_fd, so that a source with few buffers never runs dry
 * while the consumer holds one.
 */
#ifndef VV_SLOT_H
#define VV_SLOT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "vv-frame.h"

struct vv_slot {
	pthread_mutex_t lock;
	pthread_cond_t ready;		/* signalled on push and close */
	struct vv_frame *frame;		/* protected by lock */
	bool full;			/* protected by lock: frame not taken */
	bool closed;			/* protected by lock */
	uint64_t pushed;		/* protected by lock */
	uint64_t replaced;		/* protected by lock */
	int wake_fd;			/* eventfd: a held frame came back */
};

/* 0, -ENOMEM, or -errno of eventfd(). */
int vv_slot_init(struct vv_slot *s);
void vv_slot_destroy(struct vv_slot *s);

/*
 * Producer: give *frame to the slot and get the slot's spare back in
 * *frame.  Returns true when an untaken frame was replaced.
 */
bool vv_slot_push(struct vv_slot *s, struct vv_frame **frame);

/*
 * Consumer: when a frame is waiting, swap it into *frame and return true.
 * Waits at most timeout_ms (0: do not wait) for one; false on timeout or
 * once the slot is closed and empty.
 */
bool vv_slot_take(struct vv_slot *s, struct vv_frame **frame, int timeout_ms);

/*
 * Producer: the frame the consumer handed back, while it still holds a
 * view, and while no new frame waits (then it is the slot's spare, which
 * only the producer touches); NULL otherwise.  It stays in the slot: the
 * producer may give its buffer back and clear held, nothing else.
 */
struct vv_frame *vv_slot_returned(struct vv_slot *s);
/* Readable after the consumer handed back a held frame; for poll(). */
int vv_slot_wake_fd(const struct vv_slot *s);
/* Clear wake_fd's readiness. */
void vv_slot_wake_clear(struct vv_slot *s);

/* Wake a waiting consumer for good: the producer has ended. */
void vv_slot_close(struct vv_slot *s);
bool vv_slot_closed(struct vv_slot *s);

/* Frames replaced before the consumer took them, since init. */
uint64_t vv_slot_replaced(struct vv_slot *s);

#endif /* VV_SLOT_H */
