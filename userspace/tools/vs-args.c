// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* vcap-stream's option parsing: one table, checked per subcommand. */
#include "vs.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_VRAM = 256,
	OPT_Y4M,
	OPT_RAW,
	OPT_SNAPSHOT,
	OPT_STAMPS,
	OPT_NO_STAMPS,
	OPT_JSON,
	OPT_BUFFERS,
	OPT_TIMEOUT,
	OPT_DMABUF,
	OPT_COPY,
	OPT_LATENCY,
};

struct vs_option {
	struct option lo;
	uint32_t group;			/* VS_OPT_*, 0: every command */
};

static const struct vs_option options[] = {
	{ { "device", required_argument, NULL, 'd' }, VS_OPT_DEVICE },
	{ { "vram", required_argument, NULL, OPT_VRAM }, VS_OPT_DEVICE },
	{ { "fmt", required_argument, NULL, 'f' }, VS_OPT_MODE },
	{ { "size", required_argument, NULL, 's' }, VS_OPT_MODE },
	{ { "fps", required_argument, NULL, 'r' }, VS_OPT_MODE },
	{ { "count", required_argument, NULL, 'n' }, VS_OPT_LENGTH },
	{ { "time", required_argument, NULL, 't' }, VS_OPT_LENGTH },
	{ { "output", required_argument, NULL, 'o' }, VS_OPT_OUTPUT },
	{ { "y4m", no_argument, NULL, OPT_Y4M }, VS_OPT_OUTPUT },
	{ { "raw", no_argument, NULL, OPT_RAW }, VS_OPT_OUTPUT },
	{ { "snapshot", required_argument, NULL, OPT_SNAPSHOT },
	  VS_OPT_OUTPUT },
	{ { "stamps", no_argument, NULL, OPT_STAMPS }, VS_OPT_STAMPS },
	{ { "no-stamps", no_argument, NULL, OPT_NO_STAMPS }, VS_OPT_STAMPS },
	{ { "json", no_argument, NULL, OPT_JSON }, VS_OPT_JSON },
	{ { "buffers", required_argument, NULL, OPT_BUFFERS }, VS_OPT_STREAM },
	{ { "timeout", required_argument, NULL, OPT_TIMEOUT }, VS_OPT_STREAM },
	{ { "dmabuf", no_argument, NULL, OPT_DMABUF }, VS_OPT_STREAM },
	{ { "copy", no_argument, NULL, OPT_COPY }, VS_OPT_COPY },
	{ { "latency", no_argument, NULL, OPT_LATENCY }, VS_OPT_LATENCY },
	{ { "verbose", no_argument, NULL, 'v' }, VS_OPT_VERBOSE },
	{ { "quiet", no_argument, NULL, 'q' }, 0 },
	{ { "help", no_argument, NULL, 'h' }, 0 },
};

#define NUM_OPTIONS (sizeof(options) / sizeof(options[0]))

int vs_parse_size(const char *s, uint32_t *w, uint32_t *h)
{
	unsigned long a, b;
	char *end;

	errno = 0;
	a = strtoul(s, &end, 10);
	if (end == s || (*end != 'x' && *end != 'X') || s[0] == '-')
		return -1;
	s = end + 1;
	if (*s == '-' || *s == '+')
		return -1;
	b = strtoul(s, &end, 10);
	if (end == s || *end || errno || !a || !b || a > 65535 || b > 65535)
		return -1;
	*w = a;
	*h = b;
	return 0;
}

int vs_parse_fps(const char *s, uint32_t *num, uint32_t *den)
{
	unsigned long a, b;
	double d;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	a = strtoul(s, &end, 10);
	if (end != s && *end == '/') {
		const char *t = end + 1;

		if (*t == '-' || *t == '+')
			return -1;
		b = strtoul(t, &end, 10);
		if (end == t || *end || errno || !a || !b || a > 1000000 ||
		    b > 1000000)
			return -1;
		/* frames per second a/b is an interval of b/a seconds */
		*num = b;
		*den = a;
		return 0;
	}
	d = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(d) || d <= 0 || d > 1000)
		return -1;
	if (d == floor(d)) {
		*num = 1;
		*den = (uint32_t)d;
	} else {
		*num = 1000;
		*den = (uint32_t)llround(d * 1000);
	}
	return 0;
}

int vs_parse_count(const char *s, uint64_t *n)
{
	unsigned long long v;
	char *end;

	if (*s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || *end || errno || !v)
		return -1;
	*n = v;
	return 0;
}

int vs_parse_seconds(const char *s, double *t)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v <= 0 ||
	    v > 365 * 86400.0)
		return -1;
	*t = v;
	return 0;
}

static int bad(char *err, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return -1;
}

static const struct vs_option *find_option(int val)
{
	for (size_t i = 0; i < NUM_OPTIONS; i++)
		if (options[i].lo.val == val)
			return &options[i];
	return NULL;
}

static int parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	uint64_t v;

	if (vs_parse_count(s, &v) < 0 || v > max)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

int vs_parse(const struct vs_cmd *cmd, int argc, char **argv,
	     struct vs_opts *o, char *err, size_t size)
{
	static const char shortopts[] = "+:d:f:s:r:n:t:o:vqh";
	struct option lo[NUM_OPTIONS + 1];
	unsigned int u;
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = 3000;
	for (size_t i = 0; i < NUM_OPTIONS; i++)
		lo[i] = options[i].lo;
	memset(&lo[NUM_OPTIONS], 0, sizeof(lo[0]));

	optind = 0;	/* GNU: full reinitialisation, for repeated parses */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		const struct vs_option *opt;
		const char *arg = optarg;

		if (c == '?') {
			if (optopt)
				return bad(err, size, "unknown option '-%c'",
					   optopt);
			return bad(err, size, "unknown option '%s'",
				   argv[optind - 1]);
		}
		if (c == ':')
			return bad(err, size, "option '%s' needs a value",
				   argv[optind - 1]);
		opt = find_option(c);
		if (opt && opt->group && !(cmd->opts & opt->group))
			return bad(err, size,
				   "option '--%s' does not apply to '%s'",
				   opt->lo.name, cmd->name);
		switch (c) {
		case 'd':
			o->device = arg;
			break;
		case OPT_VRAM:
			o->vram = arg;
			break;
		case 'f':
			o->mode.fourcc = vcap_fourcc_parse(arg);
			if (!o->mode.fourcc || (strlen(arg) != 4 &&
						!vcap_pixfmt_by_name(arg)))
				return bad(err, size,
					   "bad format '%s' (a fourcc like YUYV, or a name like RGB24)",
					   arg);
			break;
		case 's':
			if (vs_parse_size(arg, &o->mode.width,
					  &o->mode.height) < 0)
				return bad(err, size,
					   "bad size '%s' (WIDTHxHEIGHT, e.g. 640x480)",
					   arg);
			break;
		case 'r':
			if (vs_parse_fps(arg, &o->mode.interval_num,
					 &o->mode.interval_den) < 0)
				return bad(err, size,
					   "bad frame rate '%s' (e.g. 30, 29.97 or 30000/1001)",
					   arg);
			break;
		case 'n':
			if (vs_parse_count(arg, &o->count) < 0)
				return bad(err, size,
					   "bad frame count '%s' (a positive integer)",
					   arg);
			break;
		case 't':
			if (vs_parse_seconds(arg, &o->seconds) < 0)
				return bad(err, size,
					   "bad duration '%s' (positive seconds)",
					   arg);
			break;
		case 'o':
			if (!*arg)
				return bad(err, size, "empty output file name");
			o->output = arg;
			break;
		case OPT_Y4M:
			o->y4m = true;
			break;
		case OPT_RAW:
			o->raw = true;
			break;
		case OPT_SNAPSHOT:
			if (!*arg)
				return bad(err, size, "empty snapshot file name");
			o->snapshot = arg;
			break;
		case OPT_STAMPS:
			if (o->stamps == VS_STAMPS_OFF)
				return bad(err, size,
					   "--stamps and --no-stamps exclude each other");
			o->stamps = VS_STAMPS_ON;
			break;
		case OPT_NO_STAMPS:
			if (o->stamps == VS_STAMPS_ON)
				return bad(err, size,
					   "--stamps and --no-stamps exclude each other");
			o->stamps = VS_STAMPS_OFF;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_BUFFERS:
			if (parse_uint(arg, 32, &u) < 0 || u < 2)
				return bad(err, size,
					   "bad buffer count '%s' (2 to 32)",
					   arg);
			o->buffers = u;
			break;
		case OPT_TIMEOUT:
			if (parse_uint(arg, 3600000, &u) < 0)
				return bad(err, size,
					   "bad timeout '%s' (milliseconds)",
					   arg);
			o->timeout_ms = (int)u;
			break;
		case OPT_DMABUF:
			o->dmabuf = true;
			break;
		case OPT_COPY:
			o->copy = true;
			break;
		case OPT_LATENCY:
			o->latency = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			o->help = true;
			return 0;
		}
	}
	if (optind < argc)
		return bad(err, size, "unexpected argument '%s'", argv[optind]);
	if ((cmd->opts & VS_OPT_DEVICE)) {
		if (o->device && o->vram)
			return bad(err, size,
				   "give either -d DEVICE or --vram DEVICE, not both");
		if (!o->device && !o->vram)
			return bad(err, size,
				   "no device: give -d /dev/videoN or --vram /dev/vcapN");
	}
	if (o->vram && (o->mode.fourcc || o->mode.width ||
			o->mode.interval_den))
		return bad(err, size,
			   "--vram reads the board's active mode: set the mode through its V4L2 node");
	if (o->y4m && o->raw)
		return bad(err, size, "--y4m and --raw exclude each other");
	return cmd->check ? cmd->check(o, err, size) : 0;
}

void vs_usage_options(FILE *f, uint32_t opts)
{
	if (opts & VS_OPT_DEVICE)
		fputs("  -d, --device DEV     V4L2 capture node (/dev/videoN)\n"
		      "      --vram DEV       vcap VRAM node (/dev/vcapN)\n", f);
	if (opts & VS_OPT_MODE)
		fputs("  -f, --fmt FOURCC     pixel format (YUYV, NV12, RGB24, ...)\n"
		      "  -s, --size WxH       frame size\n"
		      "  -r, --fps RATE       frame rate (30, 29.97, 30000/1001)\n",
		      f);
	if (opts & VS_OPT_LENGTH)
		fputs("  -n, --count N        stop after N frames\n"
		      "  -t, --time SECONDS   stop after SECONDS\n", f);
	if (opts & VS_OPT_OUTPUT)
		fputs("  -o, --output FILE    file to write, '-' for stdout\n"
		      "      --y4m            YUV4MPEG2 (default for *.y4m)\n"
		      "      --raw            frames back to back, as captured\n"
		      "      --snapshot FILE  also save the last frame as PNG\n",
		      f);
	if (opts & VS_OPT_STAMPS)
		fputs("      --stamps         require the board's frame stamps\n"
		      "      --no-stamps      check sequence numbers only\n"
		      "                       (default: stamps on vcap devices)\n",
		      f);
	if (opts & VS_OPT_JSON)
		fputs("      --json           machine-readable output\n", f);
	if (opts & VS_OPT_COPY)
		fputs("      --copy           copy every frame out (read cost)\n",
		      f);
	if (opts & VS_OPT_LATENCY)
		fputs("      --latency        report the latency from the board's frame\n"
		      "                       time to the frame in hand (p50/p99/max)\n",
		      f);
	if (opts & VS_OPT_STREAM)
		fputs("      --buffers N      V4L2 buffers to queue (2-32, default 4)\n"
		      "      --timeout MS     longest wait for one frame (default 3000)\n"
		      "      --dmabuf         export the buffers as dma-bufs\n",
		      f);
	if (opts & VS_OPT_VERBOSE)
		fputs("  -v, --verbose        first print the node, its driver and card and,\n"
		      "                       for vcap, how frames reach the buffers\n",
		      f);
	fputs("  -q, --quiet          no progress line\n"
	      "  -h, --help           this help\n", f);
}
