// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Cost of one 3840x2160 YUYV pattern frame against a memcpy of the same
 * size, measured in the same run.  Exits non-zero above the 2x goal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vcap/board.h>
#include "vcap-pattern.h"
#include "vcap-stamp.h"
#include "bench-time.h"

#define ROUNDS 40

int main(int argc, char **argv)
{
	struct vcap_frame_fmt fmt = {
		VCAP_FMT_YUYV, 3840, 2160, 3840 * 2, 3840 * 2 * 2160
	};
	double t_copy[ROUNDS], t_full[ROUNDS], t_inc[ROUNDS], t0;
	double goal = argc > 1 ? atof(argv[1]) : 2.0;
	unsigned char *src, *dst, *ring[3];
	struct vcap_gen g;
	double copy, full, inc;
	int i;

	src = malloc(fmt.sizeimage);
	dst = malloc(fmt.sizeimage);
	for (i = 0; i < 3; i++)
		ring[i] = malloc(fmt.sizeimage);
	if (!src || !dst || !ring[0] || !ring[1] || !ring[2] ||
	    vcap_gen_init(&g, &fmt, VCAP_PATTERN_MOVING_BOX, 0))
		return 1;
	memset(src, 0x5a, fmt.sizeimage);
	memset(dst, 0, fmt.sizeimage);
	for (i = 0; i < 3; i++)
		vcap_gen_render(&g, ring[i], i, VCAP_GEN_NONE);

	/* Interleave the three so that they see the same machine state. */
	for (i = 0; i < ROUNDS; i++) {
		t0 = bench_now();
		memcpy(dst, src, fmt.sizeimage);
		t_copy[i] = bench_now() - t0;
		__asm__ volatile("" : : "r"(dst) : "memory");

		t0 = bench_now();
		vcap_gen_render(&g, ring[i % 3], 100 + i, VCAP_GEN_NONE);
		t_full[i] = bench_now() - t0;

		/* The ring case: slot i % 3 holds frame 100 + i. */
		t0 = bench_now();
		vcap_gen_render(&g, ring[i % 3], 103 + i, 100 + i);
		t_inc[i] = bench_now() - t0;
		if (vcap_stamp_check(&fmt, ring[i % 3], fmt.sizeimage, NULL))
			return 1;
	}
	copy = bench_median(t_copy, ROUNDS);
	full = bench_median(t_full, ROUNDS);
	inc = bench_median(t_inc, ROUNDS);
	printf("3840x2160 YUYV (%u bytes), median of %d\n", fmt.sizeimage,
	       ROUNDS);
	printf("memcpy            %8.3f ms  %6.2f GB/s\n", copy * 1e3,
	       fmt.sizeimage / copy / 1e9);
	printf("pattern, full     %8.3f ms  ratio %.2fx (goal <= %.1fx)\n",
	       full * 1e3, full / copy, goal);
	printf("pattern, redraw   %8.3f ms  ratio %.2fx\n", inc * 1e3,
	       inc / copy);
	return full / copy <= goal ? 0 : 1;
}
