// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The overlay: its text, its glyphs, and its blending onto a picture. */
#include "vtest.h"
#include "vv-font.h"
#include "vv-overlay.h"

TEST(text_names_mode_fps_drops_latency)
{
	struct vv_overlay_info info = { 0 };
	char text[256];

	info.mode.fourcc = vcap_fourcc_parse("NV12");
	info.mode.width = 1280;
	info.mode.height = 720;
	info.capture.fps = 59.9;
	info.capture.drops = 3;
	info.capture.replaced = 7;
	info.capture.latency_p50_ms = 1.5;
	info.capture.latency_p99_ms = 4.25;
	info.shown_fps = 30;
	info.copies = 1;
	info.source = "/dev/video0";
	ASSERT_GT(vv_overlay_text(&info, text, sizeof(text)), 0u);
	TH_LOG("%s", text);
	ASSERT_NE(strstr(text, "NV12 1280x720 /dev/video0"), NULL);
	ASSERT_NE(strstr(text, "FPS 59.9 IN 30.0 SHOWN"), NULL);
	ASSERT_NE(strstr(text, "DROPS 3 SKIPPED 7"), NULL);
	ASSERT_NE(strstr(text, "COPIES 1"), NULL);
	ASSERT_NE(strstr(text, "P50 1.5 P99 4.2"), NULL);
	ASSERT_EQ(strstr(text, "PAUSED"), NULL);
	ASSERT_EQ(strstr(text, "NO FRAMES"), NULL);
	info.paused = 1;
	info.stalled_s = 2.5;
	vv_overlay_text(&info, text, sizeof(text));
	ASSERT_NE(strstr(text, "PAUSED"), NULL);
	ASSERT_NE(strstr(text, "NO FRAMES"), NULL);
	/* A short buffer is cut, never overrun. */
	ASSERT_EQ(vv_overlay_text(&info, text, 8), 7u);
	ASSERT_EQ(strlen(text), 7u);
}

TEST(every_overlay_character_has_a_glyph)
{
	const char *chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ .,:/%-+=_()";
	const uint8_t *unknown = vv_font_glyph('~');

	for (const char *c = chars; *c; c++) {
		TH_LOG("'%c'", *c);
		if (*c != '?')
			ASSERT_NE(vv_font_glyph(*c), unknown);
	}
	ASSERT_EQ(vv_font_glyph('a'), vv_font_glyph('A'));
	ASSERT_EQ(vv_font_glyph('?'), unknown);
}

/* "1" at scale 2: its glyph's pixels, and only those, are ink. */
TEST(draw_puts_the_glyph_in_place)
{
	struct vv_overlay_bitmap bm = { 0 };
	const uint8_t *g = vv_font_glyph('1');
	const int margin = 3, scale = 2;

	ASSERT_EQ(vv_overlay_draw(&bm, "1", scale), 0);
	ASSERT_EQ(bm.width, (VV_FONT_ADVANCE + 2 * margin) * scale);
	ASSERT_EQ(bm.height, (VV_FONT_LINE + 2 * margin) * scale);
	for (int y = 0; y < bm.height; y++)
		for (int x = 0; x < bm.width; x++) {
			int gx = x / scale - margin, gy = y / scale - margin;
			bool ink = gx >= 0 && gx < VV_FONT_WIDTH && gy >= 0 &&
				   gy < VV_FONT_HEIGHT && (g[gy] & (0x10 >> gx));

			ASSERT_EQ(bm.pixels[y * bm.width + x],
				  ink ? 0xffffffffu : 0xa0000000u);
		}
	/* Two lines grow the box. */
	ASSERT_EQ(vv_overlay_draw(&bm, "12\n345", 1), 0);
	ASSERT_EQ(bm.width, 3 * VV_FONT_ADVANCE + 2 * margin);
	ASSERT_EQ(bm.height, 2 * VV_FONT_LINE + 2 * margin);
	vv_overlay_free(&bm);
}

TEST(blend_mixes_and_clips)
{
	uint32_t pic[4 * 3];	/* 3 x 3 pixels, pitch of 4 */
	uint32_t px[4] = { 0xffffffff, 0x00123456, 0x80ff0000, 0xa0000000 };
	struct vv_overlay_bitmap bm = { px, 2, 2, 4 };

	for (int i = 0; i < 12; i++)
		pic[i] = 0x00404040;
	vv_overlay_blend(&bm, pic, 3, 3, 16);
	ASSERT_EQ(pic[0], 0x00ffffffu);		/* opaque ink */
	ASSERT_EQ(pic[1], 0x00404040u);		/* transparent */
	ASSERT_EQ(pic[4], 0x009f1f1fu);		/* half red over grey */
	ASSERT_EQ(pic[5], 0x00171717u);		/* the translucent box */
	/* Outside the bitmap nothing changes. */
	ASSERT_EQ(pic[2], 0x00404040u);
	ASSERT_EQ(pic[8], 0x00404040u);
	/* A bitmap larger than the picture is clipped to it. */
	vv_overlay_blend(&bm, pic, 1, 1, 16);
	ASSERT_EQ(pic[1], 0x00404040u);
}

VTEST_MAIN()
