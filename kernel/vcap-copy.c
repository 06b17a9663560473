// SPDX-License-Identifier: GPL-2.0
/*
 * vcap frame copies: the one copy of a frame from the board's ring into a
 * queued buffer, a few MiB at a time.
 *
 * Both run as plain 64-bit loads and stores: eight words per step from
 * RAM, one readq at a time from a BAR.  The string instructions that
 * memcpy() and memcpy_fromio() use on x86 (rep movsb where the CPU
 * advertises ERMS, or byte and word steps around rep movsl) are the fast
 * way on real CPUs but are run one element at a time by an emulated one:
 * under QEMU's TCG a 1920x1080 YUYV frame took 7.2 ms with memcpy() on
 * 6.1 and 3.4 ms with memcpy_fromio() on 6.12, against 0.9 ms for a word
 * loop on both.  On real hardware a copy this size is
 * bound by memory bandwidth either way.  Frames start on page boundaries;
 * anything not aligned to a word takes the kernel's own copy.
 */
#include <linux/align.h>
#include <linux/io.h>
#include <linux/string.h>

#include "vcap-copy.h"

#define VCAP_COPY_STEP		(8 * sizeof(u64))

void vcap_copy_frame(void *dst, const void *src, size_t len)
{
	size_t n = len / VCAP_COPY_STEP;
	const u64 *s = src;
	u64 *d = dst;

	if (!IS_ALIGNED((unsigned long)dst | (unsigned long)src, sizeof(u64))) {
		memcpy(dst, src, len);
		return;
	}
	while (n--) {
		u64 w0 = s[0], w1 = s[1], w2 = s[2], w3 = s[3];
		u64 w4 = s[4], w5 = s[5], w6 = s[6], w7 = s[7];

		d[0] = w0;
		d[1] = w1;
		d[2] = w2;
		d[3] = w3;
		d[4] = w4;
		d[5] = w5;
		d[6] = w6;
		d[7] = w7;
		s += 8;
		d += 8;
	}
	memcpy(d, s, len % VCAP_COPY_STEP);
}

void vcap_copy_frame_fromio(void *dst, const void __iomem *src, size_t len)
{
	size_t n = len / sizeof(u64);
	const void __iomem *s = src;
	u64 *d = dst;

	if (!IS_ALIGNED((unsigned long)dst | (unsigned long)src, sizeof(u64))) {
		memcpy_fromio(dst, src, len);
		return;
	}
	while (n--) {
		*d++ = __raw_readq(s);
		s += sizeof(u64);
	}
	memcpy_fromio(d, s, len % sizeof(u64));
}
