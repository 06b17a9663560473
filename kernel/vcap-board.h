/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap board protocol: access to the control page, its validation at
 * probe, and the mode requests that start and stop a board.
 */
#ifndef _VCAP_BOARD_PROTO_H
#define _VCAP_BOARD_PROTO_H

#include "vcap.h"

/* Board field accessors: callers hold the presence guard. */
static inline u32 vcap_rd32(struct vcap_dev *vdev, u32 off)
{
	return vdev->ops->read32(vdev, off);
}

static inline u64 vcap_rd64(struct vcap_dev *vdev, u32 off)
{
	u64 lo = vdev->ops->read32(vdev, off);

	return lo | (u64)vdev->ops->read32(vdev, off + 4) << 32;
}

static inline void vcap_wr32(struct vcap_dev *vdev, u32 off, u32 val)
{
	vdev->ops->write32(vdev, off, val);
}

/*
 * What the board makes the driver say while it runs, errors and news
 * alike, shares one rate limit per board.
 */
__printf(3, 4) void vcap_board_log(struct vcap_dev *vdev, const char *level,
				   const char *fmt, ...);

/* Check the control page and keep a sanitised copy of it. */
int vcap_board_probe(struct vcap_dev *vdev);

const struct vcap_mode *vcap_find_mode(struct vcap_dev *vdev, u32 fourcc,
				       u32 width, u32 height);
bool vcap_read_slot(struct vcap_dev *vdev, u32 slot,
		    struct vcap_board_slot *hdr, u32 *lock);
/*
 * The ring the board runs, checked against the one wanted and the BAR.
 * The caller holds req_lock and the presence guard.
 */
int vcap_read_ring(struct vcap_dev *vdev, const struct vcap_ring *want,
		   struct vcap_ring *ring, bool report);

/* Mode requests; the callers serialise through the V4L2 queue lock. */
int vcap_board_start(struct vcap_dev *vdev);
void vcap_board_stop(struct vcap_dev *vdev);
/* At removal: a last STOP for a board that did not end its DMA. */
void vcap_board_end_dma(struct vcap_dev *vdev);
int vcap_board_update(struct vcap_dev *vdev, u32 pattern, u32 flags);
int vcap_board_rescale(struct vcap_dev *vdev, u32 src_width, u32 src_height,
		       const struct vcap_interval *interval);

#endif /* _VCAP_BOARD_PROTO_H */
