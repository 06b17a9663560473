// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A V4L2 capture device of the host on the HDMI input: a webcam or a
 * capture card, through libvcap.
 *
 * A reader thread streams the device (MMAP) and hands each frame to the
 * live core: raw formats are copied, MJPEG is decoded (fw-jpeg.c).  A
 * frame that does not decode is counted and dropped, the one before
 * stays.  The device's mode is the stream's timing; a new mode (a source
 * change) is a new timing.  An unplugged device is no signal, and the
 * device is opened again every second until it is back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <libvcap.h>
#include "fw-source-v4l2.h"

#define V4L2_RETRY_MS		1000	/* a device that cannot be opened */
#define V4L2_WAIT_MS		100	/* a dequeue's wait: how soon a stop is seen */
#define V4L2_BUFFERS		4
#define V4L2_MAX_MODES		1024

struct fw_v4l2_source {
	struct fw_source base;
	struct fw_live live;
	struct fw_v4l2_want want;

	/* The reader thread's own (the creator's until it starts). */
	struct vcap_v4l2 *dev;
	struct vcap_mode mode;	/* what the device streams */
	bool signal;		/* a DV input locked to its source */
	struct fw_jpeg *jpeg;

	/* Protected by live.lock. */
	char mode_str[96];
	char card[128];
	u64 opens;
	u64 frames_bad;		/* flagged by the driver, short, not decoded */
};

/* What streaming the device came to. */
enum v4l2_end {
	V4L2_STOP,		/* the source is being destroyed */
	V4L2_LOST,		/* unplugged, or failed: open it again */
};

static int v4l2_parse_mode(const char *s, struct fw_v4l2_want *want)
{
	unsigned long a, b;
	char *end;

	if (*s != '@') {
		a = strtoul(s, &end, 10);
		if (end == s || *end != 'x')
			return -1;
		s = end + 1;
		b = strtoul(s, &end, 10);
		if (end == s || !a || !b || a > 8192 || b > 8192)
			return -1;
		want->width = (u32)a;
		want->height = (u32)b;
		s = end;
	}
	if (*s == '@') {
		a = strtoul(s + 1, &end, 10);
		if (end == s + 1 || !a || a > 1000)
			return -1;
		want->fps = (u32)a;
		s = end;
	}
	return *s ? -1 : 0;
}

int fw_v4l2_parse_spec(const char *spec, struct fw_v4l2_want *want,
		       char *err, size_t errlen)
{
	char buf[sizeof(want->path) + 64], *tok[3], *p;
	unsigned int n = 0, i;

	memset(want, 0, sizeof(*want));
	if (strlen(spec) >= sizeof(buf))
		goto bad;
	strcpy(buf, spec);
	/* A device path has no ':'; what follows it is the mode. */
	for (p = buf; n < 3; n++) {
		tok[n] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = 0;
	}
	if (p || !tok[0][0] || strlen(tok[0]) >= sizeof(want->path))
		goto bad;
	strcpy(want->path, tok[0]);
	for (i = 1; i <= n && i < 3; i++) {
		p = tok[i];
		if ((*p >= '0' && *p <= '9') || *p == '@') {
			if (want->width || want->fps ||
			    v4l2_parse_mode(p, want))
				goto bad;
		} else if (strlen(p) == 4 && !want->fourcc) {
			want->fourcc = VCAP_FOURCC(p[0], p[1], p[2], p[3]);
		} else {
			goto bad;
		}
	}
	if (want->fourcc && !fw_v4l2_format_ok(want->fourcc)) {
		snprintf(err, errlen,
			 "v4l2 source '%s': format %.4s is not one the board takes (YUYV, UYVY, NV12, YU12, RGB3, BGR3, BX24, XR24, GREY or MJPG)",
			 spec, (const char *)&want->fourcc);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "bad v4l2 source '%s': expected v4l2:DEVICE[:WxH][@FPS][:FOURCC], e.g. v4l2:/dev/video0:1280x720@30:MJPG",
		 spec);
	return -1;
}

static bool v4l2_is_jpeg(u32 fourcc)
{
	return fourcc == FW_FMT_MJPEG || fourcc == FW_FMT_JPEG;
}

bool fw_v4l2_format_ok(u32 fourcc)
{
	return v4l2_is_jpeg(fourcc) || vcap_format_find(fourcc);
}

/* Frames a second of a mode, 0 if unknown. */
static double v4l2_fps(const struct fw_v4l2_mode *m)
{
	return m->num && m->den ? (double)m->den / m->num : 0;
}

static bool v4l2_matches(const struct fw_v4l2_mode *m,
			 const struct fw_v4l2_want *want)
{
	double e;

	if (!fw_v4l2_format_ok(m->fourcc))
		return false;
	if (want->fourcc && want->fourcc != m->fourcc &&
	    !(v4l2_is_jpeg(want->fourcc) && v4l2_is_jpeg(m->fourcc)))
		return false;
	if (want->width && (want->width != m->width ||
			    want->height != m->height))
		return false;
	e = v4l2_fps(m) - want->fps;
	return !want->fps || (e > -0.5 && e < 0.5);
}

/* Whether a plays better than b on the HDMI input. */
static bool v4l2_better(const struct fw_v4l2_mode *a,
			const struct fw_v4l2_mode *b)
{
	bool ta = fw_live_timing_for(a->width, a->height, 0, 0) != NULL;
	bool tb = fw_live_timing_for(b->width, b->height, 0, 0) != NULL;
	u64 aa = (u64)a->width * a->height, ab = (u64)b->width * b->height;
	double fa = v4l2_fps(a), fb = v4l2_fps(b);

	if (ta != tb)
		return ta;
	/* 1080p at 5 fps is a slide show: motion first. */
	if ((fa >= 24) != (fb >= 24))
		return fa >= 24;
	if (aa != ab)
		return aa > ab;
	if (fa != fb)
		return fa > fb;
	return !v4l2_is_jpeg(a->fourcc) && v4l2_is_jpeg(b->fourcc);
}

int fw_v4l2_pick(const struct fw_v4l2_mode *modes, unsigned int n,
		 const struct fw_v4l2_want *want,
		 const struct fw_v4l2_mode *cur)
{
	bool any = !want->width && !want->fps && !want->fourcc;
	int best = -1;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!v4l2_matches(&modes[i], want))
			continue;
		/* What the user set up with v4l2-ctl is what we take. */
		if (any && cur && cur->fourcc == modes[i].fourcc &&
		    cur->width == modes[i].width &&
		    cur->height == modes[i].height &&
		    (!cur->num || (u64)cur->num * modes[i].den ==
				  (u64)cur->den * modes[i].num))
			return (int)i;
		if (best < 0 || v4l2_better(&modes[i], &modes[best]))
			best = (int)i;
	}
	return best;
}

int fw_v4l2_frame_in(struct fw_live *l, struct fw_jpeg *j, u32 fourcc,
		     u32 w, u32 h, u32 bpl, const u8 *data, size_t len,
		     u64 capture_ns, char *msg, size_t msglen)
{
	const struct vcap_format_info *fi;
	struct fw_image img;
	size_t need;
	u8 *dst;

	if (v4l2_is_jpeg(fourcc)) {
		dst = fw_live_frame_buf(l, w, h, fw_jpeg_max_size(w, h));
		if (!dst) {
			snprintf(msg, msglen, "out of memory for %ux%u frames",
				 w, h);
			return -1;
		}
		if (fw_jpeg_decode(j, data, len, w, h, dst, &img, msg, msglen))
			return -1;
		fw_live_frame_done(l, &img, capture_ns);
		return 0;
	}
	fi = vcap_format_find(fourcc);
	if (!fi) {
		snprintf(msg, msglen, "format %.4s is not one the board takes",
			 (const char *)&fourcc);
		return -1;
	}
	if (!bpl)
		bpl = vcap_format_min_bpl(fi, w);
	need = (size_t)vcap_format_sizeimage(fi, bpl, h);
	if (!need || bpl < vcap_format_min_bpl(fi, w)) {
		snprintf(msg, msglen, "bad geometry: %.4s %ux%u, %u bytes a line",
			 (const char *)&fourcc, w, h, bpl);
		return -1;
	}
	if (len < need) {
		snprintf(msg, msglen, "short frame (%zu of %zu bytes)", len,
			 need);
		return -1;
	}
	dst = fw_live_frame_buf(l, w, h, need);
	if (!dst) {
		snprintf(msg, msglen, "out of memory for %ux%u frames", w, h);
		return -1;
	}
	memcpy(dst, data, need);
	img.fourcc = fourcc;
	img.width = w;
	img.height = h;
	img.bytesperline = bpl;
	img.data = dst;
	fw_live_frame_done(l, &img, capture_ns);
	return 0;
}

static int v4l2_add(struct fw_v4l2_mode **modes, unsigned int *n,
		    const struct fw_v4l2_mode *m)
{
	struct fw_v4l2_mode *t;

	if (*n == V4L2_MAX_MODES)
		return 0;
	/* Room for 16, then doubled each time it is full. */
	if (!*n || (*n >= 16 && !(*n & (*n - 1)))) {
		t = realloc(*modes, (*n ? *n * 2 : 16) * sizeof(*t));
		if (!t)
			return -1;
		*modes = t;
	}
	(*modes)[(*n)++] = *m;
	return 0;
}

/* The intervals of one size: each discrete one, a range's ends, or 0/0. */
static int v4l2_enum_rates(struct vcap_v4l2 *dev, struct fw_v4l2_mode *m,
			   struct fw_v4l2_mode **modes, unsigned int *n)
{
	struct vcap_v4l2_interval iv;
	unsigned int k;
	int ret;

	for (k = 0; (ret = vcap_v4l2_enum_interval(dev, m->fourcc, m->width,
						   m->height, k, &iv)) == 0;
	     k++) {
		m->num = iv.min_num;
		m->den = iv.min_den;
		if (v4l2_add(modes, n, m))
			return -1;
		if (iv.min_num == iv.max_num && iv.min_den == iv.max_den)
			continue;
		m->num = iv.max_num;
		m->den = iv.max_den;
		if (v4l2_add(modes, n, m))
			return -1;
		break;
	}
	if (!k) {
		m->num = 0;
		m->den = 0;
		return v4l2_add(modes, n, m);
	}
	return 0;
}

/*
 * Every mode the device offers in a format the board takes.  A range of
 * sizes gives its largest and, when asked for and inside it, want's.
 */
static int v4l2_enum_modes(struct vcap_v4l2 *dev,
			   const struct fw_v4l2_want *want,
			   struct fw_v4l2_mode **modes, unsigned int *n)
{
	struct vcap_v4l2_fmtdesc fd;
	struct vcap_v4l2_size sz;
	struct fw_v4l2_mode m;
	unsigned int i, k;

	*modes = NULL;
	*n = 0;
	for (i = 0; vcap_v4l2_enum_format(dev, i, &fd) == 0; i++) {
		if (!fw_v4l2_format_ok(fd.fourcc))
			continue;
		m.fourcc = fd.fourcc;
		for (k = 0; vcap_v4l2_enum_size(dev, fd.fourcc, k, &sz) == 0;
		     k++) {
			m.width = sz.max_width;
			m.height = sz.max_height;
			if (v4l2_enum_rates(dev, &m, modes, n))
				return -1;
			if (sz.min_width == sz.max_width || !want->width ||
			    want->width < sz.min_width ||
			    want->width > sz.max_width ||
			    want->height < sz.min_height ||
			    want->height > sz.max_height)
				continue;
			m.width = want->width;
			m.height = want->height;
			if (v4l2_enum_rates(dev, &m, modes, n))
				return -1;
		}
	}
	return 0;
}

static void v4l2_want_str(const struct fw_v4l2_want *w, char *buf,
			  size_t len)
{
	int k = 0;

	buf[0] = 0;
	if (w->width)
		k += snprintf(buf + k, len - (size_t)k, " %ux%u", w->width,
			      w->height);
	if (w->fps)
		k += snprintf(buf + k, len - (size_t)k, " at %u fps", w->fps);
	if (w->fourcc)
		snprintf(buf + k, len - (size_t)k, " in %.4s",
			 (const char *)&w->fourcc);
}

/*
 * The device's mode: the one picked for want, set.  A DV input (HDMI
 * capture) follows its source and keeps the mode its source gives.
 */
static int v4l2_set_mode(struct fw_v4l2_source *v, char *err, size_t errlen)
{
	struct fw_v4l2_mode *modes, cur = { 0 };
	struct vcap_mode now, want = { 0 };
	unsigned int n;
	char what[64];
	int i;

	if (vcap_v4l2_follows_source(v->dev) && !v->want.width &&
	    !v->want.fps && !v->want.fourcc)
		return 0;
	if (v4l2_enum_modes(v->dev, &v->want, &modes, &n)) {
		snprintf(err, errlen, "%s: out of memory", v->want.path);
		return -1;
	}
	if (!vcap_v4l2_get_mode(v->dev, &now)) {
		cur.fourcc = now.fourcc;
		cur.width = now.width;
		cur.height = now.height;
		cur.num = now.interval_num;
		cur.den = now.interval_den;
	}
	i = fw_v4l2_pick(modes, n, &v->want, &cur);
	if (i < 0) {
		v4l2_want_str(&v->want, what, sizeof(what));
		snprintf(err, errlen,
			 "%s has no mode%s the board takes (vcap-fw --list-sources lists them)",
			 v->want.path, what);
		free(modes);
		return -1;
	}
	want.fourcc = modes[i].fourcc;
	want.width = modes[i].width;
	want.height = modes[i].height;
	want.interval_num = modes[i].num;
	want.interval_den = modes[i].den;
	free(modes);
	if (vcap_v4l2_set_mode(v->dev, &want, NULL)) {
		snprintf(err, errlen, "%s", vcap_last_error());
		return -1;
	}
	return 0;
}

/*
 * The device's mode (m, or NULL: as it says now) is the stream's: a
 * timing on the HDMI input.
 */
static void v4l2_stream_start(struct fw_v4l2_source *v,
			      const struct vcap_mode *m)
{
	struct vcap_mode now;
	char buf[96];

	v->signal = vcap_v4l2_has_signal(v->dev);
	if (!v->signal) {
		fw_live_no_signal(&v->live, false);
		return;
	}
	if (m)
		v->mode = *m;
	else if (!vcap_v4l2_get_mode(v->dev, &now))
		v->mode = now;
	vcap_mode_str(&v->mode, buf, sizeof(buf));
	pthread_mutex_lock(&v->live.lock);
	snprintf(v->mode_str, sizeof(v->mode_str), "%s", buf);
	pthread_mutex_unlock(&v->live.lock);
	/* The stream's rate is frames a second: the interval upside down. */
	fw_live_stream_start(&v->live, v->mode.width, v->mode.height,
			     v->mode.interval_den, v->mode.interval_num, false);
}

/* Open, set the mode, stream: 0, or -1 with err naming the problem. */
static int v4l2_open(struct fw_v4l2_source *v, char *err, size_t errlen)
{
	struct vcap_v4l2_caps caps;

	v->dev = vcap_v4l2_open(v->want.path);
	if (!v->dev) {
		snprintf(err, errlen, "%s", vcap_last_error());
		return -1;
	}
	if (v4l2_set_mode(v, err, errlen))
		goto err_close;
	if (vcap_v4l2_start(v->dev, V4L2_BUFFERS, false)) {
		snprintf(err, errlen, "%s", vcap_last_error());
		goto err_close;
	}
	if (vcap_v4l2_get_mode(v->dev, &v->mode)) {
		snprintf(err, errlen, "%s", vcap_last_error());
		goto err_stop;
	}
	if (!fw_v4l2_format_ok(v->mode.fourcc)) {
		snprintf(err, errlen, "%s streams %.4s, a format the board does not take",
			 v->want.path, (const char *)&v->mode.fourcc);
		goto err_stop;
	}
	memset(&caps, 0, sizeof(caps));
	vcap_v4l2_caps(v->dev, &caps);
	pthread_mutex_lock(&v->live.lock);
	snprintf(v->card, sizeof(v->card), "%s (%s)", caps.card, caps.driver);
	v->opens++;
	pthread_mutex_unlock(&v->live.lock);
	v4l2_stream_start(v, NULL);
	return 0;

err_stop:
	vcap_v4l2_stop(v->dev);
err_close:
	vcap_v4l2_close(v->dev);
	v->dev = NULL;
	return -1;
}

static void v4l2_close(struct fw_v4l2_source *v)
{
	if (!v->dev)
		return;
	vcap_v4l2_stop(v->dev);
	vcap_v4l2_close(v->dev);
	v->dev = NULL;
}

static void v4l2_bad_frame(struct fw_v4l2_source *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void v4l2_bad_frame(struct fw_v4l2_source *v, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&v->live.lock);
	v->frames_bad++;
	pthread_mutex_unlock(&v->live.lock);
	fw_live_error(&v->live, "%s", msg);
}

/* One dequeued frame into the live core. */
static void v4l2_frame(struct fw_v4l2_source *v, const struct vcap_frame *f)
{
	const struct vcap_mode *m = &f->mode;
	char msg[200];
	u64 t;

	/* A size changed under the stream: a new timing. */
	if ((f->flags & VCAP_FRAME_MODE_CHANGED) || !v->signal ||
	    m->fourcc != v->mode.fourcc || m->width != v->mode.width ||
	    m->height != v->mode.height)
		v4l2_stream_start(v, m);
	if (f->flags & VCAP_FRAME_ERROR) {
		v4l2_bad_frame(v, "frame %llu: flagged bad by the driver",
			       (unsigned long long)f->sequence);
		return;
	}
	/* The driver's capture time where it is on our clock. */
	t = (f->flags & VCAP_FRAME_TS_MONOTONIC) && f->timestamp_ns ?
		f->timestamp_ns : f->dequeue_ns;
	if (fw_v4l2_frame_in(&v->live, v->jpeg, m->fourcc, m->width,
			     m->height, m->bytesperline, f->data, f->bytesused,
			     t, msg, sizeof(msg)))
		v4l2_bad_frame(v, "frame %llu: %s",
			       (unsigned long long)f->sequence, msg);
}

/* libvcap's last call failed while streaming: the device is lost. */
static enum v4l2_end v4l2_lost(struct fw_v4l2_source *v)
{
	if (vcap_last_errno() == ENODEV)
		fw_live_error(&v->live, "unplugged: %s", vcap_last_error());
	else
		fw_live_error(&v->live, "%s", vcap_last_error());
	return V4L2_LOST;
}

static enum v4l2_end v4l2_stream(struct fw_v4l2_source *v)
{
	struct vcap_frame f;
	int ret;

	for (;;) {
		if (fw_live_wait_stop(&v->live, 0))
			return V4L2_STOP;
		ret = vcap_v4l2_dequeue(v->dev, &f, V4L2_WAIT_MS);
		if (ret == VCAP_TIMEOUT)
			continue;
		if (ret == VCAP_SOURCE_CHANGED) {
			v4l2_stream_start(v, NULL);
			continue;
		}
		if (ret < 0)
			return v4l2_lost(v);
		v4l2_frame(v, &f);
		if (vcap_v4l2_release(v->dev, &f))
			return v4l2_lost(v);
	}
}

static void *v4l2_thread(void *arg)
{
	struct fw_v4l2_source *v = arg;
	char err[512];

	for (;;) {
		if (v->dev || !v4l2_open(v, err, sizeof(err))) {
			if (v4l2_stream(v) == V4L2_STOP)
				break;
			v4l2_close(v);
		} else {
			fw_live_error(&v->live, "%s", err);
		}
		fw_live_no_signal(&v->live, false);
		/* Plugged back in, it is found within a second. */
		if (fw_live_wait_stop(&v->live, V4L2_RETRY_MS))
			break;
	}
	v4l2_close(v);
	return NULL;
}

static void fw_v4l2_render(struct fw_source *s, const struct fw_frame_req *req,
			   u8 *dst, u64 seq, u64 prev)
{
	(void)prev;
	fw_live_render(&((struct fw_v4l2_source *)s)->live, req, dst, seq);
}

static u64 fw_v4l2_captured(struct fw_source *s)
{
	return fw_live_captured(&((struct fw_v4l2_source *)s)->live);
}

static bool fw_v4l2_signal(struct fw_source *s, struct fw_hdmi_source *hs)
{
	fw_live_signal(&((struct fw_v4l2_source *)s)->live, hs);
	return true;
}

static void fw_v4l2_stats(struct fw_source *s, FILE *out)
{
	struct fw_v4l2_source *v = (struct fw_v4l2_source *)s;

	fw_live_stats(&v->live, out);
	pthread_mutex_lock(&v->live.lock);
	fprintf(out, "v4l2_device=%s %s\n", v->want.path, v->card);
	fprintf(out, "v4l2_mode=%s\n", v->mode_str);
	fprintf(out, "v4l2_opens=%llu\n", (unsigned long long)v->opens);
	fprintf(out, "v4l2_frames_bad=%llu\n",
		(unsigned long long)v->frames_bad);
	pthread_mutex_unlock(&v->live.lock);
}

static void fw_v4l2_destroy(struct fw_source *s)
{
	struct fw_v4l2_source *v = (struct fw_v4l2_source *)s;

	fw_live_fini(&v->live);
	v4l2_close(v);
	fw_jpeg_destroy(v->jpeg);
	free(v);
}

static const struct fw_source_ops fw_v4l2_ops = {
	.render = fw_v4l2_render,
	.captured = fw_v4l2_captured,
	.signal = fw_v4l2_signal,
	.stats = fw_v4l2_stats,
	.destroy = fw_v4l2_destroy,
};

struct fw_source *fw_source_v4l2_new(const char *spec, char *err,
				     size_t errlen)
{
	struct fw_v4l2_source *v;
	char name[280];

	v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "v4l2 %s: out of memory", spec);
		return NULL;
	}
	if (fw_v4l2_parse_spec(spec, &v->want, err, errlen))
		goto err_free;
	v->jpeg = fw_jpeg_new();
	if (!v->jpeg) {
		snprintf(err, errlen, "v4l2 %s: cannot make a JPEG decoder",
			 spec);
		goto err_free;
	}
	v->base.ops = &fw_v4l2_ops;
	snprintf(v->base.desc, sizeof(v->base.desc), "v4l2:%s", spec);
	snprintf(name, sizeof(name), "v4l2:%s", v->want.path);
	if (fw_live_init(&v->live, "v4l2", name, err, errlen))
		goto err_jpeg;
	/* A device that is not there, or not a camera, is refused now. */
	if (v4l2_open(v, err, errlen))
		goto err_live;
	if (fw_live_start(&v->live, v4l2_thread, v)) {
		snprintf(err, errlen, "v4l2 %s: cannot start the reader", spec);
		goto err_close;
	}
	return &v->base;

err_close:
	v4l2_close(v);
err_live:
	fw_live_fini(&v->live);
err_jpeg:
	fw_jpeg_destroy(v->jpeg);
err_free:
	free(v);
	return NULL;
}

/* One size's rates for --list-sources. */
static void v4l2_list_rates(struct vcap_v4l2 *dev, u32 fourcc, u32 w, u32 h,
			    FILE *out)
{
	struct vcap_v4l2_interval iv;
	unsigned int k;

	for (k = 0; vcap_v4l2_enum_interval(dev, fourcc, w, h, k, &iv) == 0;
	     k++) {
		if (!iv.min_num)
			continue;
		if (iv.min_num == iv.max_num && iv.min_den == iv.max_den)
			fprintf(out, " %g", (double)iv.min_den / iv.min_num);
		else if (iv.max_num)
			fprintf(out, " %g-%g", (double)iv.max_den / iv.max_num,
				(double)iv.min_den / iv.min_num);
	}
	fprintf(out, k ? " fps\n" : "\n");
}

/* A device's formats, sizes and rates; the ones the board takes marked. */
static void v4l2_list_device(struct vcap_v4l2 *dev, FILE *out)
{
	struct vcap_v4l2_fmtdesc fd;
	struct vcap_v4l2_size sz;
	unsigned int i, k;

	for (i = 0; vcap_v4l2_enum_format(dev, i, &fd) == 0; i++) {
		bool ok = fw_v4l2_format_ok(fd.fourcc);

		fprintf(out, "    %.4s %s%s\n", (const char *)&fd.fourcc,
			fd.description, ok ? "" : " (not taken by the board)");
		if (!ok)
			continue;
		for (k = 0; vcap_v4l2_enum_size(dev, fd.fourcc, k, &sz) == 0;
		     k++) {
			if (sz.min_width == sz.max_width &&
			    sz.min_height == sz.max_height)
				fprintf(out, "      %ux%u:", sz.max_width,
					sz.max_height);
			else
				fprintf(out, "      %ux%u to %ux%u (at the largest):",
					sz.min_width, sz.min_height,
					sz.max_width, sz.max_height);
			v4l2_list_rates(dev, fd.fourcc, sz.max_width,
					sz.max_height, out);
		}
	}
}

void fw_v4l2_list(FILE *out)
{
	struct vcap_device_info *list = NULL;
	struct vcap_v4l2 *dev;
	size_t n = 0, i, shown = 0;

	if (vcap_device_list(&list, &n)) {
		fprintf(out, "  (cannot list devices: %s)\n", vcap_last_error());
		return;
	}
	for (i = 0; i < n; i++) {
		if (list[i].kind != VCAP_DEVICE_V4L2_CAPTURE)
			continue;
		fprintf(out, "  v4l2:%s  %s (%s, %s)\n", list[i].path,
			list[i].card, list[i].driver, list[i].bus);
		shown++;
		dev = vcap_v4l2_open(list[i].path);
		if (!dev) {
			fprintf(out, "    (%s)\n", vcap_last_error());
			continue;
		}
		v4l2_list_device(dev, out);
		vcap_v4l2_close(dev);
	}
	if (!shown)
		fprintf(out, "  (no V4L2 capture device)\n");
	free(list);
}
