// SPDX-License-Identifier: GPL-2.0 OR MIT
/* SDL texture uploaders, one per pixel format, picked from a table. */
#include "vv-upload.h"
#include "vv-convert.h"

#include <linux/videodev2.h>

static int vv_upload_packed(SDL_Texture *tex, const struct vv_frame *f,
			    const uint32_t *xmap)
{
	struct vv_planes pl;

	(void)xmap;
	if (vv_frame_planes(f, &pl))
		return SDL_SetError("frame smaller than its geometry");
	return SDL_UpdateTexture(tex, NULL, pl.p[0], pl.pitch[0]);
}

static int vv_upload_nv12(SDL_Texture *tex, const struct vv_frame *f,
			  const uint32_t *xmap)
{
	struct vv_planes pl;

	(void)xmap;
	if (vv_frame_planes(f, &pl))
		return SDL_SetError("frame smaller than its geometry");
	return SDL_UpdateNVTexture(tex, NULL, pl.p[0], pl.pitch[0], pl.p[1],
				   pl.pitch[1]);
}

static int vv_upload_yuv420(SDL_Texture *tex, const struct vv_frame *f,
			    const uint32_t *xmap)
{
	struct vv_planes pl;

	(void)xmap;
	if (vv_frame_planes(f, &pl))
		return SDL_SetError("frame smaller than its geometry");
	return SDL_UpdateYUVTexture(tex, NULL, pl.p[0], pl.pitch[0], pl.p[1],
				    pl.pitch[1], pl.p[2], pl.pitch[2]);
}

/* Convert into the locked texture, row by row. */
static int vv_upload_convert(SDL_Texture *tex, const struct vv_frame *f,
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
	SDL_UnlockTexture(tex);
	return 0;
}

#define VV_CONVERT_UPLOADER(name, fourcc)				\
	static int vv_upload_##name(SDL_Texture *tex,			\
				    const struct vv_frame *f,		\
				    const uint32_t *xmap)		\
	{								\
		return vv_upload_convert(tex, f, xmap,			\
					 vv_convert_row_fn(fourcc));	\
	}

VV_CONVERT_UPLOADER(rgb24, V4L2_PIX_FMT_RGB24)
VV_CONVERT_UPLOADER(bgr24, V4L2_PIX_FMT_BGR24)
VV_CONVERT_UPLOADER(xrgb32, V4L2_PIX_FMT_XRGB32)
VV_CONVERT_UPLOADER(xbgr32, V4L2_PIX_FMT_XBGR32)
VV_CONVERT_UPLOADER(grey, V4L2_PIX_FMT_GREY)

static const struct vv_uploader vv_uploaders[] = {
	{ V4L2_PIX_FMT_YUYV,   SDL_PIXELFORMAT_YUY2,     vv_upload_packed },
	{ V4L2_PIX_FMT_UYVY,   SDL_PIXELFORMAT_UYVY,     vv_upload_packed },
	{ V4L2_PIX_FMT_NV12,   SDL_PIXELFORMAT_NV12,     vv_upload_nv12 },
	{ V4L2_PIX_FMT_YUV420, SDL_PIXELFORMAT_IYUV,     vv_upload_yuv420 },
	{ V4L2_PIX_FMT_RGB24,  SDL_PIXELFORMAT_XRGB8888, vv_upload_rgb24 },
	{ V4L2_PIX_FMT_BGR24,  SDL_PIXELFORMAT_XRGB8888, vv_upload_bgr24 },
	{ V4L2_PIX_FMT_XRGB32, SDL_PIXELFORMAT_XRGB8888, vv_upload_xrgb32 },
	{ V4L2_PIX_FMT_XBGR32, SDL_PIXELFORMAT_XRGB8888, vv_upload_xbgr32 },
	{ V4L2_PIX_FMT_GREY,   SDL_PIXELFORMAT_XRGB8888, vv_upload_grey },
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
	return SDL_ISPIXELFORMAT_FOURCC(u->sdl_format);
}
