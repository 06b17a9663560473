/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SDL texture uploaders, one per pixel format, picked from a table.  Every
 * format SDL has a texture format for goes up straight from the frame's
 * pixels, the upload being the one copy; GREY, which SDL has no texture
 * for, is converted into an XRGB8888 texture's buffer first.
 */
#ifndef VV_UPLOAD_H
#define VV_UPLOAD_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "vv-frame.h"

struct vv_uploader {
	uint32_t fourcc;
	uint32_t sdl_format;		/* SDL_PIXELFORMAT_* of the texture */
	bool converts;			/* the viewer converts before upload */
	/*
	 * Upload f and count its copies in f->copies; 0, or a negative
	 * value with SDL_GetError() set.
	 */
	int (*upload)(SDL_Texture *tex, struct vv_frame *f,
		      const uint32_t *xmap);
};

/* NULL for a format with no uploader. */
const struct vv_uploader *vv_uploader_find(uint32_t fourcc);
const struct vv_uploader *vv_uploader_at(unsigned int index);

/* Whether the uploader passes pixels through without CPU conversion. */
int vv_uploader_is_direct(const struct vv_uploader *u);

#endif /* VV_UPLOAD_H */
