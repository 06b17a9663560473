/*
 * vbench memcpy: the guest's copy bandwidth for frame-sized copies.
 *
 * Copies rotate over 3 source slots and 4 destination buffers, as a copy
 * from the board's ring into the next queued buffer does, so that a small
 * frame is not served from the cache every time.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vbench.h"

#define VB_SRCS	3
#define VB_DSTS	4

static void vb_memcpy_usage(void)
{
	puts("usage: vbench memcpy [-t SECONDS] BYTES...\n"
	     "  one JSON line per size: bytes, copies, ns_per_copy (median),\n"
	     "  ns_best, ns_mean, gbytes_per_s (from the median)");
}

static int vb_memcpy_one(size_t bytes, double seconds)
{
	char *src[VB_SRCS], *dst[VB_DSTS];
	unsigned long copies = 0;
	struct vb_lat each = { 0 };
	double t0, t, elapsed, med;
	int i, ret = 0;

	for (i = 0; i < VB_SRCS; i++) {
		src[i] = malloc(bytes);
		if (src[i])
			memset(src[i], 0x40 + i, bytes);
	}
	for (i = 0; i < VB_DSTS; i++) {
		dst[i] = malloc(bytes);
		if (dst[i])
			memset(dst[i], 0, bytes);
	}
	for (i = 0; i < VB_SRCS; i++)
		if (!src[i])
			ret = -1;
	for (i = 0; i < VB_DSTS; i++)
		if (!dst[i])
			ret = -1;
	if (ret) {
		vb_err("memcpy: out of memory for %zu bytes", bytes);
		goto out;
	}

	/*
	 * Each copy is timed on its own and the median reported: a stall of
	 * the emulated machine spoils a few copies, not the figure.
	 */
	t0 = vb_now();
	do {
		double c0 = vb_now();

		memcpy(dst[copies % VB_DSTS], src[copies % VB_SRCS], bytes);
		t = vb_now();
		vb_lat_add(&each, t - c0);
		copies++;
	} while (t - t0 < seconds || copies < 5);
	elapsed = t - t0;
	if (each.n != copies) {
		vb_err("memcpy: out of memory for the samples");
		ret = -1;
		goto out;
	}

	/* Keep the copies observable so they cannot be optimised away. */
	for (i = 0; i < VB_DSTS; i++)
		if (dst[i][bytes - 1] == 0x7f)
			ret = -1;

	vb_json_begin();
	vb_json_str("tool", "memcpy");
	vb_json_int("bytes", (long long)bytes);
	med = vb_lat_pct(&each, 50);
	vb_json_int("copies", (long long)copies);
	vb_json_num("ns_per_copy", med * 1e9);
	vb_json_num("ns_best", vb_lat_pct(&each, 0) * 1e9);
	vb_json_num("ns_mean", elapsed / copies * 1e9);
	vb_json_num("gbytes_per_s", bytes / med / 1e9);
	vb_json_end();
out:
	vb_lat_free(&each);
	for (i = 0; i < VB_SRCS; i++)
		free(src[i]);
	for (i = 0; i < VB_DSTS; i++)
		free(dst[i]);
	return ret;
}

int vb_memcpy_main(int argc, char **argv)
{
	double seconds = 1.0;
	int c, ret = 0;

	while ((c = getopt(argc, argv, "t:h")) != -1) {
		switch (c) {
		case 't':
			seconds = atof(optarg);
			break;
		case 'h':
			vb_memcpy_usage();
			return 0;
		default:
			vb_memcpy_usage();
			return 2;
		}
	}
	if (optind >= argc) {
		vb_err("memcpy: no size given");
		return 2;
	}
	for (; optind < argc; optind++) {
		char *end;
		unsigned long long b = strtoull(argv[optind], &end, 0);

		if (*end || !b) {
			vb_err("memcpy: bad size '%s'", argv[optind]);
			return 2;
		}
		if (vb_memcpy_one((size_t)b, seconds))
			ret = 1;
	}
	return ret;
}
