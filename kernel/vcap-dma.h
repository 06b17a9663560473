/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap DMA engine: the board writes each frame into a queued V4L2 buffer
 * through the scatter list the driver built for it.
 */
#ifndef _VCAP_DMA_H
#define _VCAP_DMA_H

#include "vcap.h"

/*
 * Registration to removal: the rings, allocated once.  vcap_dma_init()
 * leaves the copy path in place where the board, its driver or the
 * platform cannot do DMA.
 */
int vcap_dma_init(struct vcap_dev *vdev);
void vcap_dma_fini(struct vcap_dev *vdev);

/*
 * The stream, around the board's requests (the caller holds req_lock):
 * hand the board the rings before a START, post the queued buffers once
 * it acknowledged, and take the buffers back after a STOP, from a board
 * that acknowledged it (acked) or from one that may still write them.
 */
void vcap_dma_setup(struct vcap_dev *vdev);
void vcap_dma_run(struct vcap_dev *vdev);
void vcap_dma_stopped(struct vcap_dev *vdev, bool acked);

/* The board is dead: what it holds is never given back. */
void vcap_dma_abandon(struct vcap_dev *vdev, const char *why);
/* Whether the board has not acknowledged the end of its DMA. */
bool vcap_dma_dead(struct vcap_dev *vdev);

extern const struct vcap_transfer_ops vcap_dma_transfer;

#endif /* _VCAP_DMA_H */
