/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap software board's DMA engine: descriptors in, frames and
 * completions out, in the host memory the driver posted, as the PCI
 * board's firmware does.  Everything the engine reads there or in the
 * control page is the driver's and checked before use.
 */
#ifndef _VCAP_SOFT_DMA_H
#define _VCAP_SOFT_DMA_H

#include <linux/device.h>
#include <linux/types.h>

#include <vcap/board.h>

struct vcap_soft_dma;

/* The rings a START names, read once from the control page. */
struct vcap_soft_dma_rings {
	u64 desc_addr;
	u64 comp_addr;
	u32 entries;
};

/* The frame being made, as its completion tells it. */
struct vcap_soft_dma_frame {
	u64 seq;
	u64 ts_ns;
	u32 sizeimage;
	u32 mode_gen;
	u32 flags;			/* VCAP_COMP_* */
};

enum vcap_soft_dma_take {
	VCAP_SOFT_DMA_EMPTY,		/* no descriptor: the frame is lost */
	VCAP_SOFT_DMA_BUFFER,		/* render into *dst, then frame_end */
	VCAP_SOFT_DMA_REFUSED,		/* a bad descriptor, completed */
};

/*
 * NULL (and no error) when the platform gives the device DMA addresses
 * that are not physical addresses: the board then has no DMA.
 */
struct vcap_soft_dma *vcap_soft_dma_create(struct device *dev);
void vcap_soft_dma_destroy(struct vcap_soft_dma *sd);

/*
 * The driver wrote val at byte off of the control page: the board keeps
 * its own copy of the DMA block's driver fields.  Any context.
 */
void vcap_soft_dma_write(struct vcap_soft_dma *sd, u32 off, u32 val);

/* Check the rings the driver named; VCAP_ERR_NONE or VCAP_ERR_BAD_DMA. */
u32 vcap_soft_dma_check(struct vcap_soft_dma *sd,
			struct vcap_soft_dma_rings *r);
bool vcap_soft_dma_running_on(const struct vcap_soft_dma *sd,
			      const struct vcap_soft_dma_rings *r);
bool vcap_soft_dma_running(const struct vcap_soft_dma *sd);
/* Start on checked rings, from completion 0. */
void vcap_soft_dma_start(struct vcap_soft_dma *sd, struct vcap_board_dma *blk,
			 const struct vcap_soft_dma_rings *r);
/* Nothing is written into host memory after this returns. */
void vcap_soft_dma_stop(struct vcap_soft_dma *sd);

enum vcap_soft_dma_take
vcap_soft_dma_frame_begin(struct vcap_soft_dma *sd, struct vcap_board_dma *blk,
			  const struct vcap_soft_dma_frame *f, void **dst);
void vcap_soft_dma_frame_end(struct vcap_soft_dma *sd,
			     struct vcap_board_dma *blk,
			     const struct vcap_soft_dma_frame *f);

#endif /* _VCAP_SOFT_DMA_H */
