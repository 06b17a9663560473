// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The live source core: the newest-frame slot between a reader thread
 * and the board, the stream's timing and signal, counters and messages.
 *
 * The reader fills a back frame while the board shows the front one;
 * a complete frame is swapped in under the lock, so a slower source is
 * repeated and a faster one skipped, and neither side waits for the
 * other longer than a swap (or the conversion of one frame).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "fw-log.h"
#include "fw-pace.h"
#include "fw-source-live.h"
#include "vcap-stamp.h"

static double live_timing_fps(const struct vcap_timing *t)
{
	u64 num, den;

	vcap_timing_interval(t, &num, &den);
	return num ? (double)den / (double)num : 0;
}

/*
 * The timing a w x h stream at rate num/den plays at: of the smallest
 * size in the table that holds the picture, the rate nearest the
 * stream's (60 Hz for a stream that gives none).  NULL if none holds it.
 */
const struct vcap_timing_def *fw_live_timing_for(u32 w, u32 h, u32 num,
						 u32 den)
{
	const struct vcap_timing_def *d, *best = NULL;
	double fps = num && den ? (double)num / den : 60, e, best_e = 0;
	unsigned int i;

	for (i = 0; (d = vcap_timings_get(i)); i++) {
		if (d->t.width < w || d->t.height < h)
			continue;
		if (best && (d->t.width != best->t.width ||
			     d->t.height != best->t.height))
			continue;
		e = live_timing_fps(&d->t) - fps;
		e = e < 0 ? -e : e;
		if (!best || e < best_e) {
			best = d;
			best_e = e;
		}
	}
	return best;
}

int fw_live_init(struct fw_live *l, const char *kind, const char *name,
		 char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->state = VCAP_LINK_NO_SIGNAL;
	l->timing_name = "none";
	l->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (l->stop_fd < 0) {
		snprintf(err, errlen, "%s: eventfd: %s", name, strerror(errno));
		return -1;
	}
	pthread_mutex_init(&l->lock, NULL);
	return 0;
}

int fw_live_start(struct fw_live *l, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int ret;

	/*
	 * The reader takes no signal: SIGTERM and SIGINT are for the main
	 * loop's signalfd, which may not be set up yet when a source is
	 * made, and would otherwise kill the process from this thread.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&l->thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return -1;
	l->running = true;
	return 0;
}

void fw_live_fini(struct fw_live *l)
{
	u64 one = 1;

	if (l->running) {
		if (write(l->stop_fd, &one, sizeof(one)) != sizeof(one))
			fw_err("%s: cannot stop the reader\n", l->name);
		pthread_join(l->thread, NULL);
		l->running = false;
	}
	close(l->stop_fd);
	pthread_mutex_destroy(&l->lock);
	free(l->front.data);
	free(l->back.data);
	free(l->raw);
}

bool fw_live_wait_stop(struct fw_live *l, int ms)
{
	struct pollfd pfd = { .fd = l->stop_fd, .events = POLLIN };

	return poll(&pfd, 1, ms) > 0;
}

void fw_live_error(struct fw_live *l, const char *fmt, ...)
{
	char msg[256], *p;
	va_list ap;
	u64 now = fw_now_ns();

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Quoted input may be anything: the terminal gets text. */
	for (p = msg; *p; p++)
		if ((u8)*p < 0x20 || (u8)*p > 0x7e)
			*p = '?';
	pthread_mutex_lock(&l->lock);
	l->errors++;
	snprintf(l->last_error, sizeof(l->last_error), "%s", msg);
	pthread_mutex_unlock(&l->lock);
	/* A source failing in a loop must not flood the log. */
	if (l->last_msg_ns && now - l->last_msg_ns < FW_LIVE_MSG_NS) {
		l->msgs_suppressed++;
		return;
	}
	if (l->msgs_suppressed)
		fw_err("%s: %s (%u more errors not shown)\n", l->name, msg,
		       l->msgs_suppressed);
	else
		fw_err("%s: %s\n", l->name, msg);
	l->last_msg_ns = now;
	l->msgs_suppressed = 0;
}

void fw_live_stream_start(struct fw_live *l, u32 w, u32 h, u32 num, u32 den,
			  bool interlaced)
{
	const struct vcap_timing_def *d;

	d = fw_live_timing_for(w, h, num, den);
	pthread_mutex_lock(&l->lock);
	l->streams++;
	l->src_w = w;
	l->src_h = h;
	l->rate_num = num;
	l->rate_den = den;
	l->front.n = 0;
	l->ended = false;
	l->active_ns = fw_now_ns();
	if (d && !interlaced) {
		l->state = VCAP_LINK_LOCKED;
		l->timing_name = d->name;
		l->stream_timing = d->name;
		l->timing = d->t;
	} else {
		/*
		 * Locked to, not capturable: an interlaced stream at its
		 * timing, or one larger than any, at its own size.
		 */
		l->state = VCAP_LINK_OUT_OF_RANGE;
		l->timing_name = "out-of-range";
		l->stream_timing = "out-of-range";
		l->timing = d ? d->t :
			vcap_timings_get(vcap_timings_count() - 1)->t;
		if (!d) {
			l->timing.width = w;
			l->timing.height = h;
		}
		l->timing.interlaced = interlaced;
	}
	l->tw = l->timing.width;
	l->th = l->timing.height;
	pthread_mutex_unlock(&l->lock);
}

void fw_live_no_signal(struct fw_live *l, bool ended)
{
	pthread_mutex_lock(&l->lock);
	l->state = VCAP_LINK_NO_SIGNAL;
	l->timing_name = "none";
	memset(&l->timing, 0, sizeof(l->timing));
	l->front.n = 0;
	l->ended = ended;
	pthread_mutex_unlock(&l->lock);
}

static int live_reserve(u8 **buf, size_t *cap, size_t len)
{
	u8 *n;

	if (*cap >= len)
		return 0;
	n = realloc(*buf, len);
	if (!n)
		return -1;
	*buf = n;
	*cap = len;
	return 0;
}

/* The letterboxed frame of the timing: 4:2:0, the cheapest to convert. */
static void live_lb_fmt(const struct fw_live *l, struct vcap_frame_fmt *lb)
{
	lb->fourcc = VCAP_FMT_YUV420;
	lb->width = l->tw;
	lb->height = l->th;
	lb->bytesperline = lb->width;
	lb->sizeimage = (u32)fw_image_size(lb->fourcc, lb->width, lb->height);
}

u8 *fw_live_frame_buf(struct fw_live *l, u32 w, u32 h, size_t len)
{
	struct vcap_frame_fmt lb;

	/* A picture no timing has the size of goes in letterboxed. */
	l->letterbox = l->tw != w || l->th != h;
	if (!l->letterbox) {
		/* back is the frame shown before: sized for any stream. */
		if (live_reserve(&l->back.data, &l->back.cap, len))
			return NULL;
		return l->back.data;
	}
	live_lb_fmt(l, &lb);
	if (live_reserve(&l->back.data, &l->back.cap, lb.sizeimage) ||
	    live_reserve(&l->raw, &l->raw_cap, len))
		return NULL;
	return l->raw;
}

void fw_live_frame_done(struct fw_live *l, const struct fw_image *img,
			u64 capture_ns)
{
	struct vcap_frame_fmt lb;
	struct fw_live_frame t;

	if (l->letterbox) {
		live_lb_fmt(l, &lb);
		fw_convert(img, &lb, l->back.data, 0, img->width, img->height);
		l->back.image.fourcc = lb.fourcc;
		l->back.image.width = lb.width;
		l->back.image.height = lb.height;
		l->back.image.bytesperline = lb.bytesperline;
	} else {
		l->back.image = *img;
	}
	l->back.image.data = l->back.data;
	l->back.capture_ns = capture_ns;
	l->back.n = ++l->frames_read;
	pthread_mutex_lock(&l->lock);
	if (l->front.n && !l->front_shown)
		l->frames_skipped++;
	t = l->front;
	l->front = l->back;
	l->back = t;
	l->front_shown = false;
	l->frames_in++;
	l->active_ns = fw_now_ns();
	pthread_mutex_unlock(&l->lock);
}

static void live_black(const struct fw_frame_req *req, u8 *dst, u64 seq)
{
	struct vcap_gen g;

	if (!vcap_gen_init(&g, &req->fmt, VCAP_PATTERN_SOLID_BLACK, 0))
		vcap_gen_render(&g, dst, seq, VCAP_GEN_NONE);
}

void fw_live_render(struct fw_live *l, const struct fw_frame_req *req,
		    u8 *dst, u64 seq)
{
	pthread_mutex_lock(&l->lock);
	if (!l->front.n) {
		l->shown_capture_ns = 0;
		pthread_mutex_unlock(&l->lock);
		live_black(req, dst, seq);
		return;
	}
	if (l->front.n == l->shown_n)
		l->frames_repeated++;
	l->shown_n = l->front.n;
	l->shown_capture_ns = l->front.capture_ns;
	l->front_shown = true;
	/* Held while converting: the reader waits only to hand a frame on. */
	fw_convert(&l->front.image, &req->fmt, dst, req->flags, req->src_w,
		   req->src_h);
	pthread_mutex_unlock(&l->lock);
	/* As for file frames: the stamp says which board frame this is. */
	vcap_stamp_write(&req->fmt, dst, seq, vcap_stamp_sum(&req->fmt, dst));
}

u64 fw_live_captured(struct fw_live *l)
{
	u64 t;

	pthread_mutex_lock(&l->lock);
	t = l->shown_capture_ns;
	pthread_mutex_unlock(&l->lock);
	return t;
}

void fw_live_signal(struct fw_live *l, struct fw_hdmi_source *hs)
{
	u64 now = fw_now_ns();

	memset(hs, 0, sizeof(*hs));
	pthread_mutex_lock(&l->lock);
	hs->state = l->state;
	hs->name = l->timing_name;
	hs->timing = l->timing;
	/* A stalled source is a source that stopped sending. */
	if (l->state != VCAP_LINK_NO_SIGNAL &&
	    now - l->active_ns > FW_LIVE_STALL_NS) {
		hs->state = VCAP_LINK_NO_SIGNAL;
		hs->name = "none";
		memset(&hs->timing, 0, sizeof(hs->timing));
	}
	pthread_mutex_unlock(&l->lock);
}

void fw_live_stats(struct fw_live *l, FILE *out)
{
	const char *k = l->kind;
	struct fw_hdmi_source hs;
	u64 now = fw_now_ns();

	fw_live_signal(l, &hs);
	pthread_mutex_lock(&l->lock);
	fprintf(out, "%s=%s\n", k, hs.state == VCAP_LINK_NO_SIGNAL ?
		(l->ended ? "ended" : l->state != VCAP_LINK_NO_SIGNAL ?
		 "stalled" : "waiting") : "streaming");
	if (l->streams)
		fprintf(out, "%s_stream=%ux%u rate=%u/%u timing=%s\n", k,
			l->src_w, l->src_h, l->rate_num, l->rate_den,
			l->stream_timing);
	fprintf(out, "%s_streams=%llu\n", k, (unsigned long long)l->streams);
	fprintf(out, "%s_frames_in=%llu\n", k,
		(unsigned long long)l->frames_in);
	fprintf(out, "%s_frames_skipped=%llu\n", k,
		(unsigned long long)l->frames_skipped);
	fprintf(out, "%s_frames_repeated=%llu\n", k,
		(unsigned long long)l->frames_repeated);
	if (l->front.n && now > l->front.capture_ns)
		fprintf(out, "%s_frame_age_ms=%llu\n", k,
			(unsigned long long)((now - l->front.capture_ns) /
					     1000000));
	fprintf(out, "%s_errors=%llu\n", k, (unsigned long long)l->errors);
	if (l->errors)
		fprintf(out, "%s_last_error=%s\n", k, l->last_error);
	pthread_mutex_unlock(&l->lock);
}
