// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ivshmem server against a client that acts like QEMU: setup, doorbell
 * to the firmware, frame and status interrupts back, a client speaking
 * garbage dropped while service goes on, and a guest coming back.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include "vtest.h"
#include "fw-run.h"
#include "fw-test.h"
#include "ivshmem-client.h"
#include "vcap-stamp.h"

FIXTURE(fw) {
	struct fw_run *r;
	pthread_t th;
	char dir[64];
	char sock[128];
};

static void *loop(void *arg)
{
	fw_run_loop(arg);
	return NULL;
}

FIXTURE_SETUP(fw)
{
	char err[256];

	strcpy(self->dir, "/tmp/vcap-fwsrv-XXXXXX");
	ASSERT_TRUE(mkdtemp(self->dir));
	snprintf(self->sock, sizeof(self->sock), "%s/ivshmem", self->dir);
	self->r = calloc(1, sizeof(*self->r));
	ASSERT_TRUE(self->r);
	ASSERT_EQ(fw_run_init(self->r, NULL, 16 << 20, self->sock, NULL, err,
			      sizeof(err)), 0);
	ASSERT_EQ(pthread_create(&self->th, NULL, loop, self->r), 0);
}

FIXTURE_TEARDOWN(fw)
{
	if (!self->r)
		return;
	self->r->quit = true;
	pthread_join(self->th, NULL);
	fw_run_fini(self->r);
	free(self->r);
	rmdir(self->dir);
}

/* Write a request the way a driver does: fields, barrier, then seq. */
static u32 send_request(struct vcap_board_ctrl *c, u32 cmd, u32 fourcc,
			u32 w, u32 h, u32 fps)
{
	struct vcap_board_request *q = &c->request;
	u32 seq = t_rd32(&q->seq) + 1;

	q->cmd = htole32(cmd);
	q->fourcc = htole32(fourcc);
	q->width = htole32(w);
	q->height = htole32(h);
	q->bytesperline = 0;
	q->interval_num = htole32(1);
	q->interval_den = htole32(fps);
	q->pattern = htole32(VCAP_PATTERN_MOVING_BOX);
	q->flags = 0;
	q->input = htole32(VCAP_INPUT_TPG);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&q->seq, seq);
	return seq;
}

/* Wait for a status interrupt that acknowledges seq. */
static bool wait_ack(struct ivc *c, struct vcap_board_ctrl *ctrl, u32 seq)
{
	int i;

	for (i = 0; i < 20; i++) {
		ivc_wait(c, VCAP_VEC_STATUS, 100);
		if (t_rd32(&ctrl->status.ack_seq) == seq)
			return true;
	}
	return false;
}

TEST_F(fw, qemu_like_client_gets_setup_and_interrupts)
{
	struct vcap_board_ctrl *ctrl;
	struct vcap_stamp st;
	u64 frames = 0, seq, irq_rx;
	struct ivc c;
	char err[256];
	u32 rq, slot;
	u8 *copy;
	int i, good = 0;

	ASSERT_EQ(ivc_connect(&c, self->sock, err, sizeof(err)), 0);
	EXPECT_EQ(c.version, 0);
	EXPECT_GE(c.id, 1);
	EXPECT_EQ(c.size, 16 << 20);
	EXPECT_EQ(c.nown, VCAP_NUM_VECTORS);
	ASSERT_TRUE(ivc_peer(&c, FW_PEER_ID));
	EXPECT_EQ(ivc_peer(&c, FW_PEER_ID)->nfd, VCAP_NUM_VECTORS);

	ctrl = (struct vcap_board_ctrl *)c.mem;
	ASSERT_EQ(t_rd32(&ctrl->info.magic), VCAP_BOARD_MAGIC);
	EXPECT_EQ(t_rd32(&ctrl->info.fw_peer_id), FW_PEER_ID);
	EXPECT_TRUE(t_rd32(&ctrl->info.caps) & VCAP_CAP_DOORBELL);

	/* Request a mode and ring the firmware's doorbell. */
	rq = send_request(ctrl, VCAP_CMD_START, VCAP_FMT_YUYV, 320, 240, 60);
	ASSERT_EQ(ivc_ring(&c, FW_PEER_ID, VCAP_FW_VEC_REQUEST), 0);
	ASSERT_TRUE(wait_ack(&c, ctrl, rq));
	EXPECT_EQ(t_rd32(&ctrl->status.error), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&ctrl->status.state), VCAP_STATE_STREAMING);

	/* Frame interrupts arrive, and the frames behind them are whole. */
	copy = malloc(t_rd32(&ctrl->status.sizeimage));
	ASSERT_TRUE(copy);
	for (i = 0; i < 30; i++) {
		struct vcap_frame_fmt fmt = {
			VCAP_FMT_YUYV, 320, 240,
			t_rd32(&ctrl->status.bytesperline),
			t_rd32(&ctrl->status.sizeimage)
		};

		frames += ivc_wait(&c, VCAP_VEC_FRAME, 500);
		slot = t_rd32(&ctrl->status.latest_slot);
		if (slot >= t_rd32(&ctrl->status.num_slots))
			continue;
		if (t_read_slot(ctrl, slot, c.mem +
				t_rd64(&ctrl->status.ring_offset) +
				slot * t_rd64(&ctrl->status.slot_stride),
				fmt.sizeimage, copy, &seq) == T_READ_OK &&
		    vcap_stamp_check(&fmt, copy, fmt.sizeimage, &st) ==
		    VCAP_STAMP_OK && st.seq == seq)
			good++;
	}
	free(copy);
	TH_LOG("%llu frame interrupts, %d whole frames checked",
	       (unsigned long long)frames, good);
	EXPECT_GE(frames, 20);
	EXPECT_GE(good, 20);

	/* A refused mode: status interrupt, error code, no mode change. */
	rq = send_request(ctrl, VCAP_CMD_START, VCAP_FOURCC('M', 'J', 'P', 'G'),
			  320, 240, 60);
	ASSERT_EQ(ivc_ring(&c, FW_PEER_ID, VCAP_FW_VEC_REQUEST), 0);
	ASSERT_TRUE(wait_ack(&c, ctrl, rq));
	EXPECT_EQ(t_rd32(&ctrl->status.error), VCAP_ERR_BAD_FORMAT);
	EXPECT_EQ(t_rd32(&ctrl->status.width), 320);
	ivc_close(&c);

	self->r->quit = true;
	pthread_join(self->th, NULL);
	irq_rx = self->r->server.irq_received;
	TH_LOG("firmware: %llu doorbells received, %llu interrupts sent",
	       (unsigned long long)irq_rx,
	       (unsigned long long)self->r->server.irq_sent);
	EXPECT_GE(irq_rx, 2);
	EXPECT_GE(self->r->server.irq_sent, frames);
	fw_run_fini(self->r);
	free(self->r);
	self->r = NULL;
	rmdir(self->dir);
}

TEST_F(fw, garbage_client_is_dropped_and_service_goes_on)
{
	struct vcap_board_ctrl *ctrl;
	struct ivc a, b;
	char err[256];
	int64_t bid;
	u32 rq;
	int i;

	ASSERT_EQ(ivc_connect(&a, self->sock, err, sizeof(err)), 0);
	ctrl = (struct vcap_board_ctrl *)a.mem;
	rq = send_request(ctrl, VCAP_CMD_START, VCAP_FMT_GREY, 160, 120, 60);
	ASSERT_EQ(ivc_ring(&a, FW_PEER_ID, VCAP_FW_VEC_REQUEST), 0);
	ASSERT_TRUE(wait_ack(&a, ctrl, rq));

	/* b speaks on a one-way protocol: it is cut off. */
	ASSERT_EQ(ivc_connect(&b, self->sock, err, sizeof(err)), 0);
	bid = b.id;
	EXPECT_NE(bid, a.id);
	ASSERT_EQ(write(b.sock, "GET / HTTP/1.0\r\n\r\n", 18), 18);
	for (i = 0; i < 20 && ivc_poll_notice(&b, 100) != -1; i++)
		;
	EXPECT_LT(i, 20);	/* b saw its socket closed */
	ivc_close(&b);

	/* a heard of b coming (two eventfds) and going. */
	for (i = 0; i < 20 && a.last_gone != bid; i++)
		ivc_poll_notice(&a, 100);
	EXPECT_EQ(a.last_gone, bid);

	/* A client that hangs up at once. */
	{
		struct ivc q;

		ASSERT_EQ(ivc_connect(&q, self->sock, err, sizeof(err)), 0);
		ivc_close(&q);
	}

	/* a is still served: frame interrupts keep coming. */
	EXPECT_GT(ivc_wait(&a, VCAP_VEC_FRAME, 1000), 0);
	EXPECT_GT(ivc_wait(&a, VCAP_VEC_FRAME, 1000), 0);
	ivc_close(&a);

	/* The guest reboots: QEMU comes back as a new peer and is served. */
	ASSERT_EQ(ivc_connect(&a, self->sock, err, sizeof(err)), 0);
	ctrl = (struct vcap_board_ctrl *)a.mem;
	EXPECT_EQ(t_rd32(&ctrl->info.magic), VCAP_BOARD_MAGIC);
	EXPECT_GT(ivc_wait(&a, VCAP_VEC_FRAME, 1000), 0);
	rq = send_request(ctrl, VCAP_CMD_STOP, 0, 0, 0, 0);
	ASSERT_EQ(ivc_ring(&a, FW_PEER_ID, VCAP_FW_VEC_REQUEST), 0);
	ASSERT_TRUE(wait_ack(&a, ctrl, rq));
	EXPECT_EQ(t_rd32(&ctrl->status.state), VCAP_STATE_STOPPED);
	bid = a.id;
	ivc_close(&a);

	/*
	 * A newcomer's setup lists every peer still there: a's hang-up was
	 * pending before the newcomer knocked, so a must be gone from it.
	 */
	ASSERT_EQ(ivc_connect(&a, self->sock, err, sizeof(err)), 0);
	EXPECT_FALSE(ivc_peer(&a, bid));
	EXPECT_TRUE(ivc_peer(&a, FW_PEER_ID));
	ivc_close(&a);

	self->r->quit = true;
	pthread_join(self->th, NULL);
	EXPECT_EQ(self->r->server.dropped, 1);
	EXPECT_EQ(self->r->server.connects, 5);
	EXPECT_LE(fw_server_peer_count(&self->r->server), 1);
	fw_run_fini(self->r);
	free(self->r);
	self->r = NULL;
	rmdir(self->dir);
}

/* A new EDID and the doorbell: the link locks, a status interrupt says so. */
TEST_F(fw, edid_behind_the_doorbell_raises_a_link_change)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	struct vcap_board_ctrl *ctrl;
	struct ivc c;
	char err[256];
	u32 gen, i;
	u8 sum = 0;

	ASSERT_EQ(ivc_connect(&c, self->sock, err, sizeof(err)), 0);
	ctrl = (struct vcap_board_ctrl *)c.mem;
	EXPECT_TRUE(t_rd32(&ctrl->info.caps) & VCAP_CAP_HDMI);
	EXPECT_EQ(t_rd32(&ctrl->link.state), VCAP_LINK_NO_SIGNAL);
	gen = t_rd32(&ctrl->link.gen);
	while (ivc_wait(&c, VCAP_VEC_STATUS, 50))
		;
	memcpy(ctrl->edid.data, header, sizeof(header));
	for (i = 0; i < VCAP_EDID_BLOCK_SIZE - 1; i++)
		sum += ctrl->edid.data[i];
	ctrl->edid.data[VCAP_EDID_BLOCK_SIZE - 1] = (u8)(0x100 - sum);
	t_wr32(&ctrl->edid.blocks, 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&ctrl->edid.gen, t_rd32(&ctrl->edid.gen) + 1);
	ASSERT_EQ(ivc_ring(&c, FW_PEER_ID, VCAP_FW_VEC_REQUEST), 0);
	EXPECT_GT(ivc_wait(&c, VCAP_VEC_STATUS, 500), 0);
	EXPECT_EQ(t_rd32(&ctrl->link.state), VCAP_LINK_LOCKED);
	EXPECT_EQ(t_rd32(&ctrl->link.gen), gen + 1);
	ivc_close(&c);
}

/* Interrupts raised with nobody listening are not needed by anyone. */
TEST_F(fw, late_client_finds_state_in_memory)
{
	struct vcap_board_ctrl *ctrl;
	struct ivc a;
	char err[256];

	/* The loop owns the board: pause it to start a mode from here. */
	self->r->quit = true;
	pthread_join(self->th, NULL);
	ASSERT_EQ(fw_run_start(self->r, VCAP_FMT_NV12, 640, 480, 30, 0), 0);
	self->r->quit = false;
	ASSERT_EQ(pthread_create(&self->th, NULL, loop, self->r), 0);
	usleep(200000);
	ASSERT_EQ(ivc_connect(&a, self->sock, err, sizeof(err)), 0);
	ctrl = (struct vcap_board_ctrl *)a.mem;
	EXPECT_EQ(t_rd32(&ctrl->status.state), VCAP_STATE_STREAMING);
	EXPECT_EQ(t_rd32(&ctrl->status.fourcc), VCAP_FMT_NV12);
	EXPECT_GT(t_rd64(&ctrl->status.frames_produced), 0);
	EXPECT_GT(t_rd64(&ctrl->status.heartbeat), 0);
	ivc_close(&a);
}

VTEST_MAIN()
