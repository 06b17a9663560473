// SPDX-License-Identifier: GPL-2.0 OR MIT
/* SDL texture uploaders, one per pixel format, picked from a table. */
#include "vv-upload.h"
#include "vv-convert.h"

#include <linux/videodev2.h>

/* One plane, packed YUV or RGB: SDL_UpdateTexture from the frame. */
static int vv_upload_packed(SDL_Texture *tex, struct vv_frame *f,
			    const uint32_t *xmap)
{
	struct vv_planes pl;

	(void)xmap;
	if (vv_frame_planes(f, &pl))
		return SDL_SetError("frame smaller than its geometry");
	f->copies++;
	return SDL_UpdateTexture(tex, NULL, pl.p[0], pl.pitch[0]);
}

static int vv_upload_nv12(SDL_Texture *tex, struct vv_frame *f,
			  const uint32_t *xmap)
{
	struct vv_planes pl;

	(void)xmap;
	if (vv_frame_planes(f, &pl))
		return SDL_SetError("frame smaller than its geometry");
	f->copies++;
	return SDL_UpdateNVTexture(tex, NULL, pl.p[0], pl.pitch[0], pl.p[1],
				   pl.pitch[1]);
}

static int vv_upload_yuv420(SDL_Texture *tex, struct vv_frame *f,
			    const uint32_t *xmap)
{
	struct vv_planes pl;

	(void)xmap;
	if (vv_frame_planes(f, &pl))
		return SDL_SetError("frame smaller than its geometry");
	f->copies++;
	return SDL_UpdateYUVTexture(tex, NULL, pl.p[0], pl.pitch[0], pl.p[1],
				    pl.pitch[1], pl.p[2], pl.pitch[2]);
}

/*
 * Convert into the locked texture, row by row: the conversion is one
 * copy, and the texture's upload of its buffer on unlock another.
 */
static int vv_upload_convert(SDL_Texture *tex, struct vv_frame *f,
			     const uint32_t *xmap, vv_row_fn row)
{
	struct vv_planes pl;
	void *pixels;
	int pitch;

	if (vv_frame_planes(f, &pl))
		return SDL_SetError("frame smaller than its geometry");
	if (SDL_LockTexture(tex, NULL, &pixels, &pitch))
		return -1;
	for (uint32_t y = 0; y < f->mode.height; y++)
		row(&pl, y, xmap, f->mode.width,
		    (uint32_t *)((uint8_t *)pixels + (size_t)y * pitch));
	f->copies++;
	SDL_UnlockTexture(tex);
	f->copies++;
	return 0;
}

static int vv_upload_grey(SDL_Texture *tex, struct vv_frame *f,
			  const uint32_t *xmap)
{
	return vv_upload_convert(tex, f, xmap,
				 vv_convert_row_fn(V4L2_PIX_FMT_GREY));
}

/*
 * SDL's packed formats name a 32-bit word: XRGB8888 is B, G, R, X in
 * memory (V4L2's XBGR32), BGRX8888 is X, R, G, B (V4L2's XRGB32).
 */
static const struct vv_uploader vv_uploaders[] = {
	{ V4L2_PIX_FMT_YUYV,   SDL_PIXELFORMAT_YUY2,     false,
	  vv_upload_packed },
	{ V4L2_PIX_FMT_UYVY,   SDL_PIXELFORMAT_UYVY,     false,
	  vv_upload_packed },
	{ V4L2_PIX_FMT_NV12,   SDL_PIXELFORMAT_NV12,     false,
	  vv_upload_nv12 },
	{ V4L2_PIX_FMT_YUV420, SDL_PIXELFORMAT_IYUV,     false,
	  vv_upload_yuv420 },
	{ V4L2_PIX_FMT_RGB24,  SDL_PIXELFORMAT_RGB24,    false,
	  vv_upload_packed },
	{ V4L2_PIX_FMT_BGR24,  SDL_PIXELFORMAT_BGR24,    false,
	  vv_upload_packed },
	{ V4L2_PIX_FMT_XRGB32, SDL_PIXELFORMAT_BGRX8888, false,
	  vv_upload_packed },
	{ V4L2_PIX_FMT_XBGR32, SDL_PIXELFORMAT_XRGB8888, false,
	  vv_upload_packed },
	{ V4L2_PIX_FMT_GREY,   SDL_PIXELFORMAT_XRGB8888, true,
	  vv_upload_grey },
};

const struct vv_uploader *vv_uploader_find(uint32_t fourcc)
{
	for (size_t i = 0; i < SDL_arraysize(vv_uploaders); i++)
		if (vv_uploaders[i].fourcc == fourcc)
			return &vv_uploaders[i];
	return NULL;
}

const struct vv_uploader *vv_uploader_at(unsigned int index)
{
	return index < SDL_arraysize(vv_uploaders) ? &vv_uploaders[index] :
						     NULL;
}

int vv_uploader_is_direct(const struct vv_uploader *u)
{
	return !u->converts;
}
