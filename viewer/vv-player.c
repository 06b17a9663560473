// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The UI loop on the main thread. */
#include "vv-player.h"
#include "vv-card.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * How long the loop waits for a frame before looking at the keys again:
 * the window stays responsive whatever the source does.
 */
#define VV_PLAYER_WAIT_MS	10
#define VV_OVERLAY_REFRESH_NS	500000000ull
#define VV_STALL_NS		1000000000ull
/* The card's count of seconds without a signal moves this often. */
#define VV_CARD_REFRESH_NS	1000000000ull

int vv_player_init(struct vv_player *p, const struct vv_options *opt,
		   struct vv_sink *sink, struct vv_slot *slot,
		   struct vv_capture *capture,
		   const volatile sig_atomic_t *quit)
{
	memset(p, 0, sizeof(*p));
	p->opt = opt;
	p->sink = sink;
	p->slot = slot;
	p->capture = capture;
	p->quit = quit;
	p->overlay = opt->overlay;
	p->fullscreen = opt->fullscreen;
	p->frame = calloc(1, sizeof(*p->frame));
	p->present = vcap_stats_new(0);
	if (!p->frame || !p->present)
		return -1;
	vcap_stats_start(p->present);
	return 0;
}

void vv_player_destroy(struct vv_player *p)
{
	if (p->frame) {
		vv_frame_release(p->frame);
		free(p->frame);
		p->frame = NULL;
	}
	vcap_stats_destroy(p->present);
	p->present = NULL;
	vv_overlay_free(&p->bitmap);
	vv_overlay_free(&p->card);
}

static int vv_player_error(struct vv_player *p)
{
	fprintf(stderr, "vcap-view: %s\n", p->sink->error);
	return 1;
}

/* The overlay for now, or NULL when it is off or cannot be drawn. */
static const struct vv_overlay_bitmap *
vv_player_overlay(struct vv_player *p, uint64_t now, uint64_t start,
		  uint64_t last_frame)
{
	struct vv_overlay_info info = { 0 };
	char text[256];
	double secs = (now - start) / 1e9;

	if (!p->overlay || !p->have_frame)
		return NULL;
	info.mode = p->frame->mode;
	info.capture = p->frame->figures;
	info.shown = p->shown;
	info.copies = p->copies_last;
	info.shown_fps = secs > 0 ? p->shown / secs : 0;
	info.stalled_s = now - last_frame >= VV_STALL_NS ?
				 (now - last_frame) / 1e9 : 0;
	info.paused = p->paused;
	info.source = p->opt->device;
	vv_overlay_text(&info, text, sizeof(text));
	if (vv_overlay_draw(&p->bitmap, text,
			    p->mode.height >= 480 ? 2 : 1))
		return NULL;
	return &p->bitmap;
}

static int vv_player_snapshot(struct vv_player *p, const char *path)
{
	char name[64];

	if (!path) {
		snprintf(name, sizeof(name), "vcap-view-%03llu.png",
			 (unsigned long long)++p->snapshots);
		path = name;
	}
	if (!p->have_frame && !p->card_up) {
		fprintf(stderr, "vcap-view: no frame shown yet: no snapshot\n");
		return -1;
	}
	if (p->sink->ops->snapshot(p->sink, path))
		return -1;
	printf("vcap-view: snapshot %s\n", path);
	return 0;
}

/* Act on the user's keys; -1 on a sink error. */
static int vv_player_actions(struct vv_player *p, bool *redraw, bool *quit)
{
	enum vv_action act[VV_SINK_MAX_ACTIONS];
	int n = p->sink->ops->poll(p->sink, act, VV_SINK_MAX_ACTIONS);

	for (int i = 0; i < n; i++) {
		switch (act[i]) {
		case VV_ACTION_QUIT:
			*quit = true;
			break;
		case VV_ACTION_OVERLAY:
			p->overlay = !p->overlay;
			*redraw = true;
			break;
		case VV_ACTION_FULLSCREEN:
			p->fullscreen = !p->fullscreen;
			if (p->sink->ops->set_fullscreen(p->sink,
							 p->fullscreen))
				return -1;
			*redraw = true;
			break;
		case VV_ACTION_PAUSE:
			p->paused = !p->paused;
			*redraw = true;
			break;
		case VV_ACTION_SNAPSHOT:
			/* A failed snapshot is reported; the viewer goes on. */
			if (vv_player_snapshot(p, NULL) &&
			    (p->have_frame || p->card_up))
				fprintf(stderr, "vcap-view: snapshot: %s\n",
					p->sink->error);
			break;
		case VV_ACTION_REDRAW:
			*redraw = true;
			break;
		}
	}
	return 0;
}

/* A frame on screen: its copies, the display's upload included. */
/*
 * A frame the display has just taken.  Its latency runs from the buffer's
 * timestamp, when that is on CLOCK_MONOTONIC (on vcap, the frame's end on
 * the board), to now.
 */
static void vv_player_count(struct vv_player *p, const struct vv_frame *f)
{
	vcap_stats_add(p->present, f->sequence, f->timestamp_ns, vcap_now_ns(),
		       f->src ? f->view.flags : 0);
	p->shown++;
	p->shown_since_back++;
	p->copies += f->copies;
	p->copies_last = f->copies;
	if (f->copies > p->copies_max)
		p->copies_max = f->copies;
}

static void vv_player_stats(const struct vv_player *p)
{
	const struct vv_capture_figures *c = &p->frame->figures;
	struct vcap_stats_summary s;

	printf("vcap-view: stats: %llu frames shown, %llu torn, %llu skipped, %llu dropped by the source\n",
	       (unsigned long long)p->shown, (unsigned long long)p->torn,
	       (unsigned long long)c->replaced, (unsigned long long)c->drops);
	printf("vcap-view: stats: copies per frame shown: %.2f, at most %u\n",
	       p->shown ? (double)p->copies / p->shown : 0.0, p->copies_max);
	printf("vcap-view: stats: path: %s, %s\n",
	       vv_capture_path(p->capture),
	       p->sink->path[0] ? p->sink->path : "no frame shown");
	printf("vcap-view: stats: signal lost %llu times, resumed %llu times, %.2f s without a signal, %llu frames shown since the signal last came\n",
	       (unsigned long long)p->signal.lost,
	       (unsigned long long)p->signal.back,
	       (p->signal.absent_ns +
		(p->signal.present ? 0 : vcap_now_ns() - p->signal.since_ns)) /
		       1e9,
	       (unsigned long long)p->shown_since_back);
	vcap_stats_get(p->present, &s);
	if (s.latency_samples)
		printf("vcap-view: stats: latency, buffer timestamp to shown: p50 %.3f  p99 %.3f  max %.3f ms (%llu frames)\n",
		       s.latency_p50 / 1e6, s.latency_p99 / 1e6,
		       s.latency_max / 1e6,
		       (unsigned long long)s.latency_samples);
	else
		printf("vcap-view: stats: latency, buffer timestamp to shown: n/a (no frame stamped on CLOCK_MONOTONIC before it was shown)\n");
}

/*
 * Whether frames of b need the sink set up again after a: the geometry,
 * not bytesused or the frame interval.
 */
static bool vv_mode_changed(const struct vcap_mode *a,
			    const struct vcap_mode *b)
{
	return a->fourcc != b->fourcc || a->width != b->width ||
	       a->height != b->height || a->bytesperline != b->bytesperline;
}

/*
 * Textures made and the window sized while no frame waits: set up on the
 * first frame instead, the display would leave the frames behind it in
 * the slot, to be replaced and skipped.
 */
int vv_player_prepare(struct vv_player *p, const struct vcap_mode *mode)
{
	if (!mode->fourcc || !mode->width || !mode->height)
		return 0;	/* a VRAM node whose board does not stream yet */
	if (p->sink->ops->start(p->sink, mode))
		return vv_player_error(p);
	p->mode = *mode;
	p->started = true;
	return 0;
}

/* -v: the mode the frames now come in, the display made ready for it. */
static void vv_player_say_mode(const struct vv_player *p)
{
	char mode[96];

	printf("vcap-view: %s: showing %s\n", p->opt->device,
	       vcap_mode_str(&p->mode, mode, sizeof(mode)));
}

/* The window's title: the source, and whether it has a signal. */
static int vv_player_title(struct vv_player *p)
{
	char title[320];

	snprintf(title, sizeof(title), "%s%s", p->opt->device,
		 p->no_signal ? " - no signal" : "");
	if (p->sink->ops->set_title(p->sink, title))
		return vv_player_error(p);
	return 0;
}

/* The NO SIGNAL card, with the source and how long it has been gone. */
static int vv_player_card(struct vv_player *p, uint64_t now)
{
	uint32_t width = p->started ? p->mode.width : 640;
	char detail[320];

	snprintf(detail, sizeof(detail), "%s\nfor %.0f s", p->opt->device,
		 (now - p->no_signal_ns) / 1e9);
	if (vv_card_draw(&p->card, "NO SIGNAL", detail,
			 vv_card_scale("NO SIGNAL", width))) {
		fprintf(stderr, "vcap-view: out of memory\n");
		return 1;
	}
	if (p->sink->ops->show_card(p->sink, &p->card))
		return vv_player_error(p);
	p->card_up = true;
	p->card_ns = now;
	return 0;
}

/*
 * What the capture thread saw of the signal since the last look: the
 * card and the title follow it, and -v says each change.
 */
static int vv_player_follow_signal(struct vv_player *p, uint64_t now)
{
	const struct vv_options *o = p->opt;
	struct vv_signal sig;
	char text[256];
	bool lost, back;

	vv_capture_signal(p->capture, &sig);
	if (sig.changes == p->signal.changes)
		return 0;
	lost = !sig.present && !p->no_signal;
	back = sig.present && p->no_signal;
	if (o->verbose && sig.change.count != p->signal.change.count)
		printf("vcap-view: %s: source change %llu: %s\n", o->device,
		       (unsigned long long)sig.change.count,
		       vcap_change_str(&sig.change, text, sizeof(text)));
	else if (o->verbose && (lost || back))
		printf("vcap-view: %s: signal %s\n", o->device,
		       lost ? "lost" : "back");
	p->signal = sig;
	if (!lost && !back)
		return 0;
	p->no_signal = lost;
	if (lost)
		p->no_signal_ns = now;
	else
		p->shown_since_back = 0;
	if (vv_player_title(p))
		return 1;
	/* The card stays up after the signal until a frame replaces it. */
	return lost ? vv_player_card(p, now) : 0;
}

int vv_player_run(struct vv_player *p)
{
	const struct vv_options *o = p->opt;
	uint64_t start = vcap_now_ns(), last_frame = start, last_overlay = 0;
	uint64_t timeout_ns = (uint64_t)(o->timeout_s * 1e9);
	uint64_t signal_timeout_ns = (uint64_t)(o->signal_timeout_s * 1e9);

	/* A source without a signal at start: waited for, on the card. */
	vv_capture_signal(p->capture, &p->signal);
	if (!p->signal.present) {
		p->no_signal = true;
		p->no_signal_ns = start;
		if (o->verbose)
			printf("vcap-view: %s: no signal; waiting for one%s\n",
			       o->device,
			       signal_timeout_ns ? "" : " for as long as it takes");
		if (vv_player_title(p) || vv_player_card(p, start))
			return 1;
	}
	for (;;) {
		bool redraw = false, quit = false, got, fresh;
		uint64_t now;
		int r;

		if (vv_player_actions(p, &redraw, &quit))
			return vv_player_error(p);
		if (quit || *p->quit)
			break;

		/*
		 * Taken even while paused, to hand the frame held before
		 * back: the capture goes on, and the picture (a copy in the
		 * sink) stays.
		 */
		got = vv_slot_take(p->slot, &p->frame, VV_PLAYER_WAIT_MS);
		now = vcap_now_ns();
		if (!got && vv_capture_failed(p->capture) &&
		    vv_slot_closed(p->slot)) {
			fprintf(stderr, "vcap-view: %s\n", p->capture->error);
			return 1;
		}
		/*
		 * Looked at after the take: a frame taken once the signal
		 * is known gone is one from before, not shown over the card.
		 */
		if (vv_player_follow_signal(p, now))
			return 1;
		fresh = got && !p->paused && !p->no_signal;
		if (got || p->no_signal)
			last_frame = now;
		if (p->no_signal && signal_timeout_ns &&
		    now - p->no_signal_ns > signal_timeout_ns) {
			fprintf(stderr, "vcap-view: %s: no signal for %.1f s\n",
				o->device, (now - p->no_signal_ns) / 1e9);
			return 1;
		}
		if (fresh) {
			if (!p->started ||
			    vv_mode_changed(&p->mode, &p->frame->mode)) {
				if (p->started)
					p->sink->ops->stop(p->sink);
				if (p->sink->ops->start(p->sink,
							&p->frame->mode))
					return vv_player_error(p);
				p->mode = p->frame->mode;
				p->started = true;
				if (o->verbose)
					vv_player_say_mode(p);
			}
			p->have_frame = true;
		} else if (!p->paused && timeout_ns &&
			   now - last_frame > timeout_ns) {
			fprintf(stderr,
				"vcap-view: %s: no frame for %.1f s: the source stalled\n",
				o->device, (now - last_frame) / 1e9);
			return 1;
		}
		if (p->paused && !redraw && !got) {
			/* Nothing moves; do not spin. */
			struct timespec ts = { 0, VV_PLAYER_WAIT_MS * 1000000 };

			nanosleep(&ts, NULL);
		}
		if (p->no_signal) {
			if ((redraw || now - p->card_ns >= VV_CARD_REFRESH_NS) &&
			    vv_player_card(p, now))
				return 1;
			continue;
		}
		/* The overlay's figures move even when frames do not. */
		if (p->overlay && p->have_frame &&
		    now - last_overlay >= VV_OVERLAY_REFRESH_NS)
			redraw = true;
		if (fresh || (redraw && p->have_frame)) {
			const struct vv_overlay_bitmap *ov =
				vv_player_overlay(p, now, start, last_frame);

			r = p->sink->ops->show(p->sink, fresh ? p->frame : NULL,
					       ov);
			if (r < 0)
				return vv_player_error(p);
			if (ov)
				last_overlay = now;
			if (fresh && r == VV_SINK_TORN)
				p->torn++;
			else if (fresh)
				vv_player_count(p, p->frame);
			if (fresh && r != VV_SINK_TORN)
				p->card_up = false;
		}
		if (o->frames && p->shown >= o->frames)
			break;
	}
	if (o->snapshot && vv_player_snapshot(p, o->snapshot))
		return p->have_frame || p->card_up ? vv_player_error(p) : 1;
	if (o->verbose)
		printf("vcap-view: %llu frames shown in %.2f s\n",
		       (unsigned long long)p->shown,
		       (vcap_now_ns() - start) / 1e9);
	if (o->stats)
		vv_player_stats(p);
	return 0;
}
