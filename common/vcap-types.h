/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Fixed-width types for code built both in the kernel and in user space. */
#ifndef _VCAP_TYPES_H
#define _VCAP_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

#endif /* _VCAP_TYPES_H */
