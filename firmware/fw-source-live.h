/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The core of a live source on the HDMI input: a reader thread hands
 * complete frames in, each board frame shows the newest one.  The core
 * owns the frame slot, the timing the stream plugs into the receiver,
 * the signal (a stall is no signal), the counters and the error
 * messages; a reader (pipe, V4L2) only turns its input into pictures.
 */
#ifndef FW_SOURCE_LIVE_H
#define FW_SOURCE_LIVE_H

#include <pthread.h>
#include <stdarg.h>
#include "fw-convert.h"
#include "fw-source.h"

#define FW_LIVE_STALL_NS	1000000000ull	/* no frame this long: no signal */
#define FW_LIVE_MSG_NS		1000000000ull	/* one error message a second */

/* One complete frame: pixels, geometry, capture time. */
struct fw_live_frame {
	u8 *data;
	size_t cap;
	struct fw_image image;
	u64 capture_ns;		/* CLOCK_MONOTONIC */
	u64 n;			/* 1, 2, ... over the source's life; 0: none */
};

struct fw_live {
	const char *kind;	/* "pipe", "v4l2": the stats keys */
	char name[280];		/* "pipe:/tmp/in": messages */
	int stop_fd;		/* eventfd: written to stop the reader */
	pthread_t thread;
	bool running;

	/* The reader thread's own. */
	struct fw_live_frame back;
	u8 *raw;		/* a picture to letterbox into the timing */
	size_t raw_cap;
	bool letterbox;		/* the stream's size is not its timing's */
	u32 tw, th;		/* the stream's timing size */
	u64 frames_read;
	u64 last_msg_ns;
	u32 msgs_suppressed;

	pthread_mutex_t lock;
	/* Everything below: protected by lock. */
	struct fw_live_frame front;
	bool front_shown;
	u32 state;		/* VCAP_LINK_* of the stream */
	const char *timing_name;	/* static: the table's, or out-of-range */
	struct vcap_timing timing;
	u32 src_w, src_h, rate_num, rate_den;	/* the last stream's */
	const char *stream_timing;	/* static: what it locked to */
	u64 active_ns;		/* the stream began or the last frame came */
	bool ended;		/* the input is at its end for good */
	u64 streams;
	u64 frames_in;
	u64 frames_skipped;	/* replaced before a board frame showed them */
	u64 frames_repeated;	/* shown again: nothing newer had come */
	u64 shown_n;
	u64 shown_capture_ns;	/* of the frame render drew last */
	u64 errors;
	char last_error[256];
};

/* kind and name as above; err names the problem. */
int fw_live_init(struct fw_live *l, const char *kind, const char *name,
		 char *err, size_t errlen);
/* Run fn(arg) as the reader thread. */
int fw_live_start(struct fw_live *l, void *(*fn)(void *), void *arg);
/* Stop the reader (it sees stop_fd readable) and free everything. */
void fw_live_fini(struct fw_live *l);
/* Wait ms (-1: for ever) for the stop event: true if it came. */
bool fw_live_wait_stop(struct fw_live *l, int ms);

/* From the reader thread. */

/* Count an error; its message, as text, at most once a second. */
void fw_live_error(struct fw_live *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A new stream of w x h at num/den fps (0/0: none given): the receiver
 * locks to its timing, or is out of range (interlaced, or too large).
 */
void fw_live_stream_start(struct fw_live *l, u32 w, u32 h, u32 num, u32 den,
			  bool interlaced);
/* The stream is gone: no signal, the last frame forgotten. */
void fw_live_no_signal(struct fw_live *l, bool ended);
/*
 * Where the reader puts its next w x h picture of len bytes, or NULL
 * (out of memory); then fw_live_frame_done() with the picture there.
 */
u8 *fw_live_frame_buf(struct fw_live *l, u32 w, u32 h, size_t len);
/* The picture at img->data is complete: it becomes the newest frame. */
void fw_live_frame_done(struct fw_live *l, const struct fw_image *img,
			u64 capture_ns);

/* The source ops' halves. */

/* The newest frame, or black without one, stamped with seq. */
void fw_live_render(struct fw_live *l, const struct fw_frame_req *req,
		    u8 *dst, u64 seq);
/* The capture time of the frame render drew last; 0: none. */
u64 fw_live_captured(struct fw_live *l);
void fw_live_signal(struct fw_live *l, struct fw_hdmi_source *hs);
/* KIND=state, KIND_stream=..., the counters, the last error. */
void fw_live_stats(struct fw_live *l, FILE *out);

#endif /* FW_SOURCE_LIVE_H */
