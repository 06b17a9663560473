/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libvcap: capture from any V4L2 capture device or from a vcap board's
 * VRAM node, with zero-copy frame views, statistics and file writers.
 *
 * Conventions
 * - Functions that return int give 0 on success and -1 on failure; those
 *   that return a pointer give NULL on failure.  On failure the calling
 *   thread's last error holds one line naming the device, the operation
 *   (usually the ioctl) and the errno text: vcap_last_error().
 *   Nothing in the library aborts or exits.
 * - Functions that wait (vcap_source_next(), vcap_v4l2_dequeue(),
 *   vcap_vram_wait()) return VCAP_TIMEOUT (1) when the timeout passes with
 *   no frame; a negative timeout waits forever.  On a device that follows
 *   its source (DV timings: HDMI and other digital inputs), the first two
 *   also return VCAP_SOURCE_CHANGED (3) once the source changed and the
 *   stream was restarted for it: see "Source changes" below.
 * - Every object has an open/start/stop/close (or new/destroy) lifecycle;
 *   objects are not thread safe, use one per thread or lock around it.
 * - Times are CLOCK_MONOTONIC nanoseconds.
 */
#ifndef LIBVCAP_H
#define LIBVCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VCAP_TIMEOUT		1
#define VCAP_SOURCE_CHANGED	3

/* Errors */

/* The calling thread's last error message ("" if none), never NULL. */
const char *vcap_last_error(void);
/* The errno behind the last error (0 if it had none). */
int vcap_last_errno(void);
void vcap_clear_error(void);

/* Pixel formats */

#define VCAP_FOURCC_STR_LEN	5

/* Layout families libvcap knows how to walk. */
enum vcap_layout {
	VCAP_LAYOUT_UNKNOWN = 0,	/* bytes only: raw writer and views */
	VCAP_LAYOUT_PACKED_YUV422,	/* YUYV, UYVY, YVYU, VYUY */
	VCAP_LAYOUT_SEMI_PLANAR_420,	/* NV12, NV21 */
	VCAP_LAYOUT_PLANAR_420,		/* YU12 (I420), YV12 */
	VCAP_LAYOUT_PLANAR_422,		/* 422P */
	VCAP_LAYOUT_RGB,		/* 3 or 4 bytes per pixel */
	VCAP_LAYOUT_GREY,
};

struct vcap_pixfmt {
	uint32_t fourcc;		/* V4L2_PIX_FMT_* value */
	const char *name;		/* "YUYV", "NV12", "RGB24", ... */
	enum vcap_layout layout;
	uint8_t bpp;			/* bytes per pixel of plane 0 */
	/*
	 * Packed YUV: byte offsets of Y0, U, Y1, V in a 4-byte group.
	 * RGB: byte offsets of R, G, B in a pixel (3 is unused).
	 * Chroma planes: 0 if U comes first, 1 if V does (YV12, NV21).
	 */
	uint8_t order[4];
	const char *y4m_tag;		/* Y4M C-tag written, NULL: none */
	bool stamped;			/* the board's stamps can be decoded */
};

/* Table lookups; NULL for a format libvcap does not know. */
const struct vcap_pixfmt *vcap_pixfmt_find(uint32_t fourcc);
const struct vcap_pixfmt *vcap_pixfmt_by_name(const char *name);
const struct vcap_pixfmt *vcap_pixfmt_by_index(unsigned int index);
unsigned int vcap_pixfmt_count(void);

/* "YUYV" etc.; buf gets a printable NUL-terminated fourcc. */
const char *vcap_fourcc_str(uint32_t fourcc, char buf[VCAP_FOURCC_STR_LEN]);
/* A four-character code or a table name ("RGB24"); 0 if neither. */
uint32_t vcap_fourcc_parse(const char *s);

/* Modes and frames */

/* A capture mode.  Zero fields in a request mean "keep the current". */
struct vcap_mode {
	uint32_t fourcc;
	uint32_t width;
	uint32_t height;
	uint32_t bytesperline;		/* plane 0 */
	uint32_t sizeimage;
	uint32_t interval_num;		/* seconds per frame, as a fraction */
	uint32_t interval_den;
};

/*
 * Smallest image size for mode (bytesperline 0: the tightest), 0 if the
 * format is unknown or the geometry absurd.
 */
size_t vcap_mode_frame_size(const struct vcap_mode *mode);
/* "YUYV 640x480 @ 30/1 fps" style text into buf. */
const char *vcap_mode_str(const struct vcap_mode *mode, char *buf,
			  size_t size);

/* vcap_frame.flags */
#define VCAP_FRAME_ERROR	(1u << 0)	/* driver/board flagged it bad */
#define VCAP_FRAME_NO_SIGNAL	(1u << 1)	/* filler, no input signal */
#define VCAP_FRAME_TORN		(1u << 2)	/* VRAM: overwritten mid-read */
#define VCAP_FRAME_TS_MONOTONIC	(1u << 3)	/* timestamp_ns is comparable
						 * to CLOCK_MONOTONIC */
#define VCAP_FRAME_MODE_CHANGED	(1u << 4)	/* first frame of a new mode:
						 * see frame.mode */

/*
 * A view of one captured frame.  data points into the driver's buffer or
 * the VRAM mapping: no copy was made.  The view is valid until the frame
 * is released; a VRAM view may additionally be overwritten by the board,
 * which vcap_source_frame_valid() detects after use.
 */
struct vcap_frame {
	const void *data;
	size_t bytesused;
	size_t length;			/* size of the buffer behind data */
	uint64_t sequence;		/* driver/board frame number */
	uint64_t timestamp_ns;		/* capture time, see flags */
	uint64_t dequeue_ns;		/* when libvcap got it */
	uint32_t flags;			/* VCAP_FRAME_* */
	uint32_t index;			/* V4L2 buffer index or VRAM slot */
	int dmabuf_fd;			/* exported dma-buf, or -1 */
	struct vcap_mode mode;		/* geometry of data */
	uint64_t priv;			/* the source's bookkeeping */
};

/*
 * Source changes.  An input with DV timings (HDMI, SDI, DVI capture)
 * reports V4L2_EVENT_SOURCE_CHANGE when its source changes resolution or
 * rate, or loses or regains its signal; the driver does not change the
 * format by itself.  libvcap then stops streaming, queries the new timings
 * (VIDIOC_QUERY_DV_TIMINGS), sets them, rereads the format, reallocates
 * the buffers and streams again, or, without a signal, waits for the next
 * source change.  The wait call returns VCAP_SOURCE_CHANGED after each;
 * the change is described by a struct vcap_source_change.  Frame views
 * held across a change stay readable until released.  Devices without DV
 * timings never return VCAP_SOURCE_CHANGED.
 */

/* vcap_source_change.what */
#define VCAP_CHANGE_FORMAT	(1u << 0)	/* pixel format */
#define VCAP_CHANGE_SIZE	(1u << 1)	/* width, height or stride */
#define VCAP_CHANGE_RATE	(1u << 2)	/* frame interval */
#define VCAP_CHANGE_SIGNAL_LOST	(1u << 3)	/* no frames until it is back */
#define VCAP_CHANGE_SIGNAL_BACK	(1u << 4)	/* streaming again */

struct vcap_source_change {
	uint32_t what;			/* VCAP_CHANGE_*; 0: same timings */
	bool signal;			/* the source has a signal now */
	struct vcap_mode old_mode;	/* the mode before (last with signal) */
	struct vcap_mode mode;		/* the mode now; valid with signal */
	uint64_t time_ns;		/* when it was handled */
	uint64_t no_signal_ns;		/* SIGNAL_BACK: how long it was gone */
	uint64_t count;			/* changes since the device opened */
};

/*
 * What differs between two modes: VCAP_CHANGE_FORMAT, _SIZE and _RATE
 * bits.  A zero bytesperline or interval on either side matches any.
 */
uint32_t vcap_mode_diff(const struct vcap_mode *a,
			const struct vcap_mode *b);
/*
 * One line for a change: "YUYV 1920x1080 @ 60 fps -> YUYV 1280x720 @
 * 60 fps (size)", "signal lost", "signal back after 2.104 s: YUYV ...".
 */
const char *vcap_change_str(const struct vcap_source_change *c, char *buf,
			    size_t size);

/* Device listing */

enum vcap_device_kind {
	VCAP_DEVICE_V4L2_CAPTURE,	/* single-planar video capture */
	VCAP_DEVICE_V4L2_OTHER,		/* a V4L2 node libvcap cannot read */
	VCAP_DEVICE_VRAM,		/* /dev/vcapN */
};

struct vcap_device_info {
	char path[64];
	enum vcap_device_kind kind;
	char driver[32];		/* "vivid", "uvcvideo", "vcap", ... */
	char card[64];			/* card name, or the board's name */
	char bus[64];			/* bus info, or the board's serial */
	uint32_t caps;			/* V4L2 device_caps; 0 for VRAM */
};

/*
 * Every /dev/video* and /dev/vcap* node that opens, sorted by path.
 * Free the array with free().  *count may be 0.
 */
int vcap_device_list(struct vcap_device_info **list, size_t *count);

/* How frames reach a V4L2 node's buffers */

enum vcap_transfer {
	VCAP_TRANSFER_UNKNOWN = 0,	/* not a vcap node, or a vcap driver
					 * that does not say */
	VCAP_TRANSFER_COPY,		/* the driver copies each frame out of
					 * the board's VRAM ring */
	VCAP_TRANSFER_DMA,		/* the board writes each frame into the
					 * buffer itself; the CPU copies nothing */
};

/*
 * For the V4L2 node path (/dev/videoM, or a link to it): the "transfer"
 * attribute of the vcap board behind it, the class device
 * /sys/class/vcap/vcapN whose device is the node's.  0 with *out
 * VCAP_TRANSFER_UNKNOWN for a node of another driver or of a vcap driver
 * without the attribute; -1 if path is not a device node or sysfs does
 * not know it.  sysfs is where sysfs is mounted, NULL for /sys.  A
 * /dev/vcapN VRAM node gives its own board's.
 */
int vcap_transfer_query(const char *sysfs, const char *path,
			enum vcap_transfer *out);
/* "dma", "copy" or "unknown". */
const char *vcap_transfer_name(enum vcap_transfer t);

/* V4L2 capture devices */

struct vcap_v4l2;

struct vcap_v4l2_caps {
	char driver[16];
	char card[32];
	char bus_info[32];
	uint32_t version;
	uint32_t device_caps;		/* V4L2_CAP_* of this node */
	bool capture;			/* single-planar video capture */
	bool capture_mplane;
	bool streaming;
	bool readwrite;
};

struct vcap_v4l2_fmtdesc {
	uint32_t fourcc;
	uint32_t flags;			/* V4L2_FMT_FLAG_* */
	char description[32];
};

/* A frame size: discrete (min == max, step 0) or a stepwise range. */
struct vcap_v4l2_size {
	uint32_t min_width, max_width, step_width;
	uint32_t min_height, max_height, step_height;
};

/* A frame interval: discrete (min == max) or a range with a step. */
struct vcap_v4l2_interval {
	uint32_t min_num, min_den;
	uint32_t max_num, max_den;
	uint32_t step_num, step_den;
};

/*
 * Open a capture node.  Fails with a clear error (ENOTTY for a node that
 * is not a single-planar video capture device; EOPNOTSUPP for a
 * multiplanar-only one) before anything else happens.
 */
struct vcap_v4l2 *vcap_v4l2_open(const char *path);
void vcap_v4l2_close(struct vcap_v4l2 *dev);
/* For poll(): readable (POLLIN) when a buffer can be dequeued. */
int vcap_v4l2_fd(const struct vcap_v4l2 *dev);
const char *vcap_v4l2_path(const struct vcap_v4l2 *dev);
int vcap_v4l2_caps(struct vcap_v4l2 *dev, struct vcap_v4l2_caps *caps);

/*
 * Enumeration: 0 and *out filled, VCAP_END (2) past the last index, -1 on
 * error.
 */
#define VCAP_END		2
int vcap_v4l2_enum_format(struct vcap_v4l2 *dev, unsigned int index,
			  struct vcap_v4l2_fmtdesc *out);
int vcap_v4l2_enum_size(struct vcap_v4l2 *dev, uint32_t fourcc,
			unsigned int index, struct vcap_v4l2_size *out);
int vcap_v4l2_enum_interval(struct vcap_v4l2 *dev, uint32_t fourcc,
			    uint32_t width, uint32_t height,
			    unsigned int index, struct vcap_v4l2_interval *out);

int vcap_v4l2_get_mode(struct vcap_v4l2 *dev, struct vcap_mode *mode);
/*
 * S_FMT and S_PARM; zero fields of want keep the current value.  *got
 * (may be NULL) receives what the driver chose.  Fails with EINVAL if
 * the driver substituted another pixel format.
 */
int vcap_v4l2_set_mode(struct vcap_v4l2 *dev, const struct vcap_mode *want,
		       struct vcap_mode *got);

/*
 * REQBUFS(MMAP), mmap every buffer, queue them all and STREAMON.
 * num_buffers 0 picks 4.  With export_dmabuf each buffer is also exported
 * with VIDIOC_EXPBUF (frames then carry dmabuf_fd); a driver without
 * EXPBUF is not an error, dmabuf_fd stays -1.
 */
int vcap_v4l2_start(struct vcap_v4l2 *dev, unsigned int num_buffers,
		    bool export_dmabuf);
/*
 * DQBUF after waiting up to timeout_ms: 0, VCAP_TIMEOUT,
 * VCAP_SOURCE_CHANGED (a DV input's source changed and streaming was
 * restarted, or stopped for a lost signal) or -1.  A signal caught while
 * waiting also returns VCAP_TIMEOUT.
 */
int vcap_v4l2_dequeue(struct vcap_v4l2 *dev, struct vcap_frame *frame,
		      int timeout_ms);
/* QBUF the frame's buffer again; the view must not be used after. */
int vcap_v4l2_release(struct vcap_v4l2 *dev, struct vcap_frame *frame);
/* STREAMOFF, unmap, REQBUFS(0).  Safe to call when not streaming. */
int vcap_v4l2_stop(struct vcap_v4l2 *dev);
/* EXPBUF of buffer index while streaming: a new dma-buf fd, or -1. */
int vcap_v4l2_export(struct vcap_v4l2 *dev, unsigned int index);
/*
 * Whether the current input has DV timings, so that the device follows
 * source changes (see "Source changes").  Such a device's start locks to
 * the source's timings; with no signal it succeeds without streaming
 * and vcap_v4l2_dequeue() waits for a source, returning
 * VCAP_SOURCE_CHANGED when one appears.
 */
bool vcap_v4l2_follows_source(const struct vcap_v4l2 *dev);
/* False while a DV input has no signal (not locked); true otherwise. */
bool vcap_v4l2_has_signal(const struct vcap_v4l2 *dev);
/* The last change handled; count 0 if none. */
void vcap_v4l2_last_change(const struct vcap_v4l2 *dev,
			   struct vcap_source_change *out);

/* The VRAM node /dev/vcapN */

struct vcap_vram;

struct vcap_vram_info {
	char name[32];
	char serial[32];
	uint32_t abi_version;
	uint32_t board_abi_version;
	bool soft_board;
	bool irq;
	bool streaming;			/* mode below is valid */
	struct vcap_mode mode;
	uint32_t num_slots;
	uint64_t map_size;
	uint64_t ring_offset;
	uint64_t slot_stride;
	/* Board counters, from the control page. */
	uint64_t frames_produced;
	uint64_t frames_overwritten;
	uint64_t frames_late;
	uint64_t heartbeat;
};

/* Open the node and map it read-only; VCAP_IOC_QUERY is checked. */
struct vcap_vram *vcap_vram_open(const char *path);
void vcap_vram_close(struct vcap_vram *vram);
/* For poll(): readable when the board published a frame. */
int vcap_vram_fd(const struct vcap_vram *vram);
const char *vcap_vram_path(const struct vcap_vram *vram);
/* VCAP_IOC_QUERY plus the board's counters. */
int vcap_vram_query(struct vcap_vram *vram, struct vcap_vram_info *info);
/*
 * Check that the board streams and its ring fits the mapping; *mode gets
 * the active mode.  Reading starts with the next frame published.
 */
int vcap_vram_start(struct vcap_vram *vram, struct vcap_mode *mode);
/*
 * Wait (VCAP_IOC_WAIT_FRAME) for a frame newer than the last one returned,
 * then take a view of its slot under the slot's sequence lock: 0 with a
 * view, VCAP_TIMEOUT, or -1.  A slot caught mid-write is retried a few
 * times before it is returned with VCAP_FRAME_TORN.
 */
int vcap_vram_wait(struct vcap_vram *vram, struct vcap_frame *frame,
		   int timeout_ms);
/*
 * After using frame->data: true only if the board did not touch the slot
 * since the view was taken, i.e. what was read is one whole frame.
 */
bool vcap_vram_frame_valid(struct vcap_vram *vram,
			   const struct vcap_frame *frame);
/*
 * Copy the frame out (at most size bytes) and check the sequence lock
 * after: 0 with a whole frame in dst, -1 with EAGAIN if it was torn.
 */
int vcap_vram_copy(struct vcap_vram *vram, const struct vcap_frame *frame,
		   void *dst, size_t size);

/* Sources: one interface over V4L2 and VRAM */

struct vcap_source;

struct vcap_source_config {
	struct vcap_mode mode;		/* V4L2: requested mode, 0 = keep */
	unsigned int num_buffers;	/* V4L2: 0 picks 4 */
	bool export_dmabuf;		/* V4L2: export buffers as dma-bufs */
};

/*
 * What a source implements.  Each returns as the public call of the same
 * name documents; open fills src->priv and src->mode.
 */
struct vcap_source_ops {
	const char *name;		/* "v4l2", "vram", ... */
	int (*open)(struct vcap_source *src, const char *path,
		    const struct vcap_source_config *cfg);
	int (*start)(struct vcap_source *src);
	int (*next)(struct vcap_source *src, struct vcap_frame *frame,
		    int timeout_ms);
	/* NULL: views never go stale while held. */
	bool (*frame_valid)(struct vcap_source *src,
			    const struct vcap_frame *frame);
	int (*release)(struct vcap_source *src, struct vcap_frame *frame);
	int (*stop)(struct vcap_source *src);
	void (*close)(struct vcap_source *src);
	int (*fd)(struct vcap_source *src);	/* for poll(); NULL: none */
};

struct vcap_source {
	const struct vcap_source_ops *ops;
	void *priv;			/* the implementation's state */
	char path[256];
	struct vcap_mode mode;		/* valid after open (VRAM: start) */
	bool streaming;
	/*
	 * Kept by implementations that follow their source: no_signal while
	 * the input has none, change the last VCAP_SOURCE_CHANGED's.
	 */
	bool no_signal;
	struct vcap_source_change change;
};

extern const struct vcap_source_ops vcap_source_v4l2_ops;
extern const struct vcap_source_ops vcap_source_vram_ops;

/*
 * Open path with ops, or, with ops NULL, pick by path: /dev/vcapN (or a
 * node answering VCAP_IOC_QUERY) is VRAM, anything else V4L2.
 */
struct vcap_source *vcap_source_open(const struct vcap_source_ops *ops,
				     const char *path,
				     const struct vcap_source_config *cfg);
int vcap_source_start(struct vcap_source *src);
/*
 * Next frame view: 0, VCAP_TIMEOUT, VCAP_SOURCE_CHANGED (no frame; the
 * source changed and src->mode is the new mode, see
 * vcap_source_last_change()) or -1.
 */
int vcap_source_next(struct vcap_source *src, struct vcap_frame *frame,
		     int timeout_ms);
/* False while the source's input has no signal. */
bool vcap_source_has_signal(const struct vcap_source *src);
/* The change behind the last VCAP_SOURCE_CHANGED; NULL if none yet. */
const struct vcap_source_change *
vcap_source_last_change(const struct vcap_source *src);
bool vcap_source_frame_valid(struct vcap_source *src,
			     const struct vcap_frame *frame);
int vcap_source_release(struct vcap_source *src, struct vcap_frame *frame);
int vcap_source_stop(struct vcap_source *src);
/* Stops if needed and frees src. */
void vcap_source_close(struct vcap_source *src);
/* A pollable fd, or -1. */
int vcap_source_fd(struct vcap_source *src);
const char *vcap_source_kind(const struct vcap_source *src);

/* Statistics */

struct vcap_stats;

struct vcap_stats_summary {
	uint64_t frames;		/* frames counted */
	uint64_t drops;			/* missing from sequence gaps */
	uint64_t reorders;		/* sequence went backwards/repeated */
	uint64_t errors;		/* frames flagged error or torn */
	uint64_t wall_ns;		/* start to stop (or now) */
	double fps;			/* frames over wall time */
	double fps_window;		/* over the recent window */
	/* Latency, timestamp to dequeue, in ns; valid if latency_samples. */
	uint64_t latency_samples;
	uint64_t latency_p50;
	uint64_t latency_p95;
	uint64_t latency_p99;
	uint64_t latency_max;
	/*
	 * Frames whose monotonic timestamp lies after their dequeue: a
	 * driver that stamps the frame's nominal time, not its capture.
	 * They give no latency sample.
	 */
	uint64_t latency_ahead;
	/* Process CPU time (getrusage) over the run, per frame. */
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
	uint64_t cpu_ns_per_frame;
};

/* window_ns: span of the recent-fps window (0 picks one second). */
struct vcap_stats *vcap_stats_new(uint64_t window_ns);
void vcap_stats_destroy(struct vcap_stats *st);
/* Start the wall and CPU clocks; resets the counters. */
void vcap_stats_start(struct vcap_stats *st);
/*
 * Count one frame: sequence, its capture time (0: unknown, no latency
 * sample) and when it was dequeued, both CLOCK_MONOTONIC ns; flags are
 * VCAP_FRAME_*.
 */
void vcap_stats_add(struct vcap_stats *st, uint64_t sequence,
		    uint64_t timestamp_ns, uint64_t dequeue_ns,
		    uint32_t flags);
/*
 * The sequence the next frame follows, without counting a frame: for a
 * frame that only starts the clock.
 */
void vcap_stats_baseline(struct vcap_stats *st, uint64_t sequence);
/*
 * The next frame starts a new stream (restarted after a source change):
 * its sequence is counted neither as a gap nor as a step back.
 */
void vcap_stats_new_segment(struct vcap_stats *st);
/* Count a frame from its view. */
void vcap_stats_frame(struct vcap_stats *st, const struct vcap_frame *frame);
/* Freeze the wall and CPU clocks. */
void vcap_stats_stop(struct vcap_stats *st);
void vcap_stats_get(const struct vcap_stats *st,
		    struct vcap_stats_summary *out);

/* Percentile p (0..100) of n values, nearest rank; sorts v in place. */
uint64_t vcap_percentile(uint64_t *v, size_t n, double p);
/* CLOCK_MONOTONIC now, in ns. */
uint64_t vcap_now_ns(void);

/* Frame writers */

enum vcap_writer_kind {
	VCAP_WRITER_RAW,		/* frames back to back, as captured */
	VCAP_WRITER_Y4M,		/* YUV4MPEG2, planar; see vcap_pixfmt */
};

struct vcap_writer;

/*
 * Create path ("-" is stdout) for frames of mode.  Y4M refuses a format
 * without a y4m_tag (EINVAL, naming the format).
 */
struct vcap_writer *vcap_writer_open(enum vcap_writer_kind kind,
				     const char *path,
				     const struct vcap_mode *mode);
/*
 * Append one frame of len bytes (at least the mode's frame size for Y4M).
 * A frame is written whole or, on a short write (ENOSPC, EPIPE), the file
 * is cut back to the last whole frame where possible and -1 returned.
 */
int vcap_writer_write(struct vcap_writer *w, const void *data, size_t len);
uint64_t vcap_writer_frames(const struct vcap_writer *w);
/* Flush and close; -1 if anything failed to reach the file. */
int vcap_writer_close(struct vcap_writer *w);

/* Y4M reading, for checking files (and tests). */
struct vcap_y4m_reader;

struct vcap_y4m_header {
	uint32_t width;
	uint32_t height;
	uint32_t fps_num;
	uint32_t fps_den;
	char colorspace[16];		/* C-tag value, "420jpeg" if absent */
	size_t frame_size;		/* bytes of one frame's planes */
};

struct vcap_y4m_reader *vcap_y4m_open(FILE *f,
				      struct vcap_y4m_header *header);
/* Next frame into buf (header.frame_size): 0, VCAP_END, or -1. */
int vcap_y4m_read(struct vcap_y4m_reader *r, void *buf);
void vcap_y4m_close(struct vcap_y4m_reader *r);

/* Conversion and snapshots */

/*
 * Convert one frame to packed RGB24 (dst: width * height * 3 bytes),
 * BT.601 limited range for YUV.  -1 with EINVAL for an unsupported format.
 */
int vcap_convert_rgb24(const struct vcap_mode *mode, const void *src,
		       size_t len, uint8_t *dst);
/* Write one frame as an RGB PNG file. */
int vcap_png_write(const char *path, const struct vcap_mode *mode,
		   const void *data, size_t len);

/* Verification: order, drops and tearing */

#define VCAP_VERIFY_STAMPS	(1u << 0)	/* decode the board's stamps */

enum vcap_verify_status {
	VCAP_VERIFY_OK = 0,
	VCAP_VERIFY_DROP,		/* sequence or stamp skipped ahead */
	VCAP_VERIFY_REORDER,		/* went backwards or repeated */
	VCAP_VERIFY_TORN,		/* stamps disagree, or VRAM torn */
	VCAP_VERIFY_BAD_STAMP,		/* no/corrupt stamp, bad checksum */
	VCAP_VERIFY_FLAGGED,		/* driver flagged error/no signal */
	VCAP_VERIFY_SHORT,		/* fewer bytes than the mode needs */
};

struct vcap_verify {
	uint32_t flags;			/* VCAP_VERIFY_* */
	uint64_t frames;		/* frames checked so far */
	bool have_prev;
	uint64_t prev_sequence;
	uint64_t prev_stamp;
	uint64_t prev_timestamp_ns;
	/* The first failure, kept once set. */
	enum vcap_verify_status status;
	uint64_t bad_frame;		/* index (from 0) of the first bad */
	char message[160];
};

void vcap_verify_init(struct vcap_verify *v, uint32_t flags);
/*
 * Check the next frame; returns its status.  The first failure is kept in
 * v->status/bad_frame/message, naming the frame, its sequence and why.
 */
enum vcap_verify_status vcap_verify_frame(struct vcap_verify *v,
					  const struct vcap_frame *frame);
const char *vcap_verify_status_str(enum vcap_verify_status s);

#ifdef __cplusplus
}
#endif

#endif /* LIBVCAP_H */
