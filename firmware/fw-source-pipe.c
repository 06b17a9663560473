// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Live Y4M from standard input or a FIFO: the source on the HDMI input.
 *
 * A reader thread parses the stream as it comes and keeps the newest
 * complete frame; each board frame shows the newest one, so a slower
 * source is repeated and a faster one skipped.  The stream's header
 * plugs a timing into the receiver; its end, a read error, a bad header
 * or frame, or a second without a frame is no signal.  A FIFO is opened
 * again at its end, so the next writer is the next stream.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fw-log.h"
#include "fw-pace.h"
#include "fw-source-file.h"
#include "vcap-stamp.h"

#define PIPE_MAX_LINE		1024
#define PIPE_BUF_SIZE		(64 << 10)
#define PIPE_STALL_NS		1000000000ull	/* no frame this long: no signal */
#define PIPE_MSG_NS		1000000000ull	/* one error message a second */
#define PIPE_RETRY_MS		1000		/* a path that cannot be opened */

/* What a read came to. */
enum pipe_rd {
	PIPE_OK,
	PIPE_EOF,		/* the end, at a boundary */
	PIPE_TRUNC,		/* the end, inside a line or a frame */
	PIPE_ERR,		/* a read error; errno kept in rd_errno */
	PIPE_STOP,		/* the source is being destroyed */
};

/* One complete frame: pixels, geometry, arrival. */
struct pipe_frame {
	u8 *data;
	size_t cap;
	struct fw_image image;
	u64 arrival_ns;		/* CLOCK_MONOTONIC */
	u64 n;			/* 1, 2, ... over the source's life; 0: none */
};

struct fw_pipe_source {
	struct fw_source base;
	char path[256];		/* "-": standard input */
	bool is_stdin;
	int stop_fd;		/* eventfd: written to stop the reader */
	pthread_t thread;

	/* The reader thread's own. */
	int fd;
	bool is_fifo;
	u8 buf[PIPE_BUF_SIZE];
	size_t bpos, blen;
	int rd_errno;
	struct pipe_frame back;
	u8 *raw;		/* a frame to letterbox into the timing */
	size_t raw_cap;
	u64 frames_read;
	u64 last_msg_ns;
	u32 msgs_suppressed;

	pthread_mutex_t lock;
	/* Everything below: protected by lock. */
	struct pipe_frame front;
	bool front_shown;
	u32 state;		/* VCAP_LINK_* of the stream */
	const char *timing_name;	/* static: the table's, or out-of-range */
	struct vcap_timing timing;
	u32 src_w, src_h, rate_num, rate_den;	/* the last stream's */
	const char *stream_timing;	/* static: what it locked to */
	u64 active_ns;		/* the header or the last frame came */
	bool ended;		/* standard input or a file at its end */
	u64 streams;
	u64 frames_in;
	u64 frames_skipped;	/* replaced before a board frame showed them */
	u64 frames_repeated;	/* shown again: nothing newer had come */
	u64 shown_n;
	u64 errors;
	char last_error[256];
};

/* Y4M rate: F30000:1001; 0/0 when absent. */
struct pipe_header {
	u32 w, h, fourcc, rate_num, rate_den;
	bool interlaced;
};

static void pipe_error(struct fw_pipe_source *p, const char *fmt, ...)
{
	char msg[256], *p_ch;
	va_list ap;
	u64 now = fw_now_ns();

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Quoted input may be anything: the terminal gets text. */
	for (p_ch = msg; *p_ch; p_ch++)
		if ((u8)*p_ch < 0x20 || (u8)*p_ch > 0x7e)
			*p_ch = '?';
	pthread_mutex_lock(&p->lock);
	p->errors++;
	snprintf(p->last_error, sizeof(p->last_error), "%s", msg);
	pthread_mutex_unlock(&p->lock);
	/* A writer sending garbage in a loop must not flood the log. */
	if (p->last_msg_ns && now - p->last_msg_ns < PIPE_MSG_NS) {
		p->msgs_suppressed++;
		return;
	}
	if (p->msgs_suppressed)
		fw_err("pipe:%s: %s (%u more errors not shown)\n", p->path,
		       msg, p->msgs_suppressed);
	else
		fw_err("pipe:%s: %s\n", p->path, msg);
	p->last_msg_ns = now;
	p->msgs_suppressed = 0;
}

/* The stream is gone: no signal, the last frame forgotten. */
static void pipe_no_signal(struct fw_pipe_source *p, bool ended)
{
	pthread_mutex_lock(&p->lock);
	p->state = VCAP_LINK_NO_SIGNAL;
	p->timing_name = "none";
	memset(&p->timing, 0, sizeof(p->timing));
	p->front.n = 0;
	p->ended = ended;
	pthread_mutex_unlock(&p->lock);
}

static void pipe_buf_empty(struct fw_pipe_source *p)
{
	p->bpos = 0;
	p->blen = 0;
}

/* Wait for input or the stop event; more bytes in buf, or why not. */
static enum pipe_rd pipe_fill(struct fw_pipe_source *p)
{
	struct pollfd pfd[2] = {
		{ .fd = p->fd, .events = POLLIN },
		{ .fd = p->stop_fd, .events = POLLIN },
	};
	ssize_t n;

	if (p->bpos == p->blen)
		pipe_buf_empty(p);
	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			p->rd_errno = errno;
			return PIPE_ERR;
		}
		if (pfd[1].revents)
			return PIPE_STOP;
		if (!pfd[0].revents)
			continue;
		n = read(p->fd, p->buf + p->blen, sizeof(p->buf) - p->blen);
		if (n > 0) {
			p->blen += (size_t)n;
			return PIPE_OK;
		}
		if (!n)
			return PIPE_EOF;
		if (errno == EAGAIN || errno == EINTR)
			continue;
		p->rd_errno = errno;
		return PIPE_ERR;
	}
}

/* One line, '\n' dropped; PIPE_EOF only before its first byte. */
static enum pipe_rd pipe_line(struct fw_pipe_source *p, char *line,
			      size_t *len)
{
	size_t n = 0;
	enum pipe_rd r;

	for (;;) {
		while (p->bpos < p->blen) {
			u8 c = p->buf[p->bpos++];

			if (c == '\n') {
				line[n] = 0;
				*len = n;
				return PIPE_OK;
			}
			if (n == PIPE_MAX_LINE) {
				line[n] = 0;
				*len = n + 1;	/* too long */
				return PIPE_OK;
			}
			line[n++] = (char)c;
		}
		/* Compact: the line so far is in line[], not in buf. */
		pipe_buf_empty(p);
		r = pipe_fill(p);
		if (r == PIPE_EOF && n)
			return PIPE_TRUNC;
		if (r != PIPE_OK)
			return r;
	}
}

/* len bytes into dst; *got how many came. */
static enum pipe_rd pipe_bytes(struct fw_pipe_source *p, u8 *dst,
			       size_t len, size_t *got)
{
	enum pipe_rd r;
	size_t k;

	*got = 0;
	while (*got < len) {
		if (p->bpos == p->blen) {
			r = pipe_fill(p);
			if (r == PIPE_EOF)
				return PIPE_TRUNC;
			if (r != PIPE_OK)
				return r;
		}
		k = p->blen - p->bpos;
		if (k > len - *got)
			k = len - *got;
		memcpy(dst + *got, p->buf + p->bpos, k);
		p->bpos += k;
		*got += k;
	}
	return PIPE_OK;
}

/* Read on to the stream's end, keeping nothing. */
static enum pipe_rd pipe_drain(struct fw_pipe_source *p)
{
	enum pipe_rd r;

	for (;;) {
		pipe_buf_empty(p);
		r = pipe_fill(p);
		if (r != PIPE_OK)
			return r;
	}
}

static int pipe_ratio(const char *s, u32 *num, u32 *den)
{
	unsigned long a, b;
	char *end;

	a = strtoul(s, &end, 10);
	if (end == s || *end != ':')
		return -1;
	s = end + 1;
	b = strtoul(s, &end, 10);
	if (end == s || *end || a > 0xffffffffu || b > 0xffffffffu)
		return -1;
	*num = (u32)a;
	*den = (u32)b;
	return 0;
}

/* Parse a header line; 0, or -1 with msg naming the problem. */
static int pipe_parse_header(char *line, struct pipe_header *h, char *msg,
			     size_t msglen)
{
	unsigned long w = 0, hh = 0;
	char *tok, *save, *end;
	u32 a, b;

	memset(h, 0, sizeof(*h));
	h->fourcc = VCAP_FMT_YUV420;
	if (strncmp(line, "YUV4MPEG2", 9) || (line[9] && line[9] != ' ')) {
		snprintf(msg, msglen,
			 "not a Y4M stream (no YUV4MPEG2 signature): '%.40s'",
			 line);
		return -1;
	}
	for (tok = strtok_r(line + 9, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		switch (tok[0]) {
		case 'W':
		case 'H':
			if (tok[0] == 'W')
				w = strtoul(tok + 1, &end, 10);
			else
				hh = strtoul(tok + 1, &end, 10);
			if (end == tok + 1 || *end)
				goto bad;
			break;
		case 'F':
			if (pipe_ratio(tok + 1, &a, &b) || !a || !b)
				goto bad;
			h->rate_num = a;
			h->rate_den = b;
			break;
		case 'A':
			if (pipe_ratio(tok + 1, &a, &b))
				goto bad;
			break;
		case 'I':
			if (strlen(tok) != 2 || !strchr("ptbm?", tok[1]))
				goto bad;
			h->interlaced = tok[1] != 'p' && tok[1] != '?';
			break;
		case 'C':
			if (fw_y4m_colour(tok + 1, &h->fourcc)) {
				snprintf(msg, msglen,
					 "unsupported colour space '%s' (8-bit 420, 422, 444 or mono)",
					 tok + 1);
				return -1;
			}
			break;
		case 'X':
			break;
		default:
			goto bad;
		}
	}
	if (!w || !hh || w > 8192 || hh > 8192) {
		snprintf(msg, msglen, "missing or bad frame size (W%lu H%lu)",
			 w, hh);
		return -1;
	}
	h->w = (u32)w;
	h->h = (u32)hh;
	return 0;
bad:
	snprintf(msg, msglen, "bad header parameter '%.40s'", tok);
	return -1;
}

/* FRAME and its parameters: 0, or -1 with msg naming the problem. */
static int pipe_parse_frame(char *line, char *msg, size_t msglen)
{
	char *tok, *save;

	if (strncmp(line, "FRAME", 5) || (line[5] && line[5] != ' ')) {
		snprintf(msg, msglen, "no FRAME marker: '%.40s'", line);
		return -1;
	}
	for (tok = strtok_r(line + 5, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		/* Ixyz: presentation, temporal, subsampling; X: anything. */
		if (tok[0] == 'X')
			continue;
		if (tok[0] == 'I' && strlen(tok) == 4 &&
		    strchr("tTbB1234", tok[1]) && strchr("pi", tok[2]) &&
		    strchr("pi?", tok[3]))
			continue;
		snprintf(msg, msglen, "bad frame parameter '%.40s'", tok);
		return -1;
	}
	return 0;
}

static double pipe_timing_fps(const struct vcap_timing *t)
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
const struct vcap_timing_def *fw_pipe_timing_for(u32 w, u32 h, u32 num,
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
		e = pipe_timing_fps(&d->t) - fps;
		e = e < 0 ? -e : e;
		if (!best || e < best_e) {
			best = d;
			best_e = e;
		}
	}
	return best;
}

/* A new stream: the receiver locks to its timing. */
static void pipe_stream_start(struct fw_pipe_source *p,
			      const struct pipe_header *h)
{
	const struct vcap_timing_def *d;

	d = fw_pipe_timing_for(h->w, h->h, h->rate_num, h->rate_den);
	pthread_mutex_lock(&p->lock);
	p->streams++;
	p->src_w = h->w;
	p->src_h = h->h;
	p->rate_num = h->rate_num;
	p->rate_den = h->rate_den;
	p->front.n = 0;
	p->ended = false;
	p->active_ns = fw_now_ns();
	if (d && !h->interlaced) {
		p->state = VCAP_LINK_LOCKED;
		p->timing_name = d->name;
		p->stream_timing = d->name;
		p->timing = d->t;
	} else {
		/*
		 * Locked to, not capturable: an interlaced stream at its
		 * timing, or one larger than any, at its own size.
		 */
		p->state = VCAP_LINK_OUT_OF_RANGE;
		p->timing_name = "out-of-range";
		p->stream_timing = "out-of-range";
		p->timing = d ? d->t :
			vcap_timings_get(vcap_timings_count() - 1)->t;
		if (!d) {
			p->timing.width = h->w;
			p->timing.height = h->h;
		}
		p->timing.interlaced = h->interlaced;
	}
	pthread_mutex_unlock(&p->lock);
}

static int pipe_reserve(u8 **buf, size_t *cap, size_t len)
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

/* The frame in back is complete: it becomes the newest. */
static void pipe_publish(struct fw_pipe_source *p)
{
	struct pipe_frame t;

	p->back.arrival_ns = fw_now_ns();
	p->back.n = ++p->frames_read;
	pthread_mutex_lock(&p->lock);
	if (p->front.n && !p->front_shown)
		p->frames_skipped++;
	t = p->front;
	p->front = p->back;
	p->back = t;
	p->front_shown = false;
	p->frames_in++;
	p->active_ns = p->front.arrival_ns;
	pthread_mutex_unlock(&p->lock);
}

/*
 * One stream, from its header on, until it ends or goes bad.  line holds
 * the header.  PIPE_EOF at its end, PIPE_STOP, or PIPE_TRUNC/PIPE_ERR
 * when it was dropped (already reported).
 */
static enum pipe_rd pipe_stream(struct fw_pipe_source *p, char *line)
{
	struct pipe_header h;
	struct fw_image img;
	struct vcap_frame_fmt lb;
	char msg[200];
	size_t len, got, fsize;
	u64 nframe = 0;
	bool letterbox;
	enum pipe_rd r;
	u8 *dst;

next_stream:
	if (pipe_parse_header(line, &h, msg, sizeof(msg))) {
		pipe_error(p, "%s", msg);
		return PIPE_TRUNC;
	}
	pipe_stream_start(p, &h);
	fsize = (size_t)fw_image_size(h.fourcc, h.w, h.h);
	img.fourcc = h.fourcc;
	img.width = h.w;
	img.height = h.h;
	img.bytesperline = h.w;
	/* A picture no timing has the size of goes in letterboxed. */
	pthread_mutex_lock(&p->lock);
	letterbox = p->timing.width != h.w || p->timing.height != h.h;
	lb.fourcc = VCAP_FMT_YUV420;
	lb.width = p->timing.width;
	lb.height = p->timing.height;
	pthread_mutex_unlock(&p->lock);
	lb.bytesperline = lb.width;
	lb.sizeimage = (u32)fw_image_size(lb.fourcc, lb.width, lb.height);
	for (;;) {
		r = pipe_line(p, line, &len);
		if (r == PIPE_EOF || r == PIPE_STOP)
			return r;
		if (r == PIPE_TRUNC) {
			pipe_error(p, "frame %llu: header line is truncated",
				   (unsigned long long)nframe);
			return r;
		}
		if (r == PIPE_ERR) {
			pipe_error(p, "read error: %s", strerror(p->rd_errno));
			return r;
		}
		if (len > PIPE_MAX_LINE) {
			pipe_error(p, "frame %llu: header line too long",
				   (unsigned long long)nframe);
			return PIPE_TRUNC;
		}
		/* Streams one after another: a new size, a new timing. */
		if (!strncmp(line, "YUV4MPEG2", 9))
			goto next_stream;
		if (pipe_parse_frame(line, msg, sizeof(msg))) {
			pipe_error(p, "frame %llu: %s",
				   (unsigned long long)nframe, msg);
			return PIPE_TRUNC;
		}
		/* back is the frame shown before: sized for any stream. */
		if (pipe_reserve(&p->back.data, &p->back.cap,
				 letterbox ? lb.sizeimage : fsize) ||
		    (letterbox && pipe_reserve(&p->raw, &p->raw_cap, fsize))) {
			pipe_error(p, "out of memory for %ux%u frames", h.w,
				   h.h);
			return PIPE_ERR;
		}
		dst = letterbox ? p->raw : p->back.data;
		r = pipe_bytes(p, dst, fsize, &got);
		if (r == PIPE_STOP)
			return r;
		if (r != PIPE_OK) {
			pipe_error(p, "frame %llu is truncated (%zu of %zu bytes)",
				   (unsigned long long)nframe, got, fsize);
			return r;
		}
		if (letterbox) {
			img.data = p->raw;
			fw_convert(&img, &lb, p->back.data, 0, h.w, h.h);
			p->back.image.fourcc = lb.fourcc;
			p->back.image.width = lb.width;
			p->back.image.height = lb.height;
			p->back.image.bytesperline = lb.bytesperline;
		} else {
			p->back.image = img;
		}
		p->back.image.data = p->back.data;
		pipe_publish(p);
		nframe++;
	}
}

/* Wait ms for the stop event: true if it came. */
static bool pipe_wait_stop(struct fw_pipe_source *p, int ms)
{
	struct pollfd pfd = { .fd = p->stop_fd, .events = POLLIN };

	return poll(&pfd, 1, ms) > 0;
}

static int pipe_open(struct fw_pipe_source *p)
{
	struct stat st;

	if (p->is_stdin) {
		p->fd = STDIN_FILENO;
		p->is_fifo = false;
		return 0;
	}
	/* Without O_NONBLOCK a FIFO would wait here for its writer. */
	p->fd = open(p->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (p->fd < 0)
		return -1;
	p->is_fifo = !fstat(p->fd, &st) && S_ISFIFO(st.st_mode);
	return 0;
}

static void pipe_close(struct fw_pipe_source *p)
{
	if (p->fd >= 0 && !p->is_stdin)
		close(p->fd);
	p->fd = -1;
	pipe_buf_empty(p);
}

static void *pipe_thread(void *arg)
{
	struct fw_pipe_source *p = arg;
	char line[PIPE_MAX_LINE + 2];
	enum pipe_rd r;
	size_t len;

	for (;;) {
		if (pipe_open(p)) {
			pipe_error(p, "cannot open: %s", strerror(errno));
			if (pipe_wait_stop(p, PIPE_RETRY_MS))
				return NULL;
			continue;
		}
		r = pipe_line(p, line, &len);
		if (r == PIPE_OK && len > PIPE_MAX_LINE) {
			pipe_error(p, "not a Y4M stream (header line too long)");
			r = PIPE_TRUNC;
		} else if (r == PIPE_OK) {
			r = pipe_stream(p, line);
		} else if (r == PIPE_TRUNC) {
			pipe_error(p, "header line is truncated");
		} else if (r == PIPE_ERR) {
			pipe_error(p, "read error: %s", strerror(p->rd_errno));
		}
		if (r == PIPE_STOP)
			break;
		pipe_no_signal(p, !p->is_fifo);
		/* A stream gone bad is dropped: the rest of it is ignored. */
		if (r == PIPE_TRUNC)
			r = pipe_drain(p);
		if (r == PIPE_STOP)
			break;
		pipe_close(p);
		/* A FIFO's next writer is the next stream; others end. */
		if (!p->is_fifo) {
			pipe_wait_stop(p, -1);
			return NULL;
		}
	}
	pipe_close(p);
	return NULL;
}

static void pipe_black(const struct fw_frame_req *req, u8 *dst, u64 seq)
{
	struct vcap_gen g;

	if (!vcap_gen_init(&g, &req->fmt, VCAP_PATTERN_SOLID_BLACK, 0))
		vcap_gen_render(&g, dst, seq, VCAP_GEN_NONE);
}

static void fw_pipe_render(struct fw_source *s, const struct fw_frame_req *req,
			   u8 *dst, u64 seq, u64 prev)
{
	struct fw_pipe_source *p = (struct fw_pipe_source *)s;

	(void)prev;
	pthread_mutex_lock(&p->lock);
	if (!p->front.n) {
		pthread_mutex_unlock(&p->lock);
		pipe_black(req, dst, seq);
		return;
	}
	if (p->front.n == p->shown_n)
		p->frames_repeated++;
	p->shown_n = p->front.n;
	p->front_shown = true;
	/* Held while converting: the reader waits only to hand a frame on. */
	fw_convert(&p->front.image, &req->fmt, dst, req->flags, req->src_w,
		   req->src_h);
	pthread_mutex_unlock(&p->lock);
	/* As for file frames: the stamp says which board frame this is. */
	vcap_stamp_write(&req->fmt, dst, seq, vcap_stamp_sum(&req->fmt, dst));
}

static bool fw_pipe_signal(struct fw_source *s, struct fw_hdmi_source *hs)
{
	struct fw_pipe_source *p = (struct fw_pipe_source *)s;
	u64 now = fw_now_ns();

	memset(hs, 0, sizeof(*hs));
	pthread_mutex_lock(&p->lock);
	hs->state = p->state;
	hs->name = p->timing_name;
	hs->timing = p->timing;
	/* A stalled writer is a source that stopped sending. */
	if (p->state != VCAP_LINK_NO_SIGNAL &&
	    now - p->active_ns > PIPE_STALL_NS) {
		hs->state = VCAP_LINK_NO_SIGNAL;
		hs->name = "none";
		memset(&hs->timing, 0, sizeof(hs->timing));
	}
	pthread_mutex_unlock(&p->lock);
	return true;
}

static void fw_pipe_stats(struct fw_source *s, FILE *out)
{
	struct fw_pipe_source *p = (struct fw_pipe_source *)s;
	struct fw_hdmi_source hs;
	u64 now = fw_now_ns();

	fw_pipe_signal(s, &hs);
	pthread_mutex_lock(&p->lock);
	fprintf(out, "pipe=%s\n", hs.state == VCAP_LINK_NO_SIGNAL ?
		(p->ended ? "ended" : p->state != VCAP_LINK_NO_SIGNAL ?
		 "stalled" : "waiting") : "streaming");
	if (p->streams)
		fprintf(out, "pipe_stream=%ux%u rate=%u/%u timing=%s\n",
			p->src_w, p->src_h, p->rate_num, p->rate_den,
			p->stream_timing);
	fprintf(out, "pipe_streams=%llu\n", (unsigned long long)p->streams);
	fprintf(out, "pipe_frames_in=%llu\n",
		(unsigned long long)p->frames_in);
	fprintf(out, "pipe_frames_skipped=%llu\n",
		(unsigned long long)p->frames_skipped);
	fprintf(out, "pipe_frames_repeated=%llu\n",
		(unsigned long long)p->frames_repeated);
	if (p->front.n)
		fprintf(out, "pipe_frame_age_ms=%llu\n",
			(unsigned long long)((now - p->front.arrival_ns) /
					     1000000));
	fprintf(out, "pipe_errors=%llu\n", (unsigned long long)p->errors);
	if (p->errors)
		fprintf(out, "pipe_last_error=%s\n", p->last_error);
	pthread_mutex_unlock(&p->lock);
}

static void fw_pipe_destroy(struct fw_source *s)
{
	struct fw_pipe_source *p = (struct fw_pipe_source *)s;
	u64 one = 1;

	if (write(p->stop_fd, &one, sizeof(one)) != sizeof(one))
		fw_err("pipe:%s: cannot stop the reader\n", p->path);
	pthread_join(p->thread, NULL);
	close(p->stop_fd);
	pthread_mutex_destroy(&p->lock);
	free(p->front.data);
	free(p->back.data);
	free(p->raw);
	free(p);
}

static const struct fw_source_ops fw_pipe_ops = {
	.render = fw_pipe_render,
	.signal = fw_pipe_signal,
	.stats = fw_pipe_stats,
	.destroy = fw_pipe_destroy,
};

struct fw_source *fw_source_pipe_new(const char *path, char *err,
				     size_t errlen)
{
	struct fw_pipe_source *p;
	struct stat st;

	if (strlen(path) >= sizeof(p->path)) {
		snprintf(err, errlen, "pipe %s: path too long", path);
		return NULL;
	}
	if (strcmp(path, "-") && stat(path, &st)) {
		snprintf(err, errlen, "pipe %s: %s", path, strerror(errno));
		return NULL;
	}
	if (strcmp(path, "-") && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "pipe %s: is a directory", path);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "pipe %s: out of memory", path);
		return NULL;
	}
	strcpy(p->path, path);
	p->is_stdin = !strcmp(path, "-");
	p->fd = -1;
	p->state = VCAP_LINK_NO_SIGNAL;
	p->timing_name = "none";
	p->base.ops = &fw_pipe_ops;
	snprintf(p->base.desc, sizeof(p->base.desc), "pipe:%s",
		 p->is_stdin ? "- (standard input)" : path);
	p->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (p->stop_fd < 0) {
		snprintf(err, errlen, "pipe %s: eventfd: %s", path,
			 strerror(errno));
		goto err_free;
	}
	pthread_mutex_init(&p->lock, NULL);
	if (pthread_create(&p->thread, NULL, pipe_thread, p)) {
		snprintf(err, errlen, "pipe %s: cannot start the reader", path);
		goto err_lock;
	}
	return &p->base;

err_lock:
	pthread_mutex_destroy(&p->lock);
	close(p->stop_fd);
err_free:
	free(p);
	return NULL;
}
