// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The board's DMA, with the test as the driver: a plain file as guest RAM
 * (pc layout) filled with canaries, rings and scattered out-of-order
 * buffers in it, and the firmware in process.  Every frame completed must
 * carry its stamp and the right completion; bad descriptors and rings are
 * refused without a byte written; after a stop is acknowledged nothing in
 * the file changes; each completion fault is what it says.
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "fw-test-run.h"
#include "fw-test-dma.h"

#define RAM_SIZE	(64ull << 20)
#define SIZEIMAGE	(320u * 240u * 2u)

FIXTURE(dma) {
	struct fw_run *r;
	struct td t;
	char path[64];
	u8 *scratch;
	struct vcap_frame_fmt fmt;
	u32 rng;
};

FIXTURE_SETUP(dma)
{
	char err[512];
	int fd;

	snprintf(self->path, sizeof(self->path), "/dev/shm/vcap-dma-ram-XXXXXX");
	fd = mkstemp(self->path);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(td_init(&self->t, self->path, RAM_SIZE, true), 0);
	self->r = t_run_new(4 << 20);
	ASSERT_TRUE(self->r);
	ASSERT_EQ(fw_run_enable_dma(self->r, self->path, FW_GUEST_PC, err,
				    sizeof(err)), 0);
	/* Both sides have it mapped: nothing is left behind. */
	unlink(self->path);
	self->t.c = self->r->board.ctrl;
	self->scratch = malloc(1 << 20);
	ASSERT_TRUE(self->scratch);
	self->fmt = (struct vcap_frame_fmt){ VCAP_FMT_YUYV, 320, 240, 640,
					     SIZEIMAGE };
	self->rng = 12345;
}

FIXTURE_TEARDOWN(dma)
{
	t_run_free(self->r);
	td_fini(&self->t);
	unlink(self->path);
	free(self->scratch);
}

/* Run the board until the request in the page is acknowledged. */
static bool wait_ack(struct fw_run *r)
{
	const struct vcap_board_ctrl *c = r->board.ctrl;
	u64 end = fw_now_ns() + 1000000000ull;

	while (fw_now_ns() < end) {
		fw_run_once(r);
		if (t_rd32(&c->status.ack_seq) == t_rd32(&c->request.seq))
			return true;
	}
	return false;
}

static u32 start_dma(struct fw_run *r, struct td *t, u32 entries)
{
	td_rings(t, TD_DESC_GPA, TD_COMP_GPA, entries);
	td_request(t, VCAP_CMD_START, VCAP_REQ_DMA);
	if (!wait_ack(r))
		return ~0u;
	return t_rd32(&t->c->status.error);
}

/* Post every buffer the board does not hold. */
static void repost(struct td *t)
{
	u32 i;

	for (i = 0; i < t->nbufs; i++)
		if (!t->bufs[i].out && t->bufs[i].nents)
			td_post(t, &t->bufs[i]);
}

/* Stream for ms, reaping completions and posting buffers back. */
static void stream(struct fw_run *r, struct td *t, const struct vcap_frame_fmt *f,
		   u8 *scratch, unsigned int ms)
{
	u64 end = fw_now_ns() + ms * 1000000ull;

	while (fw_now_ns() < end) {
		t_run_ms(r, 5);
		td_reap(t, f, scratch);
		repost(t);
	}
}

static void log_judge(const struct td_judge *j)
{
	vtest_log("good %u errors %u bad_index %u bad_id %u not_outstanding %u bad_size %u seq_back %u bad_stamp %u bad_head %u",
		  j->good, j->errors, j->bad_index, j->bad_id,
		  j->not_outstanding, j->bad_size, j->seq_back, j->bad_stamp,
		  j->bad_head);
}

static void new_bufs(struct td *t, u32 n, u32 chunk, u32 *rng)
{
	u32 i;

	for (i = 0; i < n; i++)
		td_buf_new(t, 100 + i, SIZEIMAGE, chunk, rng);
}

/* No byte outside the driver's structures and buffers changed. */
#define EXPECT_CANARIES(t)						\
	do {								\
		u64 _first = 0, _hits = td_canaries_hit(t, &_first);	\
		if (_hits)						\
			TH_LOG("%llu canary bytes hit, first at 0x%llx", \
			       (unsigned long long)_hits,		\
			       (unsigned long long)_first);		\
		EXPECT_EQ(_hits, 0);					\
	} while (0)

TEST_F(dma, caps_and_abi)
{
	EXPECT_TRUE(t_rd32(&self->t.c->info.caps) & VCAP_CAP_DMA);
	EXPECT_EQ(t_rd32(&self->t.c->info.abi_version), VCAP_BOARD_ABI_VERSION);
	EXPECT_EQ(t_rd32(&self->t.c->info.magic), VCAP_BOARD_MAGIC);
}

TEST(no_guest_ram_no_dma)
{
	struct fw_run *r = t_run_new(4 << 20);
	struct vcap_board_ctrl *c;
	struct td t;

	ASSERT_TRUE(r);
	c = r->board.ctrl;
	memset(&t, 0, sizeof(t));
	t.c = c;
	EXPECT_FALSE(t_rd32(&c->info.caps) & VCAP_CAP_DMA);
	EXPECT_EQ(t_rd32(&c->info.abi_version), VCAP_BOARD_ABI_VERSION);
	td_rings(&t, TD_DESC_GPA, TD_COMP_GPA, 8);
	td_request(&t, VCAP_CMD_START, VCAP_REQ_DMA);
	ASSERT_TRUE(wait_ack(r));
	EXPECT_EQ(t_rd32(&c->status.error), VCAP_ERR_BAD_DMA);
	EXPECT_EQ(t_rd32(&c->status.state), VCAP_STATE_STOPPED);
	/* The copy path is untouched. */
	td_request(&t, VCAP_CMD_START, 0);
	ASSERT_TRUE(wait_ack(r));
	EXPECT_EQ(t_rd32(&c->status.error), VCAP_ERR_NONE);
	t_run_ms(r, 50);
	EXPECT_GT(r->board.frames_produced, 2);
	t_run_free(r);
}

TEST_F(dma, frames_into_scattered_buffers)
{
	struct td *t = &self->t;
	const struct vcap_dma_comp *c = &t->last;
	struct vcap_board_slot *s;
	u64 now, seq;
	u32 slot;

	ASSERT_EQ(start_dma(self->r, t, 8), VCAP_ERR_NONE);
	EXPECT_EQ(t_rd32(&t->c->dma.comp_head), 0);
	EXPECT_EQ(t_rd32(&t->c->dma.desc_tail), 0);
	new_bufs(t, 6, TD_PAGE, &self->rng);
	repost(t);
	stream(self->r, t, &self->fmt, self->scratch, 600);
	log_judge(&t->j);
	EXPECT_GE(t->j.good, 30);
	EXPECT_EQ(t->j.errors + t->j.bad_index + t->j.bad_id +
		  t->j.not_outstanding + t->j.bad_size + t->j.seq_back +
		  t->j.bad_stamp, 0);
	/* The last completion's fields. */
	now = fw_now_ns();
	EXPECT_EQ(le32toh(c->bytesused), SIZEIMAGE);
	EXPECT_EQ(le32toh(c->flags), 0);
	EXPECT_EQ(le32toh(c->mode_gen), t_rd32(&t->c->status.mode_gen));
	EXPECT_GT(le64toh(c->timestamp_ns), now - 1000000000ull);
	EXPECT_LE(le64toh(c->timestamp_ns), now);
	EXPECT_EQ(t_rd64(&t->c->dma.frames_written), t->j.good);
	EXPECT_EQ(t_rd64(&t->c->dma.desc_refused), 0);
	/* One view per buffer, reused for every frame after. */
	EXPECT_EQ(self->r->dma.views.built, 6);
	EXPECT_GE(self->r->dma.views.hits, t->j.good - 6);
	EXPECT_EQ(self->r->dma.frames_scattered, 0);
	EXPECT_CANARIES(t);

	/* The VRAM ring holds the same frame for /dev/vcapN readers. */
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault stall 100000"), 0);
	t_run_ms(self->r, 20);
	td_reap(t, &self->fmt, self->scratch);
	slot = t_rd32(&t->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	s = &t->c->slots[slot];
	seq = t_rd64(&s->sequence);
	ASSERT_EQ(seq, le64toh(c->sequence));
	td_gather(t, td_find(t, le32toh(c->id)), self->scratch);
	EXPECT_EQ(memcmp(self->scratch, self->r->board.mem +
			 self->r->board.mode.ring.ring_offset +
			 slot * self->r->board.mode.ring.slot_stride,
			 SIZEIMAGE), 0);
}

/*
 * A scaled capture of the HDMI input goes into the buffers as it goes
 * into VRAM: a 640x480p60 source pillarboxed into 320x180, every frame
 * with its stamps, black beside the picture.
 */
TEST_F(dma, scaled_frames_into_scattered_buffers)
{
	static const struct vcap_frame_fmt fmt = {
		VCAP_FMT_YUYV, 320, 180, 640, 640 * 180
	};
	struct td *t = &self->t;
	struct vcap_board_request *q = &t->c->request;
	struct vcap_rect pic;
	const u8 *row;
	u32 x, y, lit = 0;

	/* A one-block EDID: hotplug high, the source locks. */
	memset(t->c->edid.data, 0, sizeof(t->c->edid.data));
	memset(t->c->edid.data + 1, 0xff, 6);
	t->c->edid.data[127] = 6;
	t_wr32(&t->c->edid.blocks, 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&t->c->edid.gen, t_rd32(&t->c->edid.gen) + 1);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "source 640x480p60"), 0);
	t_run_ms(self->r, 10);
	ASSERT_EQ(t_rd32(&t->c->link.state), VCAP_LINK_LOCKED);

	td_rings(t, TD_DESC_GPA, TD_COMP_GPA, 8);
	q->cmd = htole32(VCAP_CMD_START);
	q->fourcc = htole32(fmt.fourcc);
	q->width = htole32(fmt.width);
	q->height = htole32(fmt.height);
	q->bytesperline = 0;
	q->interval_num = htole32(1);
	q->interval_den = htole32(60);
	q->pattern = htole32(VCAP_PATTERN_MOVING_BOX);
	q->flags = htole32(VCAP_REQ_DMA | VCAP_REQ_SCALE);
	q->input = htole32(VCAP_INPUT_HDMI);
	q->src_width = htole32(640);
	q->src_height = htole32(480);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&q->seq, t_rd32(&q->seq) + 1);
	ASSERT_TRUE(wait_ack(self->r));
	ASSERT_EQ(t_rd32(&t->c->status.error), VCAP_ERR_NONE);
	ASSERT_EQ(t_rd32(&t->c->status.state), VCAP_STATE_STREAMING);
	ASSERT_EQ(t_rd32(&t->c->status.sizeimage), fmt.sizeimage);

	new_bufs(t, 6, TD_PAGE, &self->rng);
	repost(t);
	stream(self->r, t, &fmt, self->scratch, 300);
	log_judge(&t->j);
	EXPECT_GE(t->j.good, 10);
	EXPECT_EQ(t->j.errors + t->j.bad_index + t->j.bad_id +
		  t->j.not_outstanding + t->j.bad_size + t->j.seq_back +
		  t->j.bad_stamp, 0);
	EXPECT_EQ(le32toh(t->last.bytesused), fmt.sizeimage);
	EXPECT_CANARIES(t);

	/* The last buffer: 240x180 of picture at x = 40, black beside. */
	vcap_letterbox(&fmt, 640, 480, &pic);
	EXPECT_EQ(pic.x0, 40);
	EXPECT_EQ(pic.x1, 280);
	td_gather(t, td_find(t, le32toh(t->last.id)), self->scratch);
	for (y = 20; y < 160; y++) {
		row = self->scratch + y * fmt.bytesperline;
		for (x = 0; x < fmt.width; x++) {
			bool black = row[x * 2] == 16 && row[x * 2 + 1] == 128;

			if (x < pic.x0 || x >= pic.x1)
				ASSERT_TRUE(black);
			else
				lit += !black;
		}
	}
	EXPECT_GT(lit, 240 * 140 / 2);
}

TEST_F(dma, lists_not_page_granular_are_scattered)
{
	struct td *t = &self->t;

	ASSERT_EQ(start_dma(self->r, t, 4), VCAP_ERR_NONE);
	new_bufs(t, 3, 3000, &self->rng);
	repost(t);
	stream(self->r, t, &self->fmt, self->scratch, 400);
	log_judge(&t->j);
	EXPECT_GE(t->j.good, 20);
	EXPECT_EQ(t->j.bad_stamp + t->j.errors + t->j.bad_index, 0);
	EXPECT_EQ(self->r->dma.frames_scattered, t->j.good);
	EXPECT_EQ(self->r->dma.views.built, 0);
	EXPECT_CANARIES(t);
}

/* A buffer the judge knows, with no pages of its own. */
static void dummy(struct td *t, u32 id, u64 length)
{
	struct td_buf *b = &t->bufs[t->nbufs++];

	b->id = id;
	b->length = length;
	b->nents = 0;
	b->out = true;
}

struct bad_desc {
	const char *what;
	u32 nents;
	u64 sg_addr;		/* 0: the list's own page */
	u64 length;
	struct vcap_dma_sg sg[2];
	u32 nsg;
};

TEST_F(dma, bad_descriptors_complete_with_error)
{
	const u64 page = TD_POOL_GPA + 0x100000;
	const struct bad_desc cases[] = {
		{ "entry outside RAM", 1, 0, SIZEIMAGE,
		  { { htole64(RAM_SIZE + 0x10000), htole32(SIZEIMAGE), 0 } }, 1 },
		{ "entry in the 0xa0000 hole", 2, 0, SIZEIMAGE,
		  { { htole64(0xa0000), htole32(4096), 0 },
		    { htole64(page), htole32(SIZEIMAGE - 4096), 0 } }, 2 },
		{ "entry running into the hole", 2, 0, SIZEIMAGE,
		  { { htole64(0x9f000), htole32(0x2000), 0 },
		    { htole64(page), htole32(SIZEIMAGE - 0x2000), 0 } }, 2 },
		{ "entry past the end of RAM", 1, 0, SIZEIMAGE,
		  { { htole64(RAM_SIZE - 4096), htole32(SIZEIMAGE), 0 } }, 1 },
		{ "sum != length", 1, 0, SIZEIMAGE + 4096,
		  { { htole64(page), htole32(SIZEIMAGE), 0 } }, 1 },
		{ "length < sizeimage", 1, 0, 4096,
		  { { htole64(page), htole32(4096), 0 } }, 1 },
		{ "entry of length 0", 2, 0, SIZEIMAGE,
		  { { htole64(page), htole32(SIZEIMAGE), 0 },
		    { htole64(page), 0, 0 } }, 2 },
		{ "nents 0", 0, 0, SIZEIMAGE,
		  { { htole64(page), htole32(SIZEIMAGE), 0 } }, 1 },
		{ "nents too large", VCAP_DMA_MAX_SG + 1, 0, SIZEIMAGE,
		  { { htole64(page), htole32(SIZEIMAGE), 0 } }, 1 },
		{ "list outside RAM", 1, RAM_SIZE + 0x1000, SIZEIMAGE, { }, 0 },
		{ "list in the hole", 1, 0xa0000, SIZEIMAGE, { }, 0 },
		{ "list past the end of RAM", 2, RAM_SIZE - 16, SIZEIMAGE, { },
		  0 },
	};
	struct td *t = &self->t;
	unsigned int i, n = sizeof(cases) / sizeof(cases[0]);
	u32 head0;

	ASSERT_EQ(start_dma(self->r, t, 4), VCAP_ERR_NONE);
	for (i = 0; i < n; i++) {
		const struct bad_desc *b = &cases[i];
		u64 end = fw_now_ns() + 1000000000ull;

		dummy(t, 500 + i, b->length);
		head0 = t_rd32(&t->c->dma.comp_head);
		td_post_raw(t, 500 + i, b->nents,
			    b->sg_addr ? b->sg_addr : TD_SG_GPA, b->length,
			    b->sg, b->nsg);
		while (t_rd32(&t->c->dma.comp_head) == head0 &&
		       fw_now_ns() < end)
			fw_run_once(self->r);
		ASSERT_EQ(td_reap(t, &self->fmt, self->scratch), 1);
		if (le32toh(t->last.flags) != VCAP_COMP_ERROR)
			TH_LOG("%s: completed with flags 0x%x", b->what,
			       le32toh(t->last.flags));
		EXPECT_EQ(le32toh(t->last.flags), VCAP_COMP_ERROR);
		EXPECT_EQ(le32toh(t->last.bytesused), 0);
		EXPECT_EQ(le32toh(t->last.id), 500 + i);
		EXPECT_EQ(t_rd32(&t->c->dma.desc_tail), i + 1);
	}
	log_judge(&t->j);
	EXPECT_EQ(t->j.errors, n);
	EXPECT_EQ(t->j.bad_index + t->j.bad_id + t->j.not_outstanding, 0);
	EXPECT_EQ(t_rd64(&t->c->dma.desc_refused), n);
	EXPECT_EQ(t_rd64(&t->c->dma.frames_written), 0);
	/* Nothing written into any of those pages: the hole included. */
	EXPECT_CANARIES(t);
	/* The engine goes on with good buffers. */
	new_bufs(t, 2, TD_PAGE, &self->rng);
	repost(t);
	stream(self->r, t, &self->fmt, self->scratch, 200);
	EXPECT_GE(t->j.good, 5);
	EXPECT_EQ(t->j.bad_stamp, 0);
}

TEST_F(dma, frames_with_nothing_posted_are_dropped)
{
	struct td *t = &self->t;
	u64 over;

	ASSERT_EQ(start_dma(self->r, t, 4), VCAP_ERR_NONE);
	t_run_ms(self->r, 100);
	over = t_rd64(&t->c->status.frames_overwritten);
	EXPECT_GE(over, 8);
	EXPECT_EQ(over, self->r->dma.frames_empty);
	EXPECT_EQ(t_rd32(&t->c->dma.comp_head), 0);
	/* More posted than the ring holds: the driver's error, nothing taken. */
	t->head = 5;
	t_wr32(&t->c->dma.desc_head, 5);
	t_run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&t->c->dma.desc_tail), 0);
	EXPECT_EQ(t_rd32(&t->c->dma.comp_head), 0);
	EXPECT_GT(self->r->dma.overruns, 2);
	EXPECT_CANARIES(t);
}

struct bad_ring {
	u64 desc, comp;
	u32 entries;
};

TEST_F(dma, bad_rings_are_refused)
{
	static const struct bad_ring cases[] = {
		{ TD_DESC_GPA, TD_COMP_GPA, 0 },
		{ TD_DESC_GPA, TD_COMP_GPA, 1 },
		{ TD_DESC_GPA, TD_COMP_GPA, 3 },
		{ TD_DESC_GPA, TD_COMP_GPA, 48 },
		{ TD_DESC_GPA, TD_COMP_GPA, VCAP_DMA_MAX_ENTRIES * 2 },
		{ RAM_SIZE + 0x1000, TD_COMP_GPA, 8 },
		{ TD_DESC_GPA, 0xa0000, 8 },
		{ TD_DESC_GPA, 0x9ff00, 8 },		/* into the hole */
		{ TD_DESC_GPA, RAM_SIZE - 64, 8 },	/* past the end */
		{ 0xfffffffffffff000ull, TD_COMP_GPA, 8 },
		{ TD_DESC_GPA + 4, TD_COMP_GPA, 8 },	/* misaligned */
	};
	struct td *t = &self->t;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		td_rings(t, cases[i].desc, cases[i].comp, cases[i].entries);
		td_request(t, VCAP_CMD_START, VCAP_REQ_DMA);
		ASSERT_TRUE(wait_ack(self->r));
		if (t_rd32(&t->c->status.error) != VCAP_ERR_BAD_DMA)
			TH_LOG("case %u: error %u", i,
			       t_rd32(&t->c->status.error));
		EXPECT_EQ(t_rd32(&t->c->status.error), VCAP_ERR_BAD_DMA);
		EXPECT_FALSE(self->r->dma.running);
	}
	ASSERT_EQ(start_dma(self->r, t, VCAP_DMA_MAX_ENTRIES), VCAP_ERR_NONE);
	EXPECT_TRUE(self->r->dma.running);
	/* The rings were taken once: the page changing means nothing. */
	td_wr64(&t->c->dma.comp_addr, 0xa0000);
	t_wr32(&t->c->dma.entries, 3);
	new_bufs(t, 2, TD_PAGE, &self->rng);
	repost(t);
	stream(self->r, t, &self->fmt, self->scratch, 100);
	EXPECT_GE(t->j.good, 5);
	EXPECT_CANARIES(t);
}

/* Whether the file stays byte for byte as snap for ms of running. */
static bool quiet_for(struct fw_run *r, const struct td *t, const u8 *snap,
		      unsigned int ms)
{
	t_run_ms(r, ms);
	return !memcmp(t->ram, snap, t->size);
}

TEST_F(dma, stop_ack_means_no_more_writes)
{
	static const u32 cmds[][2] = {
		{ VCAP_CMD_STOP, 0 },
		{ VCAP_CMD_START, 0 },			/* copy path */
		{ VCAP_CMD_START, VCAP_REQ_DMA },	/* other rings */
	};
	struct td *t = &self->t;
	u8 *snap = malloc(RAM_SIZE);
	unsigned int i;

	ASSERT_TRUE(snap);
	new_bufs(t, 6, TD_PAGE, &self->rng);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(start_dma(self->r, t, 8), VCAP_ERR_NONE);
		repost(t);
		stream(self->r, t, &self->fmt, self->scratch, 100);
		EXPECT_GE(t->j.good, 5);
		repost(t);
		if (i == 2)
			td_rings(t, TD_DESC_GPA + 0x800, TD_COMP_GPA + 0x800, 8);
		td_request(t, cmds[i][0], cmds[i][1]);
		ASSERT_TRUE(wait_ack(self->r));
		EXPECT_EQ(t_rd32(&t->c->status.error), VCAP_ERR_NONE);
		if (i == 2) {
			/* New rings, nothing posted: the old ones are done. */
			EXPECT_TRUE(self->r->dma.running);
			EXPECT_EQ(self->r->dma.rings.desc_addr,
				  TD_DESC_GPA + 0x800);
		} else {
			EXPECT_FALSE(self->r->dma.running);
		}
		/* Buffers still posted, more posted after: none is touched. */
		repost(t);
		memcpy(snap, t->ram, RAM_SIZE);
		EXPECT_TRUE(quiet_for(self->r, t, snap, 300));
		if (i == 1)
			EXPECT_GT(self->r->board.frames_produced, 30);
		EXPECT_CANARIES(t);
		td_request(t, VCAP_CMD_STOP, 0);
		ASSERT_TRUE(wait_ack(self->r));
		for (u32 k = 0; k < t->nbufs; k++)
			t->bufs[k].out = false;
	}
	free(snap);
}

/* A bus address near a boundary of RAM, or well inside the target. */
static u64 random_addr(u32 *rng, u64 lo)
{
	static const u64 edges[] = {
		0x9f000, 0xa0000, 0xff000, 0x100000, RAM_SIZE - 0x1000,
		RAM_SIZE, 0xbffff000ull, 0xfffff000ull, 0x100000000ull,
		~0ull - 0xfff,
	};

	*rng = *rng * 1103515245u + 12345u;
	if ((*rng >> 8) % 64)
		return lo + ((*rng >> 4) % 0x3ff) * 0x1000 +
		       ((*rng >> 24) % 16 ? 0 : 0x10);
	return edges[(*rng >> 12) % (sizeof(edges) / sizeof(edges[0]))] +
	       (((*rng >> 20) & 1) ? 0x800 : 0);
}

/*
 * Random descriptors and lists: whatever they say, the board writes only
 * inside RAM the lists name (here a 4 MiB target) and the completion ring,
 * and hands every descriptor back.
 */
TEST_F(dma, random_descriptors_write_only_where_posted)
{
	const u64 target = 16ull << 20, tlen = 4ull << 20;
	static struct vcap_dma_sg sg[64];
	struct td *t = &self->t;
	struct td_buf *tb;
	u32 rng = 99, i, k, n, x, taken = 0;
	u64 first = 0, hits = 0, sg_addr, sum;

	ASSERT_EQ(start_dma(self->r, t, 4), VCAP_ERR_NONE);
	/*
	 * What lists may name: the target, and the RAM at the edges that
	 * random_addr() picks (entries up to 0x5000 long from there).
	 */
	tb = &t->bufs[t->nbufs++];
	tb->nents = 4;
	tb->ents[0] = (struct td_ent){ target, target, (u32)tlen + 0x10000 };
	tb->ents[1] = (struct td_ent){ 0x9f000, 0x9f000, 0x1000 };
	tb->ents[2] = (struct td_ent){ 0x100000, 0x100000, 0x6000 };
	tb->ents[3] = (struct td_ent){ RAM_SIZE - 0x1000, RAM_SIZE - 0x1000,
				       0x1000 };
	for (i = 0; i < 400; i++) {
		rng = rng * 1103515245u + 12345u;
		n = (rng >> 8) % 8 ? 38 + (rng >> 12) % 23 : 1 + (rng >> 12) % 60;
		sum = 0;
		for (k = 0; k < n; k++) {
			sg[k].addr = htole64(random_addr(&rng, target));
			rng = rng * 1103515245u + 12345u;
			sg[k].len = htole32((rng >> 16) % 50 ? 0x1000 :
					    (rng >> 4) % 0x5000);
			sg[k].reserved = 0;
			sum += le32toh(sg[k].len);
		}
		rng = rng * 1103515245u + 12345u;
		x = rng;
		/* Now and then a list anywhere: whatever lies there. */
		sg_addr = (x >> 12) % 16 ? TD_SG_GPA :
					   random_addr(&rng, TD_SG_GPA);
		td_post_raw(t, i, (x >> 8) % 16 ? n : x, sg_addr,
			    (x >> 16) % 8 ? sum : x,
			    sg_addr == TD_SG_GPA ? sg : NULL, n);
		while (t_rd32(&t->c->dma.desc_tail) != t->head)
			fw_run_once(self->r);
		taken++;
		t->comp_seen = t_rd32(&t->c->dma.comp_head);
	}
	EXPECT_EQ(t_rd32(&t->c->dma.comp_head), taken);
	EXPECT_EQ(t_rd64(&t->c->dma.frames_written) +
		  t_rd64(&t->c->dma.desc_refused), taken);
	TH_LOG("%llu written, %llu refused",
	       (unsigned long long)t_rd64(&t->c->dma.frames_written),
	       (unsigned long long)t_rd64(&t->c->dma.desc_refused));
	EXPECT_GT(t_rd64(&t->c->dma.frames_written), 10);
	EXPECT_GT(t_rd64(&t->c->dma.desc_refused), 10);
	hits = td_canaries_hit(t, &first);
	if (hits)
		TH_LOG("%llu bytes hit, first at 0x%llx",
		       (unsigned long long)hits, (unsigned long long)first);
	EXPECT_EQ(hits, 0);
}

/* Stream a while so completions exist, then apply a fault command. */
static void fault_setup(struct fw_run *r, struct td *t,
			const struct vcap_frame_fmt *f, u8 *scratch, u32 *rng)
{
	if (start_dma(r, t, 8) != VCAP_ERR_NONE)
		return;
	new_bufs(t, 4, TD_PAGE, rng);
	repost(t);
	stream(r, t, f, scratch, 100);
}

TEST_F(dma, fault_comp_id)
{
	struct td *t = &self->t;

	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_GE(t->j.good, 5);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault comp id 3"), 0);
	stream(self->r, t, &self->fmt, self->scratch, 200);
	log_judge(&t->j);
	EXPECT_EQ(t->j.bad_id, 3);
	EXPECT_EQ(t->j.bad_index + t->j.not_outstanding + t->j.bad_size +
		  t->j.bad_stamp, 0);
	EXPECT_EQ(self->r->dma.bad_completions, 3);
	EXPECT_CANARIES(t);
}

TEST_F(dma, fault_comp_stale)
{
	struct td *t = &self->t;

	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault comp stale"), 0);
	stream(self->r, t, &self->fmt, self->scratch, 200);
	log_judge(&t->j);
	EXPECT_EQ(t->j.not_outstanding + t->j.bad_id, 1);
	EXPECT_EQ(t->j.bad_index + t->j.bad_size + t->j.bad_stamp, 0);
	EXPECT_CANARIES(t);
}

TEST_F(dma, fault_comp_size)
{
	struct td *t = &self->t;

	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault comp size"), 0);
	stream(self->r, t, &self->fmt, self->scratch, 200);
	log_judge(&t->j);
	EXPECT_EQ(t->j.bad_size, 1);
	EXPECT_EQ(t->j.bad_index + t->j.bad_id + t->j.bad_stamp, 0);
	EXPECT_CANARIES(t);
}

TEST_F(dma, fault_comp_replay)
{
	struct td *t = &self->t;

	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault comp replay"), 0);
	stream(self->r, t, &self->fmt, self->scratch, 200);
	log_judge(&t->j);
	/* The same index again, and a buffer done already or a sequence
	 * not after the last. */
	EXPECT_EQ(t->j.bad_index, 1);
	EXPECT_EQ(t->j.not_outstanding + t->j.seq_back, 1);
	EXPECT_EQ(t->j.bad_stamp, 0);
	EXPECT_CANARIES(t);
}

TEST_F(dma, fault_comp_reorder)
{
	struct td *t = &self->t;

	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault comp reorder"), 0);
	stream(self->r, t, &self->fmt, self->scratch, 200);
	log_judge(&t->j);
	EXPECT_EQ(t->j.seq_back, 1);
	EXPECT_EQ(t->j.bad_index + t->j.bad_id + t->j.bad_stamp, 0);
	EXPECT_CANARIES(t);
}

TEST_F(dma, fault_comp_idle)
{
	struct td *t = &self->t;
	u32 head;

	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	/* Let every buffer complete, post none back. */
	t_run_ms(self->r, 100);
	td_reap(t, &self->fmt, self->scratch);
	ASSERT_EQ(t_rd32(&t->c->dma.desc_tail), t->head);
	head = t_rd32(&t->c->dma.comp_head);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault comp idle"), 0);
	t_run_ms(self->r, 100);
	EXPECT_EQ(t_rd32(&t->c->dma.comp_head), head + 1);
	EXPECT_EQ(t_rd32(&t->c->dma.desc_tail), t->head);
	td_reap(t, &self->fmt, self->scratch);
	log_judge(&t->j);
	EXPECT_EQ(t->j.not_outstanding, 1);
	EXPECT_CANARIES(t);
}

TEST_F(dma, fault_comp_after_stop)
{
	struct td *t = &self->t;
	u8 *snap = malloc(RAM_SIZE);
	u64 comp = TD_COMP_GPA, ring = 8 * sizeof(struct vcap_dma_comp), i;
	u32 head;

	ASSERT_TRUE(snap);
	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault comp after-stop"), 0);
	t_run_ms(self->r, 10);
	repost(t);
	td_request(t, VCAP_CMD_STOP, 0);
	ASSERT_TRUE(wait_ack(self->r));
	td_reap(t, &self->fmt, self->scratch);
	head = t_rd32(&t->c->dma.comp_head);
	memcpy(snap, t->ram, RAM_SIZE);
	t_run_ms(self->r, 200);
	EXPECT_EQ(t_rd32(&t->c->dma.comp_head), head + 1);
	/* Only the completion ring changed: never pixel memory. */
	for (i = 0; i < RAM_SIZE; i++)
		if (t->ram[i] != snap[i] && (i < comp || i >= comp + ring))
			break;
	EXPECT_EQ(i, RAM_SIZE);
	EXPECT_NE(memcmp(t->ram + comp, snap + comp, ring), 0);
	EXPECT_EQ(self->r->fault.comp[FW_COMP_AFTER_STOP], 0);
	free(snap);
}

TEST_F(dma, fault_comp_at_a_rate)
{
	struct td *t = &self->t;

	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault comp size every 4"), 0);
	memset(&t->j, 0, sizeof(t->j));
	stream(self->r, t, &self->fmt, self->scratch, 500);
	log_judge(&t->j);
	EXPECT_GE(t->j.good + t->j.bad_size, 40);
	EXPECT_GE(t->j.bad_size * 4, t->j.good + t->j.bad_size - 4);
	EXPECT_LE(t->j.bad_size * 4, t->j.good + t->j.bad_size + 4);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "fault comp size every 0"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "fault comp sideways"), 0);
	EXPECT_NE(t_cmd(self->r, NULL, 0, "fault comp id often"), 0);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault clear"), 0);
	memset(&t->j, 0, sizeof(t->j));
	t->j.have_seq = false;
	stream(self->r, t, &self->fmt, self->scratch, 200);
	EXPECT_EQ(t->j.bad_size, 0);
}

TEST_F(dma, hostile_board_writes_bad_completions_only)
{
	struct td *t = &self->t;
	u32 i;

	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault hostile on"), 0);
	/* A driver that stops believing the board posts nothing more. */
	for (i = 0; i < 60; i++) {
		t_run_ms(self->r, 10);
		td_reap(t, &self->fmt, self->scratch);
		repost(t);
	}
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault hostile off"), 0);
	t_run_ms(self->r, 20);
	log_judge(&t->j);
	EXPECT_GT(self->r->dma.bad_completions, 2);
	EXPECT_GT(t->j.bad_index + t->j.bad_id + t->j.not_outstanding +
		  t->j.bad_size + t->j.seq_back, 0);
	EXPECT_EQ(t->j.bad_stamp, 0);
	/* Back to sane: a fresh page, DMA stopped until a new START. */
	EXPECT_FALSE(self->r->dma.running);
	EXPECT_EQ(t_rd32(&t->c->info.magic), VCAP_BOARD_MAGIC);
	EXPECT_CANARIES(t);
}

TEST_F(dma, hang_stops_everything)
{
	struct td *t = &self->t;
	u8 *snap = malloc(RAM_SIZE);
	u64 hb;

	ASSERT_TRUE(snap);
	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault hang 1000"), 0);
	t_run_ms(self->r, 10);
	td_reap(t, &self->fmt, self->scratch);
	repost(t);
	hb = t_rd64(&t->c->status.heartbeat);
	td_request(t, VCAP_CMD_STOP, 0);
	memcpy(snap, t->ram, RAM_SIZE);
	/* Hung: no heartbeat, no ack, and not a byte into guest RAM. */
	EXPECT_TRUE(quiet_for(self->r, t, snap, 400));
	EXPECT_EQ(t_rd64(&t->c->status.heartbeat), hb);
	EXPECT_NE(t_rd32(&t->c->status.ack_seq), t_rd32(&t->c->request.seq));
	/* Back: the stop is taken before any frame, so still nothing. */
	ASSERT_TRUE(wait_ack(self->r));
	EXPECT_TRUE(quiet_for(self->r, t, snap, 200));
	EXPECT_GT(t_rd64(&t->c->status.heartbeat), hb);
	free(snap);
}

TEST_F(dma, die_stops_dma_and_comes_back_without_it)
{
	struct td *t = &self->t;
	u8 *snap = malloc(RAM_SIZE);

	ASSERT_TRUE(snap);
	fault_setup(self->r, t, &self->fmt, self->scratch, &self->rng);
	ASSERT_EQ(t_cmd(self->r, NULL, 0, "fault die 800"), 0);
	t_run_ms(self->r, 5);
	td_reap(t, &self->fmt, self->scratch);
	repost(t);
	memcpy(snap, t->ram, RAM_SIZE);
	EXPECT_TRUE(quiet_for(self->r, t, snap, 100));
	EXPECT_EQ(t_rd32(&t->c->info.magic), 0);
	/* Back with a fresh page: the request runs again, on VRAM only. */
	EXPECT_TRUE(quiet_for(self->r, t, snap, 1000));
	EXPECT_EQ(t_rd32(&t->c->info.magic), VCAP_BOARD_MAGIC);
	EXPECT_EQ(t_rd32(&t->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_FALSE(self->r->dma.running);
	EXPECT_EQ(t_rd32(&t->c->dma.comp_head), 0);
	EXPECT_EQ(t_rd32(&t->c->dma.desc_tail), 0);
	free(snap);
}

/*
 * The guest RAM given at run time (a VM started after the firmware):
 * the board comes back with VCAP_CAP_DMA; another file replaces it and
 * halts DMA into the old one; none takes DMA away.
 */
TEST(guest_ram_command)
{
	char path[] = "/dev/shm/vcap-dma-ram-XXXXXX", cmd[128], out[4096];
	struct vcap_frame_fmt fmt = { VCAP_FMT_YUYV, 320, 240, 640, SIZEIMAGE };
	u8 *scratch = malloc(1 << 20), *snap = malloc(RAM_SIZE);
	struct fw_run *r = t_run_new(4 << 20);
	struct td t;
	u32 rng = 5;
	int fd = mkstemp(path);

	ASSERT_TRUE(r && scratch && snap);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(td_init(&t, path, RAM_SIZE, true), 0);
	t.c = r->board.ctrl;
	EXPECT_NE(t_cmd(r, out, sizeof(out), "guest-ram /nonexistent/ram"), 0);
	EXPECT_TRUE(strstr(out, "must exist"));
	EXPECT_NE(t_cmd(r, NULL, 0, "guest-ram none q35"), 0);
	EXPECT_NE(t_cmd(r, NULL, 0, "guest-ram"), 0);
	EXPECT_FALSE(t_rd32(&t.c->info.caps) & VCAP_CAP_DMA);
	snprintf(cmd, sizeof(cmd), "guest-ram %s q35", path);
	ASSERT_EQ(t_cmd(r, NULL, 0, cmd), 0);
	EXPECT_TRUE(t_rd32(&t.c->info.caps) & VCAP_CAP_DMA);
	ASSERT_EQ(t_cmd(r, out, sizeof(out), "stats"), 0);
	EXPECT_TRUE(strstr(out, "guest_ram=67108864 q35"));
	ASSERT_EQ(start_dma(r, &t, 4), VCAP_ERR_NONE);
	new_bufs(&t, 3, TD_PAGE, &rng);
	repost(&t);
	stream(r, &t, &fmt, scratch, 200);
	EXPECT_GE(t.j.good, 5);
	/* The same file again stands for another VM's: the old DMA ends. */
	repost(&t);
	ASSERT_EQ(t_cmd(r, NULL, 0, cmd), 0);
	EXPECT_FALSE(r->dma.running);
	memcpy(snap, t.ram, RAM_SIZE);
	EXPECT_TRUE(quiet_for(r, &t, snap, 200));
	ASSERT_EQ(t_cmd(r, NULL, 0, "guest-ram none"), 0);
	EXPECT_FALSE(t_rd32(&t.c->info.caps) & VCAP_CAP_DMA);
	EXPECT_FALSE(r->has_dma);
	td_request(&t, VCAP_CMD_START, VCAP_REQ_DMA);
	ASSERT_TRUE(wait_ack(r));
	EXPECT_EQ(t_rd32(&t.c->status.error), VCAP_ERR_BAD_DMA);
	EXPECT_CANARIES(&t);
	t_run_free(r);
	td_fini(&t);
	unlink(path);
	free(scratch);
	free(snap);
}

/* Whether len bytes of the file from off are all zero (never written). */
static bool zeros(const u8 *p, u64 len)
{
	u64 i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * 4.5 GiB of guest RAM (a sparse file): 3 GiB below the PCI hole, the
 * rest at 4 GiB.  Buffers up there land at their file offsets; lists
 * that run into the hole or across 4 GiB are refused.
 */
TEST_TIMEOUT(ram_above_4g, 120)
{
	const u64 size = 4608ull << 20, g4 = 0x100000000ull;
	const struct {
		const char *what;
		u64 addr;
		u32 len;
	} bad[] = {
		{ "into the PCI hole", 0xbffff000ull, 0x2000 },
		{ "across 4 GiB", 0xfffff000ull, 0x2000 },
		{ "in the PCI hole", 0xd0000000ull, 0x1000 },
		{ "past the end", g4 + (size - 0xc0000000ull) - 0x1000, 0x2000 },
	};
	char path[] = "/dev/shm/vcap-dma-ram-XXXXXX", err[512];
	struct vcap_frame_fmt fmt = { VCAP_FMT_YUYV, 320, 240, 640, SIZEIMAGE };
	u8 *scratch = malloc(1 << 20);
	struct fw_run *r;
	struct vcap_dma_sg sg;
	struct td t;
	u32 rng = 3, i, head;
	int fd = mkstemp(path);
	u64 end;

	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_TRUE(scratch);
	ASSERT_EQ(td_init(&t, path, size, false), 0);
	EXPECT_EQ(t.below, 0xc0000000ull);
	r = t_run_new(4 << 20);
	ASSERT_TRUE(r);
	ASSERT_EQ(fw_run_enable_dma(r, path, FW_GUEST_PC, err, sizeof(err)), 0);
	unlink(path);
	t.c = r->board.ctrl;
	ASSERT_EQ(start_dma(r, &t, 4), VCAP_ERR_NONE);
	t.pool = g4 + (256ull << 20);
	new_bufs(&t, 2, TD_PAGE, &rng);
	repost(&t);
	stream(r, &t, &fmt, scratch, 200);
	log_judge(&t.j);
	EXPECT_GE(t.j.good, 5);
	EXPECT_EQ(t.j.bad_stamp + t.j.errors, 0);
	/* At file offset below + (addr - 4 GiB), not at addr. */
	EXPECT_EQ(t.bufs[0].ents[0].off,
		  0xc0000000ull + t.bufs[0].ents[0].addr - g4);
	EXPECT_TRUE(zeros(t.ram + g4 + (256ull << 20), 8 << 20));
	stream(r, &t, &fmt, scratch, 50);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sg.addr = htole64(bad[i].addr);
		sg.len = htole32(bad[i].len);
		sg.reserved = 0;
		/* Wait for every good buffer to come back, then post none. */
		end = fw_now_ns() + 1000000000ull;
		while ((t.bufs[0].out || t.bufs[1].out) && fw_now_ns() < end) {
			t_run_ms(r, 2);
			td_reap(&t, &fmt, scratch);
		}
		dummy(&t, 900 + i, SIZEIMAGE);
		head = t_rd32(&t.c->dma.comp_head);
		td_post_raw(&t, 900 + i, 1, TD_SG_GPA + 0xf000, bad[i].len,
			    &sg, 1);
		/* length < sizeimage would do it too: make it the only flaw. */
		((struct vcap_dma_desc *)td_ptr(&t, TD_DESC_GPA))
			[(t.head - 1) & 3].length = htole64(bad[i].len);
		end = fw_now_ns() + 1000000000ull;
		while (t_rd32(&t.c->dma.comp_head) == head && fw_now_ns() < end)
			fw_run_once(r);
		td_reap(&t, &fmt, scratch);
		if (le32toh(t.last.flags) != VCAP_COMP_ERROR)
			TH_LOG("%s: not refused", bad[i].what);
		EXPECT_EQ(le32toh(t.last.id), 900 + i);
		EXPECT_EQ(le32toh(t.last.flags), VCAP_COMP_ERROR);
	}
	EXPECT_EQ(t_rd64(&t.c->dma.desc_refused), 4);
	EXPECT_TRUE(zeros(t.ram + 0xbfff0000ull, 0x10000));
	EXPECT_TRUE(zeros(t.ram + size - 0x10000, 0x10000));
	t_run_free(r);
	td_fini(&t);
	unlink(path);
	free(scratch);
}

/*
 * vcap-fw as its own process, the test as the guest's driver in another:
 * once the stop is acknowledged the guest RAM file stays as it is.
 */
TEST_TIMEOUT(process_stop_ack, 60)
{
	const char *fw = getenv("VCAP_FW");
	char ram[] = "/dev/shm/vcap-dma-ram-XXXXXX";
	char shm[] = "/dev/shm/vcap-dma-shm-XXXXXX";
	struct stat st;
	struct td t;
	u8 *bar, *snap, *scratch = malloc(1 << 20);
	struct vcap_frame_fmt fmt = { VCAP_FMT_YUYV, 320, 240, 640, SIZEIMAGE };
	u32 rng = 7, i;
	int fd, status;
	u64 end;
	pid_t pid;

	if (!fw)
		SKIP(return, "VCAP_FW names no vcap-fw");
	ASSERT_TRUE(scratch);
	fd = mkstemp(ram);
	ASSERT_GE(fd, 0);
	close(fd);
	fd = mkstemp(shm);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(td_init(&t, ram, RAM_SIZE, true), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		execl(fw, fw, "serve", "--shm", shm, "--size", "4M",
		      "--guest-ram", ram, "--guest-machine", "pc", NULL);
		_exit(127);
	}
	/* Mapped once the firmware has sized it. */
	end = fw_now_ns() + 5000000000ull;
	while (fw_now_ns() < end &&
	       (stat(shm, &st) || st.st_size != 4 << 20))
		usleep(1000);
	fd = open(shm, O_RDWR);
	ASSERT_GE(fd, 0);
	bar = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(bar, MAP_FAILED);
	t.c = (struct vcap_board_ctrl *)bar;
	end = fw_now_ns() + 5000000000ull;
	while (fw_now_ns() < end &&
	       (t_rd32(&t.c->info.magic) != VCAP_BOARD_MAGIC ||
		!(t_rd32(&t.c->info.caps) & VCAP_CAP_DMA)))
		usleep(1000);
	unlink(ram);
	unlink(shm);
	ASSERT_TRUE(t_rd32(&t.c->info.caps) & VCAP_CAP_DMA);
	td_rings(&t, TD_DESC_GPA, TD_COMP_GPA, 8);
	td_request(&t, VCAP_CMD_START, VCAP_REQ_DMA);
	new_bufs(&t, 6, TD_PAGE, &rng);
	repost(&t);
	end = fw_now_ns() + 400000000ull;
	while (fw_now_ns() < end) {
		usleep(2000);
		td_reap(&t, &fmt, scratch);
		repost(&t);
	}
	log_judge(&t.j);
	EXPECT_GE(t.j.good, 20);
	EXPECT_EQ(t.j.bad_stamp + t.j.bad_index + t.j.errors, 0);
	/* Stop with every buffer posted, as the frames keep coming. */
	td_request(&t, VCAP_CMD_STOP, 0);
	while (t_rd32(&t.c->status.ack_seq) != t_rd32(&t.c->request.seq))
		;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	snap = malloc(RAM_SIZE);
	ASSERT_TRUE(snap);
	memcpy(snap, t.ram, RAM_SIZE);
	for (i = 0; i < 10; i++) {
		usleep(50000);
		if (memcmp(snap, t.ram, RAM_SIZE))
			break;
	}
	EXPECT_EQ(i, 10);
	EXPECT_CANARIES(&t);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	munmap(bar, 4 << 20);
	close(fd);
	td_fini(&t);
	unlink(ram);
	unlink(shm);
	free(snap);
	free(scratch);
}

VTEST_MAIN()
