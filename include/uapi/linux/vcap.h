/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * vcap user ABI: the VRAM node /dev/vcapN.
 *
 * mmap() of /dev/vcapN at offset 0 maps BAR2 of the board as is: the
 * control page (struct vcap_board_ctrl, see <vcap/board.h>) followed by
 * VRAM.  Mappings are read-only unless the node was opened O_RDWR and the
 * module was loaded with vram_writable=1.  The V4L2 node /dev/videoN is a
 * standard capture device and needs nothing from this header.
 */
#ifndef _UAPI_LINUX_VCAP_H
#define _UAPI_LINUX_VCAP_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define VCAP_ABI_VERSION	1

/* vcap_info.flags */
#define VCAP_INFO_SOFT_BOARD	(1u << 0)	/* in-kernel software board */
#define VCAP_INFO_IRQ		(1u << 1)	/* interrupts, not polling */
#define VCAP_INFO_STREAMING	(1u << 2)	/* a mode is active */
#define VCAP_INFO_WRITABLE	(1u << 3)	/* this fd may map PROT_WRITE */

struct vcap_info {
	__u32 abi_version;		/* VCAP_ABI_VERSION */
	__u32 board_abi_version;	/* VCAP_BOARD_ABI_VERSION */
	__u32 flags;			/* VCAP_INFO_* */
	__u32 reserved0;
	char name[32];
	char serial[32];
	__u64 map_size;			/* bytes mmap() accepts at offset 0 */
	__u64 frame_offset;		/* frame area, as an mmap offset */
	__u64 frame_size;
	/* The active mode, valid with VCAP_INFO_STREAMING. */
	__u32 fourcc;
	__u32 width;
	__u32 height;
	__u32 bytesperline;
	__u32 sizeimage;
	__u32 interval_num;
	__u32 interval_den;
	__u32 num_slots;
	__u64 ring_offset;		/* slot 0's pixels, as an mmap offset */
	__u64 slot_stride;
	__u32 reserved[16];
};

/* vcap_wait.flags, out */
#define VCAP_WAIT_ERROR		(1u << 0)	/* the slot is flagged bad */
#define VCAP_WAIT_NO_SIGNAL	(1u << 1)

struct vcap_wait {
	__u64 after_seq;	/* in: return a frame newer than this */
	__u32 timeout_ms;	/* in: 0 polls once */
	__u32 slot;		/* out: ring slot of the frame */
	__u64 sequence;		/* out: its sequence number */
	__u64 timestamp_ns;	/* out: board time of the frame */
	__u32 bytesused;	/* out */
	__u32 flags;		/* out: VCAP_WAIT_* */
	__u32 reserved[4];
};

#define VCAP_IOC_MAGIC		0xb5
#define VCAP_IOC_QUERY		_IOR(VCAP_IOC_MAGIC, 0, struct vcap_info)
#define VCAP_IOC_WAIT_FRAME	_IOWR(VCAP_IOC_MAGIC, 1, struct vcap_wait)

#endif /* _UAPI_LINUX_VCAP_H */
