/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The one-slot "latest frame" buffer between the capture thread and the UI.
 *
 * Three frames circulate: the producer's, the consumer's and the one in the
 * slot.  Handing over is a pointer swap under a mutex, so the producer
 * never waits for the UI: a frame the UI has not taken yet is replaced by
 * the newer one and counted.
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
};

/* 0 or -ENOMEM. */
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

/* Wake a waiting consumer for good: the producer has ended. */
void vv_slot_close(struct vv_slot *s);
bool vv_slot_closed(struct vv_slot *s);

/* Frames replaced before the consumer took them, since init. */
uint64_t vv_slot_replaced(struct vv_slot *s);

#endif /* VV_SLOT_H */
