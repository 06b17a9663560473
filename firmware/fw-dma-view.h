/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Contiguous host views of scattered guest buffers: the board's side of an
 * IOMMU.  Each scatter entry's pages of the guest RAM file are mapped at
 * consecutive addresses of a reserved area, so a frame is rendered straight
 * into the buffer, one write per pixel.  Views are kept per buffer id and
 * scatter list, so a buffer posted again costs nothing.
 */
#ifndef FW_DMA_VIEW_H
#define FW_DMA_VIEW_H

#include <stdbool.h>
#include "fw-guest-ram.h"

/* One checked scatter entry: bus address, file offset, length. */
struct fw_dma_ent {
	u64 addr;
	u64 off;
	u32 len;
};

#define FW_DMA_VIEWS		64	/* buffers with a view at a time */
#define FW_DMA_VIEW_MAX_MAPS	32768	/* mappings in all views, under
					   the kernel's vm.max_map_count */

struct fw_dma_view {
	bool used;
	u32 id;
	u32 nents;
	struct fw_dma_ent *ents;	/* the list it maps */
	u8 *area;			/* reserved PROT_NONE, then mapped */
	size_t area_len;
	u8 *data;			/* the buffer's first byte */
	u32 maps;			/* mmap calls it took */
	u64 used_at;			/* for eviction, oldest first */
};

struct fw_dma_views {
	const struct fw_guest_ram *ram;
	struct fw_dma_view v[FW_DMA_VIEWS];
	u32 maps;			/* in all views */
	u64 clock;
	u64 built;			/* views made */
	u64 hits;			/* views found made */
};

void fw_dma_views_init(struct fw_dma_views *vs, const struct fw_guest_ram *ram);

/* Unmap every view (the rings stopped, or the firmware exits). */
void fw_dma_views_drop(struct fw_dma_views *vs);

/*
 * Whether a checked list can be viewed contiguously: every entry but the
 * first starts on a page, every entry but the last ends on one.
 */
bool fw_dma_view_granular(const struct fw_dma_ent *ents, u32 nents);

/*
 * The contiguous view of buffer id with this (checked, granular) scatter
 * list, made or found; NULL if it cannot be mapped (then the caller
 * renders elsewhere and scatters).
 */
u8 *fw_dma_view_get(struct fw_dma_views *vs, u32 id,
		    const struct fw_dma_ent *ents, u32 nents);

#endif /* FW_DMA_VIEW_H */
