// SPDX-License-Identifier: GPL-2.0
/*
 * The layout of both ABI headers, pinned: compiled for x86-64 and for
 * i386, every size and offset must be the number written here.
 *
 * The VRAM node's ioctls reach the driver from 32-bit processes through
 * compat_ptr_ioctl, which passes the structures through unconverted: they
 * must be the same bytes in both word sizes.  The board's control page is
 * read by the firmware on the host and by the driver in the guest, so its
 * layout must not depend on the compiler either.  Changing a number here
 * is changing the ABI.
 */
#include <stddef.h>

#include <vcap/board.h>
#include <linux/vcap.h>

#define PIN_SIZE(type, n) \
	_Static_assert(sizeof(type) == (n), "sizeof(" #type ") != " #n)
#define PIN_OFF(type, field, n) \
	_Static_assert(offsetof(type, field) == (n), \
		       "offsetof(" #type ", " #field ") != " #n)

/* include/uapi/linux/vcap.h */
PIN_SIZE(struct vcap_info, 216);
PIN_OFF(struct vcap_info, abi_version, 0);
PIN_OFF(struct vcap_info, board_abi_version, 4);
PIN_OFF(struct vcap_info, flags, 8);
PIN_OFF(struct vcap_info, reserved0, 12);
PIN_OFF(struct vcap_info, name, 16);
PIN_OFF(struct vcap_info, serial, 48);
PIN_OFF(struct vcap_info, map_size, 80);
PIN_OFF(struct vcap_info, frame_offset, 88);
PIN_OFF(struct vcap_info, frame_size, 96);
PIN_OFF(struct vcap_info, fourcc, 104);
PIN_OFF(struct vcap_info, width, 108);
PIN_OFF(struct vcap_info, height, 112);
PIN_OFF(struct vcap_info, bytesperline, 116);
PIN_OFF(struct vcap_info, sizeimage, 120);
PIN_OFF(struct vcap_info, interval_num, 124);
PIN_OFF(struct vcap_info, interval_den, 128);
PIN_OFF(struct vcap_info, num_slots, 132);
PIN_OFF(struct vcap_info, ring_offset, 136);
PIN_OFF(struct vcap_info, slot_stride, 144);
PIN_OFF(struct vcap_info, reserved, 152);
PIN_SIZE(struct vcap_wait, 56);
PIN_OFF(struct vcap_wait, after_seq, 0);
PIN_OFF(struct vcap_wait, timeout_ms, 8);
PIN_OFF(struct vcap_wait, slot, 12);
PIN_OFF(struct vcap_wait, sequence, 16);
PIN_OFF(struct vcap_wait, timestamp_ns, 24);
PIN_OFF(struct vcap_wait, bytesused, 32);
PIN_OFF(struct vcap_wait, flags, 36);
PIN_OFF(struct vcap_wait, reserved, 40);

_Static_assert(VCAP_IOC_QUERY == 0x80d8b500u, "VCAP_IOC_QUERY changed");
_Static_assert(VCAP_IOC_WAIT_FRAME == 0xc038b501u,
	       "VCAP_IOC_WAIT_FRAME changed");
_Static_assert(VCAP_ABI_VERSION == 1, "VCAP_ABI_VERSION changed");

/* include/vcap/board.h */
PIN_OFF(struct vcap_info, board_abi_version, 4);
PIN_SIZE(struct vcap_board_mode, 16);
PIN_OFF(struct vcap_board_mode, fourcc, 0);
PIN_OFF(struct vcap_board_mode, width, 4);
PIN_OFF(struct vcap_board_mode, height, 8);
PIN_OFF(struct vcap_board_mode, interval_mask, 12);
PIN_SIZE(struct vcap_board_interval, 8);
PIN_OFF(struct vcap_board_interval, numerator, 0);
PIN_OFF(struct vcap_board_interval, denominator, 4);
PIN_SIZE(struct vcap_board_info, 4344);
PIN_OFF(struct vcap_board_info, magic, 0);
PIN_OFF(struct vcap_board_info, abi_version, 4);
PIN_OFF(struct vcap_board_info, ctrl_size, 8);
PIN_OFF(struct vcap_board_info, caps, 12);
PIN_OFF(struct vcap_board_info, name, 16);
PIN_OFF(struct vcap_board_info, serial, 48);
PIN_OFF(struct vcap_board_info, vram_size, 80);
PIN_OFF(struct vcap_board_info, frame_offset, 88);
PIN_OFF(struct vcap_board_info, frame_size, 96);
PIN_OFF(struct vcap_board_info, fw_peer_id, 104);
PIN_OFF(struct vcap_board_info, num_modes, 108);
PIN_OFF(struct vcap_board_info, num_intervals, 112);
PIN_OFF(struct vcap_board_info, reserved0, 116);
PIN_OFF(struct vcap_board_info, intervals, 120);
PIN_OFF(struct vcap_board_info, modes, 248);
PIN_SIZE(struct vcap_board_request, 64);
PIN_OFF(struct vcap_board_request, seq, 0);
PIN_OFF(struct vcap_board_request, cmd, 4);
PIN_OFF(struct vcap_board_request, fourcc, 8);
PIN_OFF(struct vcap_board_request, width, 12);
PIN_OFF(struct vcap_board_request, height, 16);
PIN_OFF(struct vcap_board_request, bytesperline, 20);
PIN_OFF(struct vcap_board_request, interval_num, 24);
PIN_OFF(struct vcap_board_request, interval_den, 28);
PIN_OFF(struct vcap_board_request, pattern, 32);
PIN_OFF(struct vcap_board_request, flags, 36);
PIN_OFF(struct vcap_board_request, consumed_seq, 40);
PIN_OFF(struct vcap_board_request, input, 48);
PIN_OFF(struct vcap_board_request, src_width, 52);
PIN_OFF(struct vcap_board_request, src_height, 56);
PIN_OFF(struct vcap_board_request, reserved, 60);
PIN_SIZE(struct vcap_board_status, 144);
PIN_OFF(struct vcap_board_status, ack_seq, 0);
PIN_OFF(struct vcap_board_status, error, 4);
PIN_OFF(struct vcap_board_status, state, 8);
PIN_OFF(struct vcap_board_status, mode_gen, 12);
PIN_OFF(struct vcap_board_status, fourcc, 16);
PIN_OFF(struct vcap_board_status, width, 20);
PIN_OFF(struct vcap_board_status, height, 24);
PIN_OFF(struct vcap_board_status, bytesperline, 28);
PIN_OFF(struct vcap_board_status, sizeimage, 32);
PIN_OFF(struct vcap_board_status, interval_num, 36);
PIN_OFF(struct vcap_board_status, interval_den, 40);
PIN_OFF(struct vcap_board_status, num_slots, 44);
PIN_OFF(struct vcap_board_status, ring_offset, 48);
PIN_OFF(struct vcap_board_status, slot_stride, 56);
PIN_OFF(struct vcap_board_status, heartbeat, 64);
PIN_OFF(struct vcap_board_status, frames_produced, 72);
PIN_OFF(struct vcap_board_status, frames_overwritten, 80);
PIN_OFF(struct vcap_board_status, frames_late, 88);
PIN_OFF(struct vcap_board_status, latest_slot, 96);
PIN_OFF(struct vcap_board_status, reserved0, 100);
PIN_OFF(struct vcap_board_status, latest_seq, 104);
PIN_OFF(struct vcap_board_status, reserved, 112);
PIN_SIZE(struct vcap_board_slot, 32);
PIN_OFF(struct vcap_board_slot, lock, 0);
PIN_OFF(struct vcap_board_slot, flags, 4);
PIN_OFF(struct vcap_board_slot, sequence, 8);
PIN_OFF(struct vcap_board_slot, timestamp_ns, 16);
PIN_OFF(struct vcap_board_slot, bytesused, 24);
PIN_OFF(struct vcap_board_slot, mode_gen, 28);
PIN_SIZE(struct vcap_board_ctrl, 5488);
PIN_OFF(struct vcap_board_ctrl, info, 0);
PIN_OFF(struct vcap_board_ctrl, request, 4344);
PIN_OFF(struct vcap_board_ctrl, status, 4408);
PIN_OFF(struct vcap_board_ctrl, slots, 4552);
PIN_OFF(struct vcap_board_ctrl, link, 4808);
PIN_OFF(struct vcap_board_ctrl, edid, 4888);
PIN_OFF(struct vcap_board_ctrl, dma, 5408);

/* ABI 2: the DMA block and the structures it points at in host memory. */
PIN_SIZE(struct vcap_board_dma, 80);
PIN_OFF(struct vcap_board_dma, desc_addr, 0);
PIN_OFF(struct vcap_board_dma, comp_addr, 8);
PIN_OFF(struct vcap_board_dma, entries, 16);
PIN_OFF(struct vcap_board_dma, desc_head, 20);
PIN_OFF(struct vcap_board_dma, comp_head, 24);
PIN_OFF(struct vcap_board_dma, desc_tail, 28);
PIN_OFF(struct vcap_board_dma, frames_written, 32);
PIN_OFF(struct vcap_board_dma, desc_refused, 40);
PIN_OFF(struct vcap_board_dma, reserved, 48);
PIN_SIZE(struct vcap_dma_sg, 16);
PIN_OFF(struct vcap_dma_sg, len, 8);
PIN_SIZE(struct vcap_dma_desc, 24);
PIN_OFF(struct vcap_dma_desc, nents, 4);
PIN_OFF(struct vcap_dma_desc, sg_addr, 8);
PIN_OFF(struct vcap_dma_desc, length, 16);
PIN_SIZE(struct vcap_dma_comp, 48);
PIN_OFF(struct vcap_dma_comp, id, 4);
PIN_OFF(struct vcap_dma_comp, sequence, 8);
PIN_OFF(struct vcap_dma_comp, timestamp_ns, 16);
PIN_OFF(struct vcap_dma_comp, bytesused, 24);
PIN_OFF(struct vcap_dma_comp, flags, 28);
PIN_OFF(struct vcap_dma_comp, mode_gen, 32);

PIN_SIZE(struct vcap_board_timing, 48);
PIN_OFF(struct vcap_board_timing, pixelclock, 8);
PIN_OFF(struct vcap_board_timing, interlaced, 44);
PIN_SIZE(struct vcap_board_link, 80);
PIN_OFF(struct vcap_board_link, timing, 16);
PIN_SIZE(struct vcap_board_edid, 520);
PIN_OFF(struct vcap_board_edid, data, 8);

_Static_assert(VCAP_CTRL_SIZE == 0x4000u, "VCAP_CTRL_SIZE changed");
_Static_assert(sizeof(struct vcap_board_ctrl) <= VCAP_CTRL_SIZE,
	       "the control page outgrew VCAP_CTRL_SIZE");
_Static_assert(VCAP_BOARD_MAGIC == 0x50414356u, "VCAP_BOARD_MAGIC changed");
_Static_assert(VCAP_BOARD_ABI_VERSION == 3u,
	       "VCAP_BOARD_ABI_VERSION changed");
_Static_assert(VCAP_OFF_SLOT(1, sequence) == 4592,
	       "VCAP_OFF_SLOT() does not index slots by their size");
