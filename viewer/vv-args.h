/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* vcap-view's command line. */
#ifndef VV_ARGS_H
#define VV_ARGS_H

#include <libvcap.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum vv_output {
	VV_OUTPUT_SDL,
	VV_OUTPUT_KMS,
};

struct vv_options {
	const char *device;		/* /dev/videoN, /dev/vcapN or test:... */
	struct vcap_mode mode;		/* requested; zero fields keep */
	unsigned int buffers;		/* V4L2 buffers, 0: library default */
	enum vv_output output;
	const char *card;		/* KMS: /dev/dri/cardN, NULL: search */
	uint64_t frames;		/* stop after showing this many; 0: run */
	const char *snapshot;		/* PNG written on exit */
	double timeout_s;		/* give up after this long without a
					 * frame; 0: never */
	double signal_timeout_s;	/* give up after this long without a
					 * signal; 0: never */
	bool fullscreen;
	bool overlay;
	bool verbose;
	bool stats;			/* copies and path on exit */
};

#define VV_ARGS_OK	0
#define VV_ARGS_EXIT	1		/* --help or --version was printed */
#define VV_ARGS_ERROR	(-1)		/* one line was printed to err */

/*
 * Parse argv into o (defaults first).  Help goes to out; an error names
 * the bad option or value in one line on err.
 */
int vv_args_parse(int argc, char **argv, struct vv_options *o, FILE *out,
		  FILE *err);
void vv_args_usage(FILE *f);

#endif /* VV_ARGS_H */
