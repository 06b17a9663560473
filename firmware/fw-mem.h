/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Access to the board memory: the guest reads and writes the same bytes,
 * so every field is one relaxed atomic access in little-endian order, and
 * barriers order them as board.h's protocol says.
 */
#ifndef FW_MEM_H
#define FW_MEM_H

#include <endian.h>
#include "vcap-types.h"

static inline void wr32(__le32 *p, u32 v)
{
	__atomic_store_n((u32 *)p, htole32(v), __ATOMIC_RELAXED);
}

static inline void wr64(__le64 *p, u64 v)
{
	__atomic_store_n((u64 *)p, htole64(v), __ATOMIC_RELAXED);
}

static inline u32 rd32(const __le32 *p)
{
	return le32toh(__atomic_load_n((const u32 *)p, __ATOMIC_RELAXED));
}

static inline u64 rd64(const __le64 *p)
{
	return le64toh(__atomic_load_n((const u64 *)p, __ATOMIC_RELAXED));
}

/* Orders every store before it against every store after it. */
static inline void wmb(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void rmb(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

#endif /* FW_MEM_H */
