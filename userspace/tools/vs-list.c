// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* vcap-stream list: every capture and VRAM node on the machine. */
#include "vs.h"

#include <stdlib.h>

static void list_usage(FILE *f)
{
	fputs("Usage: vcap-stream list [-h]\n"
	      "List V4L2 nodes (/dev/video*) and vcap VRAM nodes (/dev/vcap*):\n"
	      "path, driver, card, bus and what vcap-stream can do with it.\n\n",
	      f);
	vs_usage_options(f, 0);
}

static const char *kind_str(enum vcap_device_kind k)
{
	switch (k) {
	case VCAP_DEVICE_V4L2_CAPTURE:
		return "capture";
	case VCAP_DEVICE_VRAM:
		return "vram";
	default:
		return "other";
	}
}

static int list_run(const struct vs_opts *o)
{
	struct vcap_device_info *devs;
	size_t n;

	(void)o;
	if (vcap_device_list(&devs, &n) < 0) {
		vs_error("list", "%s", vcap_last_error());
		return 1;
	}
	if (!n)
		printf("no video devices\n");
	for (size_t i = 0; i < n; i++)
		printf("%-14s %-8s %-10s %-28s %s\n", devs[i].path,
		       kind_str(devs[i].kind), devs[i].driver, devs[i].card,
		       devs[i].bus);
	free(devs);
	return 0;
}

const struct vs_cmd vs_cmd_list = {
	.name = "list",
	.summary = "list capture devices and VRAM nodes",
	.opts = 0,
	.usage = list_usage,
	.run = list_run,
};
