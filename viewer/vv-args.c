// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vcap-view's command line. */
#include "vv-args.h"
#include "vv-upload.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VV_DEFAULT_DEVICE	"/dev/video0"
/* With --frames, a source that sends nothing for this long is an error. */
#define VV_DEFAULT_FRAMES_TIMEOUT	30.0

void vv_args_usage(FILE *f)
{
	fprintf(f,
		"usage: vcap-view [options] [DEVICE]\n"
		"\n"
		"Live preview of a V4L2 capture device or a vcap board's VRAM\n"
		"node, in an SDL window or on a KMS display.\n"
		"\n"
		"  -d, --device PATH     /dev/videoN, /dev/vcapN, or test:bars\n"
		"                        (built-in colour bars; default %s)\n"
		"  -f, --format FOURCC   pixel format (YUYV, UYVY, NV12, YUV420,\n"
		"                        RGB24, BGR24, XRGB32, XBGR32, GREY)\n"
		"  -s, --size WxH        frame size\n"
		"  -r, --rate FPS        frame rate\n"
		"  -b, --buffers N       V4L2 buffers (2-32)\n"
		"  -o, --output OUT      sdl (a window, default) or kms\n"
		"      --card PATH       KMS device (default: first connected)\n"
		"  -n, --frames N        exit after showing N frames\n"
		"      --snapshot FILE   on exit, save what was shown as PNG\n"
		"  -t, --timeout SEC     fail when no frame comes for SEC seconds\n"
		"                        while the source has a signal (default:\n"
		"                        never; %.0f with --frames)\n"
		"      --signal-timeout SEC\n"
		"                        fail when the source has had no signal\n"
		"                        for SEC seconds, at start or later; until\n"
		"                        then NO SIGNAL is shown (default: as -t;\n"
		"                        0 waits for ever)\n"
		"      --fullscreen      start fullscreen\n"
		"      --overlay         start with the overlay shown\n"
		"  -v, --verbose         print the mode, how a vcap board's frames\n"
		"                        reach the buffers (dma or copy) and a summary\n"
		"      --stats           on exit, print the frames shown, the\n"
		"                        copies made of each and how they went\n"
		"  -h, --help            this text\n"
		"      --version         the version\n"
		"\n"
		"keys: o overlay, f fullscreen, space pause, s snapshot,\n"
		"      q or Esc quit\n",
		VV_DEFAULT_DEVICE, VV_DEFAULT_FRAMES_TIMEOUT);
}

static int vv_bad(FILE *err, const char *what, const char *value)
{
	fprintf(err, "vcap-view: %s '%s' (try --help)\n", what, value);
	return VV_ARGS_ERROR;
}

static bool vv_parse_uint(const char *s, unsigned long long max,
			  unsigned long long *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end && *out <= max;
}

static bool vv_parse_size(const char *s, uint32_t *w, uint32_t *h)
{
	unsigned long long a, b;
	char buf[32], *x;

	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	x = strchr(buf, 'x');
	if (!x)
		x = strchr(buf, 'X');
	if (!x)
		return false;
	*x = 0;
	if (!vv_parse_uint(buf, 65536, &a) || !vv_parse_uint(x + 1, 65536, &b) ||
	    !a || !b)
		return false;
	*w = a;
	*h = b;
	return true;
}

static bool vv_parse_double(const char *s, double min, double max, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s && !errno && !*end && isfinite(*out) && *out >= min &&
	       *out <= max;
}

/* libvcap's names and codes, and the names other tools use. */
static uint32_t vv_parse_format(const char *s)
{
	static const struct {
		const char *alias;
		const char *name;
	} aliases[] = {
		{ "YUV420", "YU12" }, { "I420", "YU12" }, { "IYUV", "YU12" },
		{ "YUY2", "YUYV" },   { "Y8", "GREY" },
	};

	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcasecmp(s, aliases[i].alias))
			s = aliases[i].name;
	return vcap_fourcc_parse(s);
}

enum {
	VV_OPT_CARD = 256,
	VV_OPT_SNAPSHOT,
	VV_OPT_FULLSCREEN,
	VV_OPT_OVERLAY,
	VV_OPT_VERSION,
	VV_OPT_STATS,
	VV_OPT_SIGNAL_TIMEOUT,
};

int vv_args_parse(int argc, char **argv, struct vv_options *o, FILE *out,
		  FILE *err)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 's' },
		{ "rate", required_argument, NULL, 'r' },
		{ "buffers", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "card", required_argument, NULL, VV_OPT_CARD },
		{ "frames", required_argument, NULL, 'n' },
		{ "snapshot", required_argument, NULL, VV_OPT_SNAPSHOT },
		{ "timeout", required_argument, NULL, 't' },
		{ "signal-timeout", required_argument, NULL,
		  VV_OPT_SIGNAL_TIMEOUT },
		{ "fullscreen", no_argument, NULL, VV_OPT_FULLSCREEN },
		{ "overlay", no_argument, NULL, VV_OPT_OVERLAY },
		{ "verbose", no_argument, NULL, 'v' },
		{ "stats", no_argument, NULL, VV_OPT_STATS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, VV_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	bool timeout_set = false, signal_timeout_set = false;
	unsigned long long n;
	double d;
	int c;

	memset(o, 0, sizeof(*o));
	o->device = VV_DEFAULT_DEVICE;
	o->output = VV_OUTPUT_SDL;
	/* Errors are ours, in one line: getopt stays quiet. */
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":d:f:s:r:b:o:n:t:vh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			o->device = optarg;
			break;
		case 'f':
			o->mode.fourcc = vv_parse_format(optarg);
			if (!o->mode.fourcc || !vv_uploader_find(o->mode.fourcc))
				return vv_bad(err, "unsupported format", optarg);
			break;
		case 's':
			if (!vv_parse_size(optarg, &o->mode.width,
					   &o->mode.height))
				return vv_bad(err, "bad size (want WxH)", optarg);
			break;
		case 'r':
			if (!vv_parse_double(optarg, 0.001, 10000, &d))
				return vv_bad(err, "bad frame rate", optarg);
			/* As a fraction with a millisecond-fps resolution. */
			o->mode.interval_num = 1000;
			o->mode.interval_den = (uint32_t)lround(d * 1000);
			break;
		case 'b':
			if (!vv_parse_uint(optarg, 32, &n) || n < 2)
				return vv_bad(err, "bad buffer count (2-32)",
					      optarg);
			o->buffers = n;
			break;
		case 'o':
			if (!strcmp(optarg, "sdl"))
				o->output = VV_OUTPUT_SDL;
			else if (!strcmp(optarg, "kms"))
				o->output = VV_OUTPUT_KMS;
			else
				return vv_bad(err, "unknown output (sdl or kms)",
					      optarg);
			break;
		case VV_OPT_CARD:
			o->card = optarg;
			break;
		case 'n':
			if (!vv_parse_uint(optarg, UINT64_MAX, &n) || !n)
				return vv_bad(err, "bad frame count", optarg);
			o->frames = n;
			break;
		case VV_OPT_SNAPSHOT:
			if (!*optarg)
				return vv_bad(err, "empty snapshot file name",
					      optarg);
			o->snapshot = optarg;
			break;
		case 't':
			if (!vv_parse_double(optarg, 0, 1e6, &o->timeout_s))
				return vv_bad(err, "bad timeout", optarg);
			timeout_set = true;
			break;
		case VV_OPT_SIGNAL_TIMEOUT:
			if (!vv_parse_double(optarg, 0, 1e6,
					     &o->signal_timeout_s))
				return vv_bad(err, "bad signal timeout", optarg);
			signal_timeout_set = true;
			break;
		case VV_OPT_FULLSCREEN:
			o->fullscreen = true;
			break;
		case VV_OPT_OVERLAY:
			o->overlay = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case VV_OPT_STATS:
			o->stats = true;
			break;
		case 'h':
			vv_args_usage(out);
			return VV_ARGS_EXIT;
		case VV_OPT_VERSION:
			fprintf(out, "vcap-view %s\n", VV_VERSION);
			return VV_ARGS_EXIT;
		case ':':
			return vv_bad(err, "missing value for option",
				      argv[optind - 1]);
		default:
			return vv_bad(err, "unknown option", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->device = argv[optind++];
	if (optind < argc)
		return vv_bad(err, "unexpected argument", argv[optind]);
	if (o->card && o->output != VV_OUTPUT_KMS)
		return vv_bad(err, "--card needs --output kms", o->card);
	if (!timeout_set && o->frames)
		o->timeout_s = VV_DEFAULT_FRAMES_TIMEOUT;
	if (!signal_timeout_set)
		o->signal_timeout_s = o->timeout_s;
	return VV_ARGS_OK;
}
