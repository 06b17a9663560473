// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* PNG snapshots of one frame through libpng. */
#include "vcap-priv.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* libpng reports through longjmp; keep its message for the error line. */
struct png_ctx {
	char msg[128];
};

static void png_err(png_structp png, png_const_charp msg)
{
	struct png_ctx *ctx = png_get_error_ptr(png);

	snprintf(ctx->msg, sizeof(ctx->msg), "%s", msg);
	png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

int vcap_png_write(const char *path, const struct vcap_mode *mode,
		   const void *data, size_t len)
{
	size_t w = mode->width, h = mode->height;
	struct png_ctx ctx = { "" };
	png_structp png = NULL;
	png_infop info = NULL;
	uint8_t *volatile rgb = NULL;
	FILE *volatile f = NULL;
	int ret = -1;

	if (!w || !h || w > 65536 || h > 65536)
		return vcap_set_error(EINVAL, "%s: bad snapshot size %zux%zu",
				      path, w, h);
	rgb = malloc(w * h * 3);
	if (!rgb)
		return vcap_set_error(ENOMEM, "%s: snapshot buffer", path);
	if (vcap_convert_rgb24(mode, data, len, rgb) < 0) {
		char msg[320];

		snprintf(msg, sizeof(msg), "%s", vcap_last_error());
		vcap_set_error(EINVAL, "%s: %s", path, msg);
		goto out;
	}
	f = fopen(path, "wb");
	if (!f) {
		vcap_set_error(errno, "%s: open", path);
		goto out;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, png_err,
				      png_warn);
	if (png)
		info = png_create_info_struct(png);
	if (!png || !info) {
		vcap_set_error(ENOMEM, "%s: libpng", path);
		goto out;
	}
	if (setjmp(png_jmpbuf(png))) {
		vcap_set_error(errno ? errno : EIO, "%s: libpng: %s", path,
			       ctx.msg);
		goto out;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (size_t y = 0; y < h; y++)
		png_write_row(png, rgb + y * w * 3);
	png_write_end(png, info);
	ret = 0;
out:
	if (png)
		png_destroy_write_struct(&png, info ? &info : NULL);
	if (f && fclose(f) != 0 && ret == 0)
		ret = vcap_set_error(errno, "%s: close", path);
	free(rgb);
	return ret;
}
