// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Faults on demand, through the same command handler as the control
 * socket: each one shows up in the control page as the driver would see it.
 */
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include "vtest.h"
#include "fw-run.h"
#include "fw-test.h"
#include "vcap-stamp.h"

FIXTURE(board) {
	struct fw_run *r;
	struct vcap_board_ctrl *c;
};

FIXTURE_SETUP(board)
{
	char path[] = "/tmp/vcap-fault-XXXXXX", err[256];
	struct vcap_board_request *q;
	int fd;

	/* Steady timing on a busy host, where allowed. */
	{
		struct sched_param sp = { .sched_priority = 10 };

		sched_setscheduler(0, SCHED_FIFO, &sp);
	}
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_TRUE(self->r);
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(fw_run_init(self->r, path, 4 << 20, NULL, NULL, err,
			      sizeof(err)), 0);
	unlink(path);
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
	if (self->r)
		fw_run_fini(self->r);
	free(self->r);
}

static void run_ms(struct fw_run *r, unsigned int ms)
{
	u64 end = fw_now_ns() + ms * 1000000ull;

	while (fw_now_ns() < end)
		fw_run_once(r);
}

static int cmd(struct fw_run *r, const char *line)
{
	char buf[256], *argv[8], *save, *tok;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int argc = 0, ret;

	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 8;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	ret = fw_run_command(r, argc, argv, f);
	fclose(f);
	if (ret)
		vtest_log("%s: %s", line, out);
	free(out);
	return ret;
}

static u64 latest_seq(const struct vcap_board_ctrl *c)
{
	return t_rd64(&c->status.latest_seq);
}

TEST_F(board, drop_makes_a_sequence_gap)
{
	u64 before, produced, late;

	run_ms(self->r, 100);
	ASSERT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	produced = self->r->board.frames_produced;
	before = latest_seq(self->c);
	late = self->r->pace.late;
	ASSERT_EQ(cmd(self->r, "fault drop 5"), 0);
	run_ms(self->r, 200);
	EXPECT_EQ(self->r->frames_dropped, 5);
	/* Sequence numbers ran on while five frames were never made. */
	EXPECT_EQ(latest_seq(self->c) - before,
		  self->r->board.frames_produced - produced + 5 +
		  self->r->pace.late - late);
}

TEST_F(board, stall_stops_frames_not_heartbeat)
{
	u64 frames, hb;

	run_ms(self->r, 100);
	ASSERT_EQ(cmd(self->r, "fault stall 300"), 0);
	run_ms(self->r, 20);
	frames = self->r->board.frames_produced;
	hb = t_rd64(&self->c->status.heartbeat);
	run_ms(self->r, 200);
	EXPECT_EQ(self->r->board.frames_produced, frames);
	EXPECT_GE(t_rd64(&self->c->status.heartbeat), hb + 3);
	run_ms(self->r, 200);
	EXPECT_GT(self->r->board.frames_produced, frames + 3);
	/* The 36 periods of the stall are gaps, not late frames. */
	EXPECT_LT(self->r->board.frames_late, 10);
}

TEST_F(board, hang_stops_heartbeat_and_acks)
{
	u64 hb;

	run_ms(self->r, 100);
	ASSERT_EQ(cmd(self->r, "fault hang 300"), 0);
	run_ms(self->r, 10);
	hb = t_rd64(&self->c->status.heartbeat);
	self->c->request.cmd = htole32(VCAP_CMD_STOP);
	t_wr32(&self->c->request.seq, 2);
	run_ms(self->r, 200);
	EXPECT_EQ(t_rd64(&self->c->status.heartbeat), hb);
	EXPECT_EQ(t_rd32(&self->c->status.ack_seq), 1);
	run_ms(self->r, 200);
	EXPECT_GT(t_rd64(&self->c->status.heartbeat), hb);
	EXPECT_EQ(t_rd32(&self->c->status.ack_seq), 2);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STOPPED);
}

TEST_F(board, signal_loss_flags_slots)
{
	u32 slot;

	run_ms(self->r, 50);
	ASSERT_EQ(cmd(self->r, "fault signal off"), 0);
	run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	EXPECT_TRUE(t_rd32(&self->c->slots[slot].flags) & VCAP_SLOT_NO_SIGNAL);
	ASSERT_EQ(cmd(self->r, "fault signal on"), 0);
	run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	slot = t_rd32(&self->c->status.latest_slot);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].flags), 0);
}

TEST_F(board, resize_mid_stream_bumps_mode_gen)
{
	u32 gen, slot;

	run_ms(self->r, 50);
	gen = t_rd32(&self->c->status.mode_gen);
	ASSERT_EQ(cmd(self->r, "fault resize 640x480"), 0);
	run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->status.width), 640);
	EXPECT_EQ(t_rd32(&self->c->status.height), 480);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen + 1);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].mode_gen), gen + 1);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].bytesused), 640 * 480 * 2);
	/* A size the board cannot do is refused and changes nothing. */
	ASSERT_EQ(cmd(self->r, "fault resize 7x7"), 0);
	run_ms(self->r, 20);
	EXPECT_EQ(t_rd32(&self->c->status.width), 640);
}

TEST_F(board, corrupt_headers_and_pixels)
{
	struct vcap_frame_fmt fmt = { VCAP_FMT_YUYV, 320, 240, 640, 640 * 240 };
	u8 *copy = malloc(fmt.sizeimage);
	u32 slot;
	u64 seq;

	ASSERT_TRUE(copy);
	run_ms(self->r, 50);
	ASSERT_EQ(cmd(self->r, "fault stall 100000"), 0);
	ASSERT_EQ(cmd(self->r, "fault clear"), 0);
	ASSERT_EQ(cmd(self->r, "fault corrupt size"), 0);
	while (self->r->fault.corrupt != FW_CORRUPT_NONE)
		fw_run_once(self->r);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].bytesused), 0xfffffff0u);

	/* Pixels torn behind the lock: only the stamps can tell. */
	ASSERT_EQ(cmd(self->r, "fault corrupt pixels"), 0);
	ASSERT_EQ(cmd(self->r, "fault stall 0"), 0);
	while (self->r->fault.corrupt != FW_CORRUPT_NONE)
		fw_run_once(self->r);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_EQ(t_read_slot(self->c, slot, self->r->board.mem +
			      self->r->board.mode.ring.ring_offset +
			      slot * self->r->board.mode.ring.slot_stride,
			      fmt.sizeimage, copy, &seq), T_READ_OK);
	EXPECT_EQ((int)vcap_stamp_check(&fmt, copy, fmt.sizeimage, NULL),
		  VCAP_STAMP_BAD_SUM);

	ASSERT_EQ(cmd(self->r, "fault corrupt lock"), 0);
	while (self->r->fault.corrupt != FW_CORRUPT_NONE)
		fw_run_once(self->r);
	slot = t_rd32(&self->c->status.latest_slot);
	EXPECT_TRUE(t_rd32(&self->c->slots[slot].lock) & 1);

	ASSERT_EQ(cmd(self->r, "fault corrupt slot"), 0);
	while (self->r->fault.corrupt != FW_CORRUPT_NONE)
		fw_run_once(self->r);
	EXPECT_EQ(t_rd32(&self->c->status.latest_slot), 0xdeadbeef);
	free(copy);
}

TEST_F(board, die_and_come_back_resumes_the_request)
{
	run_ms(self->r, 50);
	ASSERT_EQ(cmd(self->r, "fault die 200"), 0);
	run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->info.magic), 0);
	run_ms(self->r, 250);
	EXPECT_EQ(t_rd32(&self->c->info.magic), VCAP_BOARD_MAGIC);
	EXPECT_EQ(t_rd32(&self->c->status.ack_seq), 1);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_GT(latest_seq(self->c), 0);
}

TEST_F(board, hostile_scribbles_then_recovers)
{
	run_ms(self->r, 50);
	ASSERT_EQ(cmd(self->r, "fault hostile on"), 0);
	run_ms(self->r, 100);
	EXPECT_GT(self->r->hostile_writes, 10);
	ASSERT_EQ(cmd(self->r, "fault hostile off"), 0);
	run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->info.magic), VCAP_BOARD_MAGIC);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_EQ(t_rd32(&self->c->status.width), 320);
}

TEST_F(board, bad_commands_are_refused)
{
	EXPECT_NE(cmd(self->r, "fault"), 0);
	EXPECT_NE(cmd(self->r, "fault drop -1"), 0);
	EXPECT_NE(cmd(self->r, "fault drop many"), 0);
	EXPECT_NE(cmd(self->r, "fault corrupt everything"), 0);
	EXPECT_NE(cmd(self->r, "fault resize big"), 0);
	EXPECT_NE(cmd(self->r, "pattern plaid"), 0);
	EXPECT_NE(cmd(self->r, "source y4m:/nonexistent.y4m"), 0);
	EXPECT_NE(cmd(self->r, "start YUYV 641x480 30"), 0);
	EXPECT_NE(cmd(self->r, "launch"), 0);
	EXPECT_EQ(cmd(self->r, "pattern noise"), 0);
	EXPECT_EQ(cmd(self->r, "pattern request"), 0);
	EXPECT_EQ(cmd(self->r, "stats"), 0);
}

VTEST_MAIN()
