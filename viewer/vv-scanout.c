// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Buffers shared by the display and the capture: who may queue which. */
#include "vv-scanout.h"

#include <string.h>

void vv_scanout_init(struct vv_scanout *so)
{
	memset(so, 0, sizeof(*so));
	pthread_mutex_init(&so->lock, NULL);
	so->on_screen = -1;
	for (unsigned int i = 0; i < VV_SCANOUT_MAX; i++)
		so->buf[i].fd = -1;
}

void vv_scanout_destroy(struct vv_scanout *so)
{
	pthread_mutex_destroy(&so->lock);
}

int vv_scanout_index(const struct vv_scanout *so, const void *data)
{
	for (unsigned int i = 0; i < so->count; i++)
		if (so->buf[i].map && so->buf[i].map == data)
			return i;
	return -1;
}

void vv_scanout_connect(struct vv_scanout *so, vv_scanout_requeue_fn fn,
			void *ctx)
{
	pthread_mutex_lock(&so->lock);
	so->requeue = fn;
	so->ctx = ctx;
	memset(so->returned, 0, sizeof(so->returned));
	pthread_mutex_unlock(&so->lock);
}

int vv_scanout_give_back(struct vv_scanout *so, unsigned int index)
{
	int ret = 0;

	if (index >= so->count)
		return 0;
	pthread_mutex_lock(&so->lock);
	if ((int)index == so->on_screen)
		so->returned[index] = true;
	else if (so->requeue)
		ret = so->requeue(so->ctx, index);
	pthread_mutex_unlock(&so->lock);
	return ret;
}

int vv_scanout_shown(struct vv_scanout *so, int index)
{
	int old, ret = 0;

	pthread_mutex_lock(&so->lock);
	old = so->on_screen;
	so->on_screen = index;
	if (old >= 0 && old != index && so->returned[old]) {
		so->returned[old] = false;
		if (so->requeue)
			ret = so->requeue(so->ctx, old);
	}
	pthread_mutex_unlock(&so->lock);
	return ret;
}
