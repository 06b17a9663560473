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
			 VS_OPT_STAMPS | VS_OPT_STREAM | VS_OPT_LATENCY);
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

static int verify_run(const struct vs_opts *o)
{
	struct vcap_source *src;
	struct vs_progress prog;
	struct vcap_stats *st;
	struct vcap_verify v;
	uint8_t *copy = NULL;
	size_t copy_size = 0;
	uint64_t start, first_seq = 0, last_seq = 0;
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
	vs_progress_init(&prog, o);
	start = vcap_now_ns();
	while (!vs_done(o, v.frames, start)) {
		struct vcap_frame f, view;

		ret = vcap_source_next(src, &f, o->timeout_ms);
		if (ret == VCAP_TIMEOUT && !vs_stop) {
			vs_error("verify", "FAIL: %s: no frame within %d ms after %llu frames (stalled)",
				 src->path, o->timeout_ms,
				 (unsigned long long)v.frames);
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
		if (!v.frames)
			first_seq = f.sequence;
		last_seq = f.sequence;
		vcap_stats_frame(st, &f);
		vcap_verify_frame(&v, &view);
		if (vcap_source_release(src, &f) < 0) {
			vs_error("verify", "FAIL: %s", vcap_last_error());
			rc = 1;
			break;
		}
		if (v.status != VCAP_VERIFY_OK)
			break;
		vs_progress_update(&prog, st, v.frames);
	}
	vs_progress_done(&prog);
	vcap_stats_stop(st);
	if (v.status != VCAP_VERIFY_OK) {
		vs_error("verify", "FAIL: %s: %s", src->path, v.message);
		rc = 1;
	} else if (rc == 0 && v.frames == 0) {
		vs_error("verify", "FAIL: %s: no frames", src->path);
		rc = 1;
	} else if (rc == 0) {
		struct vcap_stats_summary s;

		vcap_stats_get(st, &s);
		printf("verify: OK: %llu frames from %s (%s), sequence %llu..%llu in order, "
		       "no drops, no torn frames, %s, %.2f fps\n",
		       (unsigned long long)v.frames, src->path,
		       vcap_mode_str(&src->mode, mode, sizeof(mode)),
		       (unsigned long long)first_seq,
		       (unsigned long long)last_seq,
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
		VS_OPT_STREAM | VS_OPT_LATENCY,
	.usage = verify_usage,
	.check = verify_check,
	.run = verify_run,
};
