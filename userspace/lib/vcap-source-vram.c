// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* The VRAM source: a vcap_vram node behind the source interface. */
#include "vcap-priv.h"

#include <stddef.h>

static struct vcap_vram *priv(struct vcap_source *src)
{
	return src->priv;
}

static int vram_src_open(struct vcap_source *src, const char *path,
			 const struct vcap_source_config *cfg)
{
	struct vcap_vram_info info;
	struct vcap_vram *vram;

	(void)cfg;	/* the board's mode is set through its V4L2 node */
	vram = vcap_vram_open(path);
	if (!vram)
		return -1;
	if (vcap_vram_query(vram, &info) < 0) {
		vcap_vram_close(vram);
		return -1;
	}
	src->mode = info.mode;
	src->priv = vram;
	return 0;
}

static int vram_src_start(struct vcap_source *src)
{
	return vcap_vram_start(priv(src), &src->mode);
}

static int vram_src_next(struct vcap_source *src, struct vcap_frame *frame,
			 int timeout_ms)
{
	int ret = vcap_vram_wait(priv(src), frame, timeout_ms);

	if (ret == 0 && (frame->flags & VCAP_FRAME_MODE_CHANGED))
		src->mode = frame->mode;
	return ret;
}

static bool vram_src_valid(struct vcap_source *src,
			   const struct vcap_frame *frame)
{
	return vcap_vram_frame_valid(priv(src), frame);
}

static void vram_src_close(struct vcap_source *src)
{
	vcap_vram_close(priv(src));
	src->priv = NULL;
}

static int vram_src_fd(struct vcap_source *src)
{
	return vcap_vram_fd(priv(src));
}

/* Nothing to hand back or stop: the board owns its ring. */
const struct vcap_source_ops vcap_source_vram_ops = {
	.name = "vram",
	.open = vram_src_open,
	.start = vram_src_start,
	.next = vram_src_next,
	.frame_valid = vram_src_valid,
	.close = vram_src_close,
	.fd = vram_src_fd,
};
