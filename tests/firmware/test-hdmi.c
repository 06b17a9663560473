// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The board's HDMI receiver through its control page, as a driver sees
 * it: EDID and hotplug, the published link, START on the HDMI input, and
 * the stream following the source through the control command.
 */
#include "vtest.h"
#include "fw-test.h"
#include "fw-test-run.h"
#include "vcap-stamp.h"
#include "vcap-timings.h"

FIXTURE(hdmi) {
	struct fw_run *r;
	struct vcap_board_ctrl *c;
	char out[2048];		/* the last command's answer */
};

FIXTURE_SETUP(hdmi)
{
	/* Three 1920x1080 YUYV slots and more. */
	self->r = t_run_new(16 << 20);
	ASSERT_TRUE(self->r);
	self->c = self->r->board.ctrl;
}

FIXTURE_TEARDOWN(hdmi)
{
	t_run_free(self->r);
}

#define CMD(line)	t_cmd(self->r, self->out, sizeof(self->out), line)

/*
 * A request the way a driver writes it, with flags and the source's size
 * (VCAP_REQ_SCALE); returns status.error for it.
 */
static u32 request_flags(struct fw_run *r, u32 cmd, u32 input, u32 fourcc,
			 u32 w, u32 h, u32 num, u32 den, u32 flags,
			 u32 src_w, u32 src_h)
{
	struct vcap_board_ctrl *c = r->board.ctrl;
	struct vcap_board_request *q = &c->request;
	u32 seq = t_rd32(&c->status.ack_seq) + 1;
	u64 end = fw_now_ns() + 1000000000ull;

	q->cmd = htole32(cmd);
	q->fourcc = htole32(fourcc);
	q->width = htole32(w);
	q->height = htole32(h);
	q->bytesperline = 0;
	q->interval_num = htole32(num);
	q->interval_den = htole32(den);
	q->pattern = htole32(VCAP_PATTERN_MOVING_BOX);
	q->flags = htole32(flags);
	q->input = htole32(input);
	q->src_width = htole32(src_w);
	q->src_height = htole32(src_h);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&q->seq, seq);
	while (t_rd32(&c->status.ack_seq) != seq && fw_now_ns() < end)
		fw_run_once(r);
	if (t_rd32(&c->status.ack_seq) != seq)
		return ~0u;
	return t_rd32(&c->status.error);
}

static u32 request(struct fw_run *r, u32 cmd, u32 input, u32 fourcc, u32 w,
		   u32 h, u32 num, u32 den)
{
	return request_flags(r, cmd, input, fourcc, w, h, num, den, 0, 0, 0);
}

/* A scaled START on the HDMI input, at 60 fps. */
static u32 start_scaled(struct fw_run *r, u32 fourcc, u32 w, u32 h,
			u32 src_w, u32 src_h)
{
	return request_flags(r, VCAP_CMD_START, VCAP_INPUT_HDMI, fourcc, w, h,
			     1, 60, VCAP_REQ_SCALE, src_w, src_h);
}

static u32 start_hdmi(struct fw_run *r, u32 w, u32 h, u32 den)
{
	return request(r, VCAP_CMD_START, VCAP_INPUT_HDMI, VCAP_FMT_YUYV, w, h,
		       1, den);
}

/* An EDID of n blocks: base block with the header, extensions after. */
static void make_edid(u8 *d, u32 n)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	u32 i, j;
	u8 sum;

	memset(d, 0, VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE);
	memcpy(d, header, sizeof(header));
	d[8] = 0x59;		/* manufacturer "VCP" and anything after */
	d[9] = 0x50;
	d[18] = 1;		/* EDID 1.3 */
	d[19] = 3;
	d[126] = (u8)(n - 1);	/* extension count */
	for (i = 0; i < n; i++) {
		u8 *b = d + i * VCAP_EDID_BLOCK_SIZE;

		if (i) {
			b[0] = 0x02;	/* CTA-861 extension */
			b[1] = 0x03;
		}
		sum = 0;
		for (j = 0; j < VCAP_EDID_BLOCK_SIZE - 1; j++)
			sum += b[j];
		b[VCAP_EDID_BLOCK_SIZE - 1] = (u8)(0x100 - sum);
	}
}

/* As the driver does: data, blocks, barrier, gen bumped. */
static void write_edid(struct vcap_board_ctrl *c, const u8 *d, u32 blocks)
{
	memcpy(c->edid.data, d, sizeof(c->edid.data));
	t_wr32(&c->edid.blocks, blocks);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&c->edid.gen, t_rd32(&c->edid.gen) + 1);
}

static void plug(struct fw_run *r)
{
	u8 d[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];

	make_edid(d, 1);
	write_edid(r->board.ctrl, d, 1);
	t_run_ms(r, 10);
}

static u32 link_state(const struct vcap_board_ctrl *c)
{
	return t_rd32(&c->link.state);
}

/* The published timing is the named one, field for field. */
static bool link_timing_is(const struct vcap_board_ctrl *c, const char *name)
{
	const struct vcap_timing_def *d = vcap_timings_by_name(name);
	struct vcap_timing t;

	return d && !vcap_timing_from_board(&c->link.timing, &t) &&
	       !memcmp(&t, &d->t, sizeof(t));
}

static bool timing_is_zero(const struct vcap_board_ctrl *c)
{
	static const struct vcap_board_timing zero;

	return !memcmp(&c->link.timing, &zero, sizeof(zero));
}

static u64 frames(const struct fw_run *r)
{
	return t_rd64(&r->board.ctrl->status.frames_produced);
}

TEST_F(hdmi, comes_up_with_hotplug_low_and_1080p60_plugged_in)
{
	EXPECT_TRUE(t_rd32(&self->c->info.caps) & VCAP_CAP_HDMI);
	t_run_ms(self->r, 10);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_NO_SIGNAL);
	EXPECT_EQ(t_rd32(&self->c->link.flags), VCAP_LINK_POWER_5V);
	EXPECT_NE(t_rd32(&self->c->link.gen), 0);
	EXPECT_TRUE(timing_is_zero(self->c));
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "hdmi_source=1080p60\n"));
	EXPECT_TRUE(strstr(self->out, "hotplug=low\n"));
}

TEST_F(hdmi, good_edid_locks_to_the_source)
{
	u8 d[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];
	u32 gen;

	t_run_ms(self->r, 10);
	gen = t_rd32(&self->c->link.gen);
	plug(self->r);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_LOCKED);
	EXPECT_TRUE(link_timing_is(self->c, "1080p60"));
	EXPECT_EQ(t_rd64(&self->c->link.timing.pixelclock), 148500000);
	EXPECT_EQ(t_rd32(&self->c->link.flags), VCAP_LINK_POWER_5V);
	EXPECT_EQ(t_rd32(&self->c->link.gen), gen + 1);

	/* Four blocks, the most the receiver holds, are as good as one. */
	make_edid(d, VCAP_EDID_MAX_BLOCKS);
	write_edid(self->c, d, 0);
	t_run_ms(self->r, 10);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_NO_SIGNAL);
	EXPECT_TRUE(timing_is_zero(self->c));
	write_edid(self->c, d, VCAP_EDID_MAX_BLOCKS);
	t_run_ms(self->r, 10);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_LOCKED);
	EXPECT_EQ(t_rd32(&self->c->link.gen), gen + 3);
	/* Nothing changed, nothing published. */
	t_run_ms(self->r, 60);
	EXPECT_EQ(t_rd32(&self->c->link.gen), gen + 3);
}

TEST_F(hdmi, bad_edids_drive_hotplug_low)
{
	u8 d[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];
	static const char * const what[] = {
		"bad checksum", "bad checksum in an extension", "bad header",
		"too many blocks", "blocks ~0", "no blocks",
	};
	unsigned int i;
	u32 blocks, gen;

	for (i = 0; i < ARRAY_SIZE(what); i++) {
		plug(self->r);
		ASSERT_EQ(link_state(self->c), VCAP_LINK_LOCKED);
		gen = t_rd32(&self->c->link.gen);
		make_edid(d, 2);
		blocks = 2;
		switch (i) {
		case 0:
			d[20] ^= 0x10;
			break;
		case 1:
			d[VCAP_EDID_BLOCK_SIZE + 5] += 1;
			break;
		case 2:
			/* Sums to 0 still, but the header is wrong. */
			d[1] = 0xfe;
			d[2] = 0x00;
			break;
		case 3:
			/* Four good blocks, and a count past them. */
			make_edid(d, VCAP_EDID_MAX_BLOCKS);
			blocks = VCAP_EDID_MAX_BLOCKS + 1;
			break;
		case 4:
			blocks = ~0u;
			break;
		default:
			blocks = 0;
			break;
		}
		write_edid(self->c, d, blocks);
		t_run_ms(self->r, 10);
		TH_LOG("%s", what[i]);
		EXPECT_EQ(link_state(self->c), VCAP_LINK_NO_SIGNAL);
		EXPECT_TRUE(timing_is_zero(self->c));
		EXPECT_EQ(t_rd32(&self->c->link.gen), gen + 1);
		/* The source still drives +5V: only hotplug is low. */
		EXPECT_EQ(t_rd32(&self->c->link.flags), VCAP_LINK_POWER_5V);
	}
}

TEST_F(hdmi, edid_is_taken_on_a_new_generation_only)
{
	u8 d[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];

	/* Written, but gen not bumped: not taken yet. */
	make_edid(d, 1);
	memcpy(self->c->edid.data, d, sizeof(d));
	t_wr32(&self->c->edid.blocks, 1);
	t_run_ms(self->r, 10);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_NO_SIGNAL);
	t_wr32(&self->c->edid.gen, 1);
	t_run_ms(self->r, 10);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_LOCKED);
	/* Scribbled after it was taken: the snapshot stands. */
	memset(self->c->edid.data, 0x5a, sizeof(self->c->edid.data));
	t_wr32(&self->c->edid.blocks, 9);
	t_run_ms(self->r, 10);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_LOCKED);
}

TEST_F(hdmi, start_on_hdmi_waits_for_a_source_that_feeds_it)
{
	u64 f;

	/* Hotplug low: armed, no frames; the pattern generator does not care. */
	EXPECT_EQ(start_hdmi(self->r, 1920, 1080, 60), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	t_run_ms(self->r, 100);
	EXPECT_EQ(frames(self->r), 0);
	EXPECT_EQ(request(self->r, VCAP_CMD_START, VCAP_INPUT_TPG,
			  VCAP_FMT_YUYV, 1280, 720, 1, 60), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_EQ(request(self->r, VCAP_CMD_STOP, 0, 0, 0, 0, 0, 0),
		  VCAP_ERR_NONE);

	/* Plugged at 1080p60: another size or rate waits for its source. */
	plug(self->r);
	EXPECT_EQ(start_hdmi(self->r, 1280, 720, 60), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	EXPECT_EQ(start_hdmi(self->r, 1920, 1080, 30), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	f = frames(self->r);
	t_run_ms(self->r, 100);
	EXPECT_EQ(frames(self->r), f);
	EXPECT_EQ(request(self->r, VCAP_CMD_START, 7, VCAP_FMT_YUYV, 1920,
			  1080, 1, 60), VCAP_ERR_BAD_INPUT);
	EXPECT_EQ(request(self->r, VCAP_CMD_START, VCAP_INPUT_HDMI,
			  VCAP_FMT_YUYV, 1920, 1080, 2, 120), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_EQ(t_rd32(&self->c->status.width), 1920);
	t_run_ms(self->r, 100);
	EXPECT_GT(frames(self->r), f + 2);
	/* Any format at the source's size. */
	EXPECT_EQ(request(self->r, VCAP_CMD_START, VCAP_INPUT_HDMI,
			  VCAP_FMT_NV12, 1920, 1080, 1, 60), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.fourcc), VCAP_FMT_NV12);
}

TEST_F(hdmi, lost_source_stops_frames_and_its_return_resumes_them)
{
	u64 f, seq, hb, late;
	u32 gen, slot;

	plug(self->r);
	ASSERT_EQ(start_hdmi(self->r, 1920, 1080, 60), VCAP_ERR_NONE);
	t_run_ms(self->r, 100);
	ASSERT_GT(frames(self->r), 2);
	gen = t_rd32(&self->c->status.mode_gen);

	ASSERT_EQ(CMD("source none"), 0);
	EXPECT_TRUE(strstr(self->out, "link=no-signal\n"));
	t_run_ms(self->r, 10);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_NO_SIGNAL);
	EXPECT_EQ(t_rd32(&self->c->link.flags), 0);
	f = frames(self->r);
	seq = t_rd64(&self->c->status.latest_seq);
	hb = t_rd64(&self->c->status.heartbeat);
	late = self->r->pace.late;
	t_run_ms(self->r, 300);
	EXPECT_EQ(frames(self->r), f);
	EXPECT_EQ(t_rd64(&self->c->status.latest_seq), seq);
	/* Alive all the same: a heartbeat at least every 100 ms. */
	EXPECT_GE(t_rd64(&self->c->status.heartbeat), hb + 3);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen);

	/* A signal without lock is no better. */
	ASSERT_EQ(CMD("source unstable"), 0);
	EXPECT_TRUE(strstr(self->out, "link=unstable\n"));
	t_run_ms(self->r, 100);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_UNSTABLE);
	EXPECT_EQ(t_rd32(&self->c->link.flags), VCAP_LINK_POWER_5V);
	EXPECT_TRUE(timing_is_zero(self->c));
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	EXPECT_EQ(frames(self->r), f);

	ASSERT_EQ(CMD("source 1080p60"), 0);
	EXPECT_TRUE(strstr(self->out, "link=locked\n"));
	t_run_ms(self->r, 200);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_GT(frames(self->r), f + 5);
	/* Numbers go on from the last frame: the lost time is no gap. */
	EXPECT_EQ(t_rd64(&self->c->status.latest_seq) - seq,
		  frames(self->r) - f + self->r->pace.late - late);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	EXPECT_EQ(t_rd32(&self->c->slots[slot].mode_gen), gen);
}

TEST_F(hdmi, hotplug_low_while_streaming_stops_frames)
{
	u8 d[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];
	u64 f;

	plug(self->r);
	ASSERT_EQ(start_hdmi(self->r, 1920, 1080, 60), VCAP_ERR_NONE);
	t_run_ms(self->r, 50);
	make_edid(d, 1);
	write_edid(self->c, d, 0);
	t_run_ms(self->r, 10);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	f = frames(self->r);
	t_run_ms(self->r, 100);
	EXPECT_EQ(frames(self->r), f);
	write_edid(self->c, d, 1);
	t_run_ms(self->r, 100);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_GT(frames(self->r), f);
}

TEST_F(hdmi, another_timing_waits_for_a_new_start)
{
	u64 f;
	u32 gen;

	plug(self->r);
	ASSERT_EQ(start_hdmi(self->r, 1920, 1080, 60), VCAP_ERR_NONE);
	t_run_ms(self->r, 50);
	gen = t_rd32(&self->c->status.mode_gen);

	ASSERT_EQ(CMD("source 720p60"), 0);
	EXPECT_TRUE(strstr(self->out, "link=locked\n"));
	EXPECT_TRUE(strstr(self->out, "hdmi_source=720p60\n"));
	t_run_ms(self->r, 10);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_LOCKED);
	EXPECT_TRUE(link_timing_is(self->c, "720p60"));
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	f = frames(self->r);
	t_run_ms(self->r, 200);
	EXPECT_EQ(frames(self->r), f);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen);

	/* The old mode, asked again, still waits for its source. */
	EXPECT_EQ(start_hdmi(self->r, 1920, 1080, 60), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	t_run_ms(self->r, 50);
	EXPECT_EQ(frames(self->r), f);

	EXPECT_EQ(start_hdmi(self->r, 1280, 720, 60), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_GT(t_rd32(&self->c->status.mode_gen), gen);
	EXPECT_EQ(t_rd32(&self->c->status.width), 1280);
	t_run_ms(self->r, 100);
	EXPECT_GT(frames(self->r), f + 2);
}

TEST_F(hdmi, out_of_range_source_is_locked_but_not_capturable)
{
	const struct vcap_board_timing *bt = &self->c->link.timing;
	struct vcap_timing t;

	plug(self->r);
	ASSERT_EQ(CMD("source out-of-range"), 0);
	EXPECT_TRUE(strstr(self->out, "link=out-of-range\n"));
	t_run_ms(self->r, 10);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_OUT_OF_RANGE);
	EXPECT_EQ(t_rd32(&self->c->link.flags), VCAP_LINK_POWER_5V);
	/* 1080p60's timing, interlaced: what the board does not capture. */
	EXPECT_EQ(t_rd32(&bt->width), 1920);
	EXPECT_EQ(t_rd32(&bt->height), 1080);
	EXPECT_EQ(t_rd64(&bt->pixelclock), 148500000);
	EXPECT_EQ(t_rd32(&bt->interlaced), 1);
	EXPECT_EQ(vcap_timing_from_board(bt, &t), -EINVAL);
	/* A capture of it waits for a source the board can take. */
	EXPECT_EQ(start_hdmi(self->r, 1920, 1080, 60), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	t_run_ms(self->r, 100);
	EXPECT_EQ(frames(self->r), 0);
	/* The named timing is still the progressive one. */
	EXPECT_EQ(vcap_timings_by_name("1080p60")->t.interlaced, 0);
}

TEST_F(hdmi, scribbled_link_is_repaired_and_never_believed)
{
	u32 gen;

	plug(self->r);
	ASSERT_EQ(CMD("source none"), 0);
	t_run_ms(self->r, 10);
	gen = t_rd32(&self->c->link.gen);
	/* A user makes the page say 1080p60 is locked. */
	ASSERT_EQ(CMD("source 1080p60"), 0);
	t_run_ms(self->r, 10);
	ASSERT_EQ(CMD("source none"), 0);
	t_run_ms(self->r, 10);
	t_wr32(&self->c->link.state, VCAP_LINK_LOCKED);
	t_wr32(&self->c->link.timing.width, 1920);
	t_wr32(&self->c->link.gen, 0xdead);
	EXPECT_EQ(start_hdmi(self->r, 1920, 1080, 60), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	t_run_ms(self->r, 100);
	EXPECT_EQ(frames(self->r), 0);
	EXPECT_EQ(link_state(self->c), VCAP_LINK_NO_SIGNAL);
	EXPECT_TRUE(timing_is_zero(self->c));
	EXPECT_EQ(t_rd32(&self->c->link.gen), gen + 3);
	EXPECT_EQ(t_rd32(&self->c->link.flags), 0);
}

TEST_F(hdmi, unknown_source_names_the_known_ones)
{
	u32 gen;

	t_run_ms(self->r, 10);
	gen = t_rd32(&self->c->link.gen);
	EXPECT_NE(CMD("source bogus"), 0);
	EXPECT_TRUE(strstr(self->out, "'bogus'"));
	EXPECT_TRUE(strstr(self->out, "640x480p60"));
	EXPECT_TRUE(strstr(self->out, "1080p60"));
	EXPECT_TRUE(strstr(self->out, "2160p60"));
	EXPECT_TRUE(strstr(self->out, "none unstable out-of-range"));
	EXPECT_NE(CMD("source 1080p59"), 0);
	EXPECT_NE(CMD("source"), 0);
	t_run_ms(self->r, 10);
	EXPECT_EQ(t_rd32(&self->c->link.gen), gen);
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "hdmi_source=1080p60\n"));
	/* Frame sources still go by the same command. */
	EXPECT_EQ(CMD("source pattern"), 0);
}

/* Whether pixel (x, y) of a frame is black, chroma included. */
static bool pixel_black(const struct vcap_frame_fmt *fmt, const u8 *frame,
			u32 x, u32 y)
{
	const struct vcap_format_info *fi = vcap_format_find(fmt->fourcc);
	size_t bpl = fmt->bytesperline, luma = bpl * fmt->height;
	const u8 *p = frame + (size_t)y * bpl + (size_t)x * fi->bpp;

	switch (fi->order) {
	case VCAP_ORDER_YUYV:
		return p[0] == 16 && p[(x & 1) ? -1 : 1] == 128;
	case VCAP_ORDER_UYVY:
		return p[1] == 16 && p[0] == 128;
	case VCAP_ORDER_RGB:
	case VCAP_ORDER_BGR:
		return !p[0] && !p[1] && !p[2];
	case VCAP_ORDER_XRGB:
		return p[0] == 0xff && !p[1] && !p[2] && !p[3];
	case VCAP_ORDER_BGRX:
		return !p[0] && !p[1] && !p[2] && p[3] == 0xff;
	default:
		break;
	}
	if (p[0] != 16)
		return false;
	if (fi->planar == VCAP_PLANAR_NV)
		return frame[luma + (y / 2) * bpl + (x & ~1u)] == 128 &&
		       frame[luma + (y / 2) * bpl + (x | 1)] == 128;
	if (fi->planar == VCAP_PLANAR_YUV)
		return frame[luma + (y / 2) * (bpl / 2) + x / 2] == 128 &&
		       frame[luma + luma / 4 + (y / 2) * (bpl / 2) + x / 2] ==
		       128;
	return true;
}

/*
 * The newest frame of a scaled stream: whole, its stamps those of its
 * sequence, black outside the source's picture (but for the stamp
 * bands), and not black inside it (the moving box over the bars).
 * Returns the number of pixels checked, or 0 on the first wrong one.
 */
static u64 check_scaled_frame(struct fw_run *r, u32 src_w, u32 src_h)
{
	const struct vcap_board_ctrl *c = r->board.ctrl;
	const struct vcap_board_status *st = &c->status;
	struct vcap_frame_fmt fmt = {
		t_rd32(&st->fourcc), t_rd32(&st->width), t_rd32(&st->height),
		t_rd32(&st->bytesperline), t_rd32(&st->sizeimage),
	};
	u32 slot = t_rd32(&st->latest_slot), x, y, inside = 0;
	struct vcap_stamp_geom sg;
	struct vcap_stamp stamp;
	struct vcap_rect pic;
	u64 seq, checked = 0;
	u8 *frame;

	if (slot >= VCAP_MAX_SLOTS || vcap_stamp_geom(&fmt, &sg))
		return 0;
	frame = malloc(fmt.sizeimage);
	if (!frame)
		return 0;
	if (t_read_slot(c, slot, r->board.mem + t_rd64(&st->ring_offset) +
			slot * t_rd64(&st->slot_stride), fmt.sizeimage, frame,
			&seq) != T_READ_OK ||
	    vcap_stamp_check(&fmt, frame, fmt.sizeimage, &stamp) !=
	    VCAP_STAMP_OK || stamp.seq != seq) {
		vtest_log("%.4s %ux%u: slot %u does not verify",
			  (const char *)&fmt.fourcc, fmt.width, fmt.height,
			  slot);
		goto out;
	}
	vcap_letterbox(&fmt, src_w, src_h, &pic);
	for (y = sg.band_h; y < fmt.height - sg.band_h; y++)
		for (x = 0; x < fmt.width; x++) {
			bool in = x >= pic.x0 && x < pic.x1 &&
				  y >= pic.y0 && y < pic.y1;
			bool black = pixel_black(&fmt, frame, x, y);

			if (!in && !black) {
				vtest_log("%.4s %ux%u: pixel %u,%u outside %u,%u..%u,%u is not black",
					  (const char *)&fmt.fourcc, fmt.width,
					  fmt.height, x, y, pic.x0, pic.y0,
					  pic.x1, pic.y1);
				checked = 0;
				goto out;
			}
			inside += in && !black;
			checked++;
		}
	/* All of the picture but its black bar. */
	if (inside < (pic.x1 - pic.x0) * (pic.y1 - pic.y0 - 2 * sg.band_h) / 2) {
		vtest_log("%.4s %ux%u: the picture is black",
			  (const char *)&fmt.fourcc, fmt.width, fmt.height);
		checked = 0;
	}
out:
	free(frame);
	return checked;
}

TEST_F(hdmi, scaled_start_letterboxes_the_source)
{
	static const struct {
		const char *source;
		u32 src_w, src_h, fourcc, w, h;
		struct vcap_rect pic;
	} cases[] = {
		{ "1080p60", 1920, 1080, VCAP_FMT_YUYV, 640, 480,
		  { 0, 60, 640, 420 } },
		{ "1080p60", 1920, 1080, VCAP_FMT_NV12, 640, 480,
		  { 0, 60, 640, 420 } },
		{ "1080p60", 1920, 1080, VCAP_FMT_YUV420, 800, 600,
		  { 0, 74, 800, 524 } },
		{ "1080p60", 1920, 1080, VCAP_FMT_UYVY, 1280, 720,
		  { 0, 0, 1280, 720 } },
		{ "1080p60", 1920, 1080, VCAP_FMT_GREY, 1024, 768,
		  { 0, 96, 1024, 672 } },
		/* Any size, not the table's only. */
		{ "1080p60", 1920, 1080, VCAP_FMT_YUYV, 1000, 1000,
		  { 0, 218, 1000, 780 } },
		{ "720p60", 1280, 720, VCAP_FMT_RGB24, 640, 480,
		  { 0, 60, 640, 420 } },
		{ "720p60", 1280, 720, VCAP_FMT_XBGR32, 1280, 720,
		  { 0, 0, 1280, 720 } },
		/* A 4:3 source into 16:9: pillarbox. */
		{ "640x480p60", 640, 480, VCAP_FMT_YUYV, 640, 360,
		  { 80, 0, 560, 360 } },
		{ "640x480p60", 640, 480, VCAP_FMT_NV12, 320, 180,
		  { 40, 0, 280, 180 } },
		{ "640x480p60", 640, 480, VCAP_FMT_BGR24, 480, 270,
		  { 60, 0, 420, 270 } },
		{ "640x480p60", 640, 480, VCAP_FMT_XRGB32, 640, 360,
		  { 80, 0, 560, 360 } },
	};
	struct vcap_frame_fmt fmt;
	struct vcap_rect pic;
	unsigned int i;
	char line[64];
	u64 f;

	EXPECT_TRUE(t_rd32(&self->c->info.caps) & VCAP_CAP_SCALER);
	EXPECT_EQ(t_rd32(&self->c->info.abi_version), 3);
	plug(self->r);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		TH_LOG("%.4s %ux%u from %s", (const char *)&cases[i].fourcc,
		       cases[i].w, cases[i].h, cases[i].source);
		snprintf(line, sizeof(line), "source %s", cases[i].source);
		ASSERT_EQ(CMD(line), 0);
		ASSERT_EQ(start_scaled(self->r, cases[i].fourcc, cases[i].w,
				       cases[i].h, cases[i].src_w,
				       cases[i].src_h), VCAP_ERR_NONE);
		EXPECT_EQ(t_rd32(&self->c->status.state),
			  VCAP_STATE_STREAMING);
		/* The status is the picture the driver asked for. */
		EXPECT_EQ(t_rd32(&self->c->status.width), cases[i].w);
		EXPECT_EQ(t_rd32(&self->c->status.height), cases[i].h);
		fmt.fourcc = cases[i].fourcc;
		fmt.width = cases[i].w;
		fmt.height = cases[i].h;
		vcap_letterbox(&fmt, cases[i].src_w, cases[i].src_h, &pic);
		EXPECT_EQ(memcmp(&pic, &cases[i].pic, sizeof(pic)), 0);
		f = frames(self->r);
		t_run_ms(self->r, 100);
		ASSERT_GT(frames(self->r), f + 2);
		EXPECT_GT(check_scaled_frame(self->r, cases[i].src_w,
					     cases[i].src_h), 0);
	}
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "scaled_from=640x480\n"));
}

TEST_F(hdmi, scaled_start_refused_out_of_range)
{
	static const struct {
		const char *what;
		u32 input, fourcc, w, h, src_w, src_h;
	} bad[] = {
		{ "the generator", VCAP_INPUT_TPG, VCAP_FMT_YUYV, 640, 480,
		  1920, 1080 },
		{ "narrower than the smallest", VCAP_INPUT_HDMI, VCAP_FMT_YUYV,
		  158, 120, 1920, 1080 },
		{ "lower than the smallest", VCAP_INPUT_HDMI, VCAP_FMT_YUYV,
		  160, 118, 1920, 1080 },
		{ "wider than the source", VCAP_INPUT_HDMI, VCAP_FMT_YUYV,
		  1922, 1080, 1920, 1080 },
		{ "higher than the source", VCAP_INPUT_HDMI, VCAP_FMT_YUYV,
		  1920, 1082, 1920, 1080 },
		{ "larger than a 720p source", VCAP_INPUT_HDMI, VCAP_FMT_YUYV,
		  1920, 1080, 1280, 720 },
		{ "an odd width in YUYV", VCAP_INPUT_HDMI, VCAP_FMT_YUYV,
		  641, 480, 1920, 1080 },
		{ "an odd height in NV12", VCAP_INPUT_HDMI, VCAP_FMT_NV12,
		  640, 481, 1920, 1080 },
		{ "an odd width in YU12", VCAP_INPUT_HDMI, VCAP_FMT_YUV420,
		  639, 480, 1920, 1080 },
		/* 16 MiB hold no three 1080p XRGB frames. */
		{ "a format the table lacks at the source's size",
		  VCAP_INPUT_HDMI, VCAP_FMT_XRGB32, 640, 480, 1920, 1080 },
		{ "a source size the table lacks", VCAP_INPUT_HDMI,
		  VCAP_FMT_YUYV, 640, 480, 1000, 700 },
		{ "no source size", VCAP_INPUT_HDMI, VCAP_FMT_YUYV, 640, 480,
		  0, 0 },
	};
	unsigned int i;

	plug(self->r);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		TH_LOG("%s", bad[i].what);
		EXPECT_EQ(request_flags(self->r, VCAP_CMD_START, bad[i].input,
					bad[i].fourcc, bad[i].w, bad[i].h, 1,
					60, VCAP_REQ_SCALE, bad[i].src_w,
					bad[i].src_h), VCAP_ERR_BAD_SIZE);
		EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STOPPED);
	}
	/* Odd sizes where the format has no subsampling. */
	EXPECT_EQ(start_scaled(self->r, VCAP_FMT_GREY, 641, 481, 1920, 1080),
		  VCAP_ERR_NONE);
	t_run_ms(self->r, 50);
	EXPECT_GT(check_scaled_frame(self->r, 1920, 1080), 0);
	EXPECT_EQ(start_scaled(self->r, VCAP_FMT_YUYV, 642, 361, 1920, 1080),
		  VCAP_ERR_NONE);
	t_run_ms(self->r, 50);
	EXPECT_GT(check_scaled_frame(self->r, 1920, 1080), 0);
	/* An unknown format is still that. */
	EXPECT_EQ(start_scaled(self->r, VCAP_FOURCC('A', 'B', 'C', 'D'), 640,
			       480, 1920, 1080), VCAP_ERR_BAD_FORMAT);

	/* A board without the scaler refuses the size. */
	self->r->id.caps &= ~VCAP_CAP_SCALER;
	fw_board_reset(&self->r->board, &self->r->id);
	EXPECT_FALSE(t_rd32(&self->c->info.caps) & VCAP_CAP_SCALER);
	EXPECT_EQ(start_scaled(self->r, VCAP_FMT_YUYV, 640, 480, 1920, 1080),
		  VCAP_ERR_BAD_SIZE);
	EXPECT_EQ(start_scaled(self->r, VCAP_FMT_YUYV, 1920, 1080, 1920, 1080),
		  VCAP_ERR_BAD_SIZE);
}

TEST_F(hdmi, scaled_stream_follows_the_source_timing)
{
	u64 f, seq;
	u32 gen;

	plug(self->r);
	/* Matched against the source's size, not the picture's. */
	ASSERT_EQ(start_scaled(self->r, VCAP_FMT_YUYV, 1280, 720, 1280, 720),
		  VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	t_run_ms(self->r, 50);
	EXPECT_EQ(frames(self->r), 0);
	ASSERT_EQ(start_scaled(self->r, VCAP_FMT_YUYV, 640, 480, 1920, 1080),
		  VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	t_run_ms(self->r, 100);
	ASSERT_GT(frames(self->r), 2);
	gen = t_rd32(&self->c->status.mode_gen);

	/* Another timing stops the frames, as without the scaler. */
	ASSERT_EQ(CMD("source 720p60"), 0);
	t_run_ms(self->r, 10);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	f = frames(self->r);
	seq = t_rd64(&self->c->status.latest_seq);
	t_run_ms(self->r, 100);
	EXPECT_EQ(frames(self->r), f);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen);

	/* Back: the frames resume by themselves, in the same mode. */
	ASSERT_EQ(CMD("source 1080p60"), 0);
	t_run_ms(self->r, 100);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_GT(frames(self->r), f + 2);
	EXPECT_GT(t_rd64(&self->c->status.latest_seq), seq);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen);
	EXPECT_EQ(t_rd32(&self->c->status.width), 640);
	EXPECT_GT(check_scaled_frame(self->r, 1920, 1080), 0);

	/*
	 * The same picture of another source is the same mode: the ring,
	 * its numbers and the generation go on, waiting for that source.
	 */
	seq = t_rd64(&self->c->status.latest_seq);
	ASSERT_EQ(start_scaled(self->r, VCAP_FMT_YUYV, 640, 480, 1280, 720),
		  VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	EXPECT_GE(t_rd64(&self->c->status.latest_seq), seq);

	/* The source comes to it: frames go on, numbered on, from 720p. */
	ASSERT_EQ(CMD("source 720p60"), 0);
	t_run_ms(self->r, 100);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_EQ(t_rd32(&self->c->status.mode_gen), gen);
	EXPECT_GT(t_rd64(&self->c->status.latest_seq), seq + 2);
	EXPECT_EQ(t_rd32(&self->c->status.width), 640);
	EXPECT_GT(check_scaled_frame(self->r, 1280, 720), 0);

	/* Another picture size is another mode. */
	ASSERT_EQ(start_scaled(self->r, VCAP_FMT_YUYV, 320, 240, 1280, 720),
		  VCAP_ERR_NONE);
	EXPECT_GT(t_rd32(&self->c->status.mode_gen), gen);
}

TEST_F(hdmi, start_without_scale_ignores_the_source_size)
{
	plug(self->r);
	/* ABI 2: the size is the source's, src_* are not looked at. */
	EXPECT_EQ(request_flags(self->r, VCAP_CMD_START, VCAP_INPUT_HDMI,
				VCAP_FMT_YUYV, 1920, 1080, 1, 60, 0, 640, 480),
		  VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_EQ(t_rd32(&self->c->status.width), 1920);
	t_run_ms(self->r, 100);
	EXPECT_GT(check_scaled_frame(self->r, 1920, 1080), 0);
	EXPECT_EQ(request_flags(self->r, VCAP_CMD_START, VCAP_INPUT_HDMI,
				VCAP_FMT_YUYV, 640, 480, 1, 60, 0, 1920, 1080),
		  VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	/* Sizes off the table are still refused without the flag. */
	EXPECT_EQ(request_flags(self->r, VCAP_CMD_START, VCAP_INPUT_HDMI,
				VCAP_FMT_YUYV, 1000, 1000, 1, 60, 0, 1920,
				1080), VCAP_ERR_BAD_SIZE);
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_FALSE(strstr(self->out, "scaled_from="));
	/* An unknown flag is still a bad command. */
	EXPECT_EQ(request_flags(self->r, VCAP_CMD_START, VCAP_INPUT_HDMI,
				VCAP_FMT_YUYV, 1920, 1080, 1, 60, 1u << 4, 0,
				0), VCAP_ERR_BAD_CMD);
}

VTEST_MAIN()
