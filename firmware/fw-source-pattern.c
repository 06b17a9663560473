// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The test pattern source: the shared generator in common/. */
#include <stdlib.h>
#include <string.h>
#include "fw-source.h"

static void fw_pattern_render(struct fw_source *s,
			      const struct fw_frame_req *req, u8 *dst,
			      u64 seq, u64 prev)
{
	u32 src_w = req->src_w ? req->src_w : req->fmt.width;
	u32 src_h = req->src_h ? req->src_h : req->fmt.height;
	struct vcap_gen g;

	(void)s;
	if (vcap_gen_init_scaled(&g, &req->fmt, req->pattern, req->flags,
				 src_w, src_h))
		return;
	vcap_gen_render(&g, dst, seq, prev);
}

static void fw_pattern_destroy(struct fw_source *s)
{
	free(s);
}

static const struct fw_source_ops fw_pattern_ops = {
	.render = fw_pattern_render,
	.destroy = fw_pattern_destroy,
};

struct fw_source *fw_source_pattern_new(void)
{
	struct fw_source *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ops = &fw_pattern_ops;
	strcpy(s->desc, "pattern");
	return s;
}

void fw_source_destroy(struct fw_source *s)
{
	if (s)
		s->ops->destroy(s);
}
