/* vbench: dispatches to one measuring subcommand; each prints one JSON line. */
#include <stdio.h>
#include <string.h>

#include "vbench.h"

/* The CLOCK_MONOTONIC time, in seconds: for capture -S. */
static int vb_now_main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		vb_err("now: takes no arguments");
		return 2;
	}
	printf("%.6f\n", vb_now());
	return 0;
}

static const struct vb_cmd vb_cmds[] = {
	{ "memcpy", "memcpy bandwidth per frame size", vb_memcpy_main },
	{ "capture", "V4L2 MMAP capture: fps over wall time, drops, CPU, latency",
	  vb_capture_main },
	{ "feed", "V4L2 output producer (for v4l2loopback)", vb_feed_main },
	{ "touch", "first-touch cost of a mapped capture buffer", vb_touch_main },
	{ "vram", "frames read through the /dev/vcapN mapping", vb_vram_main },
	{ "now", "the CLOCK_MONOTONIC time in seconds (for capture -S)",
	  vb_now_main },
};

static void vb_usage(FILE *f)
{
	size_t i;

	fputs("usage: vbench COMMAND [OPTIONS]   (COMMAND --help for options)\n\n",
	      f);
	for (i = 0; i < sizeof(vb_cmds) / sizeof(vb_cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", vb_cmds[i].name, vb_cmds[i].summary);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		vb_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	for (i = 0; i < sizeof(vb_cmds) / sizeof(vb_cmds[0]); i++)
		if (!strcmp(argv[1], vb_cmds[i].name))
			return vb_cmds[i].run(argc - 1, argv + 1);
	vb_err("unknown command '%s'", argv[1]);
	vb_usage(stderr);
	return 2;
}
