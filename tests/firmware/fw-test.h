/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Helpers shared by the firmware tests: a board reader, as a driver reads. */
#ifndef FW_TEST_H
#define FW_TEST_H

#include <stdbool.h>
#include <string.h>
#include <vcap/board.h>
#include "vcap-types.h"

static inline u32 t_rd32(const __le32 *p)
{
	return le32toh(__atomic_load_n((const u32 *)p, __ATOMIC_RELAXED));
}

static inline u64 t_rd64(const __le64 *p)
{
	return le64toh(__atomic_load_n((const u64 *)p, __ATOMIC_RELAXED));
}

static inline void t_wr32(__le32 *p, u32 v)
{
	__atomic_store_n((u32 *)p, htole32(v), __ATOMIC_RELAXED);
}

/* A good one-block EDID, as a driver writes it: hotplug goes high. */
static inline void t_write_edid(struct vcap_board_ctrl *c)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	u8 d[VCAP_EDID_BLOCK_SIZE] = { 0 }, sum = 0;
	unsigned int i;

	memcpy(d, header, sizeof(header));
	d[8] = 0x59;
	d[9] = 0x50;
	d[18] = 1;
	d[19] = 3;
	for (i = 0; i < VCAP_EDID_BLOCK_SIZE - 1; i++)
		sum += d[i];
	d[VCAP_EDID_BLOCK_SIZE - 1] = (u8)(0x100 - sum);
	memset(c->edid.data, 0, sizeof(c->edid.data));
	memcpy(c->edid.data, d, sizeof(d));
	t_wr32(&c->edid.blocks, 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&c->edid.gen, t_rd32(&c->edid.gen) + 1);
}

/* Result of one seqlock read of a slot. */
enum t_read {
	T_READ_OK,
	T_READ_BUSY,		/* lock odd: being written */
	T_READ_TORN,		/* lock changed during the copy */
};

/*
 * Copy slot i's pixels (len bytes at pix) and header as the board.h
 * protocol says a reader must, and tell whether the copy is whole.
 */
static inline enum t_read t_read_slot(const struct vcap_board_ctrl *c,
				      unsigned int i, const u8 *pix,
				      size_t len, u8 *dst, u64 *seq)
{
	const struct vcap_board_slot *s = &c->slots[i];
	u32 l1, l2;

	l1 = t_rd32(&s->lock);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (l1 & 1)
		return T_READ_BUSY;
	*seq = t_rd64(&s->sequence);
	memcpy(dst, pix, len);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	l2 = t_rd32(&s->lock);
	return l1 == l2 ? T_READ_OK : T_READ_TORN;
}

#endif /* FW_TEST_H */
