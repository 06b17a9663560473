// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The SDL sink on SDL's offscreen driver: frames drawn by the software
 * renderer into plain memory, with no GL context behind the window.
 */
#include "vtest.h"
#include "vv-sink.h"

#include <SDL.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define W	64
#define H	48

static void offscreen_env(void)
{
	setenv("SDL_VIDEODRIVER", "offscreen", 1);
	unsetenv("SDL_RENDER_DRIVER");
	unsetenv("SDL_FRAMEBUFFER_ACCELERATION");
}

/* A grey YUYV frame in its own store; 0 or -ENOMEM. */
static int grey_frame(struct vv_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->mode.fourcc = vcap_fourcc_parse("YUYV");
	f->mode.width = W;
	f->mode.height = H;
	f->mode.bytesperline = W * 2;
	f->mode.sizeimage = W * 2 * H;
	if (vv_frame_reserve(f, f->mode.sizeimage))
		return -ENOMEM;
	memset(f->store, 0x80, f->mode.sizeimage);
	return 0;
}

/*
 * By default SDL's offscreen driver draws through EGL, which without a
 * GPU is llvmpipe: a few frames a second in a virtual machine.
 */
TEST(offscreen_draws_in_memory_without_gl)
{
	struct vv_sink_config cfg = { .title = "test", .width = W,
				      .height = H };
	struct vv_sink sink = { .ops = &vv_sink_sdl_ops };
	struct vv_frame f;

	offscreen_env();
	ASSERT_EQ(grey_frame(&f), 0);
	ASSERT_EQ(sink.ops->init(&sink, &cfg), 0);
	ASSERT_EQ(sink.ops->start(&sink, &f.mode), 0);
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(sink.ops->show(&sink, &f, NULL), 0);
	TH_LOG("%s", sink.path);
	ASSERT_NE(strstr(sink.path, "the software renderer"), NULL);
	/* Neither a GL renderer nor a GL texture behind the window. */
	ASSERT_EQ(SDL_GL_GetCurrentContext(), NULL);
	ASSERT_EQ(f.copies, 3u);
	sink.ops->stop(&sink);
	sink.ops->destroy(&sink);
	vv_frame_release(&f);
}

static bool hint_is(const char *name, const char *value)
{
	const char *v = SDL_GetHint(name);

	return v && !strcmp(v, value);
}

/* The hints yield to the user's own choice in the environment. */
TEST(offscreen_environment_wins)
{
	struct vv_sink_config cfg = { .title = "test", .width = W,
				      .height = H };
	struct vv_sink sink = { .ops = &vv_sink_sdl_ops };

	offscreen_env();
	setenv("SDL_FRAMEBUFFER_ACCELERATION", "1", 1);
	ASSERT_EQ(sink.ops->init(&sink, &cfg), 0);
	ASSERT_TRUE(hint_is(SDL_HINT_FRAMEBUFFER_ACCELERATION, "1"));
	ASSERT_TRUE(hint_is(SDL_HINT_RENDER_DRIVER, "software"));
	sink.ops->destroy(&sink);

	/* Whether this machine has GL or not: only the hints matter. */
	offscreen_env();
	setenv("SDL_RENDER_DRIVER", "opengl", 1);
	sink = (struct vv_sink){ .ops = &vv_sink_sdl_ops };
	(void)sink.ops->init(&sink, &cfg);
	ASSERT_TRUE(hint_is(SDL_HINT_RENDER_DRIVER, "opengl"));
	ASSERT_TRUE(hint_is(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0"));
	sink.ops->destroy(&sink);
}

/* The sink's window: the one whose title is title. */
static SDL_Window *find_window(const char *title)
{
	for (Uint32 id = 1; id < 64; id++) {
		SDL_Window *w = SDL_GetWindowFromID(id);

		if (w && !strcmp(SDL_GetWindowTitle(w), title))
			return w;
	}
	return NULL;
}

/* What the renderer drew at the middle of the window, as 0xRRGGBB. */
static uint32_t centre_pixel(SDL_Window *win)
{
	SDL_Renderer *r = SDL_GetRenderer(win);
	SDL_Rect at = { 0, 0, 1, 1 };
	uint32_t px = 0;

	SDL_GetRendererOutputSize(r, &at.x, &at.y);
	at.x /= 2;
	at.y /= 2;
	SDL_RenderReadPixels(r, &at, SDL_PIXELFORMAT_ARGB8888, &px, 4);
	return px & 0xffffff;
}

/*
 * A source that comes back in other timings: the window takes the new
 * size, unless the user sized it; the card and the title say no signal
 * in between.
 */
TEST(new_mode_resizes_window_and_card_shows)
{
	struct vv_sink_config cfg = { .title = "test", .width = W,
				      .height = H };
	struct vv_sink sink = { .ops = &vv_sink_sdl_ops };
	struct vv_overlay_bitmap card = { 0 };
	uint32_t px[8 * 4];
	struct vv_frame f;
	SDL_Window *win;
	int w, h;

	offscreen_env();
	ASSERT_EQ(grey_frame(&f), 0);
	ASSERT_EQ(sink.ops->init(&sink, &cfg), 0);
	ASSERT_EQ(sink.ops->start(&sink, &f.mode), 0);
	ASSERT_EQ(sink.ops->show(&sink, &f, NULL), 0);
	ASSERT_EQ(sink.ops->set_title(&sink, "test - no signal"), 0);
	win = find_window("test - no signal");
	ASSERT_NE(win, NULL);
	for (int i = 0; i < 8 * 4; i++)
		px[i] = 0xffffffffu;
	card = (struct vv_overlay_bitmap){ px, 8, 4, 8 * 4 };
	ASSERT_EQ(sink.ops->show_card(&sink, &card), 0);
	/* A redraw keeps the card; only a frame replaces it. */
	ASSERT_EQ(sink.ops->show(&sink, NULL, NULL), 0);
	ASSERT_EQ(centre_pixel(win), 0xffffffu);

	sink.ops->stop(&sink);
	f.mode.width = 2 * W;
	f.mode.height = 2 * H;
	f.mode.bytesperline = 2 * W * 2;
	f.mode.sizeimage = f.mode.bytesperline * 2 * H;
	ASSERT_EQ(vv_frame_reserve(&f, f.mode.sizeimage), 0);
	memset(f.store, 0x80, f.mode.sizeimage);
	ASSERT_EQ(sink.ops->start(&sink, &f.mode), 0);
	ASSERT_EQ(sink.ops->show(&sink, &f, NULL), 0);
	SDL_GetWindowSize(win, &w, &h);
	ASSERT_EQ(w, 2 * W);
	ASSERT_EQ(h, 2 * H);
	ASSERT_NE(centre_pixel(win), 0xffffffu);

	/* Sized by the user: the next mode keeps the user's size. */
	SDL_SetWindowSize(win, 100, 70);
	sink.ops->stop(&sink);
	ASSERT_EQ(grey_frame(&f), 0);
	ASSERT_EQ(sink.ops->start(&sink, &f.mode), 0);
	SDL_GetWindowSize(win, &w, &h);
	ASSERT_EQ(w, 100);
	ASSERT_EQ(h, 70);
	sink.ops->stop(&sink);
	sink.ops->destroy(&sink);
	vv_frame_release(&f);
}

VTEST_MAIN()
