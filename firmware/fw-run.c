// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The firmware's main loop: requests, frames on an absolute schedule,
 * heartbeat, interrupts, the control socket, and faults on demand.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "fw-log.h"
#include "fw-run.h"
#include "vcap-stamp.h"

int fw_verbose;

static const char * const fw_patterns[VCAP_PATTERN_COUNT] = {
	[VCAP_PATTERN_BARS] = "bars",
	[VCAP_PATTERN_MOVING_BOX] = "box",
	[VCAP_PATTERN_GRADIENT] = "gradient",
	[VCAP_PATTERN_CHECKERBOARD] = "checkerboard",
	[VCAP_PATTERN_SOLID_WHITE] = "white",
	[VCAP_PATTERN_SOLID_BLACK] = "black",
	[VCAP_PATTERN_SOLID_RED] = "red",
	[VCAP_PATTERN_SOLID_GREEN] = "green",
	[VCAP_PATTERN_SOLID_BLUE] = "blue",
	[VCAP_PATTERN_NOISE] = "noise",
};

int fw_pattern_by_name(const char *name)
{
	int i;

	for (i = 0; i < VCAP_PATTERN_COUNT; i++)
		if (!strcmp(name, fw_patterns[i]))
			return i;
	return -1;
}

const char *fw_pattern_name(u32 pattern)
{
	return pattern < VCAP_PATTERN_COUNT ? fw_patterns[pattern] : "?";
}

int fw_run_init(struct fw_run *r, const char *shm_path, u64 size,
		const char *socket_path, const char *ctl_path,
		char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->signal_fd = -1;
	r->pattern_override = -1;
	r->hostile_rng = 0x12345678;
	fw_fault_init(&r->fault);
	if (!shm_path && !socket_path) {
		snprintf(err, errlen, "no board memory: give --shm (ivshmem-plain) or --socket (ivshmem-doorbell)");
		return -EINVAL;
	}
	if (fw_board_open(&r->board, shm_path, size, err, errlen))
		return -EINVAL;
	if (socket_path) {
		if (fw_server_open(&r->server, socket_path, r->board.fd, err,
				   errlen))
			goto err_board;
		r->has_server = true;
	}
	if (ctl_path) {
		if (fw_ctl_open(&r->ctl, ctl_path, err, errlen))
			goto err_server;
		r->has_ctl = true;
	}
	r->source = fw_source_pattern_new();
	if (!r->source) {
		snprintf(err, errlen, "out of memory");
		goto err_ctl;
	}
	r->id.name = "vcap virtual board";
	r->id.serial = "VCAP-0001";
	r->id.caps = VCAP_CAP_HFLIP | VCAP_CAP_VFLIP | VCAP_CAP_PATTERNS |
		     VCAP_CAP_HDMI | VCAP_CAP_SCALER |
		     (r->has_server ? VCAP_CAP_DOORBELL : 0);
	r->id.fw_peer_id = FW_PEER_ID;
	fw_board_reset(&r->board, &r->id);
	r->last_tick = fw_now_ns();
	return 0;

err_ctl:
	if (r->has_ctl)
		fw_ctl_close(&r->ctl);
err_server:
	if (r->has_server)
		fw_server_close(&r->server);
err_board:
	fw_board_close(&r->board);
	return -EINVAL;
}

void fw_run_fini(struct fw_run *r)
{
	/* The board goes away with its firmware. */
	if (r->board.ctrl)
		fw_board_vanish(&r->board);
	if (r->has_ctl)
		fw_ctl_close(&r->ctl);
	if (r->has_server)
		fw_server_close(&r->server);
	fw_source_destroy(r->source);
	fw_board_close(&r->board);
	if (r->has_dma)
		fw_dma_close(&r->dma);
	r->board.dma = NULL;
	r->has_dma = false;
	r->has_ctl = false;
	r->has_server = false;
	r->source = NULL;
}

/* A live source's signal is the receiver's source. */
static void fw_run_follow_live(struct fw_run *r)
{
	struct fw_hdmi_source hs, *cur = &r->board.hdmi.source;

	if (!fw_source_is_live(r->source) ||
	    !r->source->ops->signal(r->source, &hs))
		return;
	if (hs.state == cur->state && hs.name == cur->name &&
	    !memcmp(&hs.timing, &cur->timing, sizeof(hs.timing)))
		return;
	/* The loop publishes it: a new link, a source change in the guest. */
	fw_hdmi_set_source(&r->board.hdmi, &hs);
}

void fw_run_set_source(struct fw_run *r, struct fw_source *s)
{
	bool was_live = fw_source_is_live(r->source);

	if (!was_live && fw_source_is_live(s))
		r->hdmi_before_live = r->board.hdmi.source;
	fw_source_destroy(r->source);
	r->source = s;
	if (was_live && !fw_source_is_live(s))
		fw_hdmi_set_source(&r->board.hdmi, &r->hdmi_before_live);
	fw_run_follow_live(r);
	fw_board_invalidate(&r->board);
}

static void fw_run_notify(struct fw_run *r, unsigned int vector)
{
	if (r->has_server)
		fw_server_notify(&r->server, vector);
}

int fw_run_enable_dma(struct fw_run *r, const char *ram_path,
		      enum fw_guest_machine m, char *err, size_t errlen)
{
	struct fw_dma nd;

	/* The new RAM opened first: a bad path leaves the board as it was. */
	if (ram_path && fw_dma_open(&nd, ram_path, m, err, errlen))
		return -EINVAL;
	if (r->has_dma) {
		fw_dma_halt(&r->dma);
		fw_dma_close(&r->dma);
	}
	r->has_dma = ram_path != NULL;
	r->board.dma = NULL;
	r->id.caps &= ~VCAP_CAP_DMA;
	if (r->has_dma) {
		r->dma = nd;
		fw_dma_views_init(&r->dma.views, &r->dma.ram);
		r->board.dma = &r->dma;
		r->id.caps |= VCAP_CAP_DMA;
	}
	/* A fresh control page: the caps change, as after a restart. */
	fw_board_reset(&r->board, &r->id);
	fw_run_notify(r, VCAP_VEC_STATUS);
	return 0;
}

/* A frame source spec, or an HDMI source name. */
static bool fw_run_is_frame_spec(const char *spec)
{
	return !strcmp(spec, "pattern") || !strncmp(spec, "y4m:", 4) ||
	       !strncmp(spec, "raw:", 4) || !strncmp(spec, "pipe:", 5) ||
	       !strcmp(spec, "-") || !strncmp(spec, "v4l2:", 5);
}

int fw_run_set_source_spec(struct fw_run *r, const char *spec, char *err,
			   size_t errlen)
{
	struct fw_hdmi_source hs;
	struct fw_source *s;
	char names[256];

	if (!fw_hdmi_source_by_name(spec, &hs)) {
		/* Another source in the HDMI input: a live one comes out. */
		if (fw_source_is_live(r->source)) {
			s = fw_source_pattern_new();
			if (!s) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
			fw_run_set_source(r, s);
		}
		/* The loop publishes it, unless the board is hung or gone. */
		fw_hdmi_set_source(&r->board.hdmi, &hs);
		return 0;
	}
	if (!fw_run_is_frame_spec(spec)) {
		fw_hdmi_source_names(names, sizeof(names));
		snprintf(err, errlen,
			 "bad source '%s': an HDMI source is one of %s; frames come from pattern, y4m:FILE or raw:FILE:FOURCC:WxH; live Y4M from pipe:PATH or - (standard input); a camera from v4l2:DEVICE",
			 spec, names);
		return -EINVAL;
	}
	s = fw_source_parse(spec, err, errlen);
	if (!s)
		return -EINVAL;
	fw_run_set_source(r, s);
	return 0;
}

int fw_run_start(struct fw_run *r, u32 fourcc, u32 width, u32 height,
		 u32 fps, u32 pattern)
{
	struct vcap_board_request req;
	int err;

	memset(&req, 0, sizeof(req));
	req.cmd = cpu_to_le32(VCAP_CMD_START);
	req.fourcc = cpu_to_le32(fourcc);
	req.width = cpu_to_le32(width);
	req.height = cpu_to_le32(height);
	req.interval_num = cpu_to_le32(1);
	req.interval_den = cpu_to_le32(fps);
	req.pattern = cpu_to_le32(pattern);
	req.input = cpu_to_le32(VCAP_INPUT_TPG);
	/* A START without VCAP_REQ_DMA: DMA, if it ran, has stopped. */
	err = fw_board_request(&r->board, &req);
	if (!err)
		fw_run_notify(r, VCAP_VEC_STATUS);
	return err;
}

static u32 fw_run_rand(struct fw_run *r)
{
	u32 x = r->hostile_rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	r->hostile_rng = x;
	return x;
}

/*
 * One frame's pixels, from the source, or black filler without a signal;
 * its timestamp: a live source's capture time, else now (frame begun).
 */
static u64 fw_run_render(struct fw_run *r, const struct fw_frame_req *req,
			 u8 *dst, u64 seq, u64 prev, u64 now)
{
	struct fw_source *s = r->source;
	struct vcap_gen g;
	u64 t;

	if (r->board.no_signal) {
		if (!vcap_gen_init(&g, &req->fmt, VCAP_PATTERN_SOLID_BLACK, 0))
			vcap_gen_render(&g, dst, seq, prev);
		return now;
	}
	s->ops->render(s, req, dst, seq, prev);
	t = s->ops->captured ? s->ops->captured(s) : 0;
	return t ? t : now;
}

/* The completion fault that damages a frame's own completion, if any. */
static enum fw_comp_fault fw_run_inline_fault(const struct fw_run *r)
{
	if (r->fault.comp[FW_COMP_SIZE])
		return FW_COMP_SIZE;
	if (r->fault.comp[FW_COMP_REORDER])
		return FW_COMP_REORDER;
	return FW_COMP_NONE;
}

/*
 * After a frame's completion: the completion faults due at their rate,
 * and one extra completion of those pending, if the engine's state lets
 * it mean what it says.
 */
static void fw_run_comp_faults(struct fw_run *r, const struct fw_dma_frame *df,
			       bool completed)
{
	static const enum fw_comp_fault extra[] = {
		FW_COMP_ID, FW_COMP_STALE, FW_COMP_REPLAY, FW_COMP_IDLE,
	};
	struct fw_fault *f = &r->fault;
	unsigned int k;

	if (completed) {
		r->completions++;
		for (k = FW_COMP_NONE + 1; k < FW_COMP_COUNT; k++)
			if (f->comp_every[k] &&
			    !(r->completions % f->comp_every[k]))
				f->comp[k]++;
	}
	for (k = 0; k < sizeof(extra) / sizeof(extra[0]); k++) {
		if (!f->comp[extra[k]])
			continue;
		if (fw_dma_inject(&r->dma, &r->board.ctrl->dma, extra[k], df)) {
			f->comp[extra[k]]--;
			fw_info("fault: completion %s\n",
				fw_comp_fault_name(extra[k]));
			break;
		}
	}
}

static void fw_run_frame(struct fw_run *r, u64 now)
{
	struct fw_board *b = &r->board;
	const struct fw_mode *m = &b->mode;
	enum fw_comp_fault fault;
	enum fw_dma_take take = FW_DMA_EMPTY;
	struct fw_frame_req req;
	struct fw_dma_frame df;
	u64 seq = r->pace.n, prev, period;
	u32 slot, flags = 0;
	bool dma = fw_board_dma_running(b);
	u8 *dst, *buf = NULL;

	/* The sequence counts frame periods: a frame not made is a gap. */
	b->next_seq = seq + 1;
	period = (u64)m->interval_num * 1000000000ull / m->interval_den;
	if (now > fw_pace_deadline(&r->pace) + period / 2)
		r->late_started++;
	if (r->fault.drop) {
		/* Lost on the way: the sequence number is spent. */
		r->fault.drop--;
		r->fault.dropped++;
		r->frames_dropped++;
		fw_pace_advance(&r->pace, fw_now_ns());
		return;
	}
	req.fmt = m->fmt;
	req.pattern = r->pattern_override >= 0 ? (u32)r->pattern_override :
						 m->pattern;
	req.flags = m->flags & (VCAP_REQ_HFLIP | VCAP_REQ_VFLIP);
	req.src_w = m->src_w;
	req.src_h = m->src_h;
	if (b->no_signal)
		flags |= VCAP_SLOT_NO_SIGNAL;
	df.seq = seq;
	df.ts_ns = now;
	df.sizeimage = m->fmt.sizeimage;
	df.flags = b->no_signal ? VCAP_COMP_NO_SIGNAL : 0;
	df.mode_gen = b->mode_gen;
	if (dma) {
		take = fw_dma_frame_begin(&r->dma, &b->ctrl->dma, &df, &buf);
		if (take == FW_DMA_EMPTY)
			b->frames_overwritten++;
	}
	if (buf) {
		/*
		 * Straight into the posted buffer, every pixel written once;
		 * the slot for VRAM readers is a host copy of it.
		 */
		df.ts_ns = fw_run_render(r, &req, buf, seq, VCAP_GEN_NONE,
					 now);
		fault = fw_run_inline_fault(r);
		if (fw_dma_frame_end(&r->dma, &b->ctrl->dma, &df, fault))
			r->fault.comp[fault]--;
	}
	dst = fw_board_frame_begin(b, &slot, &prev);
	if (buf)
		memcpy(dst, buf, m->fmt.sizeimage);
	else
		df.ts_ns = fw_run_render(r, &req, dst, seq, prev, now);
	fw_board_frame_end(b, slot, seq, df.ts_ns, m->fmt.sizeimage, flags);
	if (r->fault.corrupt != FW_CORRUPT_NONE) {
		fw_board_corrupt(b, slot, r->fault.corrupt);
		r->fault.corrupt = FW_CORRUPT_NONE;
	}
	if (dma)
		fw_run_comp_faults(r, &df, take == FW_DMA_BUFFER ||
				   take == FW_DMA_REFUSED);
	fw_pace_advance(&r->pace, fw_now_ns());
	b->frames_late = r->late_started + r->pace.late;
	fw_run_notify(r, VCAP_VEC_FRAME);
}

/* The after-stop fault, armed while one is pending; written when due. */
static void fw_run_after_stop(struct fw_run *r, u64 now)
{
	struct fw_fault *f = &r->fault;

	if (!r->has_dma)
		return;
	r->dma.after_stop_armed = f->comp[FW_COMP_AFTER_STOP] > 0;
	if (fw_dma_after_stop(&r->dma, &r->board.ctrl->dma, now)) {
		if (f->comp[FW_COMP_AFTER_STOP])
			f->comp[FW_COMP_AFTER_STOP]--;
		fw_info("fault: completion after-stop\n");
		fw_run_notify(r, VCAP_VEC_FRAME);
	}
}

/* The hostile board's completions, now and then, while DMA runs. */
static void fw_run_hostile_dma(struct fw_run *r)
{
	u32 x = fw_run_rand(r), k;

	if (!fw_board_dma_running(&r->board) || (x & 15))
		return;
	k = FW_COMP_NONE + 1 + (x >> 4) % (FW_COMP_COUNT - 1);
	if (!r->fault.comp[k])
		r->fault.comp[k] = 1;
}

/* Faults that change what the board is: signal, resolution, death. */
static bool fw_run_board_faults(struct fw_run *r)
{
	struct fw_fault *f = &r->fault;
	struct fw_board *b = &r->board;
	bool changed = false;
	int err;

	if (f->signal >= 0) {
		changed |= fw_board_set_signal(b, f->signal);
		f->signal = -1;
	}
	if (f->resize_w) {
		err = fw_board_set_mode(b, b->mode.fmt.fourcc, f->resize_w,
					f->resize_h);
		if (err)
			fw_err("fault resize %ux%u refused: %s\n", f->resize_w,
			       f->resize_h, vcap_modes_err_str((u32)err));
		else
			changed = true;
		f->resize_w = 0;
		f->resize_h = 0;
	}
	return changed;
}

void fw_run_once(struct fw_run *r)
{
	struct pollfd pfd[FW_SERVER_MAX_FDS + 2];
	struct fw_board *b = &r->board;
	struct fw_fault *f = &r->fault;
	u64 now = fw_now_ns(), due;
	bool hung, stalled;
	struct timespec ts;
	int n = 0, nsrv = 0, ictl = -1, isig = -1;

	hung = now < f->hang_until;
	due = now + FW_REQUEST_POLL_NS;
	if (f->dead) {
		if (b->ctrl && now < f->die_until) {
			fw_board_vanish(b);
		} else {
			/* Back from the dead: a fresh control page. */
			f->dead = false;
			fw_board_reset(b, &r->id);
			fw_run_notify(r, VCAP_VEC_STATUS);
		}
	} else if (!hung) {
		if (now - r->last_tick >= FW_TICK_NS) {
			fw_board_tick(b);
			r->last_tick = now;
		}
		fw_run_follow_live(r);
		/* A new EDID first: a START right behind it sees its link. */
		if (fw_board_poll_link(b))
			fw_run_notify(r, VCAP_VEC_STATUS);
		if (fw_board_poll_request(b))
			fw_run_notify(r, VCAP_VEC_STATUS);
		if (fw_run_board_faults(r))
			fw_run_notify(r, VCAP_VEC_STATUS);
		stalled = now < f->stall_until;
		if (b->mode_changed) {
			b->mode_changed = false;
			b->rate_changed = false;
			fw_pace_start(&r->pace, b->mode.interval_num,
				      b->mode.interval_den, now);
		} else if (b->rate_changed) {
			b->rate_changed = false;
			fw_pace_retime(&r->pace, b->mode.interval_num,
				       b->mode.interval_den, now);
		}
		/* Frames not made while stalled are gaps, not late frames. */
		if (stalled && b->mode.streaming)
			fw_pace_skip_to(&r->pace, now);
		/*
		 * Without a signal there are no frames to miss: the numbers
		 * go on from the last one when it comes back.
		 */
		if (b->link_lost && b->mode.streaming)
			fw_pace_hold(&r->pace, now);
		if (fw_board_producing(b) && !stalled &&
		    now >= fw_pace_deadline(&r->pace))
			fw_run_frame(r, now);
		if (fw_board_producing(b) && fw_pace_deadline(&r->pace) < due)
			due = fw_pace_deadline(&r->pace);
		if (f->hostile) {
			fw_board_scribble(b, fw_run_rand(r), fw_run_rand(r));
			fw_run_hostile_dma(r);
			r->hostile_writes++;
			fw_run_notify(r, fw_run_rand(r) & 1);
		} else if (r->was_hostile) {
			/* Sane again: a fresh control page, as after a reboot. */
			fw_board_reset(b, &r->id);
			memset(f->comp, 0, sizeof(f->comp));
			fw_run_notify(r, VCAP_VEC_STATUS);
		}
		fw_run_after_stop(r, fw_now_ns());
		r->was_hostile = f->hostile;
	}
	while (f->storm) {
		fw_run_notify(r, VCAP_VEC_FRAME);
		fw_run_notify(r, VCAP_VEC_STATUS);
		r->irq_storm_sent += 2;
		f->storm--;
	}

	if (r->has_server)
		n = nsrv = fw_server_pollfds(&r->server, pfd);
	if (r->has_ctl) {
		ictl = n;
		pfd[n].fd = r->ctl.listen_fd;
		pfd[n++].events = POLLIN;
	}
	if (r->signal_fd >= 0) {
		isig = n;
		pfd[n].fd = r->signal_fd;
		pfd[n++].events = POLLIN;
	}
	now = fw_now_ns();
	due = due > now ? due - now : 0;
	ts.tv_sec = (time_t)(due / 1000000000ull);
	ts.tv_nsec = (long)(due % 1000000000ull);
	if (ppoll(pfd, (nfds_t)n, &ts, NULL) <= 0)
		return;
	if (nsrv && fw_server_handle(&r->server, pfd, nsrv) && !hung &&
	    !f->dead) {
		if (fw_board_poll_link(b))
			fw_run_notify(r, VCAP_VEC_STATUS);
		if (fw_board_poll_request(b))
			fw_run_notify(r, VCAP_VEC_STATUS);
	}
	if (ictl >= 0 && (pfd[ictl].revents & POLLIN))
		fw_ctl_serve(&r->ctl, fw_run_command, r);
	if (isig >= 0 && (pfd[isig].revents & POLLIN))
		r->quit = true;
}

int fw_run_loop(struct fw_run *r)
{
	while (!r->quit)
		fw_run_once(r);
	return 0;
}

/* The HDMI receiver, as the source command answers it. */
static void fw_run_link_state(struct fw_run *r, FILE *out)
{
	const struct fw_hdmi *h = &r->board.hdmi;

	fprintf(out, "link=%s\n", fw_hdmi_link_name(fw_hdmi_link_state(h)));
	fprintf(out, "hdmi_source=%s\n", h->source.name);
	fprintf(out, "hotplug=%s\n", h->hotplug ? "high" : "low");
}

static void fw_run_dma_stats(struct fw_run *r, FILE *out)
{
	const struct fw_dma *d = &r->dma;

	fprintf(out, "guest_ram=%llu %s\n", (unsigned long long)d->ram.size,
		fw_guest_machine_name(d->ram.machine));
	fprintf(out, "dma=%s\n", d->running ? "running" : "stopped");
	if (d->running)
		fprintf(out, "dma_rings=desc@0x%llx comp@0x%llx entries=%u\n",
			(unsigned long long)d->rings.desc_addr,
			(unsigned long long)d->rings.comp_addr,
			d->rings.entries);
	fprintf(out, "dma_desc_tail=%u\n", d->desc_tail);
	fprintf(out, "dma_comp_head=%u\n", d->comp_head);
	fprintf(out, "dma_frames_written=%llu\n",
		(unsigned long long)d->frames_written);
	fprintf(out, "dma_desc_refused=%llu\n",
		(unsigned long long)d->desc_refused);
	fprintf(out, "dma_frames_empty=%llu\n",
		(unsigned long long)d->frames_empty);
	fprintf(out, "dma_overruns=%llu\n", (unsigned long long)d->overruns);
	fprintf(out, "dma_frames_scattered=%llu\n",
		(unsigned long long)d->frames_scattered);
	fprintf(out, "dma_views=%llu built, %llu reused, %u mappings\n",
		(unsigned long long)d->views.built,
		(unsigned long long)d->views.hits, d->views.maps);
	fprintf(out, "dma_bad_completions=%llu\n",
		(unsigned long long)d->bad_completions);
}

static void fw_run_stats(struct fw_run *r, FILE *out)
{
	const struct fw_board *b = &r->board;
	const struct fw_mode *m = &b->mode;
	static const char * const states[] = {
		"stopped", "streaming", "no-signal"
	};

	fprintf(out, "state=%s\n", r->fault.dead ? "dead" :
		b->state < 3 ? states[b->state] : "?");
	if (m->streaming)
		fprintf(out, "mode=%.4s %ux%u bytesperline=%u sizeimage=%u interval=%u/%u slots=%u\n",
			(const char *)&m->fmt.fourcc, m->fmt.width,
			m->fmt.height, m->fmt.bytesperline, m->fmt.sizeimage,
			m->interval_num, m->interval_den, m->ring.num_slots);
	else
		fprintf(out, "mode=none\n");
	if (m->streaming && (m->flags & VCAP_REQ_SCALE))
		fprintf(out, "scaled_from=%ux%u\n", m->src_w, m->src_h);
	fprintf(out, "mode_gen=%u\n", b->mode_gen);
	fprintf(out, "source=%s\n", r->source->desc);
	if (r->source->ops->stats)
		r->source->ops->stats(r->source, out);
	fw_run_link_state(r, out);
	fprintf(out, "edid_blocks=%u\n", b->hdmi.edid_blocks);
	fprintf(out, "link_gen=%u\n", b->hdmi.link_gen);
	fprintf(out, "pattern=%s\n", r->pattern_override >= 0 ?
		fw_pattern_name((u32)r->pattern_override) :
		fw_pattern_name(m->pattern));
	fprintf(out, "vram_size=%llu\n", (unsigned long long)b->size);
	fprintf(out, "heartbeat=%llu\n", (unsigned long long)b->heartbeat);
	fprintf(out, "frames_produced=%llu\n",
		(unsigned long long)b->frames_produced);
	fprintf(out, "frames_dropped=%llu\n",
		(unsigned long long)r->frames_dropped);
	fprintf(out, "frames_late=%llu\n", (unsigned long long)b->frames_late);
	fprintf(out, "frames_overwritten=%llu\n",
		(unsigned long long)b->frames_overwritten);
	fprintf(out, "requests=%llu\n", (unsigned long long)b->requests);
	fprintf(out, "requests_refused=%llu\n", (unsigned long long)b->refused);
	fprintf(out, "last_error=%s\n", fw_board_err_str(b->last_error));
	if (r->has_dma)
		fw_run_dma_stats(r, out);
	if (r->has_server) {
		fprintf(out, "peers=%u\n", fw_server_peer_count(&r->server));
		fprintf(out, "peer_connects=%llu\n",
			(unsigned long long)r->server.connects);
		fprintf(out, "peers_dropped=%llu\n",
			(unsigned long long)r->server.dropped);
		fprintf(out, "irq_received=%llu\n",
			(unsigned long long)r->server.irq_received);
		fprintf(out, "irq_sent=%llu\n",
			(unsigned long long)r->server.irq_sent);
	}
	fprintf(out, "hostile_writes=%llu\n",
		(unsigned long long)r->hostile_writes);
}

static int fw_run_cmd_start(struct fw_run *r, int argc, char **argv,
			    FILE *out)
{
	unsigned int w, h, fps;
	int pattern = 0, err;
	char c;

	if (argc < 4 || strlen(argv[1]) != 4 ||
	    sscanf(argv[2], "%ux%u%c", &w, &h, &c) != 2 ||
	    sscanf(argv[3], "%u%c", &fps, &c) != 1 ||
	    (argc == 5 && (pattern = fw_pattern_by_name(argv[4])) < 0) ||
	    argc > 5) {
		fprintf(out, "usage: start FOURCC WxH FPS [PATTERN]");
		return -1;
	}
	err = fw_run_start(r, VCAP_FOURCC(argv[1][0], argv[1][1], argv[1][2],
					  argv[1][3]), w, h, fps, (u32)pattern);
	if (err) {
		fprintf(out, "mode refused: %s", vcap_modes_err_str((u32)err));
		return -1;
	}
	return 0;
}

/* guest-ram PATH [pc|q35] | guest-ram none: DMA into another guest's RAM. */
static int fw_run_cmd_guest_ram(struct fw_run *r, int argc, char **argv,
				FILE *out)
{
	enum fw_guest_machine m = FW_GUEST_PC;
	char err[1024];

	if (argc < 2 || argc > 3 ||
	    (argc == 3 && fw_guest_machine_by_name(argv[2], &m)) ||
	    (argc == 3 && !strcmp(argv[1], "none"))) {
		fprintf(out, "usage: guest-ram PATH [pc|q35] | guest-ram none");
		return -1;
	}
	if (fw_run_enable_dma(r, strcmp(argv[1], "none") ? argv[1] : NULL, m,
			      err, sizeof(err))) {
		fprintf(out, "%s", err);
		return -1;
	}
	return 0;
}

int fw_run_command(void *ctx, int argc, char **argv, FILE *out)
{
	struct fw_run *r = ctx;
	char err[1024];
	int p;

	if (!strcmp(argv[0], "stats") && argc == 1) {
		fw_run_stats(r, out);
		return 0;
	}
	if (!strcmp(argv[0], "pattern") && argc == 2) {
		p = strcmp(argv[1], "request") ? fw_pattern_by_name(argv[1]) :
						 -1;
		if (p < 0 && strcmp(argv[1], "request")) {
			fprintf(out, "unknown pattern '%s'", argv[1]);
			return -1;
		}
		r->pattern_override = p;
		fw_board_invalidate(&r->board);
		return 0;
	}
	if (!strcmp(argv[0], "source") && argc == 2) {
		if (fw_run_set_source_spec(r, argv[1], err, sizeof(err))) {
			fprintf(out, "%s", err);
			return -1;
		}
		fw_run_link_state(r, out);
		return 0;
	}
	if (!strcmp(argv[0], "fault"))
		return fw_fault_parse(&r->fault, argc, argv, fw_now_ns(), out);
	if (!strcmp(argv[0], "guest-ram"))
		return fw_run_cmd_guest_ram(r, argc, argv, out);
	if (!strcmp(argv[0], "start"))
		return fw_run_cmd_start(r, argc, argv, out);
	if (!strcmp(argv[0], "stop") && argc == 1) {
		struct vcap_board_request req;

		memset(&req, 0, sizeof(req));
		fw_board_request(&r->board, &req);
		fw_run_notify(r, VCAP_VEC_STATUS);
		return 0;
	}
	fprintf(out, "unknown command '%s'; commands: stats | pattern NAME|request | source HDMI|SPEC|pipe:PATH|- | start FOURCC WxH FPS [PATTERN] | stop | guest-ram PATH [pc|q35]|none | %s",
		argv[0], fw_fault_usage);
	return -1;
}
