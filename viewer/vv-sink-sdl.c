// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The SDL2 sink: a window, two textures per mode, the overlay on top. */
#include "vv-sink.h"
#include "vv-convert.h"
#include "vv-upload.h"

#include <SDL.h>
#include <stdlib.h>
#include <string.h>

struct vv_sdl {
	SDL_Window *window;
	SDL_Renderer *renderer;
	/*
	 * The frame, in the mode's format, twice: a frame goes into the one
	 * not shown, and is shown only if it was read whole.
	 */
	SDL_Texture *texture[2];
	int front;			/* texture[front] is on screen */
	SDL_Texture *overlay;		/* ARGB8888, blended */
	int overlay_w, overlay_h;	/* size of the overlay texture */
	bool overlay_shown;		/* the last show drew it */
	SDL_Texture *card;		/* ARGB8888: shown with no frame */
	int card_w, card_h;
	bool card_shown;		/* until the next frame */
	const struct vv_uploader *uploader;
	struct vcap_mode mode;
	uint32_t *xmap;			/* identity column map, mode.width */
	bool have_frame;		/* texture[front] holds a frame */
	int auto_w, auto_h;		/* the size the viewer gave the window */
};

static int vv_sdl_fail(struct vv_sink *s, const char *what)
{
	return vv_sink_fail(s, "%s: %s", what, SDL_GetError());
}

/* w x h, or smaller with the same aspect if the screen is smaller. */
static void vv_sdl_fit_screen(int *w, int *h)
{
	SDL_Rect bounds;

	if (!SDL_GetDisplayUsableBounds(0, &bounds) && bounds.w > 0 &&
	    bounds.h > 0 && (*w > bounds.w || *h > bounds.h)) {
		struct vv_rect r = vv_fit_rect(*w, *h, bounds.w, bounds.h);

		*w = r.w;
		*h = r.h;
	}
}

/*
 * The window takes each new mode's size, until the user sizes it
 * otherwise: a window still at the size the viewer gave it.
 */
static void vv_sdl_size_window(struct vv_sdl *d, int w, int h)
{
	int cw, ch;

	if (SDL_GetWindowFlags(d->window) &
	    (SDL_WINDOW_FULLSCREEN | SDL_WINDOW_MAXIMIZED))
		return;
	SDL_GetWindowSize(d->window, &cw, &ch);
	if (cw != d->auto_w || ch != d->auto_h)
		return;
	vv_sdl_fit_screen(&w, &h);
	if (cw != w || ch != h)
		SDL_SetWindowSize(d->window, w, h);
	SDL_GetWindowSize(d->window, &d->auto_w, &d->auto_h);
}

/*
 * SDL's offscreen driver shows nothing, yet by default it draws through
 * EGL: its default renderer is OpenGL, and even the software renderer's
 * window surface becomes a GL texture ("framebuffer acceleration").
 * Without a GPU that GL is Mesa's llvmpipe, whose threads take every CPU
 * for a few frames a second and leave the source's frames to be skipped
 * and torn.  There, the software renderer draws into the window's plain
 * memory surface.  SDL_RENDER_DRIVER and SDL_FRAMEBUFFER_ACCELERATION in
 * the environment still win: these are hints of normal priority.
 */
static void vv_sdl_headless_hints(void)
{
	const char *driver = SDL_GetCurrentVideoDriver();

	if (!driver || strcmp(driver, "offscreen"))
		return;
	SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
	SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
}

static int vv_sdl_init(struct vv_sink *s, const struct vv_sink_config *cfg)
{
	struct vv_sdl *d = calloc(1, sizeof(*d));
	int w = cfg->width ? cfg->width : 640;
	int h = cfg->height ? cfg->height : 480;
	Uint32 flags = SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;

	if (!d)
		return vv_sink_fail(s, "out of memory");
	s->priv = d;
	/* Our own SIGINT/SIGTERM handling stays in place. */
	SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
	SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear");
	if (SDL_Init(SDL_INIT_VIDEO))
		return vv_sdl_fail(s, "no display (SDL_Init)");
	vv_sdl_headless_hints();

	/* A frame bigger than the screen starts scaled down, aspect kept. */
	vv_sdl_fit_screen(&w, &h);
	if (cfg->fullscreen)
		flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
	d->window = SDL_CreateWindow(cfg->title, SDL_WINDOWPOS_UNDEFINED,
				     SDL_WINDOWPOS_UNDEFINED, w, h, flags);
	if (!d->window)
		return vv_sdl_fail(s, "cannot open a window");
	SDL_GetWindowSize(d->window, &d->auto_w, &d->auto_h);
	d->renderer = SDL_CreateRenderer(d->window, -1, 0);
	if (!d->renderer)
		return vv_sdl_fail(s, "cannot create a renderer");
	/* The KMS sink and the test source read YUV the same way. */
	SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_BT601);
	return 0;
}

/* Whether the renderer keeps textures of format as they are. */
static bool vv_sdl_native(struct vv_sdl *d, uint32_t format)
{
	SDL_RendererInfo info;

	if (SDL_GetRendererInfo(d->renderer, &info))
		return false;
	for (Uint32 i = 0; i < info.num_texture_formats; i++)
		if (info.texture_formats[i] == format)
			return true;
	return false;
}

/* SDL_PIXELFORMAT_YUY2 -> YUY2 */
static const char *vv_sdl_format_name(uint32_t format)
{
	const char *name = SDL_GetPixelFormatName(format);

	return strncmp(name, "SDL_PIXELFORMAT_", 16) ? name : name + 16;
}

/* For --stats: the copies, and whether SDL converts on its own. */
static void vv_sdl_describe(struct vv_sink *s, const struct vv_uploader *up,
			    const struct vcap_mode *mode)
{
	struct vv_sdl *d = s->priv;
	const char *tex = vv_sdl_format_name(up->sdl_format);
	SDL_RendererInfo info = { .name = "?" };
	char cc[VCAP_FOURCC_STR_LEN];
	char conv[64] = "";
	char extra[96] = "";

	SDL_GetRendererInfo(d->renderer, &info);
	if (up->converts)
		snprintf(conv, sizeof(conv), "%s converted to %s by the viewer, ",
			 vcap_fourcc_str(mode->fourcc, cc), tex);
	if (!vv_sdl_native(d, up->sdl_format))
		snprintf(extra, sizeof(extra),
			 "; the %s renderer converts it itself", info.name);
	snprintf(s->path, sizeof(s->path), "%ssdl upload (%s texture%s)", conv,
		 tex, extra);
}

static int vv_sdl_start(struct vv_sink *s, const struct vcap_mode *mode)
{
	struct vv_sdl *d = s->priv;
	const struct vv_uploader *up = vv_uploader_find(mode->fourcc);
	char cc[VCAP_FOURCC_STR_LEN];

	if (!up)
		return vv_sink_fail(s, "unsupported format %s",
				    vcap_fourcc_str(mode->fourcc, cc));
	d->have_frame = false;
	d->front = 0;
	for (int i = 0; i < 2; i++) {
		if (d->texture[i])
			SDL_DestroyTexture(d->texture[i]);
		d->texture[i] = SDL_CreateTexture(d->renderer, up->sdl_format,
						  SDL_TEXTUREACCESS_STREAMING,
						  mode->width, mode->height);
		if (!d->texture[i])
			return vv_sdl_fail(s, "cannot create a texture");
	}
	free(d->xmap);
	d->xmap = malloc(sizeof(*d->xmap) * mode->width);
	if (!d->xmap)
		return vv_sink_fail(s, "out of memory");
	for (uint32_t i = 0; i < mode->width; i++)
		d->xmap[i] = i;
	vv_sdl_size_window(d, mode->width, mode->height);
	d->uploader = up;
	d->mode = *mode;
	vv_sdl_describe(s, up, mode);
	return 0;
}

/* A bitmap into its blended texture, made again when its size changes. */
static int vv_sdl_update_bitmap(struct vv_sink *s, SDL_Texture **tex,
				int *w, int *h,
				const struct vv_overlay_bitmap *bm)
{
	struct vv_sdl *d = s->priv;

	if (!*tex || *w != bm->width || *h != bm->height) {
		if (*tex)
			SDL_DestroyTexture(*tex);
		*tex = SDL_CreateTexture(d->renderer, SDL_PIXELFORMAT_ARGB8888,
					 SDL_TEXTUREACCESS_STREAMING,
					 bm->width, bm->height);
		if (!*tex)
			return vv_sdl_fail(s, "cannot create a texture");
		SDL_SetTextureBlendMode(*tex, SDL_BLENDMODE_BLEND);
		*w = bm->width;
		*h = bm->height;
	}
	if (SDL_UpdateTexture(*tex, NULL, bm->pixels, bm->width * 4))
		return vv_sdl_fail(s, "cannot update a bitmap texture");
	return 0;
}

/* Paint the frame, letterboxed with its aspect kept, and the overlay. */
static int vv_sdl_draw(struct vv_sink *s)
{
	struct vv_sdl *d = s->priv;
	struct vv_rect r;
	SDL_Rect dst;
	int w, h;

	if (SDL_GetRendererOutputSize(d->renderer, &w, &h))
		return vv_sdl_fail(s, "renderer output size");
	/*
	 * The window may have changed size (fullscreen, a window manager)
	 * before its event reached the renderer: draw over all of it.
	 */
	SDL_RenderSetViewport(d->renderer, NULL);
	SDL_SetRenderDrawColor(d->renderer, 0, 0, 0, 255);
	SDL_RenderClear(d->renderer);
	if (d->card_shown && d->card) {
		/* At its size, centred; fitted only to a smaller output. */
		if (d->card_w > w || d->card_h > h)
			r = vv_fit_rect(d->card_w, d->card_h, w, h);
		else
			r = (struct vv_rect){ (w - d->card_w) / 2,
					      (h - d->card_h) / 2, d->card_w,
					      d->card_h };
		dst = (SDL_Rect){ r.x, r.y, r.w, r.h };
		if (SDL_RenderCopy(d->renderer, d->card, NULL, &dst))
			return vv_sdl_fail(s, "cannot draw the card");
	} else if (d->have_frame) {
		r = vv_fit_rect(d->mode.width, d->mode.height, w, h);
		dst = (SDL_Rect){ r.x, r.y, r.w, r.h };
		if (SDL_RenderCopy(d->renderer, d->texture[d->front], NULL,
				   &dst))
			return vv_sdl_fail(s, "cannot draw the frame");
	}
	if (d->overlay_shown && d->overlay) {
		dst = (SDL_Rect){ 0, 0, d->overlay_w, d->overlay_h };
		if (SDL_RenderCopy(d->renderer, d->overlay, NULL, &dst))
			return vv_sdl_fail(s, "cannot draw the overlay");
	}
	return 0;
}

static int vv_sdl_show(struct vv_sink *s, struct vv_frame *f,
		       const struct vv_overlay_bitmap *ov)
{
	struct vv_sdl *d = s->priv;
	int back = !d->front;

	if (!d->texture[0])
		return vv_sink_fail(s, "frame shown before start");
	if (f) {
		if (f->mode.width != d->mode.width ||
		    f->mode.height != d->mode.height ||
		    f->mode.fourcc != d->mode.fourcc)
			return vv_sink_fail(s, "frame does not match the mode");
		/* Straight from the source's buffer into the texture. */
		if (d->uploader->upload(d->texture[back], f, d->xmap))
			return vv_sdl_fail(s, "cannot upload the frame");
		if (!vv_frame_intact(f))
			return VV_SINK_TORN;
		d->front = back;
		d->have_frame = true;
		d->card_shown = false;
	}
	d->overlay_shown = ov != NULL;
	if (ov && vv_sdl_update_bitmap(s, &d->overlay, &d->overlay_w,
				       &d->overlay_h, ov))
		return -1;
	if (vv_sdl_draw(s))
		return -1;
	SDL_RenderPresent(d->renderer);
	return 0;
}

static int vv_sdl_show_card(struct vv_sink *s,
			    const struct vv_overlay_bitmap *card)
{
	struct vv_sdl *d = s->priv;

	if (vv_sdl_update_bitmap(s, &d->card, &d->card_w, &d->card_h, card))
		return -1;
	d->card_shown = true;
	d->overlay_shown = false;
	if (vv_sdl_draw(s))
		return -1;
	SDL_RenderPresent(d->renderer);
	return 0;
}

static int vv_sdl_set_title(struct vv_sink *s, const char *title)
{
	struct vv_sdl *d = s->priv;

	SDL_SetWindowTitle(d->window, title);
	return 0;
}

static int vv_sdl_poll(struct vv_sink *s, enum vv_action *actions, int max)
{
	struct vv_sdl *d = s->priv;
	bool full = SDL_GetWindowFlags(d->window) & SDL_WINDOW_FULLSCREEN;
	SDL_Event ev;
	int n = 0;

	while (n < max && SDL_PollEvent(&ev)) {
		switch (ev.type) {
		case SDL_QUIT:
			actions[n++] = VV_ACTION_QUIT;
			break;
		case SDL_WINDOWEVENT:
			if (ev.window.event == SDL_WINDOWEVENT_EXPOSED ||
			    ev.window.event == SDL_WINDOWEVENT_SIZE_CHANGED)
				actions[n++] = VV_ACTION_REDRAW;
			break;
		case SDL_KEYDOWN:
			switch (ev.key.keysym.sym) {
			case SDLK_ESCAPE:
				/* Leave fullscreen first, quit from a window. */
				actions[n++] = full ? VV_ACTION_FULLSCREEN :
						      VV_ACTION_QUIT;
				break;
			case SDLK_q:
				actions[n++] = VV_ACTION_QUIT;
				break;
			case SDLK_f:
				actions[n++] = VV_ACTION_FULLSCREEN;
				break;
			case SDLK_SPACE:
			case SDLK_p:
				actions[n++] = VV_ACTION_PAUSE;
				break;
			case SDLK_s:
				actions[n++] = VV_ACTION_SNAPSHOT;
				break;
			case SDLK_o:
			case SDLK_i:
				actions[n++] = VV_ACTION_OVERLAY;
				break;
			}
			break;
		}
	}
	return n;
}

static int vv_sdl_set_fullscreen(struct vv_sink *s, bool on)
{
	struct vv_sdl *d = s->priv;

	if (SDL_SetWindowFullscreen(d->window,
				    on ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0))
		return vv_sdl_fail(s, "fullscreen");
	return 0;
}

/* Read back what the renderer drew, not the raw frame. */
static int vv_sdl_snapshot(struct vv_sink *s, const char *path)
{
	struct vv_sdl *d = s->priv;
	struct vcap_mode m = { 0 };
	uint8_t *rgb;
	int w, h, ret = 0;

	if (vv_sdl_draw(s))
		return -1;
	if (SDL_GetRendererOutputSize(d->renderer, &w, &h))
		return vv_sdl_fail(s, "renderer output size");
	m.fourcc = vcap_fourcc_parse("RGB24");
	m.width = w;
	m.height = h;
	m.bytesperline = w * 3;
	m.sizeimage = m.bytesperline * h;
	rgb = malloc(m.sizeimage);
	if (!rgb)
		return vv_sink_fail(s, "out of memory");
	if (SDL_RenderReadPixels(d->renderer, NULL, SDL_PIXELFORMAT_RGB24, rgb,
				 m.bytesperline))
		ret = vv_sdl_fail(s, "cannot read the rendered picture");
	else if (vcap_png_write(path, &m, rgb, m.sizeimage))
		ret = vv_sink_fail(s, "%s", vcap_last_error());
	free(rgb);
	/* The back buffer was drawn for reading: put it on screen too. */
	SDL_RenderPresent(d->renderer);
	return ret;
}

static void vv_sdl_stop(struct vv_sink *s)
{
	struct vv_sdl *d = s->priv;

	if (!d)
		return;
	for (int i = 0; i < 2; i++) {
		if (d->texture[i])
			SDL_DestroyTexture(d->texture[i]);
		d->texture[i] = NULL;
	}
	if (d->overlay)
		SDL_DestroyTexture(d->overlay);
	d->overlay = NULL;
	d->have_frame = false;
}

static void vv_sdl_destroy(struct vv_sink *s)
{
	struct vv_sdl *d = s->priv;

	if (!d)
		return;
	vv_sdl_stop(s);
	if (d->card)
		SDL_DestroyTexture(d->card);
	if (d->renderer)
		SDL_DestroyRenderer(d->renderer);
	if (d->window)
		SDL_DestroyWindow(d->window);
	SDL_Quit();
	free(d->xmap);
	free(d);
	s->priv = NULL;
}

const struct vv_sink_ops vv_sink_sdl_ops = {
	.name = "sdl",
	.init = vv_sdl_init,
	.start = vv_sdl_start,
	.show = vv_sdl_show,
	.show_card = vv_sdl_show_card,
	.set_title = vv_sdl_set_title,
	.poll = vv_sdl_poll,
	.set_fullscreen = vv_sdl_set_fullscreen,
	.snapshot = vv_sdl_snapshot,
	.stop = vv_sdl_stop,
	.destroy = vv_sdl_destroy,
};
