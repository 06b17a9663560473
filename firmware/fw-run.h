/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The firmware's main loop: serves requests, produces frames on schedule,
 * raises interrupts, answers the control socket and applies faults.
 */
#ifndef FW_RUN_H
#define FW_RUN_H

#include <stdbool.h>
#include "fw-board.h"
#include "fw-ctl.h"
#include "fw-fault.h"
#include "fw-pace.h"
#include "fw-server.h"
#include "fw-source.h"

#define FW_REQUEST_POLL_NS	(2 * 1000000ull)	/* look for requests */
#define FW_TICK_NS		(50 * 1000000ull)	/* heartbeat period */

struct fw_run {
	struct fw_board board;
	struct fw_board_id id;
	struct fw_server server;
	bool has_server;
	struct fw_ctl ctl;
	bool has_ctl;
	struct fw_source *source;
	/* The HDMI source a live source unplugged, back when it goes. */
	struct fw_hdmi_source hdmi_before_live;
	struct fw_pace pace;
	struct fw_fault fault;
	struct fw_dma dma;
	bool has_dma;		/* --guest-ram: VCAP_CAP_DMA */
	u64 completions;	/* written for frames, for fault rates */
	int pattern_override;	/* enum vcap_pattern, or -1: the request's */
	int signal_fd;		/* SIGINT/SIGTERM, or -1 */
	volatile bool quit;	/* set from another thread to stop the loop */

	u64 last_tick;
	u64 late_started;	/* frames begun more than half an interval late */
	u64 frames_dropped;
	u64 irq_storm_sent;
	u64 hostile_writes;
	bool was_hostile;
	u32 hostile_rng;
};

/* Open the board memory and the sockets; err names the problem. */
int fw_run_init(struct fw_run *r, const char *shm_path, u64 size,
		const char *socket_path, const char *ctl_path,
		char *err, size_t errlen);
void fw_run_fini(struct fw_run *r);

/*
 * Give the board DMA into the guest RAM file at ram_path (it must exist,
 * of the guest's RAM size), laid out as QEMU's machine m lays it out, in
 * place of any it had; NULL takes DMA away.  The control page starts
 * afresh with the new caps, as after a restart.  err names the problem;
 * then nothing changed.
 */
int fw_run_enable_dma(struct fw_run *r, const char *ram_path,
		      enum fw_guest_machine m, char *err, size_t errlen);

/*
 * Replace the source (takes ownership).  A live source drives the HDMI
 * input from now on; the one before it is plugged back when a file or
 * pattern source replaces it.
 */
void fw_run_set_source(struct fw_run *r, struct fw_source *s);

/*
 * A source by name: an HDMI source (a timing name, none, unstable,
 * out-of-range) plugs into the receiver, unplugging a live source; a
 * frame source spec (pattern, y4m:FILE, raw:...) changes what frames
 * show; a live one (pipe:PATH, -) is both.  err names the problem.
 */
int fw_run_set_source_spec(struct fw_run *r, const char *spec, char *err,
			   size_t errlen);

/*
 * Start a mode on the pattern generator as a driver request would,
 * without one: VCAP_ERR_*.
 */
int fw_run_start(struct fw_run *r, u32 fourcc, u32 width, u32 height,
		 u32 fps, u32 pattern);

/* One pass of the loop: waits at most until the next thing is due. */
void fw_run_once(struct fw_run *r);

/* Until quit or a signal. */
int fw_run_loop(struct fw_run *r);

/* The control socket's command handler (also used by tests). */
int fw_run_command(void *ctx, int argc, char **argv, FILE *out);

/* Pattern names, for options and commands: -1 if unknown. */
int fw_pattern_by_name(const char *name);
const char *fw_pattern_name(u32 pattern);

#endif /* FW_RUN_H */
