// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * vcap-stream bench: a frame-rate run reporting fps over wall time,
 * drops, latency percentiles and CPU time per frame, as text or JSON.
 */
#include "vs.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_SECONDS	5.0

static void bench_usage(FILE *f)
{
	fputs("Usage: vcap-stream bench -d DEV | --vram DEV [--fmt F --size WxH --fps R]\n"
	      "                         [-n N | -t SECONDS] [--json] [--copy]\n"
	      "Stream and measure: frames per second counted over wall time (not\n"
	      "buffer timestamps), drops from sequence gaps, latency from the\n"
	      "buffer's timestamp to its dequeue (p50/p95/p99/max, monotonic\n"
	      "timestamps only), and this process's CPU time per frame.  The\n"
	      "first frame starts the clock and is not counted.  Also reports one\n"
	      "memcpy of a frame in this process, the floor of a copy path.\n"
	      "Default 5 seconds.\n\n",
	      f);
	vs_usage_options(f, VS_OPT_DEVICE | VS_OPT_MODE | VS_OPT_LENGTH |
			 VS_OPT_JSON | VS_OPT_COPY | VS_OPT_STREAM |
			 VS_OPT_VERBOSE);
}

static int bench_check(struct vs_opts *o, char *err, size_t size)
{
	(void)err;
	(void)size;
	if (!o->count && o->seconds <= 0)
		o->seconds = DEFAULT_SECONDS;
	return 0;
}

/* Best of a few copies of size bytes, in ns. */
static uint64_t memcpy_ns(size_t size)
{
	uint64_t best = UINT64_MAX;
	uint8_t *a, *b;

	if (!size)
		return 0;
	a = malloc(size);
	b = malloc(size);
	if (!a || !b) {
		free(a);
		free(b);
		return 0;
	}
	memset(a, 0x5a, size);
	memset(b, 0xa5, size);
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = vcap_now_ns(), t;

		memcpy(b, a, size);
		__asm__ volatile("" : : "r"(b) : "memory");
		t = vcap_now_ns() - t0;
		if (t < best)
			best = t;
	}
	free(a);
	free(b);
	return best;
}

/* "transfer": a quoted name for a V4L2 node, null for VRAM (read in place). */
static void print_json(const struct vs_opts *o, const struct vcap_source *src,
		       const char *driver, const char *transfer,
		       const struct vcap_stats_summary *s,
		       uint64_t torn, uint64_t copy_ns, bool dmabuf,
		       const struct vs_follow *fw)
{
	char fcc[VCAP_FOURCC_STR_LEN];
	const struct vcap_mode *m = &src->mode;

	printf("{\"device\": \"%s\", \"source\": \"%s\", \"driver\": \"%s\", "
	       "\"transfer\": %s%s%s, \"fourcc\": \"%s\", \"width\": %u, "
	       "\"height\": %u, \"sizeimage\": %u, \"interval\": [%u, %u], "
	       "\"copy\": %s, "
	       "\"dmabuf\": %s, \"frames\": %llu, \"seconds\": %.6f, \"fps\": %.3f, "
	       "\"drops\": %llu, \"reorders\": %llu, \"errors\": %llu, "
	       "\"torn\": %llu, "
	       "\"latency_ns\": {\"samples\": %llu, \"ahead\": %llu, \"p50\": %llu, "
	       "\"p95\": %llu, \"p99\": %llu, \"max\": %llu}, "
	       "\"cpu_ns_per_frame\": %llu, \"cpu_user_ns\": %llu, "
	       "\"cpu_sys_ns\": %llu, \"memcpy_ns_per_frame\": %llu, "
	       "\"source_changes\": %llu, \"no_signal_seconds\": %.6f}\n",
	       src->path, vcap_source_kind(src), driver,
	       transfer ? "\"" : "", transfer ? transfer : "null",
	       transfer ? "\"" : "", vcap_fourcc_str(m->fourcc, fcc),
	       m->width, m->height, m->sizeimage, m->interval_num,
	       m->interval_den,
	       o->copy ? "true" : "false", dmabuf ? "true" : "false",
	       (unsigned long long)s->frames, s->wall_ns / 1e9, s->fps,
	       (unsigned long long)s->drops, (unsigned long long)s->reorders,
	       (unsigned long long)s->errors, (unsigned long long)torn,
	       (unsigned long long)s->latency_samples,
	       (unsigned long long)s->latency_ahead,
	       (unsigned long long)s->latency_p50,
	       (unsigned long long)s->latency_p95,
	       (unsigned long long)s->latency_p99,
	       (unsigned long long)s->latency_max,
	       (unsigned long long)s->cpu_ns_per_frame,
	       (unsigned long long)s->cpu_user_ns,
	       (unsigned long long)s->cpu_sys_ns,
	       (unsigned long long)copy_ns,
	       (unsigned long long)fw->changes,
	       vs_follow_no_signal_ns(fw) / 1e9);
}

static void print_table(const struct vcap_source *src, const char *driver,
			enum vcap_transfer transfer,
			const struct vcap_stats_summary *s, uint64_t torn,
			uint64_t copy_ns, bool dmabuf,
			const struct vs_follow *fw)
{
	char mode[96];

	printf("bench: %s (%s, %s), %s\n", src->path, vcap_source_kind(src),
	       driver, vcap_mode_str(&src->mode, mode, sizeof(mode)));
	if (!strcmp(driver, "vcap") && strcmp(vcap_source_kind(src), "vram"))
		printf("  %-18s %s\n", "transfer", vs_transfer_text(transfer));
	printf("  %-18s %llu in %.3f s\n", "frames",
	       (unsigned long long)s->frames, s->wall_ns / 1e9);
	printf("  %-18s %.2f\n", "fps (wall time)", s->fps);
	printf("  %-18s %llu\n", "drops", (unsigned long long)s->drops);
	printf("  %-18s %llu reordered, %llu flagged, %llu torn\n", "errors",
	       (unsigned long long)s->reorders,
	       (unsigned long long)s->errors, (unsigned long long)torn);
	if (s->latency_samples)
		printf("  %-18s p50 %.3f  p95 %.3f  p99 %.3f  max %.3f ms\n",
		       "latency", s->latency_p50 / 1e6, s->latency_p95 / 1e6,
		       s->latency_p99 / 1e6, s->latency_max / 1e6);
	if (s->latency_ahead)
		printf("  %-18s %llu frames stamped after their dequeue (nominal, not capture, times)\n",
		       "", (unsigned long long)s->latency_ahead);
	else if (!s->latency_samples)
		printf("  %-18s n/a (timestamps not on this clock)\n",
		       "latency");
	printf("  %-18s %.3f ms (user %.3f, sys %.3f ms total %.3f s)\n",
	       "cpu per frame", s->cpu_ns_per_frame / 1e6,
	       s->frames ? s->cpu_user_ns / 1e6 / s->frames : 0,
	       s->frames ? s->cpu_sys_ns / 1e6 / s->frames : 0,
	       (s->cpu_user_ns + s->cpu_sys_ns) / 1e9);
	printf("  %-18s %.3f ms\n", "memcpy of a frame", copy_ns / 1e6);
	if (dmabuf)
		printf("  %-18s buffers exported as dma-bufs\n", "dmabuf");
	if (fw->changes)
		printf("  %-18s %llu, no signal for %.3f s; the figures span them, the mode is the last\n",
		       "source changes", (unsigned long long)fw->changes,
		       vs_follow_no_signal_ns(fw) / 1e9);
}

/* "bench: segment N: K frames of MODE" on stderr, for a segment with frames. */
static void segment_print(unsigned int number, uint64_t frames,
			  const struct vcap_mode *m)
{
	char mode[96];

	if (frames)
		fprintf(stderr, "bench: segment %u: %llu frames of %s\n", number,
			(unsigned long long)frames,
			vcap_mode_str(m, mode, sizeof(mode)));
}

static int bench_run(const struct vs_opts *o)
{
	struct vcap_mode seg_mode;
	uint64_t seg_frames = 0;
	unsigned int seg = 1;
	struct vcap_stats_summary s;
	struct vcap_source *src;
	struct vs_progress prog;
	struct vcap_stats *st;
	struct vs_follow fw;
	struct vcap_frame f;
	uint8_t *copy = NULL;
	size_t copy_size = 0;
	uint64_t start = 0, torn = 0, frames = 0, copy_ns;
	bool started = false, dmabuf = false;
	enum vcap_transfer transfer;
	char driver[32];
	int rc = 0, ret;

	vs_install_signals();
	src = vs_open_source(o, "bench");
	if (!src)
		return 1;
	st = vcap_stats_new(0);
	copy_ns = memcpy_ns(vcap_mode_frame_size(&src->mode));
	if (o->copy) {
		copy_size = src->mode.sizeimage ? src->mode.sizeimage :
			    vcap_mode_frame_size(&src->mode) + 1;
		copy = malloc(copy_size);
	}
	if (!st || (o->copy && !copy)) {
		vs_error("bench", "out of memory");
		rc = 1;
		goto out;
	}
	vs_driver_name(o, driver, sizeof(driver));
	transfer = vs_transfer(o);
	vs_progress_init(&prog, o);
	vs_follow_init(&fw, "bench", o, src);
	seg_mode = src->mode;
	for (;;) {
		ret = vs_next(&fw, &f);
		if (ret == VCAP_SOURCE_CHANGED) {
			/* The restarted stream numbers its frames afresh. */
			vs_progress_done(&prog);
			vcap_stats_new_segment(st);
			segment_print(seg, seg_frames, &seg_mode);
			seg = fw.changes + 1;
			seg_frames = 0;
			seg_mode = src->mode;
			continue;
		}
		if (ret == VS_NEXT_STOP) {
			rc = fw.status;
			break;
		}
		if (ret == VCAP_TIMEOUT && !vs_stop) {
			vs_error("bench", "%s: no frame within %d ms (stalled)",
				 src->path, o->timeout_ms);
			rc = 1;
			break;
		}
		if (ret != 0) {
			if (!vs_stop) {
				vs_error("bench", "%s", vcap_last_error());
				rc = 1;
			}
			break;
		}
		if (o->copy) {
			size_t n = f.bytesused;

			if (n > copy_size) {
				/* A source change brought bigger frames. */
				free(copy);
				copy = malloc(n);
				copy_size = copy ? n : 0;
				if (!copy) {
					vs_error("bench", "out of memory");
					rc = 1;
					vcap_source_release(src, &f);
					break;
				}
			}
			memcpy(copy, f.data, n);
		}
		dmabuf |= f.dmabuf_fd >= 0;
		if (!vcap_source_frame_valid(src, &f)) {
			f.flags |= VCAP_FRAME_TORN;
			torn += started;
		}
		if (!started) {
			/* The first frame pays for start-up: it starts the run. */
			vcap_stats_start(st);
			vcap_stats_baseline(st, f.sequence);
			start = vcap_now_ns();
			started = true;
		} else {
			vcap_stats_frame(st, &f);
			frames++;
		}
		seg_frames++;
		if (vcap_source_release(src, &f) < 0) {
			vs_error("bench", "%s", vcap_last_error());
			rc = 1;
			break;
		}
		vs_progress_update(&prog, st, frames);
		if (vs_done(o, frames, start))
			break;
	}
	vs_progress_done(&prog);
	vcap_stats_stop(st);
	if (fw.changes)
		segment_print(seg, seg_frames, &seg_mode);
	vcap_stats_get(st, &s);
	if (rc == 0 || s.frames) {
		if (o->json)
			print_json(o, src, driver,
				   o->vram ? NULL : vcap_transfer_name(transfer),
				   &s, torn, copy_ns, dmabuf, &fw);
		else
			print_table(src, driver, transfer, &s, torn, copy_ns,
				    dmabuf, &fw);
	}
out:
	vcap_stats_destroy(st);
	vcap_source_close(src);
	free(copy);
	return rc;
}

const struct vs_cmd vs_cmd_bench = {
	.name = "bench",
	.summary = "measure fps, drops, latency and CPU per frame",
	.opts = VS_OPT_DEVICE | VS_OPT_MODE | VS_OPT_LENGTH | VS_OPT_JSON |
		VS_OPT_COPY | VS_OPT_STREAM | VS_OPT_VERBOSE,
	.usage = bench_usage,
	.check = bench_check,
	.run = bench_run,
};
