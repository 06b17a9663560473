// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* What the streaming subcommands share: signals, sources, progress. */
#include "vs.h"

#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

volatile int vs_stop;

/* Short waits without a signal, so that -t and Ctrl-C end the run. */
#define NO_SIGNAL_POLL_MS	200

static void on_signal(int sig)
{
	(void)sig;
	vs_stop = 1;
}

void vs_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A closed pipe is a write error (EPIPE), reported like any other. */
	signal(SIGPIPE, SIG_IGN);
}

void vs_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vcap-stream %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The first source of a DV input without one at start. */
static int wait_signal(const struct vs_opts *o, struct vcap_source *src,
		       const char *cmd)
{
	uint64_t deadline = vcap_now_ns() +
			    (uint64_t)o->timeout_ms * 1000000ull;
	struct vcap_frame f;
	char mode[96];
	int ret;

	fprintf(stderr, "%s: %s: no signal; waiting up to %d ms for a source\n",
		cmd, src->path, o->timeout_ms);
	while (!vs_stop && vcap_now_ns() < deadline) {
		ret = vcap_source_next(src, &f, NO_SIGNAL_POLL_MS);
		if (ret < 0) {
			vs_error(cmd, "%s", vcap_last_error());
			return -1;
		}
		if (ret == 0 && vcap_source_release(src, &f) < 0) {
			vs_error(cmd, "%s", vcap_last_error());
			return -1;
		}
		if (vcap_source_has_signal(src)) {
			fprintf(stderr, "%s: %s: signal: %s\n", cmd, src->path,
				vcap_mode_str(&src->mode, mode, sizeof(mode)));
			return 0;
		}
	}
	vs_error(cmd, "%s: no signal within %d ms", src->path, o->timeout_ms);
	return -1;
}

struct vcap_source *vs_open_source(const struct vs_opts *o, const char *cmd)
{
	struct vcap_source_config cfg;
	struct vcap_source *src;

	if (o->verbose)
		vs_print_device(o, cmd);
	memset(&cfg, 0, sizeof(cfg));
	cfg.mode = o->mode;
	cfg.num_buffers = o->buffers;
	cfg.export_dmabuf = o->dmabuf;
	src = vcap_source_open(o->vram ? &vcap_source_vram_ops :
					 &vcap_source_v4l2_ops,
			       o->vram ? o->vram : o->device, &cfg);
	if (!src) {
		vs_error(cmd, "%s", vcap_last_error());
		return NULL;
	}
	if (vcap_source_start(src) < 0) {
		vs_error(cmd, "%s", vcap_last_error());
		vcap_source_close(src);
		return NULL;
	}
	if (!vcap_source_has_signal(src) && wait_signal(o, src, cmd) < 0) {
		vcap_source_close(src);
		return NULL;
	}
	return src;
}

void vs_follow_init(struct vs_follow *fw, const char *cmd,
		    const struct vs_opts *o, struct vcap_source *src)
{
	memset(fw, 0, sizeof(*fw));
	fw->cmd = cmd;
	fw->o = o;
	fw->src = src;
	fw->start_ns = vcap_now_ns();
}

uint64_t vs_follow_no_signal_ns(const struct vs_follow *fw)
{
	return fw->no_signal_ns +
	       (fw->lost_ns ? vcap_now_ns() - fw->lost_ns : 0);
}

int vs_next(struct vs_follow *fw, struct vcap_frame *f)
{
	const struct vs_opts *o = fw->o;
	char what[256];
	int ret;

	for (;;) {
		bool lost = !vcap_source_has_signal(fw->src);

		if (lost && !fw->lost_ns)
			fw->lost_ns = vcap_now_ns();

		ret = vcap_source_next(fw->src, f,
				       lost && o->timeout_ms > NO_SIGNAL_POLL_MS ?
				       NO_SIGNAL_POLL_MS : o->timeout_ms);
		if (ret == VCAP_SOURCE_CHANGED) {
			const struct vcap_source_change *c =
				vcap_source_last_change(fw->src);

			fw->changes++;
			if (!c->signal && !fw->lost_ns)
				fw->lost_ns = c->time_ns;
			if (c->signal && fw->lost_ns) {
				fw->no_signal_ns += c->time_ns - fw->lost_ns;
				fw->lost_ns = 0;
			}
			fprintf(stderr, "%s: %s: source change %llu: %s\n",
				fw->cmd, fw->src->path,
				(unsigned long long)fw->changes,
				vcap_change_str(c, what, sizeof(what)));
			return ret;
		}
		if (ret != VCAP_TIMEOUT || !lost)
			return ret;
		if (vs_done(o, 0, fw->start_ns)) {
			fw->status = 0;
			return VS_NEXT_STOP;
		}
		if (vcap_now_ns() - fw->lost_ns >=
		    (uint64_t)o->timeout_ms * 1000000ull) {
			vs_error(fw->cmd, "%s: no signal for %d ms",
				 fw->src->path, o->timeout_ms);
			fw->status = 1;
			return VS_NEXT_STOP;
		}
	}
}

enum vcap_transfer vs_transfer(const struct vs_opts *o)
{
	enum vcap_transfer t = VCAP_TRANSFER_UNKNOWN;

	if (o->vram)
		return t;
	if (vcap_transfer_query(NULL, o->device, &t) < 0)
		vcap_clear_error();
	return t;
}

const char *vs_transfer_text(enum vcap_transfer t)
{
	switch (t) {
	case VCAP_TRANSFER_DMA:
		return "dma (the board writes into the buffers)";
	case VCAP_TRANSFER_COPY:
		return "copy (the driver copies each frame)";
	default:
		return "unknown (the driver does not say)";
	}
}

void vs_print_device(const struct vs_opts *o, const char *cmd)
{
	struct vcap_vram_info info;
	struct vcap_v4l2_caps caps;
	struct vcap_vram *vram;
	struct vcap_v4l2 *dev;

	fprintf(stderr, "%s: node: %s\n", cmd, o->vram ? o->vram : o->device);
	if (o->vram) {
		/* Read in place: no transfer into buffers to speak of. */
		vram = vcap_vram_open(o->vram);
		if (vram && vcap_vram_query(vram, &info) == 0)
			fprintf(stderr, "%s: driver: vcap (VRAM node)\n%s: card: %s\n",
				cmd, cmd, info.name);
		vcap_vram_close(vram);
		vcap_clear_error();
		return;
	}
	/* Opening it is left to the stream, which reports a failure. */
	dev = vcap_v4l2_open(o->device);
	if (!dev || vcap_v4l2_caps(dev, &caps) < 0) {
		vcap_v4l2_close(dev);
		vcap_clear_error();
		return;
	}
	vcap_v4l2_close(dev);
	fprintf(stderr, "%s: driver: %s\n%s: card: %s\n", cmd, caps.driver, cmd,
		caps.card);
	if (!strcmp(caps.driver, "vcap"))
		fprintf(stderr, "%s: transfer: %s\n", cmd,
			vs_transfer_text(vs_transfer(o)));
}

void vs_driver_name(const struct vs_opts *o, char *buf, size_t size)
{
	struct vcap_v4l2_caps caps;
	struct vcap_v4l2 *dev;

	snprintf(buf, size, "%s", o->vram ? "vcap" : "unknown");
	if (o->vram)
		return;
	dev = vcap_v4l2_open(o->device);
	if (!dev) {
		vcap_clear_error();
		return;
	}
	if (vcap_v4l2_caps(dev, &caps) == 0)
		snprintf(buf, size, "%s", caps.driver);
	vcap_v4l2_close(dev);
}

bool vs_done(const struct vs_opts *o, uint64_t frames, uint64_t start_ns)
{
	if (vs_stop)
		return true;
	if (o->count && frames >= o->count)
		return true;
	if (o->seconds > 0 &&
	    (double)(vcap_now_ns() - start_ns) >= o->seconds * 1e9)
		return true;
	return false;
}

#define PROGRESS_NS	500000000ull

void vs_progress_init(struct vs_progress *p, const struct vs_opts *o)
{
	memset(p, 0, sizeof(*p));
	p->enabled = !o->quiet && !o->json && isatty(STDERR_FILENO);
}

void vs_progress_update(struct vs_progress *p, const struct vcap_stats *st,
			uint64_t frames)
{
	struct vcap_stats_summary s;
	uint64_t now;

	if (!p->enabled)
		return;
	now = vcap_now_ns();
	if (now - p->last_ns < PROGRESS_NS)
		return;
	p->last_ns = now;
	vcap_stats_get(st, &s);
	fprintf(stderr, "\r  frames %llu  fps %.2f  drops %llu  errors %llu ",
		(unsigned long long)frames, s.fps_window,
		(unsigned long long)s.drops, (unsigned long long)s.errors);
	p->shown = true;
}

void vs_progress_done(struct vs_progress *p)
{
	if (p->shown)
		fputc('\n', stderr);
	p->shown = false;
}

void vs_print_latency(const char *cmd, const struct vcap_source *src,
		      const struct vcap_stats_summary *s)
{
	const char *to = strcmp(vcap_source_kind(src), "vram") ? "DQBUF" :
								"wake-up";

	if (s->latency_samples)
		fprintf(stderr,
			"%s: latency, board frame time to %s: p50 %.3f  p99 %.3f  max %.3f ms (%llu frames)\n",
			cmd, to, s->latency_p50 / 1e6, s->latency_p99 / 1e6,
			s->latency_max / 1e6,
			(unsigned long long)s->latency_samples);
	else if (s->latency_ahead)
		fprintf(stderr,
			"%s: latency: n/a, %llu frames stamped after their dequeue (nominal times, not capture times)\n",
			cmd, (unsigned long long)s->latency_ahead);
	else
		fprintf(stderr,
			"%s: latency: n/a (the frames' timestamps are not on CLOCK_MONOTONIC)\n",
			cmd);
}
