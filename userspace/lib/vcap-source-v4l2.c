// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* The V4L2 source: a vcap_v4l2 device behind the source interface. */
#include "vcap-priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct v4l2_source {
	struct vcap_v4l2 *dev;
	unsigned int num_buffers;
	bool export_dmabuf;
};

static struct v4l2_source *priv(struct vcap_source *src)
{
	return src->priv;
}

static int v4l2_src_open(struct vcap_source *src, const char *path,
			 const struct vcap_source_config *cfg)
{
	static const struct vcap_mode keep;
	struct v4l2_source *vs;

	vs = calloc(1, sizeof(*vs));
	if (!vs)
		return vcap_set_error(ENOMEM, "%s: open", path);
	vs->dev = vcap_v4l2_open(path);
	if (!vs->dev)
		goto err_free;
	if (memcmp(&cfg->mode, &keep, sizeof(keep))) {
		if (vcap_v4l2_set_mode(vs->dev, &cfg->mode, &src->mode) < 0)
			goto err_close;
	} else if (vcap_v4l2_get_mode(vs->dev, &src->mode) < 0) {
		goto err_close;
	}
	vs->num_buffers = cfg->num_buffers;
	vs->export_dmabuf = cfg->export_dmabuf;
	src->priv = vs;
	return 0;

err_close:
	vcap_v4l2_close(vs->dev);
err_free:
	free(vs);
	return -1;
}

static int v4l2_src_start(struct vcap_source *src)
{
	struct v4l2_source *vs = priv(src);

	if (vcap_v4l2_start(vs->dev, vs->num_buffers, vs->export_dmabuf) < 0)
		return -1;
	src->no_signal = !vcap_v4l2_has_signal(vs->dev);
	return vcap_v4l2_get_mode(vs->dev, &src->mode);
}

static int v4l2_src_next(struct vcap_source *src, struct vcap_frame *frame,
			 int timeout_ms)
{
	struct vcap_v4l2 *dev = priv(src)->dev;
	int ret = vcap_v4l2_dequeue(dev, frame, timeout_ms);

	if (ret == VCAP_SOURCE_CHANGED) {
		vcap_v4l2_last_change(dev, &src->change);
		src->no_signal = !src->change.signal;
		if (src->change.signal)
			src->mode = src->change.mode;
	}
	return ret;
}

static int v4l2_src_release(struct vcap_source *src,
			    struct vcap_frame *frame)
{
	return vcap_v4l2_release(priv(src)->dev, frame);
}

static int v4l2_src_stop(struct vcap_source *src)
{
	return vcap_v4l2_stop(priv(src)->dev);
}

static void v4l2_src_close(struct vcap_source *src)
{
	struct v4l2_source *vs = priv(src);

	vcap_v4l2_close(vs->dev);
	free(vs);
	src->priv = NULL;
}

static int v4l2_src_fd(struct vcap_source *src)
{
	return vcap_v4l2_fd(priv(src)->dev);
}

const struct vcap_source_ops vcap_source_v4l2_ops = {
	.name = "v4l2",
	.open = v4l2_src_open,
	.start = v4l2_src_start,
	.next = v4l2_src_next,
	.release = v4l2_src_release,
	.stop = v4l2_src_stop,
	.close = v4l2_src_close,
	.fd = v4l2_src_fd,
};
