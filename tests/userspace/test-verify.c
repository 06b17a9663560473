// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * Stream verification over a fake source (no V4L2): a good stream
 * passes; a gap, a reorder, a torn frame, a flagged frame, a short frame
 * and a missing stamp each fail, naming the right frame.  The frames are
 * the board's own pattern with its stamps, rendered by common/.
 */
#include <libvcap.h>

#include "ut.h"
#include "vcap-pattern.h"
#include "vcap-stamp.h"
#include <vcap/board.h>

#define W 320
#define H 240

/* One scripted frame: which pattern frame, which sequence, what damage. */
struct step {
	uint64_t stamp;		/* frame number drawn */
	uint64_t seq;		/* driver sequence number */
	uint64_t tear_with;	/* bottom half from this frame, or ~0 */
	uint32_t flags;		/* VCAP_FRAME_* */
	int damage;		/* 1: blank frame, 2: short, 3: time back */
};

struct fake {
	const struct step *script;
	size_t len, pos;
	struct vcap_gen gen;
	struct vcap_frame_fmt fmt;
	uint8_t *buf, *tmp;
	int held;
};

static struct fake fake_state;

static int fake_open(struct vcap_source *src, const char *path,
		     const struct vcap_source_config *cfg)
{
	struct fake *f = &fake_state;

	(void)path;
	(void)cfg;
	f->fmt.fourcc = VCAP_FMT_YUYV;
	f->fmt.width = W;
	f->fmt.height = H;
	f->fmt.bytesperline = W * 2;
	f->fmt.sizeimage = W * H * 2;
	if (vcap_gen_init(&f->gen, &f->fmt, VCAP_PATTERN_MOVING_BOX, 0))
		return -1;
	f->buf = malloc(f->fmt.sizeimage);
	f->tmp = malloc(f->fmt.sizeimage);
	src->mode.fourcc = f->fmt.fourcc;
	src->mode.width = W;
	src->mode.height = H;
	src->mode.bytesperline = W * 2;
	src->mode.sizeimage = f->fmt.sizeimage;
	src->priv = f;
	return 0;
}

static int fake_start(struct vcap_source *src)
{
	struct fake *f = src->priv;

	f->pos = 0;
	return 0;
}

static int fake_next(struct vcap_source *src, struct vcap_frame *fr,
		     int timeout_ms)
{
	struct fake *f = src->priv;
	const struct step *s;

	(void)timeout_ms;
	if (f->pos == f->len)
		return VCAP_TIMEOUT;
	s = &f->script[f->pos++];
	vcap_gen_render(&f->gen, f->buf, s->stamp, VCAP_GEN_NONE);
	if (s->tear_with != ~0ull) {
		vcap_gen_render(&f->gen, f->tmp, s->tear_with, VCAP_GEN_NONE);
		memcpy(f->buf + f->fmt.sizeimage / 2,
		       f->tmp + f->fmt.sizeimage / 2, f->fmt.sizeimage / 2);
	}
	if (s->damage == 1)
		memset(f->buf, 0x80, f->fmt.sizeimage);
	memset(fr, 0, sizeof(*fr));
	fr->data = f->buf;
	fr->length = f->fmt.sizeimage;
	fr->bytesused = s->damage == 2 ? f->fmt.sizeimage / 2 :
					 f->fmt.sizeimage;
	fr->sequence = s->seq;
	fr->timestamp_ns = s->damage == 3 ? 1 : 1000000 * (s->seq + 1);
	fr->dequeue_ns = fr->timestamp_ns + 1000;
	fr->flags = s->flags | VCAP_FRAME_TS_MONOTONIC;
	fr->dmabuf_fd = -1;
	fr->mode = src->mode;
	f->held++;
	return 0;
}

static int fake_release(struct vcap_source *src, struct vcap_frame *fr)
{
	struct fake *f = src->priv;

	(void)fr;
	f->held--;
	return 0;
}

static void fake_close(struct vcap_source *src)
{
	struct fake *f = src->priv;

	free(f->buf);
	free(f->tmp);
}

static const struct vcap_source_ops fake_ops = {
	.name = "fake",
	.open = fake_open,
	.start = fake_start,
	.next = fake_next,
	.release = fake_release,
	.close = fake_close,
};

/* Run a script through the source interface; returns the verify state. */
static struct vcap_verify run(const struct step *script, size_t len,
			      uint32_t flags)
{
	struct vcap_source *src;
	struct vcap_verify v;
	struct vcap_frame fr;

	fake_state = (struct fake){ .script = script, .len = len };
	src = vcap_source_open(&fake_ops, "fake", NULL);
	CHECK(src);
	CHECK(!strcmp(vcap_source_kind(src), "fake"));
	CHECK_EQ(vcap_source_fd(src), -1);
	CHECK_EQ(vcap_source_start(src), 0);
	vcap_verify_init(&v, flags);
	while (vcap_source_next(src, &fr, 100) == 0) {
		CHECK(vcap_source_frame_valid(src, &fr) ==
		      !(fr.flags & VCAP_FRAME_TORN));
		vcap_verify_frame(&v, &fr);
		CHECK_EQ(vcap_source_release(src, &fr), 0);
	}
	CHECK_EQ(fake_state.held, 0);
	vcap_source_close(src);
	return v;
}

#define N 12
#define OK_STEP(i) { (i) + 40, (i), ~0ull, 0, 0 }

static void good_script(struct step *s)
{
	for (int i = 0; i < N; i++)
		s[i] = (struct step)OK_STEP(i);
}

static void expect_fail(const struct step *s, uint32_t flags,
			enum vcap_verify_status status, uint64_t frame,
			const char *text)
{
	struct vcap_verify v = run(s, N, flags);

	if (v.status != status || v.bad_frame != frame)
		fprintf(stderr, "got: %s\n", v.message);
	CHECK_EQ(v.status, status);
	CHECK_EQ(v.bad_frame, frame);
	CHECK_STR(v.message, text);
}

int main(void)
{
	struct step s[N];
	struct vcap_verify v;
	char msg[32];

	/* A good stream passes, with and without stamps. */
	good_script(s);
	v = run(s, N, VCAP_VERIFY_STAMPS);
	CHECK_EQ(v.status, VCAP_VERIFY_OK);
	CHECK_EQ(v.frames, N);
	v = run(s, N, 0);
	CHECK_EQ(v.status, VCAP_VERIFY_OK);

	/* A gap in both sequence and stamp: frame 5 is named. */
	good_script(s);
	for (int i = 5; i < N; i++)
		s[i] = (struct step)OK_STEP(i + 2);
	snprintf(msg, sizeof(msg), "frame 5: dropped");
	expect_fail(s, VCAP_VERIFY_STAMPS, VCAP_VERIFY_DROP, 5, msg);
	expect_fail(s, 0, VCAP_VERIFY_DROP, 5, "sequence 7 after 4 (2 missing)");

	/* The driver's sequence is whole but a stamp is skipped (a board
	 * drop the driver did not see): only the stamps can tell. */
	good_script(s);
	s[7].stamp = s[6].stamp + 2;
	for (int i = 8; i < N; i++)
		s[i].stamp = s[i - 1].stamp + 1;
	expect_fail(s, VCAP_VERIFY_STAMPS, VCAP_VERIFY_DROP, 7,
		    "stamp 48 after 46 (1 missing)");
	v = run(s, N, 0);
	CHECK_EQ(v.status, VCAP_VERIFY_OK);

	/* A reorder: frames 3 and 4 swapped; frame 4 goes back. */
	good_script(s);
	s[3] = (struct step)OK_STEP(4);
	s[4] = (struct step)OK_STEP(3);
	/* Frame 3 jumps ahead first: that is where the stream went wrong. */
	expect_fail(s, VCAP_VERIFY_STAMPS, VCAP_VERIFY_DROP, 3, "frame 3");
	v = run(s, N, 0);
	CHECK_EQ(v.bad_frame, 3);
	/* A pure step back: a repeated frame. */
	good_script(s);
	s[6] = (struct step)OK_STEP(5);
	for (int i = 7; i < N; i++)
		s[i] = (struct step)OK_STEP(i - 1);
	expect_fail(s, VCAP_VERIFY_STAMPS, VCAP_VERIFY_REORDER, 6,
		    "sequence 5 after 5");
	expect_fail(s, 0, VCAP_VERIFY_REORDER, 6, "out of order");

	/* A torn frame: top of frame 48, bottom of 49, at index 8. */
	good_script(s);
	s[8].tear_with = s[8].stamp + 1;
	expect_fail(s, VCAP_VERIFY_STAMPS, VCAP_VERIFY_TORN, 8,
		    "frame 8: torn frame: sequence 8");
	/* A tear the reader itself detected (VRAM seqlock). */
	good_script(s);
	s[2].flags = VCAP_FRAME_TORN;
	expect_fail(s, 0, VCAP_VERIFY_TORN, 2, "overwritten while read");

	/* Flagged, short, blank and time going back. */
	good_script(s);
	s[9].flags = VCAP_FRAME_ERROR;
	expect_fail(s, 0, VCAP_VERIFY_FLAGGED, 9, "error flag");
	good_script(s);
	s[1].damage = 2;
	expect_fail(s, VCAP_VERIFY_STAMPS, VCAP_VERIFY_SHORT, 1,
		    "76800 of 153600 bytes");
	good_script(s);
	s[0].damage = 1;
	expect_fail(s, VCAP_VERIFY_STAMPS, VCAP_VERIFY_BAD_STAMP, 0,
		    "no stamp");
	v = run(s, N, 0);	/* without stamps, a blank frame is fine */
	CHECK_EQ(v.status, VCAP_VERIFY_OK);
	good_script(s);
	s[10].damage = 3;
	expect_fail(s, 0, VCAP_VERIFY_REORDER, 10, "timestamp went back");

	/* Only the first failure is kept. */
	good_script(s);
	s[3].flags = VCAP_FRAME_ERROR;
	s[6].flags = VCAP_FRAME_TORN;
	v = run(s, N, 0);
	CHECK_EQ(v.bad_frame, 3);
	CHECK_EQ(v.frames, N);
	UT_DONE();
}
