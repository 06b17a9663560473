// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Live Y4M on the HDMI input: ffmpeg and GStreamer pipelines into a FIFO,
 * the link following the stream (lock, end, stall, new size), bad input
 * dropped with the board running on, and a swap through the control
 * command while the guest streams.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "vtest.h"
#include "fw-test.h"
#include "fw-test-run.h"
#include "vcap-stamp.h"
#include "vcap-timings.h"

FIXTURE(pipe) {
	struct fw_run *r;
	struct vcap_board_ctrl *c;
	char dir[64];
	char fifo[128];
	char out[4096];		/* the last command's answer */
};

FIXTURE_SETUP(pipe)
{
	signal(SIGPIPE, SIG_IGN);
	/* Three 1280x720 YUYV slots and more. */
	self->r = t_run_new(16 << 20);
	ASSERT_TRUE(self->r);
	self->c = self->r->board.ctrl;
	strcpy(self->dir, "/tmp/vcap-pipe-XXXXXX");
	ASSERT_TRUE(mkdtemp(self->dir));
	snprintf(self->fifo, sizeof(self->fifo), "%s/in", self->dir);
	ASSERT_EQ(mkfifo(self->fifo, 0600), 0);
}

FIXTURE_TEARDOWN(pipe)
{
	char cmd[160];

	t_run_free(self->r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		vtest_log("cannot remove %s", self->dir);
}

#define CMD(line)	t_cmd(self->r, self->out, sizeof(self->out), line)

/* A START on the HDMI input as the driver writes it: status.error. */
static u32 start_hdmi(struct fw_run *r, u32 fourcc, u32 w, u32 h, u32 den)
{
	struct vcap_board_ctrl *c = r->board.ctrl;
	struct vcap_board_request *q = &c->request;
	u32 seq = t_rd32(&c->status.ack_seq) + 1;
	u64 end = fw_now_ns() + 1000000000ull;

	q->cmd = htole32(VCAP_CMD_START);
	q->fourcc = htole32(fourcc);
	q->width = htole32(w);
	q->height = htole32(h);
	q->bytesperline = 0;
	q->interval_num = htole32(1);
	q->interval_den = htole32(den);
	q->pattern = 0;
	q->flags = 0;
	q->input = htole32(VCAP_INPUT_HDMI);
	q->src_width = 0;
	q->src_height = 0;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&q->seq, seq);
	while (t_rd32(&c->status.ack_seq) != seq && fw_now_ns() < end)
		fw_run_once(r);
	if (t_rd32(&c->status.ack_seq) != seq)
		return ~0u;
	return t_rd32(&c->status.error);
}

/* A good EDID, as a driver writes it: hotplug goes high. */
static void plug(struct fw_run *r)
{
	t_write_edid(r->board.ctrl);
	t_run_ms(r, 10);
}

static u32 link_state(const struct vcap_board_ctrl *c)
{
	return t_rd32(&c->link.state);
}

/* Run the board until the link is in state, for at most ms. */
static bool wait_link(struct fw_run *r, u32 state, unsigned int ms)
{
	u64 end = fw_now_ns() + ms * 1000000ull;

	while (fw_now_ns() < end) {
		fw_run_once(r);
		if (link_state(r->board.ctrl) == state)
			return true;
	}
	return false;
}

static bool link_timing_is(const struct vcap_board_ctrl *c, const char *name)
{
	const struct vcap_timing_def *d = vcap_timings_by_name(name);
	struct vcap_timing t;

	return d && !vcap_timing_from_board(&c->link.timing, &t) &&
	       !memcmp(&t, &d->t, sizeof(t));
}

static u64 frames(const struct fw_run *r)
{
	return t_rd64(&r->board.ctrl->status.frames_produced);
}

/* The value of key in the stats, or 0. */
static u64 stat_u64(struct fw_run *r, const char *key)
{
	char out[4096], k[64], *p;

	if (t_cmd(r, out, sizeof(out), "stats"))
		return 0;
	snprintf(k, sizeof(k), "\n%s=", key);
	p = strstr(out, k);
	return p ? strtoull(p + strlen(k), NULL, 10) : 0;
}

/*
 * The FIFO opened for writing, once the board's reader holds it open
 * (the board runs meanwhile); -1 after ms.
 */
static int open_writer(struct fw_run *r, const char *path, unsigned int ms)
{
	u64 end = fw_now_ns() + ms * 1000000ull;
	int fd;

	while (fw_now_ns() < end) {
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			fcntl(fd, F_SETFL, 0);
			return fd;
		}
		t_run_ms(r, 5);
	}
	return -1;
}

static bool put(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n;
}

/* A 420 Y4M header and its frames of a flat grey level. */
static bool put_header(int fd, u32 w, u32 h, const char *rate)
{
	char line[128];

	snprintf(line, sizeof(line), "YUV4MPEG2 W%u H%u F%s Ip A1:1 C420jpeg\n",
		 w, h, rate);
	return put(fd, line, strlen(line));
}

static bool put_frame(int fd, u32 w, u32 h, u8 level)
{
	size_t n = (size_t)w * h * 3 / 2;
	u8 *b = malloc(n);
	bool ok;

	if (!b)
		return false;
	memset(b, level, (size_t)w * h);
	memset(b + (size_t)w * h, 128, n - (size_t)w * h);
	ok = put(fd, "FRAME\n", 6) && put(fd, b, n);
	free(b);
	return ok;
}

/* sh -c line in the background; its pid. */
static pid_t spawn(const char *line)
{
	pid_t pid = fork();

	if (!pid) {
		execl("/bin/sh", "sh", "-c", line, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Run the board until pid exits, for at most ms: its exit status or -1. */
static int reap(struct fw_run *r, pid_t pid, unsigned int ms)
{
	u64 end = fw_now_ns() + ms * 1000000ull;
	int st;

	while (fw_now_ns() < end) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		t_run_ms(r, 10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

static bool have(const char *tool)
{
	char line[128];

	snprintf(line, sizeof(line), "command -v %s >/dev/null 2>&1", tool);
	return !system(line);
}

/* The source's timing rule, from the table. */
TEST(timing_rule_is_the_tables_size_and_nearest_rate)
{
	static const struct {
		u32 w, h, num, den;
		const char *name;
	} tab[] = {
		{ 640, 480, 30, 1, "640x480p60" },	/* the only 640x480 */
		{ 1280, 720, 50, 1, "720p50" },
		{ 1280, 720, 60000, 1001, "720p60" },
		{ 1920, 1080, 24000, 1001, "1080p25" },
		{ 1920, 1080, 30, 1, "1080p30" },
		{ 1920, 1080, 100, 1, "1080p120" },
		{ 1920, 1080, 0, 0, "1080p60" },	/* no F: 60 */
		{ 320, 240, 30, 1, "640x480p60" },	/* letterboxed */
		{ 800, 600, 60, 1, "720p60" },
		{ 3840, 2160, 25, 1, "2160p30" },
	};
	const struct vcap_timing_def *d;
	unsigned int i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		d = fw_live_timing_for(tab[i].w, tab[i].h, tab[i].num,
				       tab[i].den);
		ASSERT_TRUE(d);
		if (strcmp(d->name, tab[i].name))
			TH_LOG("%ux%u at %u/%u: %s", tab[i].w, tab[i].h,
			       tab[i].num, tab[i].den, d->name);
		EXPECT_EQ(strcmp(d->name, tab[i].name), 0);
	}
	EXPECT_FALSE(fw_live_timing_for(4096, 2160, 30, 1));
}

/*
 * Luma and chroma of a YU12 frame outside the stamp bands: the rows a
 * stamp leaves alone.
 */
static bool same_picture(const u8 *a, const u8 *b, u32 w, u32 h, u32 band)
{
	size_t luma = (size_t)w * h, cw = w / 2;
	u32 y;

	for (y = band; y < h - band; y++)
		if (memcmp(a + (size_t)y * w, b + (size_t)y * w, w))
			return false;
	for (y = band / 2; y < (h - band) / 2; y++) {
		if (memcmp(a + luma + y * cw, b + luma + y * cw, cw))
			return false;
		if (memcmp(a + luma * 5 / 4 + y * cw,
			   b + luma * 5 / 4 + y * cw, cw))
			return false;
	}
	return true;
}

TEST_F_TIMEOUT(pipe, ffmpeg_pipeline_locks_flows_and_ends, 60)
{
	const u32 w = 640, h = 480, n = 60;
	const size_t fsz = (size_t)w * h * 3 / 2;
	struct vcap_frame_fmt fmt = { VCAP_FMT_YUV420, w, h, w, (u32)fsz };
	char line[512], ref[160], cmd[160];
	struct vcap_stamp_geom sg;
	u8 *frame, *refs = NULL;
	size_t hdr;
	u64 seq, f0;
	FILE *f;
	u32 slot, i, match = n;
	pid_t pid;

	if (!have("ffmpeg"))
		SKIP(return, "no ffmpeg");
	/* The same frames, for reference: testsrc2 draws the same each run. */
	snprintf(ref, sizeof(ref), "%s/ref.y4m", self->dir);
	snprintf(line, sizeof(line),
		 "nice -n 19 ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=%ux%u:rate=30 -frames:v %u -f yuv4mpegpipe -pix_fmt yuv420p - > %s",
		 w, h, n, ref);
	ASSERT_EQ(system(line), 0);
	f = fopen(ref, "rb");
	ASSERT_TRUE(f);
	refs = malloc(fsz * n);
	ASSERT_TRUE(refs);
	ASSERT_TRUE(fgets(line, sizeof(line), f));
	for (i = 0; i < n; i++) {
		ASSERT_TRUE(fgets(line, sizeof(line), f));
		ASSERT_EQ(fread(refs + fsz * i, 1, fsz, f), fsz);
	}
	fclose(f);

	plug(self->r);
	ASSERT_EQ(CMD("source pipe:x"), -1);	/* no such path */
	snprintf(cmd, sizeof(cmd), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(cmd), 0);
	EXPECT_TRUE(strstr(self->out, "link=no-signal\n"));
	snprintf(line, sizeof(line),
		 "exec nice -n 19 ffmpeg -nostdin -loglevel error -re -f lavfi -i testsrc2=size=%ux%u:rate=30 -frames:v %u -f yuv4mpegpipe -pix_fmt yuv420p - > %s",
		 w, h, n, self->fifo);
	pid = spawn(line);
	ASSERT_GT(pid, 0);
	/* 640x480 at 30 Hz: the table's one 640x480 timing, DMT at 60. */
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 5000));
	EXPECT_TRUE(link_timing_is(self->c, "640x480p60"));
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "hdmi_source=640x480p60\n"));
	EXPECT_TRUE(strstr(self->out, "pipe_stream=640x480 rate=30/1 timing=640x480p60\n"));

	ASSERT_EQ(start_hdmi(self->r, VCAP_FMT_YUV420, w, h, 60), 0);
	f0 = frames(self->r);
	t_run_ms(self->r, 600);
	EXPECT_GT(frames(self->r), f0 + 10);
	/* Each board frame is a source frame, stamps aside. */
	ASSERT_EQ(vcap_stamp_geom(&fmt, &sg), 0);
	frame = malloc(fsz);
	ASSERT_TRUE(frame);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	ASSERT_EQ(t_read_slot(self->c, slot, self->r->board.mem +
			      t_rd64(&self->c->status.ring_offset) +
			      slot * t_rd64(&self->c->status.slot_stride),
			      fsz, frame, &seq), T_READ_OK);
	hdr = 0;
	for (i = 0; i < n; i++)
		if (same_picture(frame, refs + fsz * i, w, h, sg.band_h)) {
			match = i;
			hdr++;
		}
	EXPECT_EQ(hdr, 1);
	EXPECT_LT(match, n);
	EXPECT_EQ(vcap_stamp_check(&fmt, frame, fsz, NULL), VCAP_STAMP_OK);
	/* 30 Hz into 60: frames repeat, none is skipped on a quiet host. */
	EXPECT_GT(stat_u64(self->r, "pipe_frames_repeated"), 5);

	/* The end of the stream: no signal, frames stop. */
	EXPECT_EQ(reap(self->r, pid, 10000), 0);
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_NO_SIGNAL, 1000));
	EXPECT_EQ(stat_u64(self->r, "pipe_frames_in"), n);
	EXPECT_EQ(stat_u64(self->r, "pipe_errors"), 0);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	f0 = frames(self->r);
	t_run_ms(self->r, 100);
	EXPECT_EQ(frames(self->r), f0);
	free(frame);
	free(refs);
}

TEST_F_TIMEOUT(pipe, gstreamer_pipeline_is_letterboxed_into_640x480, 60)
{
	char line[512], cmd[160];
	pid_t pid;

	if (!have("gst-launch-1.0"))
		SKIP(return, "no gst-launch-1.0");
	plug(self->r);
	snprintf(cmd, sizeof(cmd), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(cmd), 0);
	snprintf(line, sizeof(line),
		 "exec nice -n 19 gst-launch-1.0 -q videotestsrc num-buffers=30 ! video/x-raw,width=320,height=240,framerate=30/1 ! y4menc ! filesink location=%s",
		 self->fifo);
	pid = spawn(line);
	ASSERT_GT(pid, 0);
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 10000));
	EXPECT_TRUE(link_timing_is(self->c, "640x480p60"));
	EXPECT_EQ(reap(self->r, pid, 20000), 0);
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_NO_SIGNAL, 1500));
	EXPECT_EQ(stat_u64(self->r, "pipe_frames_in"), 30);
	EXPECT_EQ(stat_u64(self->r, "pipe_errors"), 0);
}

/*
 * One bad stream: written, closed; the link comes to no signal with
 * the error named, and the next good stream locks again.
 */
static void bad_stream(struct vtest_meta *_vtest, struct fw_run *r,
		       const char *fifo, const void *data, size_t len,
		       const char *error)
{
	char out[4096], line[160];
	u64 errs;
	int fd;

	plug(r);
	snprintf(line, sizeof(line), "source pipe:%s", fifo);
	ASSERT_EQ(t_cmd(r, out, sizeof(out), line), 0);
	fd = open_writer(r, fifo, 2000);
	ASSERT_GE(fd, 0);
	errs = stat_u64(r, "pipe_errors");
	EXPECT_TRUE(put(fd, data, len));
	close(fd);
	t_run_ms(r, 200);
	EXPECT_EQ(stat_u64(r, "pipe_errors"), errs + 1);
	EXPECT_EQ(link_state(r->board.ctrl), VCAP_LINK_NO_SIGNAL);
	ASSERT_EQ(t_cmd(r, out, sizeof(out), "stats"), 0);
	if (!strstr(out, error))
		TH_LOG("expected '%s' in:\n%s", error, out);
	EXPECT_TRUE(strstr(out, error));
	EXPECT_TRUE(strstr(out, "pipe=waiting\n"));
	EXPECT_TRUE(strstr(out, "state=") && !strstr(out, "state=dead"));

	/* The board runs on: the next writer's stream locks. */
	fd = open_writer(r, fifo, 2000);
	ASSERT_GE(fd, 0);
	EXPECT_TRUE(put_header(fd, 640, 480, "30:1"));
	EXPECT_TRUE(put_frame(fd, 640, 480, 100));
	EXPECT_TRUE(wait_link(r, VCAP_LINK_LOCKED, 1000));
	close(fd);
	EXPECT_TRUE(wait_link(r, VCAP_LINK_NO_SIGNAL, 1000));
}

TEST_F(pipe, truncated_header_is_no_signal)
{
	static const char s[] = "YUV4MPEG2 W64 H48 F30:1";

	bad_stream(vtest_current(), self->r, self->fifo, s, strlen(s),
		   "pipe_last_error=header line is truncated");
}

TEST_F(pipe, garbage_header_is_no_signal)
{
	static const char s[] = "GIF89a\x01\x02 not a video\n";

	bad_stream(vtest_current(), self->r, self->fifo, s, strlen(s),
		   "pipe_last_error=not a Y4M stream (no YUV4MPEG2 signature): 'GIF89a?? not a video'");
}

TEST_F(pipe, bad_header_parameter_is_no_signal)
{
	static const char s[] = "YUV4MPEG2 W64 Hsixty F30:1\nFRAME\n";
	static const char c[] = "YUV4MPEG2 W64 H48 F30:1 C420p10\nFRAME\n";
	static const char f[] = "YUV4MPEG2 W64 H48 F30:0\nFRAME\n";

	bad_stream(vtest_current(), self->r, self->fifo, s, strlen(s),
		   "pipe_last_error=bad header parameter 'Hsixty'");
	bad_stream(vtest_current(), self->r, self->fifo, c, strlen(c),
		   "pipe_last_error=unsupported colour space '420p10'");
	bad_stream(vtest_current(), self->r, self->fifo, f, strlen(f),
		   "pipe_last_error=bad header parameter 'F30:0'");
}

TEST_F(pipe, long_header_line_is_no_signal)
{
	char s[3000];

	memset(s, 'X', sizeof(s));
	memcpy(s, "YUV4MPEG2 W64 H48 ", 18);
	s[sizeof(s) - 1] = '\n';
	bad_stream(vtest_current(), self->r, self->fifo, s, sizeof(s),
		   "pipe_last_error=not a Y4M stream (header line too long)");
}

TEST_F(pipe, truncated_frame_is_no_signal)
{
	static const char s[] =
		"YUV4MPEG2 W64 H48 F30:1 C420jpeg\nFRAME\n0123456789";

	bad_stream(vtest_current(), self->r, self->fifo, s, strlen(s),
		   "pipe_last_error=frame 0 is truncated (10 of 4608 bytes)");
}

TEST_F(pipe, frame_with_bad_parameters_is_no_signal)
{
	static const char s[] = "YUV4MPEG2 W64 H48 F30:1\nFRAME Q7\n";
	static const char m[] = "YUV4MPEG2 W64 H48 F30:1\nFRAMES\n";

	bad_stream(vtest_current(), self->r, self->fifo, s, strlen(s),
		   "pipe_last_error=frame 0: bad frame parameter 'Q7'");
	bad_stream(vtest_current(), self->r, self->fifo, m, strlen(m),
		   "pipe_last_error=frame 0: no FRAME marker: 'FRAMES'");
}

TEST_F(pipe, stalled_writer_is_no_signal_until_frames_resume)
{
	char line[160];
	u64 f0;
	int fd;

	plug(self->r);
	snprintf(line, sizeof(line), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(line), 0);
	fd = open_writer(self->r, self->fifo, 2000);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(put_header(fd, 640, 480, "30:1"));
	ASSERT_TRUE(put_frame(fd, 640, 480, 50));
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 1000));
	ASSERT_EQ(start_hdmi(self->r, VCAP_FMT_YUYV, 640, 480, 60), 0);
	/* Frames at 60 Hz, the one source frame repeated. */
	f0 = frames(self->r);
	t_run_ms(self->r, 300);
	EXPECT_GT(frames(self->r), f0 + 5);
	/* Nothing for a second: no signal, no frames. */
	EXPECT_TRUE(wait_link(self->r, VCAP_LINK_NO_SIGNAL, 1200));
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "pipe=stalled\n"));
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	f0 = frames(self->r);
	t_run_ms(self->r, 100);
	EXPECT_EQ(frames(self->r), f0);
	/* A frame again: the signal and the frames are back. */
	ASSERT_TRUE(put_frame(fd, 640, 480, 60));
	EXPECT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 500));
	t_run_ms(self->r, 200);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_GT(frames(self->r), f0 + 3);
	close(fd);
	EXPECT_TRUE(wait_link(self->r, VCAP_LINK_NO_SIGNAL, 500));
}

TEST_F(pipe, new_size_on_a_reopened_fifo_is_a_new_timing)
{
	char line[160];
	u32 gen;
	int fd;

	plug(self->r);
	snprintf(line, sizeof(line), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(line), 0);
	fd = open_writer(self->r, self->fifo, 2000);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(put_header(fd, 640, 480, "30:1"));
	ASSERT_TRUE(put_frame(fd, 640, 480, 50));
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 1000));
	EXPECT_TRUE(link_timing_is(self->c, "640x480p60"));
	ASSERT_EQ(start_hdmi(self->r, VCAP_FMT_YUYV, 640, 480, 60), 0);
	close(fd);
	EXPECT_TRUE(wait_link(self->r, VCAP_LINK_NO_SIGNAL, 500));
	gen = t_rd32(&self->c->link.gen);

	fd = open_writer(self->r, self->fifo, 2000);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(put_header(fd, 1280, 720, "50:1"));
	ASSERT_TRUE(put_frame(fd, 1280, 720, 50));
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 1000));
	EXPECT_TRUE(link_timing_is(self->c, "720p50"));
	EXPECT_GT(t_rd32(&self->c->link.gen), gen);
	/* The 640x480 capture waits for a new START. */
	t_run_ms(self->r, 50);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);

	/* A new header in the same stream is a new size too. */
	ASSERT_TRUE(put_header(fd, 1920, 1080, "30000:1001"));
	ASSERT_TRUE(put_frame(fd, 1920, 1080, 50));
	t_run_ms(self->r, 200);
	EXPECT_TRUE(link_timing_is(self->c, "1080p30"));
	close(fd);
}

TEST_F(pipe, faster_source_is_skipped_and_the_board_keeps_pace)
{
	char line[160];
	unsigned int i;
	u64 f0;
	int fd;

	plug(self->r);
	snprintf(line, sizeof(line), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(line), 0);
	fd = open_writer(self->r, self->fifo, 2000);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(put_header(fd, 640, 480, "60:1"));
	ASSERT_TRUE(put_frame(fd, 640, 480, 0));
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 1000));
	ASSERT_EQ(start_hdmi(self->r, VCAP_FMT_YUYV, 640, 480, 60), 0);
	f0 = frames(self->r);
	/* As fast as the pipe takes them, while the board runs on. */
	for (i = 0; i < 100; i++) {
		ASSERT_TRUE(put_frame(fd, 640, 480, (u8)i));
		if (!(i % 10))
			t_run_ms(self->r, 5);
	}
	t_run_ms(self->r, 100);
	close(fd);
	EXPECT_EQ(stat_u64(self->r, "pipe_frames_in"), 101);
	EXPECT_GT(stat_u64(self->r, "pipe_frames_skipped"), 50);
	EXPECT_LT(frames(self->r) - f0, 40);
	EXPECT_EQ(stat_u64(self->r, "pipe_errors"), 0);
}

TEST_F(pipe, swap_through_the_control_command_while_streaming)
{
	char line[160], fifo2[128];
	u32 gen;
	u64 f0;
	int fd, fd2;

	snprintf(fifo2, sizeof(fifo2), "%s/in2", self->dir);
	ASSERT_EQ(mkfifo(fifo2, 0600), 0);
	plug(self->r);
	snprintf(line, sizeof(line), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(line), 0);
	fd = open_writer(self->r, self->fifo, 2000);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(put_header(fd, 640, 480, "30:1"));
	ASSERT_TRUE(put_frame(fd, 640, 480, 50));
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 1000));
	ASSERT_EQ(start_hdmi(self->r, VCAP_FMT_YUYV, 640, 480, 60), 0);
	t_run_ms(self->r, 100);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	gen = t_rd32(&self->c->link.gen);

	/* The new source: the old writer is cut off, the link follows. */
	snprintf(line, sizeof(line), "source pipe:%s", fifo2);
	ASSERT_EQ(CMD(line), 0);
	EXPECT_TRUE(strstr(self->out, "link=no-signal\n"));
	t_run_ms(self->r, 20);
	EXPECT_GT(t_rd32(&self->c->link.gen), gen);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_NO_SIGNAL);
	EXPECT_FALSE(put_frame(fd, 640, 480, 50));	/* EPIPE */
	close(fd);
	fd2 = open_writer(self->r, fifo2, 2000);
	ASSERT_GE(fd2, 0);
	ASSERT_TRUE(put_header(fd2, 640, 480, "60:1"));
	ASSERT_TRUE(put_frame(fd2, 640, 480, 200));
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 1000));
	/* The same timing: the capture goes on by itself. */
	f0 = frames(self->r);
	t_run_ms(self->r, 200);
	EXPECT_EQ(t_rd32(&self->c->status.state), VCAP_STATE_STREAMING);
	EXPECT_GT(frames(self->r), f0 + 3);
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "source=pipe:"));
	EXPECT_TRUE(strstr(self->out, "/in2\n"));

	/* A timing plugged in unplugs the live source. */
	ASSERT_EQ(CMD("source 720p60"), 0);
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "source=pattern\n"));
	EXPECT_TRUE(strstr(self->out, "hdmi_source=720p60\n"));
	close(fd2);

	/* A file source after a live one: the HDMI source from before. */
	snprintf(line, sizeof(line), "source pipe:%s", fifo2);
	ASSERT_EQ(CMD(line), 0);
	EXPECT_TRUE(strstr(self->out, "hdmi_source=none\n"));
	ASSERT_EQ(CMD("source pattern"), 0);
	EXPECT_TRUE(strstr(self->out, "hdmi_source=720p60\n"));
}

/*
 * A size without a timing: 128x48 (8:3) in 640x480p60, the picture
 * scaled to the width, black bars above and below it.
 */
TEST_F(pipe, size_without_a_timing_is_letterboxed)
{
	const u32 w = 640, h = 480;
	const size_t fsz = (size_t)w * h * 3 / 2;
	char line[160];
	u8 *frame;
	u64 seq;
	u32 slot;
	int fd;

	plug(self->r);
	snprintf(line, sizeof(line), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(line), 0);
	fd = open_writer(self->r, self->fifo, 2000);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(put_header(fd, 128, 48, "30:1"));
	ASSERT_TRUE(put_frame(fd, 128, 48, 180));
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 1000));
	EXPECT_TRUE(link_timing_is(self->c, "640x480p60"));
	ASSERT_EQ(start_hdmi(self->r, VCAP_FMT_YUV420, w, h, 60), 0);
	t_run_ms(self->r, 100);
	frame = malloc(fsz);
	ASSERT_TRUE(frame);
	slot = t_rd32(&self->c->status.latest_slot);
	ASSERT_LT(slot, VCAP_MAX_SLOTS);
	ASSERT_EQ(t_read_slot(self->c, slot, self->r->board.mem +
			      t_rd64(&self->c->status.ring_offset) +
			      slot * t_rd64(&self->c->status.slot_stride),
			      fsz, frame, &seq), T_READ_OK);
	/* 640x240 of picture, rows 120 to 359; black above and below. */
	EXPECT_EQ(frame[(size_t)100 * w + 320], 16);
	EXPECT_EQ(frame[(size_t)130 * w + 320], 180);
	EXPECT_EQ(frame[(size_t)240 * w + 0], 180);
	EXPECT_EQ(frame[(size_t)350 * w + 639], 180);
	EXPECT_EQ(frame[(size_t)370 * w + 320], 16);
	free(frame);
	close(fd);
}

TEST_F(pipe, interlaced_or_too_large_stream_is_out_of_range)
{
	static const char it[] = "YUV4MPEG2 W1920 H1080 F30:1 It\n";
	static const char big[] = "YUV4MPEG2 W4096 H2160 F30:1\n";
	char line[160];
	int fd;

	plug(self->r);
	snprintf(line, sizeof(line), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(line), 0);
	fd = open_writer(self->r, self->fifo, 2000);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(put(fd, it, strlen(it)));
	EXPECT_TRUE(wait_link(self->r, VCAP_LINK_OUT_OF_RANGE, 1000));
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "hdmi_source=out-of-range\n"));
	close(fd);
	EXPECT_TRUE(wait_link(self->r, VCAP_LINK_NO_SIGNAL, 1000));
	fd = open_writer(self->r, self->fifo, 2000);
	ASSERT_GE(fd, 0);
	ASSERT_TRUE(put(fd, big, strlen(big)));
	EXPECT_TRUE(wait_link(self->r, VCAP_LINK_OUT_OF_RANGE, 1000));
	EXPECT_EQ(t_rd32(&self->c->link.timing.width), 4096);
	close(fd);
	EXPECT_TRUE(wait_link(self->r, VCAP_LINK_NO_SIGNAL, 1000));
}

/* A writer sending garbage again and again: one message a second. */
TEST_F(pipe, errors_are_counted_and_their_messages_rate_limited)
{
	char line[160], log[160], buf[4096];
	int fd, err_fd, saved, i, lines = 0;
	ssize_t n, k;

	snprintf(log, sizeof(log), "%s/err", self->dir);
	err_fd = open(log, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ASSERT_GE(err_fd, 0);
	saved = dup(STDERR_FILENO);
	ASSERT_GE(saved, 0);
	fflush(stderr);
	dup2(err_fd, STDERR_FILENO);
	snprintf(line, sizeof(line), "source pipe:%s", self->fifo);
	ASSERT_EQ(CMD(line), 0);
	for (i = 0; i < 5; i++) {
		fd = open_writer(self->r, self->fifo, 2000);
		ASSERT_GE(fd, 0);
		EXPECT_TRUE(put(fd, "junk\n", 5));
		close(fd);
		t_run_ms(self->r, 30);
	}
	t_run_ms(self->r, 50);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	EXPECT_EQ(stat_u64(self->r, "pipe_errors"), 5);
	n = pread(err_fd, buf, sizeof(buf) - 1, 0);
	close(err_fd);
	ASSERT_GE(n, 0);
	buf[n] = 0;
	for (k = 0; k < n; k++)
		lines += buf[k] == '\n';
	EXPECT_EQ(lines, 1);
	EXPECT_TRUE(strstr(buf, "not a Y4M stream"));
}

TEST_F(pipe, standard_input_ends_for_good)
{
	int p[2];

	ASSERT_EQ(pipe(p), 0);
	ASSERT_EQ(dup2(p[0], STDIN_FILENO), STDIN_FILENO);
	close(p[0]);
	plug(self->r);
	ASSERT_EQ(CMD("source -"), 0);
	ASSERT_TRUE(put_header(p[1], 64, 48, "25:1"));
	ASSERT_TRUE(put_frame(p[1], 64, 48, 50));
	/* 64x48: letterboxed into the smallest timing. */
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_LOCKED, 1000));
	EXPECT_TRUE(link_timing_is(self->c, "640x480p60"));
	close(p[1]);
	ASSERT_TRUE(wait_link(self->r, VCAP_LINK_NO_SIGNAL, 500));
	ASSERT_EQ(CMD("stats"), 0);
	EXPECT_TRUE(strstr(self->out, "pipe=ended\n"));
	EXPECT_TRUE(strstr(self->out, "source=pipe:- (standard input)\n"));
}

VTEST_MAIN()
