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
};

/*
 * Parse "fault WHAT [ARG]" (argv[0] is "fault") at time now_ns.
 * 0 on success; -1 with the reason written to out.
 */
int fw_fault_parse(struct fw_fault *f, int argc, char **argv,
		   uint64_t now_ns, FILE *out);

void fw_fault_init(struct fw_fault *f);

/* The usage text of the fault command. */
extern const char fw_fault_usage[];

#endif /* FW_FAULT_H */
