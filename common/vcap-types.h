/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Fixed-width types and helpers for code built in the kernel and user space. */
#ifndef _VCAP_TYPES_H
#define _VCAP_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/math64.h>
#include <linux/errno.h>
#include <asm/byteorder.h>

#include <linux/kernel.h>

#define vcap_memset(d, c, n)	memset(d, c, n)

/*
 * The pattern and stamp code copies rows: a word at a time, since the
 * string instructions behind the kernel's memcpy() run an element at a
 * time on an emulated CPU (see vcap-copy.c).  Small fixed sizes stay
 * memcpy(), which the compiler turns into moves.
 */
static inline void vcap_memcpy(void *dst, const void *src, size_t n)
{
	const u8 *s = src;
	u8 *d = dst;
	u64 w;

	if (__builtin_constant_p(n) && n <= 16) {
		memcpy(dst, src, n);
		return;
	}
	for (; n >= sizeof(w); n -= sizeof(w)) {
		__builtin_memcpy(&w, s, sizeof(w));
		__builtin_memcpy(d, &w, sizeof(w));
		s += sizeof(w);
		d += sizeof(w);
	}
	memcpy(d, s, n);
}

static inline u64 vcap_div_u64(u64 n, u32 d)
{
	return div_u64(n, d);
}

static inline u32 vcap_mod_u64(u64 n, u32 d)
{
	u32 rem;

	div_u64_rem(n, d, &rem);
	return rem;
}
#else
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <endian.h>
#include <errno.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#ifndef __force
#define __force
#endif

#define cpu_to_le32(x)	((__force __le32)htole32(x))
#define cpu_to_le64(x)	((__force __le64)htole64(x))
#define le32_to_cpu(x)	le32toh((__force u32)(x))
#define le64_to_cpu(x)	le64toh((__force u64)(x))

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n)	(1ull << (n))
#endif

#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

#define vcap_memset(d, c, n)	__builtin_memset(d, c, n)
#define vcap_memcpy(d, s, n)	__builtin_memcpy(d, s, n)

static inline u64 vcap_div_u64(u64 n, u32 d)
{
	return n / d;
}

static inline u32 vcap_mod_u64(u64 n, u32 d)
{
	return (u32)(n % d);
}
#endif

/* Fill len bytes at p with copies of its first unit bytes, by doubling. */
static inline void vcap_repeat(u8 *p, size_t unit, size_t len)
{
	size_t done, n;

	for (done = unit; done < len; done += n) {
		n = done < len - done ? done : len - done;
		vcap_memcpy(p + done, p, n);
	}
}

#define VCAP_PAGE_SIZE		4096u
#define VCAP_ALIGN_PAGE(x)	(((u64)(x) + VCAP_PAGE_SIZE - 1) & \
				 ~(u64)(VCAP_PAGE_SIZE - 1))

#endif /* _VCAP_TYPES_H */
