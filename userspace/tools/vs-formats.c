// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* vcap-stream formats: what a device can produce, with sizes and rates. */
#include "vs.h"

static void formats_usage(FILE *f)
{
	fputs("Usage: vcap-stream formats -d DEV | --vram DEV\n"
	      "Show the current mode and every format, frame size and frame\n"
	      "interval a V4L2 capture device offers (like v4l2-ctl\n"
	      "--list-formats-ext); for a VRAM node, the board's active mode.\n\n",
	      f);
	vs_usage_options(f, VS_OPT_DEVICE);
}

static void print_intervals(struct vcap_v4l2 *dev, uint32_t fourcc,
			    uint32_t w, uint32_t h)
{
	struct vcap_v4l2_interval iv;
	int ret;

	for (unsigned int i = 0;
	     (ret = vcap_v4l2_enum_interval(dev, fourcc, w, h, i, &iv)) == 0;
	     i++) {
		if (iv.min_num == iv.max_num && iv.min_den == iv.max_den)
			printf("%s%.6g", i ? ", " : "  @ ",
			       iv.min_num ? (double)iv.min_den / iv.min_num :
					    0);
		else
			printf("  @ %.6g - %.6g fps",
			       iv.max_num ? (double)iv.max_den / iv.max_num : 0,
			       iv.min_num ? (double)iv.min_den / iv.min_num :
					    0);
	}
	printf("%s\n", ret == VCAP_END ? "" : " (intervals not listed)");
	vcap_clear_error();
}

static int v4l2_formats(const char *path)
{
	char fcc[VCAP_FOURCC_STR_LEN], mode[96];
	struct vcap_v4l2_fmtdesc fd;
	struct vcap_v4l2_caps caps;
	struct vcap_mode cur;
	struct vcap_v4l2 *dev;
	int ret;

	dev = vcap_v4l2_open(path);
	if (!dev) {
		vs_error("formats", "%s", vcap_last_error());
		return 1;
	}
	if (vcap_v4l2_caps(dev, &caps) < 0 ||
	    vcap_v4l2_get_mode(dev, &cur) < 0) {
		vs_error("formats", "%s", vcap_last_error());
		vcap_v4l2_close(dev);
		return 1;
	}
	printf("%s: %s (%s), %s\n", path, caps.driver, caps.card,
	       caps.bus_info);
	printf("current: %s, %u bytes per line, %u bytes\n",
	       vcap_mode_str(&cur, mode, sizeof(mode)), cur.bytesperline,
	       cur.sizeimage);
	for (unsigned int i = 0;
	     (ret = vcap_v4l2_enum_format(dev, i, &fd)) == 0; i++) {
		struct vcap_v4l2_size sz;

		printf("[%u] %s  %s%s\n", i, vcap_fourcc_str(fd.fourcc, fcc),
		       fd.description,
		       vcap_pixfmt_find(fd.fourcc) ? "" :
		       "  (raw capture only)");
		for (unsigned int j = 0;
		     vcap_v4l2_enum_size(dev, fd.fourcc, j, &sz) == 0; j++) {
			if (sz.min_width == sz.max_width &&
			    sz.min_height == sz.max_height && !sz.step_width) {
				printf("      %ux%u", sz.min_width,
				       sz.min_height);
				print_intervals(dev, fd.fourcc, sz.min_width,
						sz.min_height);
			} else {
				printf("      %ux%u - %ux%u, step %ux%u",
				       sz.min_width, sz.min_height,
				       sz.max_width, sz.max_height,
				       sz.step_width, sz.step_height);
				print_intervals(dev, fd.fourcc, sz.max_width,
						sz.max_height);
			}
		}
		vcap_clear_error();
	}
	vcap_v4l2_close(dev);
	if (ret < 0) {
		vs_error("formats", "%s", vcap_last_error());
		return 1;
	}
	return 0;
}

static int vram_formats(const char *path)
{
	struct vcap_vram_info info;
	struct vcap_vram *vram;
	char mode[96];

	vram = vcap_vram_open(path);
	if (!vram || vcap_vram_query(vram, &info) < 0) {
		vs_error("formats", "%s", vcap_last_error());
		vcap_vram_close(vram);
		return 1;
	}
	printf("%s: vcap VRAM, board '%s' serial '%s'%s%s\n", path,
	       info.name, info.serial, info.soft_board ? ", software board" :
							 "",
	       info.irq ? ", interrupts" : ", polled");
	if (info.streaming)
		printf("active: %s, %u slots of %u bytes\n",
		       vcap_mode_str(&info.mode, mode, sizeof(mode)),
		       info.num_slots, info.mode.sizeimage);
	else
		printf("active: none (the board is stopped)\n");
	printf("board: %llu frames produced, %llu overwritten unread, %llu late\n",
	       (unsigned long long)info.frames_produced,
	       (unsigned long long)info.frames_overwritten,
	       (unsigned long long)info.frames_late);
	vcap_vram_close(vram);
	return 0;
}

static int formats_run(const struct vs_opts *o)
{
	return o->vram ? vram_formats(o->vram) : v4l2_formats(o->device);
}

const struct vs_cmd vs_cmd_formats = {
	.name = "formats",
	.summary = "show the formats, sizes and rates of a device",
	.opts = VS_OPT_DEVICE,
	.usage = formats_usage,
	.run = formats_run,
};
