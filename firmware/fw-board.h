/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The board memory: control page and VRAM in one shared mapping, the
 * request/acknowledge handshake, and the publishing of frames into the ring.
 */
#ifndef FW_BOARD_H
#define FW_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <vcap/board.h>
#include "fw-dma.h"
#include "fw-hdmi.h"
#include "vcap-modes.h"
#include "vcap-pattern.h"

/* Default board memory: three 3840x2160 YUYV frames and the control page,
 * rounded up to a power of two as a PCI BAR must be. */
#define FW_BOARD_DEFAULT_SIZE	(64ull << 20)
#define FW_BOARD_MIN_SIZE	(128ull << 10)
#define FW_BOARD_MAX_SIZE	(16ull << 30)

/* The active mode, as the firmware last accepted it. */
struct fw_mode {
	bool streaming;
	struct vcap_frame_fmt fmt;
	struct vcap_ring_layout ring;
	u32 interval_num;
	u32 interval_den;
	u32 pattern;
	u32 flags;		/* VCAP_REQ_* */
	u32 input;		/* VCAP_INPUT_* */
	/* The source's size: fmt's, unless VCAP_REQ_SCALE scales it. */
	u32 src_w;
	u32 src_h;
};

struct fw_board {
	int fd;			/* the memory, for ivshmem-doorbell clients */
	u8 *mem;
	u64 size;
	struct vcap_board_ctrl *ctrl;
	u64 frame_size;

	struct fw_mode mode;
	u32 ack_seq;		/* request.seq handled last */
	u32 mode_gen;
	u32 state;		/* VCAP_STATE_* */
	u64 next_seq;		/* frame number of the next frame */
	u32 next_slot;
	/* Per slot: sequence the slot holds, or VCAP_GEN_NONE. */
	u64 held[VCAP_MAX_SLOTS];
	/* Per slot: sequence published there and not yet overwritten. */
	u64 pub[VCAP_MAX_SLOTS];
	u32 open_lock;		/* lock value while a slot is being written */
	bool no_signal;		/* the source is gone (fault) */
	/* The HDMI input streams, but the link does not feed its mode. */
	bool link_lost;
	bool mode_changed;	/* set on every mode change; the owner clears */
	bool rate_changed;	/* the same picture at another rate; ditto */
	u32 last_error;		/* VCAP_ERR_* of the last request */
	/* The info as written; requests are checked against this copy. */
	struct vcap_board_info info;
	struct fw_hdmi hdmi;
	/* The DMA engine (VCAP_CAP_DMA), or NULL: the owner's. */
	struct fw_dma *dma;
	/*
	 * The request found in memory by a reset is acted on again, but
	 * never with DMA: its rings and buffers are from before.
	 */
	bool replay;
	u32 replay_seq;

	/* Counters, mirrored into the status page. */
	u64 heartbeat;
	u64 frames_produced;
	u64 frames_overwritten;
	u64 frames_late;
	u64 requests;
	u64 refused;
};

struct fw_board_id {
	const char *name;
	const char *serial;
	u32 caps;
	u32 fw_peer_id;
};

/*
 * Map the board memory.  path: a file to create or reuse (its size is set
 * to size); NULL for an anonymous memory file.  err gets a message naming
 * the problem on failure.
 */
int fw_board_open(struct fw_board *b, const char *path, u64 size,
		  char *err, size_t errlen);
void fw_board_close(struct fw_board *b);

/* Write the control page from scratch; the magic goes in last. */
void fw_board_reset(struct fw_board *b, const struct fw_board_id *id);

/* Take the board off the bus: magic cleared, nothing answered. */
void fw_board_vanish(struct fw_board *b);

/*
 * Act on a new request, if any.  Returns true when the status changed
 * (the caller raises VCAP_VEC_STATUS).
 */
bool fw_board_poll_request(struct fw_board *b);

/*
 * Check and carry out a request (start, restart or stop) without the
 * request/ack pair: VCAP_ERR_*.  The mode alone: DMA is left as it is.
 */
int fw_board_apply(struct fw_board *b, const struct vcap_board_request *req);

/*
 * A request as the driver makes it, mode and DMA, without the ack:
 * VCAP_ERR_*.  DMA runs on after it only for a START with VCAP_REQ_DMA
 * that keeps the running mode and rings; any other request, refused or
 * not, has stopped every DMA write when this returns.
 */
int fw_board_request(struct fw_board *b, const struct vcap_board_request *req);

/* Whether frames go into posted buffers. */
static inline bool fw_board_dma_running(const struct fw_board *b)
{
	return b->dma && b->dma->running;
}

/* The text of a VCAP_ERR_*, for stats and messages. */
const char *fw_board_err_str(u32 err);

/* Damage slot's header or the status as a faulty board would (fw-fault.h). */
void fw_board_corrupt(struct fw_board *b, u32 slot, int kind);

/* Write random values over the status and slot headers (hostile board). */
void fw_board_scribble(struct fw_board *b, u32 rnd1, u32 rnd2);

/*
 * Apply a mode from inside the board (a fault changing resolution): as a
 * request would, without touching the request/ack pair.  Returns VCAP_ERR_*.
 */
int fw_board_set_mode(struct fw_board *b, u32 fourcc, u32 width, u32 height);

/*
 * Take a new EDID, publish the link if it changed (or was scribbled over)
 * and follow it on the HDMI input: frames stop while the link is not
 * locked to the running timing.  Returns true when the link or the state
 * changed (the caller raises VCAP_VEC_STATUS).
 */
bool fw_board_poll_link(struct fw_board *b);

/* Whether frames are due: streaming, and not waiting for the link. */
static inline bool fw_board_producing(const struct fw_board *b)
{
	return b->mode.streaming && !b->link_lost;
}

/* Change the state (streaming / no signal) while a mode is active. */
bool fw_board_set_signal(struct fw_board *b, bool present);

/*
 * Writing one frame: begin opens the next slot (lock odd) and returns its
 * pixels; prev is the frame the slot holds, usable for an incremental
 * redraw, or VCAP_GEN_NONE.  end closes it (lock even) and publishes it.
 */
u8 *fw_board_frame_begin(struct fw_board *b, u32 *slot, u64 *prev);
void fw_board_frame_end(struct fw_board *b, u32 slot, u64 seq, u64 ts_ns,
			u32 bytesused, u32 flags);

/* Forget what every slot holds (the source or pattern changed). */
void fw_board_invalidate(struct fw_board *b);

/* Bump the heartbeat and copy the counters to the status page. */
void fw_board_tick(struct fw_board *b);

/* Frame and ack state for stats. */
void fw_board_update_status(struct fw_board *b);

#endif /* FW_BOARD_H */
