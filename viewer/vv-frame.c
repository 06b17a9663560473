// SPDX-License-Identifier: GPL-2.0 OR MIT
/* One captured frame as the viewer holds it: pixels, geometry, timing. */
#include "vv-frame.h"

#include <errno.h>
#include <stdlib.h>

int vv_frame_reserve(struct vv_frame *f, size_t size)
{
	uint8_t *p;

	if (size > f->capacity) {
		p = malloc(size);
		if (!p)
			return -ENOMEM;
		free(f->store);
		f->store = p;
		f->capacity = size;
	}
	f->src = NULL;
	f->data = f->store;
	f->length = f->capacity;
	return 0;
}

void vv_frame_release(struct vv_frame *f)
{
	free(f->store);
	f->store = NULL;
	f->capacity = 0;
	f->data = NULL;
	f->length = 0;
}

bool vv_frame_intact(const struct vv_frame *f)
{
	return !f->src || vcap_source_frame_valid(f->src, &f->view);
}

int vv_frame_planes(const struct vv_frame *f, struct vv_planes *pl)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(f->mode.fourcc);
	size_t need = vcap_mode_frame_size(&f->mode);
	uint32_t bpl = f->mode.bytesperline, h = f->mode.height;

	if (!pf || !need || !bpl || !f->data || need > f->mode.sizeimage ||
	    need > f->length)
		return -EINVAL;
	pl->p[0] = f->data;
	pl->pitch[0] = bpl;
	pl->count = 1;
	if (pf->layout == VCAP_LAYOUT_SEMI_PLANAR_420) {
		pl->p[1] = f->data + (size_t)bpl * h;
		pl->pitch[1] = bpl;
		pl->count = 2;
	} else if (pf->layout == VCAP_LAYOUT_PLANAR_420) {
		uint32_t cpitch = (bpl + 1) / 2;

		pl->p[1] = f->data + (size_t)bpl * h;
		pl->p[2] = pl->p[1] + (size_t)cpitch * ((h + 1) / 2);
		pl->pitch[1] = pl->pitch[2] = cpitch;
		pl->count = 3;
	}
	return 0;
}
