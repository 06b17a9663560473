/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Faults on demand, for testing the driver: what the firmware is told to
 * do wrong, parsed from "fault ..." commands.  fw-run applies them.
 */
#ifndef FW_FAULT_H
#define FW_FAULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum fw_corrupt {
	FW_CORRUPT_NONE,
	FW_CORRUPT_LOCK,	/* slot lock left odd: forever being written */
	FW_CORRUPT_SEQ,		/* slot sequence goes backwards */
	FW_CORRUPT_SIZE,	/* bytesused past the slot */
	FW_CORRUPT_PIXELS,	/* pixels changed after publishing (torn) */
	FW_CORRUPT_SLOT,	/* latest_slot out of range */
};

/*
 * Completions a hostile DMA engine writes (fw-dma.c): each one is
 * something board.h tells the driver never to accept.
 */
enum fw_comp_fault {
	FW_COMP_NONE,
	FW_COMP_ID,		/* id out of any range a driver uses */
	FW_COMP_STALE,		/* id not outstanding: done, or never posted */
	FW_COMP_SIZE,		/* bytesused past the buffer */
	FW_COMP_REPLAY,		/* the last completion again: index, sequence */
	FW_COMP_REORDER,	/* sequence before the previous completion's */
	FW_COMP_IDLE,		/* a completion with nothing posted */
	FW_COMP_AFTER_STOP,	/* into the completion ring after the stop ack */
	FW_COMP_COUNT
};

struct fw_fault {
	uint32_t drop;		/* frames still to drop */
	uint64_t stall_until;	/* no frames before this time (ns) */
	uint64_t hang_until;	/* nothing at all: no heartbeat, no acks */
	uint64_t die_until;	/* board gone (magic cleared) until then */
	bool dead;		/* die_until is pending */
	int signal;		/* -1: no change; 0: lose; 1: restore */
	uint32_t resize_w, resize_h;	/* pending resolution change, or 0 */
	enum fw_corrupt corrupt;	/* applied to the next frame */
	bool hostile;		/* scribble over the control page */
	uint32_t storm;		/* interrupts still to raise */
	uint64_t dropped;	/* frames dropped on demand, in all */
	/* Per enum fw_comp_fault: completions still to damage ... */
	uint32_t comp[FW_COMP_COUNT];
	/* ... and one more every this many completions (0: none). */
	uint32_t comp_every[FW_COMP_COUNT];
};

/*
 * Parse "fault WHAT [ARG]" (argv[0] is "fault") at time now_ns.
 * 0 on success; -1 with the reason written to out.
 */
int fw_fault_parse(struct fw_fault *f, int argc, char **argv,
		   uint64_t now_ns, FILE *out);

void fw_fault_init(struct fw_fault *f);

/* The name of a completion fault, as the command takes it. */
const char *fw_comp_fault_name(enum fw_comp_fault kind);

/* The usage text of the fault command. */
extern const char fw_fault_usage[];

#endif /* FW_FAULT_H */
