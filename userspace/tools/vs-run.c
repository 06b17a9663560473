// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* What the streaming subcommands share: signals, sources, progress. */
#include "vs.h"

#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

volatile int vs_stop;

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

struct vcap_source *vs_open_source(const struct vs_opts *o, const char *cmd)
{
	struct vcap_source_config cfg;
	struct vcap_source *src;

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
	return src;
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
