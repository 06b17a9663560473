// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Faults on demand, through the same command handler as the control
 * socket: each one shows up in the control page as the driver would see it.
 */
#include "vtest.h"
#include "fw-test.h"
#include "fw-test-run.h"
#include "vcap-stamp.h"

FIXTURE(board) {
	struct fw_run *r;
	struct vcap_board_ctrl *c;
};

FIXTURE_SETUP(board)
{
	struct vcap_board_request *q;

	self->r = t_run_new(4 << 20);
	ASSERT_TRUE(self->r);
	self->c = self->r->board.ctrl;
	/* Streaming by a request in the page, as a driver leaves it. */
	q = &self->c->request;
	q->cmd = htole32(VCAP_CMD_START);
	q->fourcc = htole32(VCAP_FMT_YUYV);
	q->width = htole32(320);
	q->height = htole32(240);
	q->interval_num = htole32(1);
	q->interval_den = htole32(120);
	q->pattern = htole32(VCAP_PATTERN_MOVING_BOX);
	q->input = htole32(VCAP_INPUT_TPG);
	t_wr32(&q->seq, 1);
}

FIXTURE_TEARDOWN(board)
{
	t_run_free(self->r);
}

static u64 latest_seq(const struct vcap_board_ctrl *c)
{
	return t_rd64(&c->status.latest_seq);
}

TEST_F(board, drop_makes_a_sequence_gap)
{
	u64 before, produced, late;

	t_run_ms(self->r, 100);
	ASSERT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	produced = self->r->board.frames_produced;
	before = latest_seq(self->c);
	late = self->r->pace.late;
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault drop 5"), 0);
	t_run_ms(self->r, 200);
	EXPECT_EQ(self->r->frames_dropped, 5);
	/* Sequence numbers ran on while five frames were never made. */
	EXPECT_EQ(latest_seq(self->c) - before,
		  self->r->board.frames_produced - produced + 5 +
		  self->r->pace.late - late);
}

TEST_F(board, stall_stops_frames_not_heartbeat)
{
	u64 frames, hb;

	t_run_ms(self->r, 100);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault stall 300"), 0);
	t_run_ms(self->r, 20);
	frames = self->r->board.frames_produced;
	hb = t_rd64(&self->c->status.heartbeat);
	t_run_ms(self->r, 200);
	EXPECT_EQ(self->r->board.frames_produced, frames);
	EXPECT_GE(t_rd64(&self->c->status.heartbeat), hb + 3);
	t_run_ms(self->r, 200);
	EXPECT_GT(self->r->board.frames_produced, frames + 3);
	/* The 36 periods of the stall are gaps, not late frames. */
	EXPECT_LT(self->r->board.frames_late, 10);
}

TEST_F(board, hang_stops_heartbeat_and_acks)
{
	u64 hb;

	t_run_ms(self->r, 100);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault hang 300"), 0);
	t_run_ms(self->r, 10);
	hb = t_rd64(&self->c->status.heartbeat);
	self->c->request.cmd = htole32(VCAP_CMD_STOP);
	t_wr32(&self->c->request.seq, 2);
	t_run_ms(self->r, 200);
	EXPECT_EQ(t_rd64(&self->c->status.heartbeat), hb);
	EXPECT_EQ(t_rd32(&self->c->status.ack_seq), 1);
	t_run_ms(self->r, 200);
	EXPECT_GT(t_rd64(&self->c->status.heartbeat), hb);
	EXPECT_EQ(t_rd32(&self->c->status.ack_seq), 2);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STOPPED);
}

TEST_F(board, signal_loss_flags_slots)
{
	u32 slot;

	t_run_ms(self->r, 50);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault signal off"), 0);
	t_run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	EXPECT_TRUE(t_rd32(&self->c->slots[slot].flags) & VCAP_SLOT_NO_SIGNAL);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault signal on"), 0);
	t_run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	slot = t_rd32(&self->c->status.latest_slot);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].flags), 0);
}

TEST_F(board, resize_mid_stream_bumps_mode_gen)
{
	u32 gen, slot;

	t_run_ms(self->r, 50);
	gen = t_rd32(&self->c->status.mode_gen);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault resize 640x480"), 0);
	t_run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->status.width), 640);
	EXPECT_EQ(t_rd32(&self->c->status.height), 480);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen + 1);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].mode_gen), gen + 1);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].bytesused), 640 * 480 * 2);
	/* A size the board cannot do is refused and changes nothing. */
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault resize 7x7"), 0);
	t_run_ms(self->r, 20);
	EXPECT_EQ(t_rd32(&self->c->status.width), 640);
}

TEST_F(board, corrupt_headers_and_pixels)
{
	struct vcap_frame_fmt fmt = { VCAP_FMT_YUYV, 320, 240, 640, 640 * 240 };
	u8 *copy = malloc(fmt.sizeimage);
	u32 slot;
	u64 seq;

	ASSERT_TRUE(copy);
	t_run_ms(self->r, 50);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault stall 100000"), 0);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault clear"), 0);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault corrupt size"), 0);
	while (self->r->fault.corrupt != FW_CORRUPT_NONE)
		fw_run_once(self->r);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].bytesused), 0xfffffff0u);

	/* Pixels torn behind the lock: only the stamps can tell. */
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault corrupt pixels"), 0);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault stall 0"), 0);
	while (self->r->fault.corrupt != FW_CORRUPT_NONE)
		fw_run_once(self->r);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_EQ(t_read_slot(self->c, slot, self->r->board.mem +
			      self->r->board.mode.ring.ring_offset +
			      slot * self->r->board.mode.ring.slot_stride,
			      fmt.sizeimage, copy, &seq), T_READ_OK);
	EXPECT_EQ((int)vcap_stamp_check(&fmt, copy, fmt.sizeimage, NULL),
		  VCAP_STAMP_BAD_SUM);

	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault corrupt lock"), 0);
	while (self->r->fault.corrupt != FW_CORRUPT_NONE)
		fw_run_once(self->r);
	slot = t_rd32(&self->c->status.latest_slot);
	EXPECT_TRUE(t_rd32(&self->c->slots[slot].lock) & 1);

	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault corrupt slot"), 0);
	while (self->r->fault.corrupt != FW_CORRUPT_NONE)
		fw_run_once(self->r);
	EXPECT_EQ(t_rd32(&self->c->status.latest_slot), 0xdeadbeef);
	free(copy);
}

TEST_F(board, die_and_come_back_resumes_the_request)
{
	t_run_ms(self->r, 50);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault die 200"), 0);
	t_run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->info.magic), 0);
	t_run_ms(self->r, 250);
	EXPECT_EQ(t_rd32(&self->c->info.magic), VCAP_BOARD_MAGIC);
	EXPECT_EQ(t_rd32(&self->c->status.ack_seq), 1);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_GT(latest_seq(self->c), 0);
}

TEST_F(board, hostile_scribbles_then_recovers)
{
	t_run_ms(self->r, 50);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault hostile on"), 0);
	t_run_ms(self->r, 100);
	EXPECT_GT(self->r->hostile_writes, 10);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault hostile off"), 0);
	t_run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->info.magic), VCAP_BOARD_MAGIC);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_EQ(t_rd32(&self->c->status.width), 320);
}

TEST_F(board, bad_commands_are_refused)
{
	EXPECT_NE(t_cmd(self->r, NULL, 0, "fault"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "fault drop -1"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "fault drop many"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "fault corrupt everything"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "fault resize big"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "pattern plaid"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "source y4m:/nonexistent.y4m"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "start YUYV 641x480 30"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "launch"), 0);
	EXPECT_EQ(t_cmd(self->r, NULL, 0, "pattern noise"), 0);
	EXPECT_EQ(t_cmd(self->r, NULL, 0, "pattern request"), 0);
	EXPECT_EQ(t_cmd(self->r, NULL, 0, "stats"), 0);
}

VTEST_MAIN()
