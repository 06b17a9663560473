// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* vcap-stream capture: N frames or T seconds to a raw or Y4M file. */
#include "vs.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void capture_usage(FILE *f)
{
	fputs("Usage: vcap-stream capture -d DEV | --vram DEV [--fmt F --size WxH --fps R]\n"
	      "                           -n N | -t SECONDS -o FILE|- [--y4m | --raw]\n"
	      "Capture frames to a file or to stdout.  Y4M is planar: packed\n"
	      "4:2:2 (YUYV, UYVY) is written as C422, 4:2:0 (NV12, YU12) as\n"
	      "C420mpeg2, GREY as Cmono; RGB formats need --raw.  The file always\n"
	      "ends on a whole frame, also after an error or Ctrl-C.  Frames the\n"
	      "device flags as bad are counted and not written.  A file has one\n"
	      "mode: when the source changes it (an HDMI input switching\n"
	      "resolution), the file ends after its last whole frame and the\n"
	      "command exits 3; a lost signal is waited for (--timeout).\n\n",
	      f);
	vs_usage_options(f, VS_OPT_DEVICE | VS_OPT_MODE | VS_OPT_LENGTH |
			 VS_OPT_OUTPUT | VS_OPT_STREAM | VS_OPT_LATENCY |
			 VS_OPT_VERBOSE);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int capture_check(struct vs_opts *o, char *err, size_t size)
{
	if (!o->output) {
		snprintf(err, size, "no output: give -o FILE (or -o - for stdout)");
		return -1;
	}
	if (!o->count && o->seconds <= 0) {
		snprintf(err, size, "give a length: -n FRAMES or -t SECONDS");
		return -1;
	}
	if (!o->y4m && !o->raw) {
		if (ends_with(o->output, ".y4m"))
			o->y4m = true;
		else
			o->raw = true;
	}
	return 0;
}

struct capture {
	const struct vs_opts *o;
	struct vcap_source *src;
	struct vcap_writer *out;
	struct vcap_mode mode;		/* the file's */
	struct vcap_stats *st;
	uint8_t *copy;			/* for sources whose views go stale */
	size_t copy_size;
	uint8_t *last;			/* the last good frame, for --snapshot */
	size_t last_len;
	struct vcap_mode last_mode;
	uint64_t written, bad, torn;
};

/* One frame: 0 to go on, -1 on a fatal error (already reported). */
static int capture_frame(struct capture *c, struct vcap_frame *f)
{
	const void *data = f->data;
	size_t len = f->bytesused;

	if (f->mode.fourcc != c->mode.fourcc || f->mode.width != c->mode.width ||
	    f->mode.height != c->mode.height ||
	    (f->mode.bytesperline && c->mode.bytesperline &&
	     f->mode.bytesperline != c->mode.bytesperline)) {
		char a[96], b[96];

		vs_error("capture", "%s: the source changed mode from %s to %s; %s ends after %llu frames",
			 c->src->path, vcap_mode_str(&c->mode, a, sizeof(a)),
			 vcap_mode_str(&f->mode, b, sizeof(b)), c->o->output,
			 (unsigned long long)c->written);
		return -1;
	}
	if (f->flags & (VCAP_FRAME_ERROR | VCAP_FRAME_NO_SIGNAL)) {
		c->bad++;
		return 0;
	}
	if (c->src->ops->frame_valid) {
		if (len > c->copy_size) {
			free(c->copy);
			c->copy = malloc(len);
			c->copy_size = c->copy ? len : 0;
			if (!c->copy) {
				vs_error("capture", "out of memory");
				return -1;
			}
		}
		memcpy(c->copy, data, len);
		if (!vcap_source_frame_valid(c->src, f)) {
			c->torn++;
			return 0;
		}
		data = c->copy;
	}
	if (c->o->y4m && len < vcap_mode_frame_size(&f->mode)) {
		c->bad++;
		return 0;
	}
	if (vcap_writer_write(c->out, data, len) < 0) {
		vs_error("capture", "%s", vcap_last_error());
		return -1;
	}
	c->written++;
	if (c->o->snapshot) {
		if (len > c->last_len || !c->last) {
			free(c->last);
			c->last = malloc(len);
			if (!c->last) {
				vs_error("capture", "out of memory");
				return -1;
			}
		}
		memcpy(c->last, data, len);
		c->last_len = len;
		c->last_mode = f->mode;
	}
	return 0;
}

/*
 * A source change: 0 to go on (the signal went, or came back in the
 * file's mode), VS_EXIT_SOURCE_CHANGED when the file must end.
 */
static int capture_change(struct capture *c)
{
	const struct vcap_source_change *chg = vcap_source_last_change(c->src);
	uint32_t what;
	char a[96], b[96];

	if (!chg->signal)
		return 0;
	what = vcap_mode_diff(&c->mode, &chg->mode);
	/* Raw frames carry no rate; a Y4M header does. */
	if (!c->o->y4m)
		what &= ~VCAP_CHANGE_RATE;
	if (!what)
		return 0;
	vs_error("capture", "%s: the source changed from %s to %s; %s ends with %llu whole frames",
		 c->src->path, vcap_mode_str(&c->mode, a, sizeof(a)),
		 vcap_mode_str(&chg->mode, b, sizeof(b)),
		 strcmp(c->o->output, "-") ? c->o->output : "stdout",
		 (unsigned long long)c->written);
	return VS_EXIT_SOURCE_CHANGED;
}

static int capture_run(const struct vs_opts *o)
{
	struct capture c = { .o = o };
	struct vs_progress prog;
	struct vs_follow fw;
	struct vcap_frame f;
	char mode[96];
	int rc = 0, ret;

	vs_install_signals();
	c.src = vs_open_source(o, "capture");
	if (!c.src)
		return 1;
	c.mode = c.src->mode;
	c.out = vcap_writer_open(o->y4m ? VCAP_WRITER_Y4M : VCAP_WRITER_RAW,
				 o->output, &c.mode);
	c.st = vcap_stats_new(0);
	if (!c.out || !c.st) {
		vs_error("capture", "%s", vcap_last_error());
		rc = 1;
		goto out;
	}
	vs_progress_init(&prog, o);
	vs_follow_init(&fw, "capture", o, c.src);
	while (!vs_done(o, c.written, fw.start_ns)) {
		ret = vs_next(&fw, &f);
		if (ret == VCAP_SOURCE_CHANGED) {
			vs_progress_done(&prog);
			vcap_stats_new_segment(c.st);
			rc = capture_change(&c);
			if (rc)
				break;
			continue;
		}
		if (ret == VS_NEXT_STOP) {
			rc = fw.status;
			break;
		}
		if (ret == VCAP_TIMEOUT) {
			if (vs_stop)
				break;
			vs_error("capture", "%s: no frame within %d ms (stalled)",
				 c.src->path, o->timeout_ms);
			rc = 1;
			break;
		}
		if (ret < 0) {
			if (vs_stop)
				break;
			vs_error("capture", "%s", vcap_last_error());
			rc = 1;
			break;
		}
		vcap_stats_frame(c.st, &f);
		ret = capture_frame(&c, &f);
		if (vcap_source_release(c.src, &f) < 0 && ret == 0) {
			vs_error("capture", "%s", vcap_last_error());
			ret = -1;
		}
		if (ret < 0) {
			rc = 1;
			break;
		}
		vs_progress_update(&prog, c.st, c.written);
	}
	vs_progress_done(&prog);
	vcap_stats_stop(c.st);
	vcap_source_stop(c.src);
out:
	if (c.out && vcap_writer_close(c.out) < 0 && rc != 1) {
		vs_error("capture", "%s", vcap_last_error());
		rc = 1;
	}
	if (c.last && vcap_png_write(o->snapshot, &c.last_mode, c.last,
				     c.last_len) < 0) {
		vs_error("capture", "%s", vcap_last_error());
		rc = 1;
	}
	if (c.st && !o->quiet) {
		struct vcap_stats_summary s;

		vcap_stats_get(c.st, &s);
		fprintf(stderr,
			"capture: %llu frames (%s) to %s, %llu dropped, %llu bad, %llu torn%s\n",
			(unsigned long long)c.written,
			vcap_mode_str(&c.mode, mode, sizeof(mode)),
			strcmp(o->output, "-") ? o->output : "stdout",
			(unsigned long long)s.drops,
			(unsigned long long)c.bad,
			(unsigned long long)c.torn,
			vs_stop ? " (interrupted)" : "");
	}
	if (c.st && o->latency) {
		struct vcap_stats_summary s;

		vcap_stats_get(c.st, &s);
		vs_print_latency("capture", c.src, &s);
	}
	vcap_stats_destroy(c.st);
	vcap_source_close(c.src);
	free(c.copy);
	free(c.last);
	return rc;
}

const struct vs_cmd vs_cmd_capture = {
	.name = "capture",
	.summary = "capture frames to a raw or Y4M file, or stdout",
	.opts = VS_OPT_DEVICE | VS_OPT_MODE | VS_OPT_LENGTH | VS_OPT_OUTPUT |
		VS_OPT_STREAM | VS_OPT_LATENCY |
		VS_OPT_VERBOSE,
	.usage = capture_usage,
	.check = capture_check,
	.run = capture_run,
};
