/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Buffers the display scans out and the capture fills: the display
 * exports them as dma-bufs, the V4L2 source captures into them
 * (V4L2_MEMORY_DMABUF), and the display flips to each frame as it comes,
 * with no copy of its pixels.
 *
 * A buffer on screen must not be written: the source gives each buffer
 * back through vv_scanout_give_back(), which queues it to the driver at
 * once unless it is on screen; then the display queues it when the flip
 * away from it has completed (vv_scanout_shown()).  Either thread may
 * thus queue a buffer, through the source's requeue callback, under the
 * set's lock.
 */
#ifndef VV_SCANOUT_H
#define VV_SCANOUT_H

#include <libvcap.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define VV_SCANOUT_MAX		8

struct vv_scanout_buffer {
	int fd;				/* the exported dma-buf */
	uint8_t *map;			/* the display's CPU mapping */
	size_t length;			/* bytes at map and in the dma-buf */
};

/* Queue buffer index to the capture driver again; 0 or -1 (errno). */
typedef int (*vv_scanout_requeue_fn)(void *ctx, unsigned int index);

struct vv_scanout {
	struct vcap_mode mode;		/* the frames the buffers hold */
	struct vv_scanout_buffer buf[VV_SCANOUT_MAX];
	unsigned int count;
	pthread_mutex_t lock;
	int on_screen;			/* protected by lock: index, or -1 */
	bool returned[VV_SCANOUT_MAX];	/* protected by lock: given back */
	vv_scanout_requeue_fn requeue;	/* protected by lock: NULL if none */
	void *ctx;			/* protected by lock */
};

void vv_scanout_init(struct vv_scanout *so);
void vv_scanout_destroy(struct vv_scanout *so);

/* The buffer whose mapping data is, or -1: the frame is not one of ours. */
int vv_scanout_index(const struct vv_scanout *so, const void *data);

/* The source, streaming or not: queue given-back buffers with fn. */
void vv_scanout_connect(struct vv_scanout *so, vv_scanout_requeue_fn fn,
			void *ctx);

/* The source is done with buffer index: queued now or when off screen. */
int vv_scanout_give_back(struct vv_scanout *so, unsigned int index);

/*
 * The display now shows buffer index (-1: none of the set); the one it
 * showed before is queued if the source gave it back.  0 or -1 (errno).
 */
int vv_scanout_shown(struct vv_scanout *so, int index);

#endif /* VV_SCANOUT_H */
