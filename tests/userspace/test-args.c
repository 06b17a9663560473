// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* vcap-stream's option parsing: every option, good and bad. */
#include "vs.h"

#include "ut.h"

#define MAX_ARGS 16

/* Parse a space-separated command line; returns vs_parse's result. */
static int parse(const char *line, struct vs_opts *o, char *err,
		 size_t size)
{
	static char buf[512];
	char *argv[MAX_ARGS + 1], *save;
	const struct vs_cmd *cmd;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok_r(buf, " ", &save); t && argc < MAX_ARGS;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	cmd = vs_find_cmd(argv[0]);
	CHECK(cmd);
	err[0] = '\0';
	return vs_parse(cmd, argc, argv, o, err, size);
}

struct bad_case {
	const char *line;
	const char *message;
};

static const struct bad_case bad_cases[] = {
	{ "verify", "no device" },
	{ "formats -d /dev/video0 -v", "'--verbose' does not apply to 'formats'" },
	{ "list --verbose", "'--verbose' does not apply to 'list'" },
	{ "formats", "no device" },
	{ "verify -d /dev/video0 --vram /dev/vcap0", "not both" },
	{ "verify -d", "needs a value" },
	{ "verify --device", "needs a value" },
	{ "verify -d /dev/video0 --bogus", "unknown option '--bogus'" },
	{ "verify -d /dev/video0 -x", "unknown option '-x'" },
	{ "verify -d /dev/video0 stray", "unexpected argument 'stray'" },
	{ "verify -d /dev/video0 --fmt", "needs a value" },
	{ "verify -d /dev/video0 --fmt TOOLONG", "bad format 'TOOLONG'" },
	{ "verify -d /dev/video0 --fmt ''", "bad format" },
	{ "verify -d /dev/video0 --size 640", "bad size '640'" },
	{ "verify -d /dev/video0 --size 640x", "bad size" },
	{ "verify -d /dev/video0 --size x480", "bad size" },
	{ "verify -d /dev/video0 --size 0x480", "bad size" },
	{ "verify -d /dev/video0 --size 640x-480", "bad size" },
	{ "verify -d /dev/video0 --size 99999x480", "bad size" },
	{ "verify -d /dev/video0 --size 640x480x3", "bad size" },
	{ "verify -d /dev/video0 --fps 0", "bad frame rate '0'" },
	{ "verify -d /dev/video0 --fps -30", "bad frame rate" },
	{ "verify -d /dev/video0 --fps abc", "bad frame rate" },
	{ "verify -d /dev/video0 --fps 30/0", "bad frame rate" },
	{ "verify -d /dev/video0 --fps 30/", "bad frame rate" },
	{ "verify -d /dev/video0 --fps 1e9", "bad frame rate" },
	{ "verify -d /dev/video0 -n 0", "bad frame count '0'" },
	{ "verify -d /dev/video0 -n -5", "bad frame count" },
	{ "verify -d /dev/video0 -n 10x", "bad frame count" },
	{ "verify -d /dev/video0 -n 99999999999999999999999", "bad frame count" },
	{ "verify -d /dev/video0 -t 0", "bad duration '0'" },
	{ "verify -d /dev/video0 -t -1", "bad duration" },
	{ "verify -d /dev/video0 -t nan", "bad duration" },
	{ "verify -d /dev/video0 -t 5s", "bad duration" },
	{ "verify -d /dev/video0 --stamps --no-stamps", "exclude each other" },
	{ "verify -d /dev/video0 --no-stamps --stamps", "exclude each other" },
	{ "verify -d /dev/video0 --buffers 1", "bad buffer count '1'" },
	{ "verify -d /dev/video0 --buffers 33", "bad buffer count" },
	{ "verify -d /dev/video0 --timeout x", "bad timeout" },
	{ "verify -d /dev/video0 --timeout 0", "bad timeout" },
	{ "verify -d /dev/video0 -o out.raw", "'--output' does not apply to 'verify'" },
	{ "verify -d /dev/video0 --json", "'--json' does not apply" },
	{ "verify -d /dev/video0 --copy", "'--copy' does not apply" },
	{ "bench -d /dev/video0 --latency", "'--latency' does not apply" },
	{ "formats -d /dev/video0 --latency", "'--latency' does not apply" },
	{ "verify --vram /dev/vcap0 --fmt YUYV", "set the mode through its V4L2 node" },
	{ "verify --vram /dev/vcap0 --size 640x480", "--vram reads the board" },
	{ "capture -d /dev/video0 -n 5", "no output" },
	{ "capture -d /dev/video0 -o out.raw", "give a length" },
	{ "capture -d /dev/video0 -n 5 -o", "needs a value" },
	{ "capture -d /dev/video0 -n 5 -o out --y4m --raw", "exclude each other" },
	{ "capture -d /dev/video0 -n 5 -o out --stamps", "'--stamps' does not apply" },
	{ "capture -d /dev/video0 -n 5 -o out --json", "does not apply" },
	{ "bench -d /dev/video0 -o out", "'--output' does not apply to 'bench'" },
	{ "bench -d /dev/video0 --y4m", "'--y4m' does not apply" },
	{ "bench -d /dev/video0 --snapshot x.png", "does not apply" },
	{ "formats -d /dev/video0 -n 5", "'--count' does not apply to 'formats'" },
	{ "formats -d /dev/video0 --fmt YUYV", "does not apply" },
	{ "list -d /dev/video0", "'--device' does not apply to 'list'" },
	{ "list extra", "unexpected argument" },
};

static void test_bad(void)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		struct vs_opts o;
		char err[256];
		int rc = parse(bad_cases[i].line, &o, err, sizeof(err));

		if (rc != -1 || !strstr(err, bad_cases[i].message))
			fprintf(stderr, "'%s': rc %d, '%s'\n",
				bad_cases[i].line, rc, err);
		CHECK_EQ(rc, -1);
		CHECK_STR(err, bad_cases[i].message);
	}
}

static void test_good(void)
{
	struct vs_opts o;
	char err[256];

	CHECK_EQ(parse("capture -d /dev/video3 --fmt YUYV --size 640x480 --fps 30 -n 10 -o out.y4m",
		       &o, err, sizeof(err)), 0);
	CHECK(!strcmp(o.device, "/dev/video3"));
	CHECK_EQ(o.mode.fourcc, vcap_fourcc_parse("YUYV"));
	CHECK_EQ(o.mode.width, 640);
	CHECK_EQ(o.mode.height, 480);
	CHECK_EQ(o.mode.interval_num, 1);
	CHECK_EQ(o.mode.interval_den, 30);
	CHECK_EQ(o.count, 10);
	CHECK(o.y4m && !o.raw);			/* from the name */

	CHECK_EQ(parse("capture --vram /dev/vcap0 -t 2.5 -o - -q", &o, err,
		       sizeof(err)), 0);
	CHECK(!strcmp(o.vram, "/dev/vcap0") && !o.device);
	CHECK(o.seconds == 2.5);
	CHECK(o.raw && !o.y4m && o.quiet);
	CHECK(!strcmp(o.output, "-"));

	CHECK_EQ(parse("capture -d /dev/video0 -n 1 -o x.bin --y4m --snapshot s.png --buffers 8 --timeout 500 --dmabuf",
		       &o, err, sizeof(err)), 0);
	CHECK(o.y4m && o.dmabuf);
	CHECK_EQ(o.buffers, 8);
	CHECK_EQ(o.timeout_ms, 500);
	CHECK(!strcmp(o.snapshot, "s.png"));

	CHECK_EQ(parse("verify -d /dev/video0 --no-stamps -f NV12 -r 30000/1001",
		       &o, err, sizeof(err)), 0);
	CHECK_EQ(o.stamps, VS_STAMPS_OFF);
	CHECK_EQ(o.count, 100);			/* the default length */
	CHECK_EQ(o.mode.interval_num, 1001);
	CHECK_EQ(o.mode.interval_den, 30000);
	CHECK_EQ(o.timeout_ms, 3000);

	CHECK_EQ(parse("verify -d /dev/video0 --stamps --fps 29.97 --fmt RGB24",
		       &o, err, sizeof(err)), 0);
	CHECK_EQ(o.stamps, VS_STAMPS_ON);
	CHECK_EQ(o.mode.interval_num, 1000);
	CHECK_EQ(o.mode.interval_den, 29970);
	CHECK_EQ(o.mode.fourcc, vcap_fourcc_parse("RGB3"));

	CHECK_EQ(parse("verify -d /dev/video0 --latency", &o, err,
		       sizeof(err)), 0);
	CHECK(o.latency);
	CHECK_EQ(parse("capture -d /dev/video0 -n 5 -o x.y4m --latency", &o,
		       err, sizeof(err)), 0);
	CHECK(o.latency);

	CHECK_EQ(parse("bench --device=/dev/video1 --json --copy", &o, err,
		       sizeof(err)), 0);
	CHECK(o.json && o.copy);
	CHECK(o.seconds == 5.0);		/* the default length */
	CHECK(!strcmp(o.device, "/dev/video1"));

	/* -v: the streaming commands say what streams, and how. */
	CHECK(!o.verbose);
	CHECK_EQ(parse("bench -d /dev/video0 -v --json", &o, err, sizeof(err)),
		 0);
	CHECK(o.verbose && o.json);
	CHECK_EQ(parse("verify --vram /dev/vcap0 --verbose", &o, err,
		       sizeof(err)), 0);
	CHECK(o.verbose);
	CHECK_EQ(vs_transfer(&o), VCAP_TRANSFER_UNKNOWN);	/* read in place */
	CHECK_EQ(parse("capture -d /dev/video0 -n 1 -o x.raw -vq", &o, err,
		       sizeof(err)), 0);
	CHECK(o.verbose && o.quiet);
	CHECK_EQ(parse("capture -d /dev/video0 -n 1 -o x.raw", &o, err,
		       sizeof(err)), 0);
	CHECK(!o.verbose);

	CHECK_EQ(parse("bench -d /dev/video0 --help", &o, err, sizeof(err)),
		 0);
	CHECK(o.help);
	CHECK_EQ(parse("list", &o, err, sizeof(err)), 0);
	CHECK_EQ(parse("formats --vram /dev/vcap1", &o, err, sizeof(err)), 0);
	/* Parsing twice in one process starts afresh. */
	CHECK_EQ(parse("verify -d /dev/video0 --stamps", &o, err, sizeof(err)),
		 0);
	CHECK_EQ(parse("verify -d /dev/video0", &o, err, sizeof(err)), 0);
	CHECK_EQ(o.stamps, VS_STAMPS_AUTO);
}

static void test_values(void)
{
	uint32_t a, b;
	uint64_t n;
	double t;

	CHECK_EQ(vs_parse_size("1920x1080", &a, &b), 0);
	CHECK(a == 1920 && b == 1080);
	CHECK_EQ(vs_parse_size("1920X1080", &a, &b), 0);
	CHECK_EQ(vs_parse_size("1920*1080", &a, &b), -1);
	CHECK_EQ(vs_parse_size("", &a, &b), -1);
	CHECK_EQ(vs_parse_fps("60", &a, &b), 0);
	CHECK(a == 1 && b == 60);
	CHECK_EQ(vs_parse_fps("0.5", &a, &b), 0);
	CHECK(a == 1000 && b == 500);
	CHECK_EQ(vs_parse_fps("", &a, &b), -1);
	CHECK_EQ(vs_parse_count("18446744073709551615", &n), 0);
	CHECK_EQ(vs_parse_count("18446744073709551616", &n), -1);
	CHECK_EQ(vs_parse_seconds("0.001", &t), 0);
	CHECK_EQ(vs_parse_seconds("inf", &t), -1);
}

int main(void)
{
	CHECK(vs_find_cmd("capture") == &vs_cmd_capture);
	CHECK(!vs_find_cmd("nope"));
	for (int i = 0; vs_cmds[i]; i++) {
		CHECK(vs_cmds[i]->usage && vs_cmds[i]->run);
		CHECK(vs_cmds[i]->summary && *vs_cmds[i]->summary);
	}
	test_bad();
	test_good();
	test_values();
	UT_DONE();
}
