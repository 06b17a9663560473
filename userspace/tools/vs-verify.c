// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* vcap-stream verify: prove order, no drops and no tearing on a stream. */
#include "vs.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_FRAMES	100

static void verify_usage(FILE *f)
{
	fputs("Usage: vcap-stream verify -d DEV | --vram DEV [--fmt F --size WxH --fps R]\n"
	      "                          [-n N | -t SECONDS] [--stamps | --no-stamps]\n"
	      "Capture a stream and check every frame: sequence numbers consecutive\n"
	      "and timestamps never going back; on vcap devices also the board's\n"
	      "stamps (frame number top and bottom, and the frame checksum), which\n"
	      "proves no frame was dropped, repeated or torn.  Other devices (vivid,\n"
	      "webcams) have no stamps: their sequence numbers are checked.\n"
	      "Exits 1 naming the first bad frame; default 100 frames.\n\n",
	      f);
	vs_usage_options(f, VS_OPT_DEVICE | VS_OPT_MODE | VS_OPT_LENGTH |
			 VS_OPT_STAMPS | VS_OPT_STREAM | VS_OPT_LATENCY |
			 VS_OPT_VERBOSE);
}

static int verify_check(struct vs_opts *o, char *err, size_t size)
{
	(void)err;
	(void)size;
	if (!o->count && o->seconds <= 0)
		o->count = DEFAULT_FRAMES;
	return 0;
}

static bool want_stamps(const struct vs_opts *o, const struct vcap_mode *m)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(m->fourcc);
	char driver[32];

	if (o->stamps != VS_STAMPS_AUTO)
		return o->stamps == VS_STAMPS_ON;
	vs_driver_name(o, driver, sizeof(driver));
	return !strcmp(driver, "vcap") && pf && pf->stamped;
}

/* One stretch of the stream in one mode, between source changes. */
struct verify_segment {
	unsigned int number;		/* from 1 */
	struct vcap_mode mode;
	uint64_t frames, first_seq, last_seq;
};

static void segment_print(const struct verify_segment *seg)
{
	char mode[96];

	printf("verify: segment %u: %llu frames of %s, sequence %llu..%llu in order\n",
	       seg->number, (unsigned long long)seg->frames,
	       vcap_mode_str(&seg->mode, mode, sizeof(mode)),
	       (unsigned long long)seg->first_seq,
	       (unsigned long long)seg->last_seq);
}

static int verify_run(const struct vs_opts *o)
{
	struct verify_segment seg = { .number = 1 };
	struct vcap_source *src;
	struct vs_progress prog;
	struct vs_follow fw;
	struct vcap_stats *st;
	struct vcap_verify v;
	uint8_t *copy = NULL;
	size_t copy_size = 0;
	uint64_t done = 0;		/* frames of the segments before */
	unsigned int segments = 0;	/* with frames */
	char mode[96];
	bool stamps;
	int rc = 0, ret;

	vs_install_signals();
	src = vs_open_source(o, "verify");
	if (!src)
		return 1;
	st = vcap_stats_new(0);
	if (!st) {
		vcap_source_close(src);
		return 1;
	}
	stamps = want_stamps(o, &src->mode);
	vcap_verify_init(&v, stamps ? VCAP_VERIFY_STAMPS : 0);
	seg.mode = src->mode;
	vs_progress_init(&prog, o);
	vs_follow_init(&fw, "verify", o, src);
	while (!vs_done(o, done + v.frames, fw.start_ns)) {
		struct vcap_frame f, view;

		ret = vs_next(&fw, &f);
		if (ret == VCAP_SOURCE_CHANGED) {
			/* A restarted stream numbers its frames afresh. */
			vs_progress_done(&prog);
			if (seg.frames) {
				segment_print(&seg);
				segments++;
			}
			done += v.frames;
			vcap_verify_init(&v, stamps ? VCAP_VERIFY_STAMPS : 0);
			vcap_stats_new_segment(st);
			memset(&seg, 0, sizeof(seg));
			seg.number = fw.changes + 1;
			seg.mode = src->mode;
			continue;
		}
		if (ret == VS_NEXT_STOP) {
			rc = fw.status;
			break;
		}
		if (ret == VCAP_TIMEOUT && !vs_stop) {
			vs_error("verify", "FAIL: %s: no frame within %d ms after %llu frames (stalled)",
				 src->path, o->timeout_ms,
				 (unsigned long long)(done + v.frames));
			rc = 1;
			break;
		}
		if (ret != 0) {
			if (!vs_stop) {
				vs_error("verify", "FAIL: %s",
					 vcap_last_error());
				rc = 1;
			}
			break;
		}
		view = f;
		/* A view the board can overwrite is checked on a copy. */
		if (src->ops->frame_valid && stamps) {
			if (f.bytesused > copy_size) {
				free(copy);
				copy = malloc(f.bytesused);
				copy_size = copy ? f.bytesused : 0;
			}
			if (copy) {
				memcpy(copy, f.data, f.bytesused);
				view.data = copy;
			}
		}
		if (!vcap_source_frame_valid(src, &f))
			view.flags |= VCAP_FRAME_TORN;
		if (!seg.frames)
			seg.first_seq = f.sequence;
		seg.last_seq = f.sequence;
		seg.frames++;
		vcap_stats_frame(st, &f);
		vcap_verify_frame(&v, &view);
		if (vcap_source_release(src, &f) < 0) {
			vs_error("verify", "FAIL: %s", vcap_last_error());
			rc = 1;
			break;
		}
		if (v.status != VCAP_VERIFY_OK)
			break;
		vs_progress_update(&prog, st, done + v.frames);
	}
	vs_progress_done(&prog);
	vcap_stats_stop(st);
	if (v.status != VCAP_VERIFY_OK) {
		vs_error("verify", "FAIL: %s: %s%s", src->path, v.message,
			 fw.changes ? " (frame counted from the last source change)" :
				      "");
		rc = 1;
	} else if (rc == 0 && done + v.frames == 0) {
		vs_error("verify", "FAIL: %s: no frames", src->path);
		rc = 1;
	} else if (rc == 0 && !fw.changes) {
		struct vcap_stats_summary s;

		vcap_stats_get(st, &s);
		printf("verify: OK: %llu frames from %s (%s), sequence %llu..%llu in order, "
		       "no drops, no torn frames, %s, %.2f fps\n",
		       (unsigned long long)v.frames, src->path,
		       vcap_mode_str(&src->mode, mode, sizeof(mode)),
		       (unsigned long long)seg.first_seq,
		       (unsigned long long)seg.last_seq,
		       stamps ? "stamps checked" :
				"sequence numbers only (no stamps)",
		       s.fps);
	} else if (rc == 0) {
		struct vcap_stats_summary s;

		if (seg.frames) {
			segment_print(&seg);
			segments++;
		}
		vcap_stats_get(st, &s);
		printf("verify: OK: %llu frames from %s in %u segments, %llu source changes, "
		       "no signal for %.3f s, each segment in order, no drops, no torn frames, %s, "
		       "%.2f fps over the whole run\n",
		       (unsigned long long)(done + v.frames), src->path,
		       segments,
		       (unsigned long long)fw.changes,
		       vs_follow_no_signal_ns(&fw) / 1e9,
		       stamps ? "stamps checked" :
				"sequence numbers only (no stamps)",
		       s.fps);
	}
	if (rc == 0 && o->latency) {
		struct vcap_stats_summary s;

		vcap_stats_get(st, &s);
		vs_print_latency("verify", src, &s);
	}
	vcap_stats_destroy(st);
	vcap_source_close(src);
	free(copy);
	return rc;
}

const struct vs_cmd vs_cmd_verify = {
	.name = "verify",
	.summary = "check a stream: order, no drops, no torn frames",
	.opts = VS_OPT_DEVICE | VS_OPT_MODE | VS_OPT_LENGTH | VS_OPT_STAMPS |
		VS_OPT_STREAM | VS_OPT_LATENCY |
		VS_OPT_VERBOSE,
	.usage = verify_usage,
	.check = verify_check,
	.run = verify_run,
};
