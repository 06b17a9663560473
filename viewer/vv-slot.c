// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The one-slot "latest frame" buffer between the capture thread and the UI. */
#include "vv-slot.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

int vv_slot_init(struct vv_slot *s)
{
	pthread_condattr_t attr;

	s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->wake_fd < 0)
		return -errno;
	s->frame = calloc(1, sizeof(*s->frame));
	if (!s->frame) {
		close(s->wake_fd);
		return -ENOMEM;
	}
	s->full = false;
	s->closed = false;
	s->pushed = 0;
	s->replaced = 0;
	pthread_mutex_init(&s->lock, NULL);
	/* Timed waits on the monotonic clock: wall-clock jumps do not matter. */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->ready, &attr);
	pthread_condattr_destroy(&attr);
	return 0;
}

void vv_slot_destroy(struct vv_slot *s)
{
	if (!s->frame)
		return;
	pthread_cond_destroy(&s->ready);
	pthread_mutex_destroy(&s->lock);
	vv_frame_release(s->frame);
	free(s->frame);
	s->frame = NULL;
	close(s->wake_fd);
}

bool vv_slot_push(struct vv_slot *s, struct vv_frame **frame)
{
	struct vv_frame *spare;
	bool replaced;

	pthread_mutex_lock(&s->lock);
	spare = s->frame;
	s->frame = *frame;
	replaced = s->full;
	s->full = true;
	s->pushed++;
	if (replaced)
		s->replaced++;
	pthread_cond_signal(&s->ready);
	pthread_mutex_unlock(&s->lock);
	*frame = spare;
	return replaced;
}

static void vv_deadline(struct timespec *ts, int timeout_ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += timeout_ms / 1000;
	ts->tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

bool vv_slot_take(struct vv_slot *s, struct vv_frame **frame, int timeout_ms)
{
	struct vv_frame *mine;
	struct timespec deadline;
	bool got = false, wake = false;

	if (timeout_ms > 0)
		vv_deadline(&deadline, timeout_ms);
	pthread_mutex_lock(&s->lock);
	while (!s->full && !s->closed && timeout_ms > 0) {
		if (pthread_cond_timedwait(&s->ready, &s->lock, &deadline) ==
		    ETIMEDOUT)
			break;
	}
	if (s->full) {
		mine = *frame;
		*frame = s->frame;
		s->frame = mine;
		s->full = false;
		got = true;
		/* Once unlocked, mine is the producer's to touch. */
		wake = mine->held;
	}
	pthread_mutex_unlock(&s->lock);
	if (wake) {
		uint64_t one = 1;

		/* Cannot fail but at 2^64-1 unread wakes. */
		if (write(s->wake_fd, &one, sizeof(one)) != sizeof(one))
			return got;
	}
	return got;
}

struct vv_frame *vv_slot_returned(struct vv_slot *s)
{
	struct vv_frame *f = NULL;

	pthread_mutex_lock(&s->lock);
	if (!s->full && s->frame->held)
		f = s->frame;
	pthread_mutex_unlock(&s->lock);
	return f;
}

int vv_slot_wake_fd(const struct vv_slot *s)
{
	return s->wake_fd;
}

void vv_slot_wake_clear(struct vv_slot *s)
{
	uint64_t n;

	if (read(s->wake_fd, &n, sizeof(n)) < 0)
		return;	/* EAGAIN: nothing to clear */
}

void vv_slot_close(struct vv_slot *s)
{
	pthread_mutex_lock(&s->lock);
	s->closed = true;
	pthread_cond_broadcast(&s->ready);
	pthread_mutex_unlock(&s->lock);
}

bool vv_slot_closed(struct vv_slot *s)
{
	bool closed;

	pthread_mutex_lock(&s->lock);
	closed = s->closed;
	pthread_mutex_unlock(&s->lock);
	return closed;
}

uint64_t vv_slot_replaced(struct vv_slot *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->lock);
	n = s->replaced;
	pthread_mutex_unlock(&s->lock);
	return n;
}
