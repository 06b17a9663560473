// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* The source interface: one lifecycle over V4L2, VRAM and test sources. */
#include "vcap-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/vcap.h>

/*
 * /dev/vcapN by name, or any node that answers VCAP_IOC_QUERY.  The name
 * is the node's own, not a link's: udev's /dev/v4l/by-id/vcap-SERIAL-...
 * names a V4L2 node.
 */
static bool is_vram_node(const char *path)
{
	char *real = realpath(path, NULL);
	const char *name = real ? real : path;
	const char *base = strrchr(name, '/');
	struct vcap_info info;
	bool vram;
	int fd, by_name = -1;

	base = base ? base + 1 : name;
	if (!strncmp(base, "vcap", 4))
		by_name = 1;
	else if (!strncmp(base, "video", 5))
		by_name = 0;
	free(real);
	if (by_name >= 0)
		return by_name;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	vram = vcap_xioctl(fd, VCAP_IOC_QUERY, &info) == 0;
	close(fd);
	return vram;
}

struct vcap_source *vcap_source_open(const struct vcap_source_ops *ops,
				     const char *path,
				     const struct vcap_source_config *cfg)
{
	static const struct vcap_source_config defaults;
	struct vcap_source *src;

	if (!ops)
		ops = is_vram_node(path) ? &vcap_source_vram_ops :
					   &vcap_source_v4l2_ops;
	src = calloc(1, sizeof(*src));
	if (!src) {
		vcap_set_error(ENOMEM, "%s: open", path);
		return NULL;
	}
	src->ops = ops;
	snprintf(src->path, sizeof(src->path), "%s", path);
	if (ops->open(src, path, cfg ? cfg : &defaults) < 0) {
		free(src);
		return NULL;
	}
	return src;
}

int vcap_source_start(struct vcap_source *src)
{
	if (src->streaming)
		return 0;
	if (src->ops->start(src) < 0)
		return -1;
	src->streaming = true;
	return 0;
}

int vcap_source_next(struct vcap_source *src, struct vcap_frame *frame,
		     int timeout_ms)
{
	if (!src->streaming)
		return vcap_set_error(EINVAL, "%s: next: not started",
				      src->path);
	return src->ops->next(src, frame, timeout_ms);
}

bool vcap_source_has_signal(const struct vcap_source *src)
{
	return !src->no_signal;
}

const struct vcap_source_change *
vcap_source_last_change(const struct vcap_source *src)
{
	return src->change.count ? &src->change : NULL;
}

bool vcap_source_frame_valid(struct vcap_source *src,
			     const struct vcap_frame *frame)
{
	if (frame->flags & VCAP_FRAME_TORN)
		return false;
	return src->ops->frame_valid ? src->ops->frame_valid(src, frame) :
				       true;
}

int vcap_source_release(struct vcap_source *src, struct vcap_frame *frame)
{
	if (!src->streaming)
		return 0;
	return src->ops->release ? src->ops->release(src, frame) : 0;
}

int vcap_source_stop(struct vcap_source *src)
{
	if (!src->streaming)
		return 0;
	src->streaming = false;
	return src->ops->stop ? src->ops->stop(src) : 0;
}

void vcap_source_close(struct vcap_source *src)
{
	if (!src)
		return;
	vcap_source_stop(src);
	if (src->ops->close)
		src->ops->close(src);
	free(src);
}

int vcap_source_fd(struct vcap_source *src)
{
	return src->ops->fd ? src->ops->fd(src) : -1;
}

const char *vcap_source_kind(const struct vcap_source *src)
{
	return src->ops->name;
}
