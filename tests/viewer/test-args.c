// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vcap-view's command line: good options, and every bad one refused. */
#include <linux/videodev2.h>
#include <stdarg.h>

#include "vtest.h"
#include "vv-args.h"

#define MAX_ARGS 32

/* Parse a NULL-terminated list; err's text (one line) into errbuf. */
static int parse(struct vv_options *o, char *errbuf, size_t errlen, ...)
{
	char *argv[MAX_ARGS + 1] = { "vcap-view" };
	int argc = 1, ret;
	FILE *err = fmemopen(errbuf, errlen, "w");
	FILE *out = fopen("/dev/null", "w");
	va_list ap;
	char *a;

	va_start(ap, errlen);
	while ((a = va_arg(ap, char *)) && argc < MAX_ARGS)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	memset(errbuf, 0, errlen);
	ret = vv_args_parse(argc, argv, o, out, err);
	fclose(err);
	fclose(out);
	return ret;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

TEST(defaults)
{
	struct vv_options o;
	char err[256];

	ASSERT_EQ(parse(&o, err, sizeof(err), NULL), VV_ARGS_OK);
	ASSERT_EQ(strcmp(o.device, "/dev/video0"), 0);
	ASSERT_EQ((int)o.output, VV_OUTPUT_SDL);
	ASSERT_EQ(o.frames, 0u);
	ASSERT_EQ(o.snapshot, NULL);
	ASSERT_EQ(o.mode.fourcc, 0u);
	ASSERT_TRUE(o.timeout_s == 0);
	ASSERT_TRUE(o.signal_timeout_s == 0);
	ASSERT_FALSE(o.overlay);
	ASSERT_FALSE(o.stats);
	ASSERT_EQ(err[0], 0);
}

TEST(every_option)
{
	struct vv_options o;
	char err[256];

	ASSERT_EQ(parse(&o, err, sizeof(err), "-f", "NV12", "-s", "1280x720",
			"-r", "59.94", "-b", "6", "-o", "kms", "--card",
			"/dev/dri/card1", "-n", "60", "--snapshot", "x.png",
			"--fullscreen", "--overlay", "-v", "--stats",
			"/dev/vcap0", NULL),
		  VV_ARGS_OK);
	ASSERT_EQ(o.mode.fourcc, V4L2_PIX_FMT_NV12);
	ASSERT_EQ(o.mode.width, 1280u);
	ASSERT_EQ(o.mode.height, 720u);
	ASSERT_EQ(o.mode.interval_num, 1000u);
	ASSERT_EQ(o.mode.interval_den, 59940u);
	ASSERT_EQ(o.buffers, 6u);
	ASSERT_EQ((int)o.output, VV_OUTPUT_KMS);
	ASSERT_EQ(strcmp(o.card, "/dev/dri/card1"), 0);
	ASSERT_EQ(o.frames, 60u);
	ASSERT_EQ(strcmp(o.snapshot, "x.png"), 0);
	ASSERT_TRUE(o.fullscreen);
	ASSERT_TRUE(o.overlay);
	ASSERT_TRUE(o.verbose);
	ASSERT_TRUE(o.stats);
	ASSERT_EQ(strcmp(o.device, "/dev/vcap0"), 0);
	/* --frames brings a default stall timeout; --timeout overrides it. */
	ASSERT_TRUE(o.timeout_s > 0);
	ASSERT_EQ(parse(&o, err, sizeof(err), "--device=test:bars",
			"--frames=5", "--timeout=0", "--format", "yuv420",
			NULL),
		  VV_ARGS_OK);
	ASSERT_TRUE(o.timeout_s == 0);
	ASSERT_TRUE(o.signal_timeout_s == 0);
	ASSERT_EQ(strcmp(o.device, "test:bars"), 0);
	ASSERT_EQ(o.mode.fourcc, V4L2_PIX_FMT_YUV420);
}

/* The wait for a signal follows -t unless it is given its own bound. */
TEST(signal_timeout)
{
	struct vv_options o;
	char err[256];

	ASSERT_EQ(parse(&o, err, sizeof(err), "-n", "5", NULL), VV_ARGS_OK);
	ASSERT_TRUE(o.signal_timeout_s == o.timeout_s);
	ASSERT_TRUE(o.signal_timeout_s > 0);
	ASSERT_EQ(parse(&o, err, sizeof(err), "-t", "2.5", NULL), VV_ARGS_OK);
	ASSERT_TRUE(o.signal_timeout_s == 2.5);
	ASSERT_EQ(parse(&o, err, sizeof(err), "-t", "2", "--signal-timeout",
			"0", NULL),
		  VV_ARGS_OK);
	ASSERT_TRUE(o.timeout_s == 2);
	ASSERT_TRUE(o.signal_timeout_s == 0);
	ASSERT_EQ(parse(&o, err, sizeof(err), "-n", "5", "--signal-timeout=90",
			NULL),
		  VV_ARGS_OK);
	ASSERT_TRUE(o.signal_timeout_s == 90);
	ASSERT_TRUE(o.timeout_s != 90);
}

TEST(every_format_name)
{
	static const struct {
		const char *name;
		uint32_t fourcc;
	} names[] = {
		{ "YUYV", V4L2_PIX_FMT_YUYV },	 { "UYVY", V4L2_PIX_FMT_UYVY },
		{ "NV12", V4L2_PIX_FMT_NV12 },	 { "YU12", V4L2_PIX_FMT_YUV420 },
		{ "RGB24", V4L2_PIX_FMT_RGB24 }, { "RGB3", V4L2_PIX_FMT_RGB24 },
		{ "BGR24", V4L2_PIX_FMT_BGR24 }, { "XRGB32", V4L2_PIX_FMT_XRGB32 },
		{ "BX24", V4L2_PIX_FMT_XRGB32 }, { "XBGR32", V4L2_PIX_FMT_XBGR32 },
		{ "GREY", V4L2_PIX_FMT_GREY },
	};
	struct vv_options o;
	char err[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		TH_LOG("%s", names[i].name);
		ASSERT_EQ(parse(&o, err, sizeof(err), "-f", names[i].name,
				NULL),
			  VV_ARGS_OK);
		ASSERT_EQ(o.mode.fourcc, names[i].fourcc);
	}
}

TEST(help_and_version_exit)
{
	struct vv_options o;
	char err[256];

	ASSERT_EQ(parse(&o, err, sizeof(err), "--help", NULL), VV_ARGS_EXIT);
	ASSERT_EQ(parse(&o, err, sizeof(err), "-h", NULL), VV_ARGS_EXIT);
	ASSERT_EQ(parse(&o, err, sizeof(err), "--version", NULL),
		  VV_ARGS_EXIT);
	ASSERT_EQ(err[0], 0);
}

/* Each bad command line: an error, one line, naming the bad value. */
TEST(bad_options)
{
	static const char *const bad[][4] = {
		{ "--bogus", NULL, NULL, "--bogus" },
		{ "-Z", NULL, NULL, "-Z" },
		{ "-f", "MJPG", NULL, "MJPG" },
		{ "-f", "NOPE1", NULL, "NOPE1" },
		{ "-s", "640", NULL, "640" },
		{ "-s", "0x480", NULL, "0x480" },
		{ "-s", "640x-1", NULL, "640x-1" },
		{ "-s", "99999x10", NULL, "99999x10" },
		{ "-r", "0", NULL, "'0'" },
		{ "-r", "fast", NULL, "fast" },
		{ "-r", "nan", NULL, "nan" },
		{ "-b", "1", NULL, "'1'" },
		{ "-b", "33", NULL, "33" },
		{ "-o", "x11", NULL, "x11" },
		{ "-n", "0", NULL, "'0'" },
		{ "-n", "-5", NULL, "-5" },
		{ "-n", "12abc", NULL, "12abc" },
		{ "-t", "-1", NULL, "-1" },
		{ "--signal-timeout", "soon", NULL, "soon" },
		{ "--snapshot", "", NULL, "snapshot" },
		{ "--card", "/dev/dri/card0", NULL, "--output kms" },
		{ "/dev/video0", "/dev/video1", NULL, "/dev/video1" },
		{ "--frames", NULL, NULL, "--frames" },
		{ "-d", NULL, NULL, "-d" },
	};
	struct vv_options o;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = parse(&o, err, sizeof(err), bad[i][0], bad[i][1],
			      bad[i][2], NULL);

		TH_LOG("%s %s -> %s", bad[i][0], bad[i][1] ? bad[i][1] : "",
		       err);
		ASSERT_EQ(r, VV_ARGS_ERROR);
		ASSERT_EQ(lines(err), 1);
		ASSERT_NE(strstr(err, "vcap-view: "), NULL);
		ASSERT_NE(strstr(err, bad[i][3]), NULL);
	}
}

VTEST_MAIN()
