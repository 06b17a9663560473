/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The vcap board's memory interface: the control page at BAR2 offset 0.
 *
 * This header is the single definition of the board ABI.  The firmware,
 * the kernel driver and the tests include it as is; nobody copies a struct.
 * Every field is little-endian.  Writers and readers are on opposite sides
 * of a PCI BAR, so the driver treats every value here as untrusted input
 * and bounds-checks it before use.  docs/board.md describes the protocol.
 */
#ifndef _VCAP_BOARD_H
#define _VCAP_BOARD_H

#include <linux/types.h>

#define VCAP_BOARD_MAGIC		0x50414356u	/* "VCAP" */
#define VCAP_BOARD_ABI_VERSION		3u
/*
 * The oldest ABI a driver still drives: version 1 has no DMA block,
 * version 2 no scaler.
 */
#define VCAP_BOARD_ABI_MIN		1u

/* The control page occupies the first 16 KiB of BAR2; VRAM follows. */
#define VCAP_CTRL_SIZE			0x4000u

#define VCAP_NAME_LEN			32
#define VCAP_MAX_MODES			256
#define VCAP_MAX_INTERVALS		16
#define VCAP_MAX_SLOTS			8
#define VCAP_MIN_SLOTS			3

/* PCI identity: QEMU's ivshmem device; the magic tells a vcap board apart. */
#define VCAP_PCI_VENDOR_ID		0x1af4
#define VCAP_PCI_DEVICE_ID		0x1110

/* ivshmem-doorbell MSI-X vectors raised by the firmware. */
#define VCAP_VEC_FRAME			0	/* a slot was published */
#define VCAP_VEC_STATUS			1	/* mode or signal changed */
#define VCAP_NUM_VECTORS		2

/* Vector the driver rings on the firmware's peer after writing a request. */
#define VCAP_FW_VEC_REQUEST		0

/* info.caps */
#define VCAP_CAP_DOORBELL		(1u << 0)	/* interrupts available */
#define VCAP_CAP_HFLIP			(1u << 1)
#define VCAP_CAP_VFLIP			(1u << 2)
#define VCAP_CAP_PATTERNS		(1u << 3)	/* request.pattern honoured */
#define VCAP_CAP_HDMI			(1u << 4)	/* HDMI receiver: link, edid */
#define VCAP_CAP_DMA			(1u << 5)	/* writes into host memory */
#define VCAP_CAP_SCALER			(1u << 6)	/* HDMI input scales (ABI 3) */

/* Test patterns (request.pattern).  The stamp is drawn on all of them. */
enum vcap_pattern {
	VCAP_PATTERN_BARS = 0,		/* colour bars */
	VCAP_PATTERN_MOVING_BOX,	/* bars with a box moving each frame */
	VCAP_PATTERN_GRADIENT,
	VCAP_PATTERN_CHECKERBOARD,
	VCAP_PATTERN_SOLID_WHITE,
	VCAP_PATTERN_SOLID_BLACK,
	VCAP_PATTERN_SOLID_RED,
	VCAP_PATTERN_SOLID_GREEN,
	VCAP_PATTERN_SOLID_BLUE,
	VCAP_PATTERN_NOISE,
	VCAP_PATTERN_COUNT
};

/* request.cmd */
#define VCAP_CMD_STOP			0
#define VCAP_CMD_START			1

/*
 * request.input: where the frames come from.  The test pattern generator
 * makes any mode of the table.  The HDMI input captures what the source
 * sends: a START on it is taken whatever the link (its fourcc, size and
 * interval checked against the table as on the generator), and its
 * frames flow while the link is VCAP_LINK_LOCKED to a source of the
 * request's width, height and interval: state VCAP_STATE_STREAMING.
 * While the link is anything else (no signal, unstable, another timing)
 * nothing is published, state is VCAP_STATE_NO_SIGNAL and mode_gen stays;
 * the frames resume by themselves when the link locks to the requested
 * timing again.
 */
#define VCAP_INPUT_HDMI			0
#define VCAP_INPUT_TPG			1
#define VCAP_NUM_INPUTS			2

/* request.flags */
#define VCAP_REQ_HFLIP			(1u << 0)
#define VCAP_REQ_VFLIP			(1u << 1)
/*
 * START: deliver the frames into the buffers the driver posts (struct
 * vcap_board_dma) rather than only into the VRAM ring.  Taken only with
 * VCAP_CAP_DMA; refused with VCAP_ERR_BAD_DMA if the rings it names are
 * not in host memory.
 */
#define VCAP_REQ_DMA			(1u << 2)
/*
 * START on the HDMI input (ABI 3, VCAP_CAP_SCALER): the frames flow while
 * the link is locked to a source of src_width x src_height at the
 * request's interval, and each is the source's picture scaled into
 * width x height: its aspect kept (square pixels), centred, the rest of
 * the frame black (letterbox or pillarbox).  width and height may be any
 * size from VCAP_SCALE_MIN_WIDTH x VCAP_SCALE_MIN_HEIGHT up to the
 * source's, in the fourcc's subsampling steps; the fourcc must be one the
 * table has at the source's size.  Refused with VCAP_ERR_BAD_SIZE on the
 * generator, without the capability, or out of that range.  Without this
 * flag width x height is the source's size, as in ABI 1 and 2.
 */
#define VCAP_REQ_SCALE			(1u << 3)

/* The scaler's smallest picture; its largest is the source's. */
#define VCAP_SCALE_MIN_WIDTH		160
#define VCAP_SCALE_MIN_HEIGHT		120

/* status.error: why the request acknowledged last was refused. */
#define VCAP_ERR_NONE			0
#define VCAP_ERR_BAD_CMD		1
#define VCAP_ERR_BAD_FORMAT		2	/* fourcc not offered */
#define VCAP_ERR_BAD_SIZE		3	/* size not offered for fourcc */
#define VCAP_ERR_BAD_INTERVAL		4	/* interval not offered */
#define VCAP_ERR_BAD_STRIDE		5	/* bytesperline too small/large */
#define VCAP_ERR_NO_SPACE		6	/* ring does not fit VRAM */
#define VCAP_ERR_BUSY			7
#define VCAP_ERR_BAD_PATTERN		8	/* pattern not in enum */
#define VCAP_ERR_BAD_INPUT		9	/* input not VCAP_INPUT_* */
#define VCAP_ERR_NO_LINK		10	/* reserved: HDMI link not locked */
#define VCAP_ERR_TIMINGS		11	/* reserved: not the source's mode */
#define VCAP_ERR_BAD_DMA		12	/* DMA rings unusable, or no DMA */

/* status.state */
#define VCAP_STATE_STOPPED		0
#define VCAP_STATE_STREAMING		1
#define VCAP_STATE_NO_SIGNAL		2	/* streaming, but no source */

/* slot.flags */
#define VCAP_SLOT_ERROR			(1u << 0)	/* contents are bad */
#define VCAP_SLOT_NO_SIGNAL		(1u << 1)	/* no source; filler */

/*
 * One mode the firmware can produce: a format at a size, with the set of
 * frame intervals (bits into info.intervals[]) it sustains at that size.
 */
struct vcap_board_mode {
	__le32 fourcc;			/* V4L2 pixel format */
	__le32 width;
	__le32 height;
	__le32 interval_mask;		/* bit i: info.intervals[i] */
};

struct vcap_board_interval {
	__le32 numerator;		/* seconds per frame, as a fraction */
	__le32 denominator;
};

/* Written once by the firmware when the board comes up. */
struct vcap_board_info {
	__le32 magic;			/* VCAP_BOARD_MAGIC, written last */
	__le32 abi_version;		/* VCAP_BOARD_ABI_VERSION */
	__le32 ctrl_size;		/* VCAP_CTRL_SIZE */
	__le32 caps;			/* VCAP_CAP_* */
	char name[VCAP_NAME_LEN];	/* NUL-padded */
	char serial[VCAP_NAME_LEN];	/* NUL-padded */
	__le64 vram_size;		/* whole BAR2, control page included */
	__le64 frame_offset;		/* start of the frame area in BAR2 */
	__le64 frame_size;		/* bytes of frame area */
	__le32 fw_peer_id;		/* ivshmem peer to ring for requests */
	__le32 num_modes;		/* valid entries in modes[] */
	__le32 num_intervals;		/* valid entries in intervals[] */
	__le32 reserved0;
	struct vcap_board_interval intervals[VCAP_MAX_INTERVALS];
	struct vcap_board_mode modes[VCAP_MAX_MODES];
};

/*
 * Written by the driver.  The driver fills every field, then increments
 * seq (with a write barrier between); the firmware acts on a seq it has
 * not acknowledged yet and copies it to status.ack_seq when done.
 */
struct vcap_board_request {
	__le32 seq;
	__le32 cmd;			/* VCAP_CMD_* */
	__le32 fourcc;
	__le32 width;
	__le32 height;
	__le32 bytesperline;		/* 0: the firmware's default */
	__le32 interval_num;
	__le32 interval_den;
	__le32 pattern;			/* enum vcap_pattern */
	__le32 flags;			/* VCAP_REQ_* */
	/*
	 * Newest slot sequence the driver has taken, written whenever it
	 * takes one (no seq bump): the firmware counts a frame newer than
	 * this that it overwrites in status.frames_overwritten.
	 */
	__le64 consumed_seq;
	__le32 input;			/* VCAP_INPUT_* */
	/* The source's size, with VCAP_REQ_SCALE (ABI 3); else 0. */
	__le32 src_width;
	__le32 src_height;
	__le32 reserved;
};

/* Written by the firmware. */
struct vcap_board_status {
	__le32 ack_seq;			/* last request.seq handled */
	__le32 error;			/* VCAP_ERR_* for ack_seq */
	__le32 state;			/* VCAP_STATE_* */
	__le32 mode_gen;		/* bumped on every change of the mode */
	/* The active mode; valid while state != STOPPED. */
	__le32 fourcc;
	__le32 width;
	__le32 height;
	__le32 bytesperline;
	__le32 sizeimage;
	__le32 interval_num;
	__le32 interval_den;
	__le32 num_slots;		/* VCAP_MIN_SLOTS..VCAP_MAX_SLOTS */
	__le64 ring_offset;		/* BAR2 offset of slot 0's pixels */
	__le64 slot_stride;		/* bytes between slots, page multiple */
	/* Liveness and counters. */
	__le64 heartbeat;		/* incremented at least every 100 ms */
	__le64 frames_produced;
	__le64 frames_overwritten;	/* published, then replaced unread */
	__le64 frames_late;		/* produced after their deadline */
	__le32 latest_slot;		/* newest complete slot, or ~0 */
	__le32 reserved0;
	__le64 latest_seq;		/* that slot's sequence */
	__le32 reserved[8];
};

/*
 * One frame slot's header.  Publishing follows a sequence lock:
 *   writer: lock++ (odd), wmb, pixels and fields, wmb, lock++ (even),
 *           wmb, then status.latest_slot/latest_seq;
 *   reader: l1 = lock (odd: being written), rmb, read fields and pixels,
 *           rmb, l2 = lock; the frame is whole only if l1 == l2 and even.
 */
struct vcap_board_slot {
	__le32 lock;
	__le32 flags;			/* VCAP_SLOT_* */
	__le64 sequence;		/* frame number, from 0 at start */
	__le64 timestamp_ns;		/* firmware CLOCK_MONOTONIC */
	__le32 bytesused;
	__le32 mode_gen;		/* status.mode_gen it was made in */
};

/*
 * HDMI receiver (info.caps & VCAP_CAP_HDMI).
 *
 * link is the receiver's view of the source, written by the firmware: the
 * firmware fills every field, then bumps link.gen, then raises
 * VCAP_VEC_STATUS.  The timing is what the receiver measured, in the
 * units of struct v4l2_bt_timings; the driver checks it and matches it
 * against the timings it offers, and never trusts it to be one of them.
 */
#define VCAP_LINK_NO_SIGNAL		0	/* no source, or hotplug low */
#define VCAP_LINK_UNSTABLE		1	/* a signal, but no lock */
#define VCAP_LINK_LOCKED		2	/* locked: timing is valid */
#define VCAP_LINK_OUT_OF_RANGE		3	/* locked, but not capturable */

/* link.flags */
#define VCAP_LINK_POWER_5V		(1u << 0)	/* the source drives +5V */
#define VCAP_LINK_RGB_LIMITED		(1u << 1)	/* AVI InfoFrame: 16-235 */

/* timing.polarities: V4L2_DV_VSYNC_POS_POL, V4L2_DV_HSYNC_POS_POL */
struct vcap_board_timing {
	__le32 width;			/* active pixels per line */
	__le32 height;			/* active lines per frame */
	__le64 pixelclock;		/* Hz */
	__le32 hfrontporch;
	__le32 hsync;
	__le32 hbackporch;
	__le32 vfrontporch;
	__le32 vsync;
	__le32 vbackporch;
	__le32 polarities;
	__le32 interlaced;		/* 0: progressive; the board takes no other */
};

struct vcap_board_link {
	__le32 gen;			/* bumped after each change, written last */
	__le32 state;			/* VCAP_LINK_* */
	__le32 flags;			/* VCAP_LINK_* flags */
	__le32 reserved0;
	struct vcap_board_timing timing; /* LOCKED and OUT_OF_RANGE only */
	__le32 reserved[4];
};

/*
 * The receiver's EDID memory and hotplug line, written by the driver:
 * data first, then blocks, then gen bumped (write barrier between), then
 * the request doorbell.  blocks 0 drives hotplug low: the source sees no
 * sink and the link drops.  The firmware reads a snapshot, checks every
 * block's checksum and the count, and ignores a bad one (hotplug low).
 */
#define VCAP_EDID_BLOCK_SIZE		128
#define VCAP_EDID_MAX_BLOCKS		4

struct vcap_board_edid {
	__le32 gen;
	__le32 blocks;			/* 0..VCAP_EDID_MAX_BLOCKS */
	__u8 data[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];
};

/*
 * DMA (info.caps & VCAP_CAP_DMA, ABI 2): the board writes each frame into
 * a buffer the driver posted, in host memory, through that buffer's
 * scatter list, the way a capture card's DMA engine does.
 *
 * The driver allocates, in DMA-coherent host memory, a descriptor ring and
 * a completion ring of the same power-of-two size, and one scatter list
 * per buffer.  Before a START with VCAP_REQ_DMA it writes their bus
 * addresses and size into dma (desc_head 0); the board takes them when it
 * accepts the request, with comp_head 0.
 *
 * Posting: the driver writes desc[desc_head % entries], then (wmb)
 * desc_head + 1.  The board takes descriptors in order, one per frame.
 * Completing: the board writes the frame through the scatter list, then
 * (wmb) comp[comp_head % entries], then (wmb) comp_head + 1, then raises
 * VCAP_VEC_FRAME.  A frame made with no descriptor posted is dropped and
 * counted in status.frames_overwritten.  The driver never has more
 * buffers outstanding than the rings hold, so completions never wrap
 * over one not read yet.
 *
 * Stopping: the acknowledgment of any request that ends DMA (a STOP, a
 * START without VCAP_REQ_DMA or with other rings) means that the board
 * has stopped writing to everything posted before it: no pixel and no
 * completion after it.  Descriptors it took and did not complete are
 * dropped.
 *
 * Everything the board writes (comp[], comp_head) is untrusted: the
 * driver accepts a completion only for a buffer it posted and the board
 * has not completed yet, with comp.index the next completion number,
 * bytesused within the buffer and sequence after the previous one.  The
 * firmware checks every scatter entry against the host's memory before it
 * writes a byte.
 */
#define VCAP_DMA_MAX_ENTRIES		64	/* ring size, a power of two */
#define VCAP_DMA_MAX_SG			65536	/* scatter entries per buffer */

/* One scatter entry: a run of bus addresses in host memory. */
struct vcap_dma_sg {
	__le64 addr;
	__le32 len;			/* bytes, > 0 */
	__le32 reserved;
};

/* One posted buffer, written by the driver. */
struct vcap_dma_desc {
	__le32 id;			/* the driver's buffer id */
	__le32 nents;			/* entries at sg_addr */
	__le64 sg_addr;			/* bus address of the scatter list */
	__le64 length;			/* bytes: the sum of the entries */
};

/* comp.flags */
#define VCAP_COMP_ERROR			(1u << 0)	/* contents are bad */
#define VCAP_COMP_NO_SIGNAL		(1u << 1)	/* no source; filler */

/* One filled buffer, written by the board. */
struct vcap_dma_comp {
	__le32 index;			/* completion number, from 0 at START */
	__le32 id;			/* desc.id of the buffer filled */
	__le64 sequence;		/* frame number, as slot.sequence */
	__le64 timestamp_ns;		/* firmware CLOCK_MONOTONIC */
	__le32 bytesused;
	__le32 flags;			/* VCAP_COMP_* */
	__le32 mode_gen;		/* status.mode_gen it was made in */
	__le32 reserved[3];
};

/* In the control page (BAR2), ABI 2. */
struct vcap_board_dma {
	/* Written by the driver. */
	__le64 desc_addr;		/* bus address of desc[entries] */
	__le64 comp_addr;		/* bus address of comp[entries] */
	__le32 entries;			/* 2..VCAP_DMA_MAX_ENTRIES, power of 2 */
	__le32 desc_head;		/* descriptors posted since START */
	/* Written by the board. */
	__le32 comp_head;		/* completions written since START */
	__le32 desc_tail;		/* descriptors taken since START */
	__le64 frames_written;		/* frames written into host memory */
	__le64 desc_refused;		/* descriptors with a bad scatter list */
	__le32 reserved[8];
};

struct vcap_board_ctrl {
	struct vcap_board_info info;
	struct vcap_board_request request;
	struct vcap_board_status status;
	struct vcap_board_slot slots[VCAP_MAX_SLOTS];
	struct vcap_board_link link;
	struct vcap_board_edid edid;
	struct vcap_board_dma dma;	/* ABI 2 */
};

/* Byte offsets into BAR2, for readl()-style access. */
#define VCAP_OFF_INFO(f)	offsetof(struct vcap_board_ctrl, info.f)
#define VCAP_OFF_REQ(f)		offsetof(struct vcap_board_ctrl, request.f)
#define VCAP_OFF_STATUS(f)	offsetof(struct vcap_board_ctrl, status.f)
#define VCAP_OFF_LINK(f)	offsetof(struct vcap_board_ctrl, link.f)
#define VCAP_OFF_EDID(f)	offsetof(struct vcap_board_ctrl, edid.f)
#define VCAP_OFF_DMA(f)		offsetof(struct vcap_board_ctrl, dma.f)
#define VCAP_OFF_SLOT(i, f)	(offsetof(struct vcap_board_ctrl, slots) + \
				 (i) * sizeof(struct vcap_board_slot) + \
				 offsetof(struct vcap_board_slot, f))

#endif /* _VCAP_BOARD_H */
