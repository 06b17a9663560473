/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The board's DMA engine (VCAP_CAP_DMA): takes the descriptors the driver
 * posts, checks each scatter list against the guest's RAM, hands out a
 * host view of the buffer for the frame, and writes the completion.  It
 * also writes the hostile completions of the fault framework.
 */
#ifndef FW_DMA_H
#define FW_DMA_H

#include <stdbool.h>
#include <vcap/board.h>
#include "fw-dma-view.h"
#include "fw-fault.h"
#include "fw-guest-ram.h"

/* The rings a START names, as the board took them (never re-read). */
struct fw_dma_rings {
	u64 desc_addr;
	u64 comp_addr;
	u32 entries;
};

/* The frame a descriptor is taken for. */
struct fw_dma_frame {
	u64 seq;		/* as slot.sequence */
	u64 ts_ns;
	u32 sizeimage;
	u32 flags;		/* VCAP_COMP_* */
	u32 mode_gen;
};

/* What a frame found in the descriptor ring. */
enum fw_dma_take {
	FW_DMA_BUFFER,		/* a good buffer to render into */
	FW_DMA_EMPTY,		/* nothing posted: the frame is dropped */
	FW_DMA_REFUSED,		/* a bad descriptor, completed with ERROR */
	FW_DMA_OVERRUN,		/* more posted than the ring holds */
};

struct fw_dma {
	struct fw_guest_ram ram;
	struct fw_dma_views views;
	struct vcap_dma_sg *raw;	/* scatter list copied out of RAM */
	struct fw_dma_ent *ents;	/* ... and checked */
	u8 *scratch;			/* for lists that are not page granular */
	size_t scratch_len;

	bool running;
	struct fw_dma_rings rings;
	u64 desc_off, comp_off;		/* file offsets of the two arrays */
	u32 desc_tail, comp_head;	/* private: the page is the guest's */

	/* The buffer of the frame being made (between begin and end). */
	bool taken;
	u32 id;
	u32 nents;
	u64 length;
	u8 *dst;
	bool scatter;			/* dst is the scratch buffer */

	/* The last completion written, for the faults. */
	bool have_last;
	struct vcap_dma_comp last;	/* little-endian, as written */
	/* A stop took place with an after-stop fault armed: write then. */
	bool after_stop_armed;
	bool after_stop_pending;
	u64 after_stop_due;
	struct fw_dma_rings stopped;
	u64 stopped_comp_off;
	u32 stopped_comp_head;

	/* Counters. */
	u64 frames_written;
	u64 desc_refused;
	u64 overruns;			/* desc_head - desc_tail > entries */
	u64 frames_empty;		/* made with nothing posted */
	u64 frames_scattered;		/* rendered aside, then scattered */
	u64 bad_completions;		/* written by faults */
};

int fw_dma_open(struct fw_dma *d, const char *ram_path,
		enum fw_guest_machine m, char *err, size_t errlen);
void fw_dma_close(struct fw_dma *d);

/*
 * Read the rings a START names from the page, once, and check them:
 * VCAP_ERR_NONE or VCAP_ERR_BAD_DMA.
 */
int fw_dma_check(struct fw_dma *d, const struct vcap_board_dma *blk,
		 struct fw_dma_rings *rings);

/* Whether DMA runs on these very rings. */
bool fw_dma_running_on(const struct fw_dma *d, const struct fw_dma_rings *r);

/* Take checked rings: comp_head and desc_tail 0. */
void fw_dma_start(struct fw_dma *d, struct vcap_board_dma *blk,
		  const struct fw_dma_rings *rings, u64 now_ns);

/*
 * Stop: nothing is written into guest RAM after this returns (but for an
 * after-stop fault armed before it).  Descriptors taken and not completed
 * are dropped.
 */
void fw_dma_stop(struct fw_dma *d, u64 now_ns);

/*
 * Stop as the board goes away (vanish, reset, exit): as fw_dma_stop(),
 * and no after-stop fault either.
 */
void fw_dma_halt(struct fw_dma *d);

/* The board's fields of the DMA block, from the engine's counters. */
void fw_dma_publish(const struct fw_dma *d, struct vcap_board_dma *blk);

/* Clear the board's fields of the block (a fresh control page). */
void fw_dma_clear_block(struct vcap_board_dma *blk);

/*
 * The next descriptor, for frame f.  FW_DMA_BUFFER: *dst is where the
 * frame goes (f->sizeimage bytes); fw_dma_frame_end() completes it.
 */
enum fw_dma_take fw_dma_frame_begin(struct fw_dma *d,
				    struct vcap_board_dma *blk,
				    const struct fw_dma_frame *f, u8 **dst);

/*
 * Complete the buffer taken for f, its pixels written.  fault is
 * FW_COMP_SIZE or FW_COMP_REORDER to damage this completion, else
 * FW_COMP_NONE; returns true if the fault was applied.
 */
bool fw_dma_frame_end(struct fw_dma *d, struct vcap_board_dma *blk,
		      const struct fw_dma_frame *f, enum fw_comp_fault fault);

/*
 * Write a hostile completion of kind ID, STALE, REPLAY or IDLE now, if
 * the engine is in a state where it means what it says: true if written.
 */
bool fw_dma_inject(struct fw_dma *d, struct vcap_board_dma *blk,
		   enum fw_comp_fault kind, const struct fw_dma_frame *f);

/*
 * The after-stop fault: written FW_DMA_AFTER_STOP_NS after the stop was
 * acknowledged.  True when it was written now.
 */
#define FW_DMA_AFTER_STOP_NS	(10 * 1000000ull)
bool fw_dma_after_stop(struct fw_dma *d, struct vcap_board_dma *blk,
		       u64 now_ns);

#endif /* FW_DMA_H */
