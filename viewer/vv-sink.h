/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Where frames are shown: an interface with an SDL window and a KMS
 * output behind it.  Every call comes from the main (UI) thread.
 */
#ifndef VV_SINK_H
#define VV_SINK_H

#include <libvcap.h>
#include <stdbool.h>

#include "vv-frame.h"
#include "vv-overlay.h"
#include "vv-scanout.h"

struct vv_sink_config {
	const char *title;		/* window title */
	uint32_t width, height;		/* first frames' size, for the window */
	bool fullscreen;
	const char *card;		/* KMS: /dev/dri/cardN, NULL to search */
};

/* What the user asked for since the last call. */
enum vv_action {
	VV_ACTION_QUIT,
	VV_ACTION_OVERLAY,		/* toggle the overlay */
	VV_ACTION_FULLSCREEN,		/* toggle fullscreen */
	VV_ACTION_PAUSE,		/* toggle pause */
	VV_ACTION_SNAPSHOT,		/* save what is on screen */
	VV_ACTION_REDRAW,		/* the window needs painting again */
};

#define VV_SINK_MAX_ACTIONS	16

struct vv_sink;

/* show(): the frame was torn while read; the picture before stays. */
#define VV_SINK_TORN	1

/* Each returns 0, or -1 with sink->error naming the cause. */
struct vv_sink_ops {
	const char *name;
	/* Open the display. */
	int (*init)(struct vv_sink *s, const struct vv_sink_config *cfg);
	/*
	 * Optional (NULL: none): count buffers for frames of mode that the
	 * display scans out as they are, exported as dma-bufs for the
	 * capture to fill; show() then puts a frame held in one of them on
	 * screen with no copy (and without the overlay).  Before start().
	 * The set, the sink's, or NULL with error saying why not; the sink
	 * then shows frames as before.
	 */
	struct vv_scanout *(*export_buffers)(struct vv_sink *s,
					     const struct vcap_mode *mode,
					     unsigned int count);
	/* Get ready for frames of mode (again when the mode changes). */
	int (*start)(struct vv_sink *s, const struct vcap_mode *mode);
	/*
	 * Show f (NULL: the picture shown last), with the overlay bitmap on
	 * top unless ov is NULL.  Each copy of f's pixels is counted in
	 * f->copies.  VV_SINK_TORN when vv_frame_intact() failed after the
	 * pixels were read: f is not shown.
	 */
	int (*show)(struct vv_sink *s, struct vv_frame *f,
		    const struct vv_overlay_bitmap *ov);
	/*
	 * Show no frame: black, with card centred (scaled down if the
	 * output is smaller).  It stays, through show(NULL) redraws, until
	 * the next frame is shown.
	 */
	int (*show_card)(struct vv_sink *s,
			 const struct vv_overlay_bitmap *card);
	/* The window's title; an output without one ignores it. */
	int (*set_title)(struct vv_sink *s, const char *title);
	/* Collect user actions without waiting; returns how many. */
	int (*poll)(struct vv_sink *s, enum vv_action *actions, int max);
	int (*set_fullscreen)(struct vv_sink *s, bool on);
	/* Write what is on screen now as a PNG file. */
	int (*snapshot)(struct vv_sink *s, const char *path);
	void (*stop)(struct vv_sink *s);
	void (*destroy)(struct vv_sink *s);
};

struct vv_sink {
	const struct vv_sink_ops *ops;
	void *priv;
	char path[128];			/* how frames reach the display */
	char error[320];
};

extern const struct vv_sink_ops vv_sink_sdl_ops;
extern const struct vv_sink_ops vv_sink_kms_ops;

/* sink->error from a format, for the implementations; returns -1. */
int vv_sink_fail(struct vv_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* VV_SINK_H */
