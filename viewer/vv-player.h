/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The UI loop on the main thread: takes the newest frame from the slot,
 * shows it through the sink, keeps the overlay and acts on the keys.
 * While the source has no signal it shows the NO SIGNAL card instead,
 * and waits for the signal to come back.
 */
#ifndef VV_PLAYER_H
#define VV_PLAYER_H

#include <signal.h>

#include "vv-args.h"
#include "vv-capture.h"
#include "vv-sink.h"

struct vv_player {
	const struct vv_options *opt;
	struct vv_sink *sink;
	struct vv_slot *slot;
	struct vv_capture *capture;
	const volatile sig_atomic_t *quit;	/* set by a signal handler */
	struct vv_frame *frame;		/* the frame on screen */
	struct vcap_mode mode;		/* the sink was started for this */
	bool started;
	bool have_frame;
	bool paused;
	bool overlay;
	bool fullscreen;
	uint64_t shown;
	uint64_t torn;			/* read while the board rewrote them */
	uint64_t copies;		/* of the frames shown, in all */
	unsigned int copies_last;	/* of the frame shown last */
	unsigned int copies_max;	/* of any one frame shown */
	uint64_t snapshots;
	/* The frames shown, timed from their buffer timestamp to the show. */
	struct vcap_stats *present;
	struct vv_overlay_bitmap bitmap;
	/* The source's signal, as the capture thread reports it. */
	struct vv_signal signal;	/* as read last */
	bool no_signal;			/* none now: frames are not shown */
	bool card_up;			/* the card is on screen */
	uint64_t no_signal_ns;		/* when the UI saw it go */
	uint64_t card_ns;		/* when the card was drawn last */
	uint64_t shown_since_back;	/* frames shown since it came back */
	struct vv_overlay_bitmap card;
};

int vv_player_init(struct vv_player *p, const struct vv_options *opt,
		   struct vv_sink *sink, struct vv_slot *slot,
		   struct vv_capture *capture,
		   const volatile sig_atomic_t *quit);
/*
 * Before the capture starts: the sink set up for the source's mode, when
 * it is known.  0, or -1 with the error printed.
 */
int vv_player_prepare(struct vv_player *p, const struct vcap_mode *mode);
/* Run until quit, --frames or an error; the exit status (0 or 1). */
int vv_player_run(struct vv_player *p);
void vv_player_destroy(struct vv_player *p);

#endif /* VV_PLAYER_H */
