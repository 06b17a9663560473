// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The board refuses what it cannot do: the mode table and its check,
 * refused requests through the control page with nothing written outside
 * the ring, and bad Y4M and raw files with errors that name the problem.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "vtest.h"
#include "fw-run.h"
#include "fw-source.h"
#include "fw-test.h"
#include "vcap-modes.h"
#include "vcap-stamp.h"

static struct vcap_board_info *info_for(u64 frame_size)
{
	struct vcap_board_info *info = calloc(1, sizeof(*info));

	if (!info)
		return NULL;
	info->vram_size = htole64(frame_size + VCAP_CTRL_SIZE);
	info->frame_offset = htole64(VCAP_CTRL_SIZE);
	info->frame_size = htole64(frame_size);
	vcap_modes_fill(info, frame_size);
	return info;
}

static void mkreq(struct vcap_board_request *q, u32 fourcc, u32 w, u32 h,
		  u32 num, u32 den)
{
	memset(q, 0, sizeof(*q));
	q->cmd = htole32(VCAP_CMD_START);
	q->fourcc = htole32(fourcc);
	q->width = htole32(w);
	q->height = htole32(h);
	q->interval_num = htole32(num);
	q->interval_den = htole32(den);
	q->input = htole32(VCAP_INPUT_TPG);
}

/* Every published mode and interval is accepted; nothing else is. */
TEST(mode_table_is_what_the_board_accepts)
{
	u64 fs = (64ull << 20) - VCAP_CTRL_SIZE;
	struct vcap_board_info *info = info_for(fs);
	struct vcap_board_request q;
	struct vcap_ring_layout ring;
	u32 i, j, n, prev_fmt = 0, prev_area = 0, fmt_index = 0;

	ASSERT_TRUE(info);
	n = le32toh(info->num_modes);
	ASSERT_GT(n, 50);
	ASSERT_LE(n, VCAP_MAX_MODES);
	for (i = 0; i < n; i++) {
		const struct vcap_board_mode *m = &info->modes[i];
		u32 fcc = le32toh(m->fourcc), w = le32toh(m->width);
		u32 h = le32toh(m->height), mask = le32toh(m->interval_mask);

		/* Sorted: formats in table order, sizes by area. */
		if (fcc != prev_fmt) {
			while (vcap_format_by_index(fmt_index)->fourcc != fcc)
				fmt_index++;
			prev_area = 0;
			prev_fmt = fcc;
		}
		ASSERT_GT(w * h, prev_area);
		prev_area = w * h;
		for (j = 0; j < le32toh(info->num_intervals); j++) {
			mkreq(&q, fcc, w, h,
			      le32toh(info->intervals[j].numerator),
			      le32toh(info->intervals[j].denominator));
			ASSERT_EQ(vcap_modes_check(info, fs, &q, &ring),
				  (mask & (1u << j)) ? VCAP_ERR_NONE :
						       VCAP_ERR_BAD_INTERVAL);
			if (mask & (1u << j)) {
				ASSERT_GE(ring.num_slots, VCAP_MIN_SLOTS);
				ASSERT_LE(ring.num_slots * ring.slot_stride, fs);
			}
		}
	}
	/* 64 MiB holds three 4K YUYV frames but not three 4K XRGB32. */
	mkreq(&q, VCAP_FMT_YUYV, 3840, 2160, 1, 30);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_NONE);
	EXPECT_GE(ring.num_slots, 3);
	mkreq(&q, VCAP_FMT_XRGB32, 3840, 2160, 1, 30);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_SIZE);
	/* The same table every time. */
	{
		struct vcap_board_info *again = info_for(fs);

		ASSERT_TRUE(again);
		EXPECT_EQ(memcmp(again, info, sizeof(*info)), 0);
		free(again);
	}
	free(info);
}

TEST(refused_requests_get_their_error_code)
{
	u64 fs = (64ull << 20) - VCAP_CTRL_SIZE;
	struct vcap_board_info *info = info_for(fs);
	struct vcap_board_request q;
	struct vcap_ring_layout ring;

	ASSERT_TRUE(info);
	mkreq(&q, VCAP_FOURCC('M', 'J', 'P', 'G'), 640, 480, 1, 30);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_FORMAT);
	mkreq(&q, VCAP_FMT_YUYV, 641, 480, 1, 30);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_SIZE);
	mkreq(&q, VCAP_FMT_YUYV, 0xffffffff, 0xffffffff, 1, 30);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_SIZE);
	mkreq(&q, VCAP_FMT_YUYV, 640, 480, 1, 7);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_INTERVAL);
	mkreq(&q, VCAP_FMT_YUYV, 640, 480, 0, 0);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_INTERVAL);
	mkreq(&q, VCAP_FMT_YUYV, 640, 480, 2, 60);	/* = 1/30 */
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_NONE);
	mkreq(&q, VCAP_FMT_YUYV, 3840, 2160, 1, 360);	/* past the data rate */
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_INTERVAL);
	mkreq(&q, VCAP_FMT_YUYV, 640, 480, 1, 30);
	q.bytesperline = htole32(1279);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_STRIDE);
	q.bytesperline = htole32(0xffffffff);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_STRIDE);
	q.bytesperline = htole32(2048);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_NONE);
	EXPECT_EQ(ring.bytesperline, 2048);
	EXPECT_EQ(ring.sizeimage, 2048 * 480);
	mkreq(&q, VCAP_FMT_NV12, 640, 480, 1, 30);
	q.bytesperline = htole32(641);			/* odd: no chroma stride */
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_STRIDE);
	mkreq(&q, VCAP_FMT_YUYV, 640, 480, 1, 30);
	q.cmd = htole32(7);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_CMD);
	q.cmd = htole32(VCAP_CMD_START);
	q.flags = htole32(0x80);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_CMD);
	q.flags = 0;
	q.pattern = htole32(VCAP_PATTERN_COUNT);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_BAD_PATTERN);
	/* A stride so large the ring no longer fits in the frame area. */
	mkreq(&q, VCAP_FMT_YUYV, 3840, 2160, 1, 30);
	q.bytesperline = htole32(VCAP_MAX_BYTESPERLINE);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_NO_SPACE);
	/* A published table that lies about its size is not trusted. */
	info->num_modes = htole32(0xffffffff);
	info->num_intervals = htole32(0xffffffff);
	mkreq(&q, VCAP_FMT_YUYV, 640, 480, 1, 30);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_NONE);
	info->vram_size = htole64(VCAP_CTRL_SIZE + 4096);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_NO_SPACE);
	info->frame_offset = htole64(~0ull);
	EXPECT_EQ(vcap_modes_check(info, fs, &q, &ring), VCAP_ERR_NO_SPACE);
	free(info);
}

/* Random requests: no accepted ring ever reaches past the board memory. */
TEST(random_requests_stay_inside_vram)
{
	u64 fs = (8ull << 20) - VCAP_CTRL_SIZE;
	struct vcap_board_info *info = info_for(fs);
	struct vcap_board_request q;
	struct vcap_ring_layout ring;
	u32 x = 12345, i, accepted = 0;
	const struct vcap_board_mode *m;

	ASSERT_TRUE(info);
	for (i = 0; i < 200000; i++) {
		u32 *w = (u32 *)&q;
		unsigned int k;

		for (k = 0; k < sizeof(q) / 4; k++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			w[k] = x;
		}
		/* Half of them start from a real mode, then get bent. */
		if (i & 1) {
			m = &info->modes[x % le32toh(info->num_modes)];
			q.cmd = htole32(VCAP_CMD_START);
			q.fourcc = m->fourcc;
			q.width = m->width;
			q.height = m->height;
			q.interval_num = htole32(1);
			q.interval_den = htole32((x >> 8) & 1 ? 30 : 5);
			q.pattern = htole32(x % 12);
			q.flags = htole32((x >> 4) & 7);
			q.bytesperline = (x >> 12) & 1 ? 0 : htole32(x >> 16);
		}
		if (vcap_modes_check(info, fs, &q, &ring) != VCAP_ERR_NONE)
			continue;
		accepted++;
		ASSERT_GE(ring.num_slots, VCAP_MIN_SLOTS);
		ASSERT_LE(ring.num_slots, VCAP_MAX_SLOTS);
		ASSERT_EQ(ring.slot_stride % 4096, 0);
		ASSERT_GE(ring.slot_stride, ring.sizeimage);
		ASSERT_EQ(ring.ring_offset, VCAP_CTRL_SIZE);
		ASSERT_LE(ring.ring_offset + ring.num_slots * ring.slot_stride,
			  fs + VCAP_CTRL_SIZE);
	}
	TH_LOG("%u of 200000 random requests accepted", accepted);
	EXPECT_GT(accepted, 1000);
	free(info);
}

/* Through the control page: refused, acked with the code, VRAM untouched. */
TEST(board_refuses_and_writes_only_its_ring)
{
	char path[] = "/tmp/vcap-bad-XXXXXX", err[256];
	struct fw_run *r = calloc(1, sizeof(*r));
	struct vcap_board_ctrl *c;
	u64 size = 1 << 20, end, i;
	u8 *vram;
	u32 seq;
	int fd;

	ASSERT_TRUE(r);
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(fw_run_init(r, path, size, NULL, NULL, err, sizeof(err)), 0);
	unlink(path);
	c = r->board.ctrl;
	vram = r->board.mem + VCAP_CTRL_SIZE;
	memset(vram, 0xa5, size - VCAP_CTRL_SIZE);

	/* 640x480 YUYV needs 3 x 600 KiB: too much for 1 MiB. */
	mkreq(&c->request, VCAP_FMT_YUYV, 640, 480, 1, 30);
	seq = 1;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&c->request.seq, seq);
	for (i = 0; i < 20; i++)
		fw_run_once(r);
	EXPECT_EQ(t_rd32(&c->status.ack_seq), seq);
	EXPECT_EQ(t_rd32(&c->status.error), VCAP_ERR_BAD_SIZE);
	EXPECT_EQ(t_rd32(&c->status.state), VCAP_STATE_STOPPED);
	for (i = 0; i < size - VCAP_CTRL_SIZE; i++)
		if (vram[i] != 0xa5)
			break;
	EXPECT_EQ(i, size - VCAP_CTRL_SIZE);

	/* 320x240 fits: frames land in the ring and nowhere else. */
	mkreq(&c->request, VCAP_FMT_YUYV, 320, 240, 1, 240);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&c->request.seq, ++seq);
	for (i = 0; i < 400; i++)
		fw_run_once(r);
	EXPECT_EQ(t_rd32(&c->status.ack_seq), seq);
	EXPECT_EQ(t_rd32(&c->status.error), VCAP_ERR_NONE);
	EXPECT_GT(r->board.frames_produced, t_rd32(&c->status.num_slots));
	end = t_rd64(&c->status.ring_offset) +
	      (u64)t_rd32(&c->status.num_slots) * t_rd64(&c->status.slot_stride);
	ASSERT_LE(end, size);
	for (i = end; i < size; i++)
		if (r->board.mem[i] != 0xa5)
			break;
	EXPECT_EQ(i, size);
	fw_run_fini(r);
	free(r);
}

static char tmpdir[64];

static const char *write_file(const char *name, const void *data, size_t len)
{
	static char path[128];
	int fd;

	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/vcap-y4m-XXXXXX");
		if (!mkdtemp(tmpdir))
			return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		return NULL;
	close(fd);
	return path;
}

/* A Y4M clip of n frames, w x h 4:2:0, each frame one grey level. */
static size_t make_y4m(char *buf, u32 w, u32 h, int n)
{
	size_t len = (size_t)sprintf(buf, "YUV4MPEG2 W%u H%u F30:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\n", w, h);
	size_t frame = (size_t)w * h * 3 / 2;
	int i;

	for (i = 0; i < n; i++) {
		len += (size_t)sprintf(buf + len, "FRAME\n");
		memset(buf + len, 40 + 60 * i, (size_t)w * h);
		memset(buf + len + (size_t)w * h, 128, frame - (size_t)w * h);
		len += frame;
	}
	return len;
}

static void remove_tmp(void)
{
	char cmd[96];

	if (!tmpdir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		TH_LOG("cannot remove %s", tmpdir);
	tmpdir[0] = 0;
}

static bool y4m_error(const char *name, const void *data, size_t len,
		      const char *want, char *err, size_t errlen)
{
	const char *path = write_file(name, data, len);
	struct fw_source *s;

	if (!path)
		return false;
	s = fw_source_y4m_new(path, err, errlen);
	if (s) {
		fw_source_destroy(s);
		snprintf(err, errlen, "accepted");
		return false;
	}
	return strstr(err, want) && strstr(err, name);
}

TEST(bad_y4m_files_are_named)
{
	static char buf[1 << 20];
	char err[512];
	size_t len = make_y4m(buf, 64, 48, 3);

	EXPECT_TRUE(y4m_error("truncated.y4m", buf, len - 100, "frame 2 is truncated", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(y4m_error("notY4M.y4m", "RIFF....WAVEfmt ", 16, "not a Y4M file", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(y4m_error("nosize.y4m", "YUV4MPEG2 F30:1 C420\nFRAME\n", 27, "frame size", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(y4m_error("badw.y4m", "YUV4MPEG2 Wx H4\n", 16, "bad header parameter 'Wx'", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(y4m_error("c10.y4m", "YUV4MPEG2 W4 H4 C420p10\n", 24, "unsupported colour space", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(y4m_error("noframes.y4m", "YUV4MPEG2 W4 H4\n", 16, "no frames", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(y4m_error("noeol.y4m", "YUV4MPEG2 W4 H4", 15, "not terminated", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_TRUE(y4m_error("empty.y4m", "", 0, "empty", err, sizeof(err)));
	TH_LOG("%s", err);
	memcpy(buf + len - (64 * 48 * 3 / 2) - 6, "FRAMX\n", 6);
	EXPECT_TRUE(y4m_error("marker.y4m", buf, len, "frame 2: no FRAME marker", err, sizeof(err)));
	TH_LOG("%s", err);
	EXPECT_FALSE(fw_source_y4m_new("/nonexistent/clip.y4m", err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "/nonexistent/clip.y4m") && strstr(err, "No such file"));
	TH_LOG("%s", err);
	remove_tmp();
}

/* A good clip plays in a loop, scaled and converted, with stamps. */
TEST(y4m_and_raw_play_with_stamps)
{
	static char buf[1 << 20];
	size_t len = make_y4m(buf, 64, 48, 3);
	const char *path = write_file("good.y4m", buf, len);
	struct fw_frame_req req = {
		{ VCAP_FMT_RGB24, 320, 240, 960, 960 * 240 }, 0, 0, 320, 240
	};
	u8 *frame = malloc(req.fmt.sizeimage);
	struct vcap_stamp st;
	struct fw_source *s;
	char err[512], spec[256];
	u64 seq;

	ASSERT_TRUE(path && frame);
	s = fw_source_y4m_new(path, err, sizeof(err));
	ASSERT_TRUE(s);
	for (seq = 0; seq < 4; seq++) {
		s->ops->render(s, &req, frame, seq, VCAP_GEN_NONE);
		ASSERT_EQ((int)vcap_stamp_check(&req.fmt, frame, req.fmt.sizeimage, &st),
			  VCAP_STAMP_OK);
		ASSERT_EQ(st.seq, seq);
		/* Grey levels 40, 100, 160, then 40 again: the loop. */
		{
			u8 want = (u8)(((40 + 60 * (seq % 3)) - 16) * 298 / 256);
			u8 got = frame[(120 * 320 + 160) * 3 + 1];

			EXPECT_LE(got > want ? got - want : want - got, 2);
		}
	}
	fw_source_destroy(s);

	/* Raw: whole frames only. */
	path = write_file("three.raw", buf, 3 * 160 * 120 * 2);
	snprintf(spec, sizeof(spec), "raw:%s:YUYV:160x120", path);
	s = fw_source_parse(spec, err, sizeof(err));
	ASSERT_TRUE(s);
	s->ops->render(s, &req, frame, 9, VCAP_GEN_NONE);
	EXPECT_EQ((int)vcap_stamp_check(&req.fmt, frame, req.fmt.sizeimage, NULL),
		  VCAP_STAMP_OK);
	fw_source_destroy(s);
	path = write_file("short.raw", buf, 3 * 160 * 120 * 2 - 1);
	snprintf(spec, sizeof(spec), "raw:%s:YUYV:160x120", path);
	EXPECT_FALSE(fw_source_parse(spec, err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "not a whole number"));
	TH_LOG("%s", err);
	snprintf(spec, sizeof(spec), "raw:%s:MJPG:160x120", path);
	EXPECT_FALSE(fw_source_parse(spec, err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "not a board format"));
	EXPECT_FALSE(fw_source_parse("raw:/x:YUYV:160", err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "expected raw:FILE:FOURCC:WxH"));
	EXPECT_FALSE(fw_source_parse("camera", err, sizeof(err)));
	EXPECT_TRUE(strstr(err, "bad source 'camera'"));
	free(frame);
	remove_tmp();
}

/*
 * A clip played as a scaled source shows: 1080p into 640x480 in each
 * format family, the clip in the 640x360 picture, black above and below
 * (outside the stamp bands), stamps whole; flips inside the picture.
 */
TEST(y4m_and_raw_scaled_into_the_picture)
{
	static const u32 fourccs[] = {
		VCAP_FMT_YUYV, VCAP_FMT_NV12, VCAP_FMT_YUV420, VCAP_FMT_RGB24,
		VCAP_FMT_XBGR32,
	};
	static char buf[1 << 20];
	size_t len = make_y4m(buf, 64, 48, 3);
	const char *path = write_file("scaled.y4m", buf, len);
	struct fw_source *s;
	char err[512];
	unsigned int f;

	ASSERT_TRUE(path);
	s = fw_source_y4m_new(path, err, sizeof(err));
	ASSERT_TRUE(s);
	for (f = 0; f < ARRAY_SIZE(fourccs); f++) {
		const struct vcap_format_info *fi = vcap_format_find(fourccs[f]);
		u32 bpl = vcap_format_min_bpl(fi, 640);
		struct fw_frame_req req = {
			{ fourccs[f], 640, 480, bpl,
			  (u32)vcap_format_sizeimage(fi, bpl, 480) },
			0, VCAP_REQ_HFLIP | VCAP_REQ_VFLIP, 1920, 1080
		};
		u8 *frame = malloc(req.fmt.sizeimage);
		const u8 *row;
		struct vcap_stamp st;
		u32 y;

		ASSERT_TRUE(frame);
		memset(frame, 0x5a, req.fmt.sizeimage);
		s->ops->render(s, &req, frame, 4, VCAP_GEN_NONE);
		ASSERT_EQ((int)vcap_stamp_check(&req.fmt, frame,
						req.fmt.sizeimage, &st),
			  VCAP_STAMP_OK);
		ASSERT_EQ(st.seq, 4);
		/* Rows 30 and 440: bars; 100 and 400: the clip (grey 100). */
		for (y = 30; y < 480; y += 70) {
			bool bar = y < 60 || y >= 420;

			row = frame + (size_t)y * bpl;
			switch (fourccs[f]) {
			case VCAP_FMT_YUYV:
				EXPECT_EQ(row[0], bar ? 16 : 100);
				EXPECT_EQ(row[1], 128);
				break;
			case VCAP_FMT_RGB24:
				EXPECT_EQ(row[1], bar ? 0 : ((100 - 16) * 298 + 128) >> 8);
				break;
			case VCAP_FMT_XBGR32:
				EXPECT_EQ(row[1], bar ? 0 : ((100 - 16) * 298 + 128) >> 8);
				EXPECT_EQ(row[3], 0xff);
				break;
			default:
				EXPECT_EQ(row[0], bar ? 16 : 100);
				/* Chroma of the row pair: neutral. */
				EXPECT_EQ(frame[(size_t)bpl * 480 +
					  (size_t)(y / 2) * (bpl / (fi->planar ==
					  VCAP_PLANAR_NV ? 1 : 2))], 128);
				break;
			}
		}
		free(frame);
	}
	fw_source_destroy(s);
	remove_tmp();
}

VTEST_MAIN()
