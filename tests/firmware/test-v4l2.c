// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The V4L2 source without a device: its spec, the mode it picks from
 * what a device offers, raw frames into the live core (strides, short
 * frames), and the devices it refuses.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include "vtest.h"
#include "fw-source-v4l2.h"
#include "fw-test-run.h"

TEST(specs_name_a_device_and_an_optional_mode)
{
	static const struct {
		const char *spec;
		const char *path;
		u32 w, h, fps;
		const char *fourcc;
	} good[] = {
		{ "/dev/video0", "/dev/video0", 0, 0, 0, NULL },
		{ "/dev/video2:1280x720", "/dev/video2", 1280, 720, 0, NULL },
		{ "/dev/video2:1280x720@30", "/dev/video2", 1280, 720, 30, NULL },
		{ "/dev/video2:1920x1080@30:MJPG", "/dev/video2", 1920, 1080, 30, "MJPG" },
		{ "/dev/video2:640x480:YUYV", "/dev/video2", 640, 480, 0, "YUYV" },
		{ "/dev/video2:@60", "/dev/video2", 0, 0, 60, NULL },
		{ "/dev/video2:NV12", "/dev/video2", 0, 0, 0, "NV12" },
		{ "/dev/v4l/by-id/usb-cam-video-index0:YUYV:320x240",
		  "/dev/v4l/by-id/usb-cam-video-index0", 320, 240, 0, "YUYV" },
	};
	static const char *const badspec[] = {
		"", ":640x480", "/dev/video0:", "/dev/video0:640", "/dev/video0:640x",
		"/dev/video0:0x480", "/dev/video0:640x480@", "/dev/video0:640x480@0",
		"/dev/video0:640x480@30fps", "/dev/video0:YUYV:NV12",
		"/dev/video0:640x480:320x240", "/dev/video0:YUY", "/dev/video0:a:b:c",
		"/dev/video0:99999x480",
	};
	struct fw_v4l2_want w;
	char err[512];
	unsigned int i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		err[0] = 0;
		ASSERT_EQ(fw_v4l2_parse_spec(good[i].spec, &w, err,
					     sizeof(err)), 0);
		if (strcmp(w.path, good[i].path))
			TH_LOG("%s: path %s", good[i].spec, w.path);
		EXPECT_EQ(strcmp(w.path, good[i].path), 0);
		EXPECT_EQ(w.width, good[i].w);
		EXPECT_EQ(w.height, good[i].h);
		EXPECT_EQ(w.fps, good[i].fps);
		EXPECT_EQ(w.fourcc, good[i].fourcc ?
			  VCAP_FOURCC(good[i].fourcc[0], good[i].fourcc[1],
				      good[i].fourcc[2], good[i].fourcc[3]) : 0);
	}
	for (i = 0; i < sizeof(badspec) / sizeof(badspec[0]); i++) {
		err[0] = 0;
		if (fw_v4l2_parse_spec(badspec[i], &w, err, sizeof(err)) != -1)
			TH_LOG("'%s' taken", badspec[i]);
		EXPECT_EQ(fw_v4l2_parse_spec(badspec[i], &w, err, sizeof(err)),
			  -1);
		EXPECT_TRUE(strstr(err, "expected v4l2:DEVICE[:WxH][@FPS][:FOURCC]"));
	}
	/* A format the board cannot take is named as such. */
	EXPECT_EQ(fw_v4l2_parse_spec("/dev/video0:H264", &w, err,
				     sizeof(err)), -1);
	EXPECT_TRUE(strstr(err, "format H264 is not one the board takes"));
}

/* A webcam's modes, as uvcvideo lists them: YUYV slow when large. */
static const struct fw_v4l2_mode cam[] = {
	{ VCAP_FMT_YUYV, 640, 480, 1, 30 },
	{ VCAP_FMT_YUYV, 1280, 720, 1, 10 },
	{ VCAP_FMT_YUYV, 1920, 1080, 1, 5 },
	{ FW_FMT_MJPEG, 640, 480, 1, 30 },
	{ FW_FMT_MJPEG, 1280, 720, 1, 30 },
	{ FW_FMT_MJPEG, 1280, 720, 1, 60 },
	{ FW_FMT_MJPEG, 1920, 1080, 1, 30 },
	{ FW_FMT_MJPEG, 4096, 2304, 1, 30 },	/* no timing holds it */
	{ VCAP_FOURCC('H', '2', '6', '4'), 1920, 1080, 1, 60 },
};

static int pick(const char *spec, const struct fw_v4l2_mode *cur)
{
	struct fw_v4l2_want w;
	char err[256];

	if (fw_v4l2_parse_spec(spec, &w, err, sizeof(err)))
		return -2;
	return fw_v4l2_pick(cam, sizeof(cam) / sizeof(cam[0]), &w, cur);
}

TEST(the_mode_asked_for_or_the_current_or_the_best)
{
	const struct fw_v4l2_mode cur_yuyv = { VCAP_FMT_YUYV, 640, 480, 1, 30 };
	const struct fw_v4l2_mode cur_h264 = { VCAP_FOURCC('H', '2', '6', '4'),
					       1920, 1080, 1, 60 };

	/* Nothing asked: what the device is set to, if the board takes it. */
	EXPECT_EQ(pick("/dev/video0", &cur_yuyv), 0);
	/* Else the best: 1080p30 MJPEG beats 1080p5 YUYV and 4096x2304. */
	EXPECT_EQ(pick("/dev/video0", &cur_h264), 6);
	EXPECT_EQ(pick("/dev/video0", NULL), 6);
	EXPECT_EQ(pick("/dev/video0:1280x720", &cur_yuyv), 5);
	EXPECT_EQ(pick("/dev/video0:1280x720@30", NULL), 4);
	EXPECT_EQ(pick("/dev/video0:1280x720:YUYV", NULL), 1);
	/* Raw before MJPEG when both play the same. */
	EXPECT_EQ(pick("/dev/video0:640x480@30", NULL), 0);
	EXPECT_EQ(pick("/dev/video0:MJPG", NULL), 6);
	/* JPEG and MJPG are one to the board. */
	EXPECT_EQ(pick("/dev/video0:1920x1080:JPEG", NULL), 6);
	EXPECT_EQ(pick("/dev/video0:YUYV", &cur_h264), 0);
	/* Modes it does not have, or formats it does not take. */
	EXPECT_EQ(pick("/dev/video0:800x600", NULL), -1);
	EXPECT_EQ(pick("/dev/video0:1920x1080@60", NULL), -1);
	EXPECT_EQ(pick("/dev/video0:1920x1080:NV12", NULL), -1);
	EXPECT_EQ(fw_v4l2_pick(cam, 0, &(struct fw_v4l2_want){ .fps = 0 },
			       NULL), -1);
}

TEST(raw_frames_are_taken_with_their_stride_and_short_ones_refused)
{
	const u32 w = 640, h = 480, bpl = 1536;	/* padded YUYV lines */
	struct fw_frame_req req = { 0 };
	struct fw_live l;
	u8 *in, *out;
	char msg[256];
	u32 x, y;

	in = calloc(1, (size_t)bpl * h);
	out = malloc((size_t)w * 2 * h);
	ASSERT_TRUE(in && out);
	/* Y rises along the line, the padding is garbage. */
	for (y = 0; y < h; y++)
		for (x = 0; x < bpl; x++)
			in[(size_t)y * bpl + x] = x < w * 2 ?
				((x & 1) ? 128 : (u8)(16 + x / 8)) : 0xee;
	ASSERT_EQ(fw_live_init(&l, "v4l2", "v4l2:test", msg, sizeof(msg)), 0);
	fw_live_stream_start(&l, w, h, 30, 1, false);
	EXPECT_EQ(fw_v4l2_frame_in(&l, NULL, VCAP_FMT_YUYV, w, h, bpl, in,
				   (size_t)bpl * h - 1, 5, msg, sizeof(msg)),
		  -1);
	EXPECT_TRUE(strstr(msg, "short frame (737279 of 737280 bytes)"));
	EXPECT_EQ(fw_v4l2_frame_in(&l, NULL, VCAP_FMT_YUYV, w, h, 1000, in,
				   (size_t)bpl * h, 5, msg, sizeof(msg)), -1);
	EXPECT_TRUE(strstr(msg, "bad geometry"));
	EXPECT_EQ(fw_v4l2_frame_in(&l, NULL, VCAP_FOURCC('Y', 'V', 'Y', 'U'),
				   w, h, 0, in, (size_t)bpl * h, 5, msg,
				   sizeof(msg)), -1);
	EXPECT_EQ(t_live_stat(&l, "v4l2_frames_in"), 0);
	EXPECT_EQ(fw_v4l2_frame_in(&l, NULL, VCAP_FMT_YUYV, w, h, bpl, in,
				   (size_t)bpl * h, 42, msg, sizeof(msg)), 0);
	EXPECT_EQ(t_live_stat(&l, "v4l2_frames_in"), 1);
	req.fmt.fourcc = VCAP_FMT_YUYV;
	req.fmt.width = w;
	req.fmt.height = h;
	req.fmt.bytesperline = w * 2;
	req.fmt.sizeimage = w * 2 * h;
	fw_live_render(&l, &req, out, 0);
	EXPECT_EQ(fw_live_captured(&l), 42);
	/* Below the top stamp band: the picture, no padding in it. */
	for (y = 40; y < 400; y += 40)
		EXPECT_EQ(memcmp(out + (size_t)y * w * 2, in + (size_t)y * bpl,
				 w * 2), 0);
	fw_live_fini(&l);
	free(in);
	free(out);
}

TEST(a_size_without_a_timing_is_letterboxed_into_one)
{
	const u32 w = 640, h = 360;	/* a webcam's 16:9 VGA */
	struct fw_live l;
	u8 *in;
	char msg[256], *text = NULL;
	size_t len = 0;
	FILE *f;

	in = malloc((size_t)w * h * 2);
	ASSERT_TRUE(in);
	memset(in, 128, (size_t)w * h * 2);
	ASSERT_EQ(fw_live_init(&l, "v4l2", "v4l2:test", msg, sizeof(msg)), 0);
	fw_live_stream_start(&l, w, h, 30, 1, false);
	EXPECT_EQ(fw_v4l2_frame_in(&l, NULL, VCAP_FMT_UYVY, w, h, 0, in,
				   (size_t)w * h * 2, 1, msg, sizeof(msg)), 0);
	f = open_memstream(&text, &len);
	fw_live_stats(&l, f);
	fclose(f);
	EXPECT_TRUE(strstr(text, "v4l2_stream=640x360 rate=30/1 timing=640x480p60\n"));
	free(text);
	EXPECT_EQ(l.front.image.width, 640);
	EXPECT_EQ(l.front.image.height, 480);
	fw_live_fini(&l);
	free(in);
}

TEST(devices_that_are_not_cameras_are_refused_with_the_reason)
{
	char err[512];

	EXPECT_FALSE(fw_source_parse("v4l2:/dev/vcap-no-such-video", err,
				     sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(strstr(err, "/dev/vcap-no-such-video") &&
		    strstr(err, "No such file"));
	EXPECT_FALSE(fw_source_parse("v4l2:/dev/null", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(strstr(err, "/dev/null") &&
		    strstr(err, "not a V4L2 device"));
	EXPECT_FALSE(fw_source_parse("v4l2:/dev/video0:640x", err,
				     sizeof(err)));
	EXPECT_TRUE(strstr(err, "expected v4l2:DEVICE"));
	EXPECT_FALSE(fw_source_parse("v4l2:", err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "v4l2:DEVICE[:WxH][@FPS][:FOURCC]"));
}

VTEST_MAIN()
