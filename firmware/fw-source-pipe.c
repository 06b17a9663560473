// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Live Y4M from standard input or a FIFO: the source on the HDMI input.
 *
 * A reader thread parses the stream as it comes and hands each complete
 * frame to the live core (fw-source-live.c); each board frame shows the
 * newest one, so a slower source is repeated and a faster one skipped.  The stream's header
 * plugs a timing into the receiver; its end, a read error, a bad header
 * or frame, or a second without a frame is no signal.  A FIFO is opened
 * again at its end, so the next writer is the next stream.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fw-pace.h"
#include "fw-source-live.h"
#include "fw-y4m.h"

#define PIPE_MAX_LINE		1024
#define PIPE_BUF_SIZE		(64 << 10)
#define PIPE_RETRY_MS		1000		/* a path that cannot be opened */

/* What a read came to. */
enum pipe_rd {
	PIPE_OK,
	PIPE_EOF,		/* the end, at a boundary */
	PIPE_TRUNC,		/* the end, inside a line or a frame */
	PIPE_ERR,		/* a read error; errno kept in rd_errno */
	PIPE_STOP,		/* the source is being destroyed */
};

struct fw_pipe_source {
	struct fw_source base;
	struct fw_live live;
	char path[256];		/* "-": standard input */
	bool is_stdin;

	/* The reader thread's own. */
	int fd;
	bool is_fifo;
	u8 buf[PIPE_BUF_SIZE];
	size_t bpos, blen;
	int rd_errno;
};

#define pipe_error(p, ...)	fw_live_error(&(p)->live, __VA_ARGS__)

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
		{ .fd = p->live.stop_fd, .events = POLLIN },
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

/*
 * One stream, from its header on, until it ends or goes bad.  line holds
 * the header.  PIPE_EOF at its end, PIPE_STOP, or PIPE_TRUNC/PIPE_ERR
 * when it was dropped (already reported).
 */
static enum pipe_rd pipe_stream(struct fw_pipe_source *p, char *line)
{
	struct fw_y4m_header h;
	struct fw_image img;
	char msg[200];
	size_t len, got, fsize;
	u64 nframe = 0;
	enum pipe_rd r;
	u8 *dst;

next_stream:
	if (fw_y4m_parse_header(line, &h, msg, sizeof(msg))) {
		pipe_error(p, "%s", msg);
		return PIPE_TRUNC;
	}
	fw_live_stream_start(&p->live, h.w, h.h, h.rate_num, h.rate_den,
			     h.interlaced);
	fsize = (size_t)fw_image_size(h.fourcc, h.w, h.h);
	img.fourcc = h.fourcc;
	img.width = h.w;
	img.height = h.h;
	img.bytesperline = h.w;
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
		dst = fw_live_frame_buf(&p->live, h.w, h.h, fsize);
		if (!dst) {
			pipe_error(p, "out of memory for %ux%u frames", h.w,
				   h.h);
			return PIPE_ERR;
		}
		r = pipe_bytes(p, dst, fsize, &got);
		if (r == PIPE_STOP)
			return r;
		if (r != PIPE_OK) {
			pipe_error(p, "frame %llu is truncated (%zu of %zu bytes)",
				   (unsigned long long)nframe, got, fsize);
			return r;
		}
		img.data = dst;
		/* A pipe carries no capture time: its arrival stands for it. */
		fw_live_frame_done(&p->live, &img, fw_now_ns());
		nframe++;
	}
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
			if (fw_live_wait_stop(&p->live, PIPE_RETRY_MS))
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
		fw_live_no_signal(&p->live, !p->is_fifo);
		/* A stream gone bad is dropped: the rest of it is ignored. */
		if (r == PIPE_TRUNC)
			r = pipe_drain(p);
		if (r == PIPE_STOP)
			break;
		pipe_close(p);
		/* A FIFO's next writer is the next stream; others end. */
		if (!p->is_fifo) {
			fw_live_wait_stop(&p->live, -1);
			return NULL;
		}
	}
	pipe_close(p);
	return NULL;
}

static void fw_pipe_render(struct fw_source *s, const struct fw_frame_req *req,
			   u8 *dst, u64 seq, u64 prev)
{
	(void)prev;
	fw_live_render(&((struct fw_pipe_source *)s)->live, req, dst, seq);
}

static u64 fw_pipe_captured(struct fw_source *s)
{
	return fw_live_captured(&((struct fw_pipe_source *)s)->live);
}

static bool fw_pipe_signal(struct fw_source *s, struct fw_hdmi_source *hs)
{
	fw_live_signal(&((struct fw_pipe_source *)s)->live, hs);
	return true;
}

static void fw_pipe_stats(struct fw_source *s, FILE *out)
{
	fw_live_stats(&((struct fw_pipe_source *)s)->live, out);
}

static void fw_pipe_destroy(struct fw_source *s)
{
	struct fw_pipe_source *p = (struct fw_pipe_source *)s;

	fw_live_fini(&p->live);
	free(p);
}

static const struct fw_source_ops fw_pipe_ops = {
	.render = fw_pipe_render,
	.captured = fw_pipe_captured,
	.signal = fw_pipe_signal,
	.stats = fw_pipe_stats,
	.destroy = fw_pipe_destroy,
};

struct fw_source *fw_source_pipe_new(const char *path, char *err,
				     size_t errlen)
{
	struct fw_pipe_source *p;
	char name[280];
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
	p->base.ops = &fw_pipe_ops;
	snprintf(p->base.desc, sizeof(p->base.desc), "pipe:%s",
		 p->is_stdin ? "- (standard input)" : path);
	snprintf(name, sizeof(name), "pipe:%s", path);
	if (fw_live_init(&p->live, "pipe", name, err, errlen))
		goto err_free;
	if (fw_live_start(&p->live, pipe_thread, p)) {
		snprintf(err, errlen, "pipe %s: cannot start the reader", path);
		goto err_live;
	}
	return &p->base;

err_live:
	fw_live_fini(&p->live);
err_free:
	free(p);
	return NULL;
}
