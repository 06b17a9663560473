/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Frame sources: what the board shows.  Test patterns, a looping Y4M file,
 * a file of raw frames, live Y4M from a pipe, or a V4L2 capture device
 * of the host (a camera); each is a struct fw_source with its ops.
 */
#ifndef FW_SOURCE_H
#define FW_SOURCE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include "fw-hdmi.h"
#include "vcap-pattern.h"

/* What one frame must look like. */
struct fw_frame_req {
	struct vcap_frame_fmt fmt;
	u32 pattern;		/* enum vcap_pattern */
	u32 flags;		/* VCAP_REQ_HFLIP | VCAP_REQ_VFLIP */
	/*
	 * The source's size: fmt's (or 0 x 0), or another one scaled into
	 * fmt (vcap_letterbox()), flips applying to its picture.
	 */
	u32 src_w;
	u32 src_h;
};

struct fw_source;

struct fw_source_ops {
	/*
	 * Draw frame seq, stamps included, into dst.  prev: the frame dst
	 * holds from this source with the same request, or VCAP_GEN_NONE.
	 */
	void (*render)(struct fw_source *s, const struct fw_frame_req *req,
		       u8 *dst, u64 seq, u64 prev);
	/*
	 * A live source is also what the HDMI input receives: the
	 * receiver's source now, into hs.  NULL for file sources.
	 */
	bool (*signal)(struct fw_source *s, struct fw_hdmi_source *hs);
	/*
	 * The capture time (CLOCK_MONOTONIC ns) of the frame render drew
	 * last, 0 if it drew none of its input; NULL for sources that make
	 * their frames, which the board stamps with the time it began them.
	 */
	u64 (*captured)(struct fw_source *s);
	/* Lines of its own for stats ("key=value\n"); may be NULL. */
	void (*stats)(struct fw_source *s, FILE *out);
	void (*destroy)(struct fw_source *s);
};

struct fw_source {
	const struct fw_source_ops *ops;
	char desc[280];		/* for stats: "pattern", "y4m:clip.y4m" */
};

struct fw_source *fw_source_pattern_new(void);
struct fw_source *fw_source_y4m_new(const char *path, char *err,
				    size_t errlen);
struct fw_source *fw_source_raw_new(const char *path, u32 fourcc, u32 width,
				    u32 height, char *err, size_t errlen);
/*
 * Live Y4M from path, a FIFO or any readable stream, or "-": standard
 * input.  A FIFO is opened again at each end, for its next writer.
 */
struct fw_source *fw_source_pipe_new(const char *path, char *err,
				     size_t errlen);

/*
 * A V4L2 capture device of the host, from "PATH[:WxH][@FPS][:FOURCC]"
 * (what follows "v4l2:"): its frames, raw or MJPEG, are the HDMI input's
 * signal.  The device must open and have the mode; once running, an
 * unplugged device is no signal until it is back.
 */
struct fw_source *fw_source_v4l2_new(const char *spec, char *err,
				     size_t errlen);

/*
 * The host's V4L2 capture devices and their modes, and the other kinds
 * of source, for --list-sources.
 */
void fw_source_list(FILE *out);

/* The timing a live w x h stream at num/den fps locks to, or NULL. */
const struct vcap_timing_def *fw_live_timing_for(u32 w, u32 h, u32 num,
						 u32 den);

/* Whether a source drives the HDMI input itself (a live source). */
static inline bool fw_source_is_live(const struct fw_source *s)
{
	return s && s->ops->signal;
}

/*
 * From a command line spec: "pattern", "y4m:PATH",
 * "raw:PATH:FOURCC:WxH", "pipe:PATH", "-" or "v4l2:PATH[:MODE]".  NULL with err filled on
 * failure.
 */
struct fw_source *fw_source_parse(const char *spec, char *err, size_t errlen);

void fw_source_destroy(struct fw_source *s);

#endif /* FW_SOURCE_H */
