// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A reader hammering the ring while the firmware core writes frames as
 * fast as it can: every frame the seqlock calls whole must decode to a
 * whole frame of the right sequence.  A writer that skips the lock shows
 * that the check would catch it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "vtest.h"
#include "fw-board.h"
#include "fw-pace.h"
#include "fw-test.h"
#include "vcap-stamp.h"

#define RUN_NS		(2000ull * 1000000ull)

struct hammer {
	struct fw_board board;
	bool broken;		/* writer ignores the lock */
	volatile bool stop;
	/* Reader results. */
	u64 whole, busy, torn_seen, undetected, wrong_seq;
	u64 written;
};

static void *writer(void *arg)
{
	struct hammer *h = arg;
	struct fw_board *b = &h->board;
	struct vcap_gen g;
	u64 prev;
	u32 slot;
	u8 *dst;

	if (vcap_gen_init(&g, &b->mode.fmt, VCAP_PATTERN_MOVING_BOX, 0))
		return NULL;
	while (!h->stop) {
		u64 seq = b->next_seq++;

		if (!h->broken) {
			dst = fw_board_frame_begin(b, &slot, &prev);
			vcap_gen_render(&g, dst, seq, prev);
			fw_board_frame_end(b, slot, seq, fw_now_ns(),
					   b->mode.fmt.sizeimage, 0);
		} else {
			/* Pixels first, header after, and no lock at all. */
			slot = b->next_slot;
			dst = b->mem + b->mode.ring.ring_offset +
			      slot * b->mode.ring.slot_stride;
			vcap_gen_render(&g, dst, seq, b->held[slot]);
			b->held[slot] = seq;
			b->ctrl->slots[slot].sequence = htole64(seq);
			t_wr32(&b->ctrl->status.latest_slot, slot);
			b->next_slot = (slot + 1) % b->mode.ring.num_slots;
		}
		h->written++;
	}
	return NULL;
}

static void *reader(void *arg)
{
	struct hammer *h = arg;
	struct fw_board *b = &h->board;
	const struct vcap_frame_fmt *fmt = &b->mode.fmt;
	u8 *copy = malloc(fmt->sizeimage);
	struct vcap_stamp st;
	u64 seq, n = 0;
	u32 i;

	while (copy && !h->stop) {
		i = t_rd32(&b->ctrl->status.latest_slot);
		if (i >= b->mode.ring.num_slots)
			continue;
		/* Every other read takes the slot the writer fills next. */
		if (n++ & 1)
			i = (i + 1) % b->mode.ring.num_slots;
		switch (t_read_slot(b->ctrl, i, b->mem + b->mode.ring.ring_offset +
				    i * b->mode.ring.slot_stride,
				    fmt->sizeimage, copy, &seq)) {
		case T_READ_BUSY:
			h->busy++;
			continue;
		case T_READ_TORN:
			h->torn_seen++;
			continue;
		case T_READ_OK:
			break;
		}
		h->whole++;
		if (vcap_stamp_check(fmt, copy, fmt->sizeimage, &st) !=
		    VCAP_STAMP_OK)
			h->undetected++;
		else if (st.seq != seq)
			h->wrong_seq++;
	}
	free(copy);
	return NULL;
}

static int hammer_run(struct hammer *h, bool broken)
{
	char err[256];
	pthread_t w, r;
	u64 t0;

	memset(h, 0, sizeof(*h));
	h->broken = broken;
	/* Room for exactly three 320x240 YUYV slots: the writer laps fast. */
	if (fw_board_open(&h->board, NULL, 1 << 20, err, sizeof(err)))
		return -1;
	{
		struct fw_board_id id = { "test", "T1", 0, 0 };
		struct vcap_board_request req = { 0 };

		fw_board_reset(&h->board, &id);
		req.cmd = htole32(VCAP_CMD_START);
		req.fourcc = htole32(VCAP_FOURCC('Y', 'U', 'Y', 'V'));
		req.width = htole32(320);
		req.height = htole32(240);
		req.interval_num = htole32(1);
		req.interval_den = htole32(240);
		req.pattern = htole32(VCAP_PATTERN_MOVING_BOX);
		if (fw_board_apply(&h->board, &req))
			return -1;
	}
	pthread_create(&w, NULL, writer, h);
	pthread_create(&r, NULL, reader, h);
	t0 = fw_now_ns();
	while (fw_now_ns() - t0 < RUN_NS)
		usleep(10000);
	h->stop = true;
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	fw_board_close(&h->board);
	return 0;
}

TEST_TIMEOUT(seqlock_readers_see_no_torn_frame, 60)
{
	struct hammer *h = calloc(1, sizeof(*h));

	ASSERT_TRUE(h);
	ASSERT_EQ(hammer_run(h, false), 0);
	TH_LOG("written %llu, read whole %llu, busy %llu, torn and rejected %llu, undetected %llu",
	       (unsigned long long)h->written, (unsigned long long)h->whole,
	       (unsigned long long)h->busy, (unsigned long long)h->torn_seen,
	       (unsigned long long)h->undetected);
	EXPECT_GT(h->written, 1000);
	EXPECT_GT(h->whole, 1000);
	EXPECT_EQ(h->undetected, 0);
	EXPECT_EQ(h->wrong_seq, 0);
	free(h);
}

TEST_TIMEOUT(broken_writer_is_caught_by_stamps, 60)
{
	struct hammer *h = calloc(1, sizeof(*h));

	ASSERT_TRUE(h);
	ASSERT_EQ(hammer_run(h, true), 0);
	TH_LOG("written %llu, read whole %llu, caught by stamps %llu, wrong sequence %llu",
	       (unsigned long long)h->written, (unsigned long long)h->whole,
	       (unsigned long long)h->undetected,
	       (unsigned long long)h->wrong_seq);
	/* The lock never moves, so only the stamps can see the tears. */
	EXPECT_EQ(h->torn_seen, 0);
	EXPECT_GT(h->undetected + h->wrong_seq, 0);
	free(h);
}

VTEST_MAIN()
