/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DMA tests' common parts: the capture node of the PCI board, USERPTR
 * buffers inside a guarded region whose every other byte is a canary, and
 * the stamp check of a frame.  The node and DQBUF are mem-node's
 * (tests/mem/mem-node.h).
 *
 * The region holds each buffer between two guard pages, and the first
 * buffer starts 256 bytes into its page (a scatter list whose first entry
 * is not page aligned); everything outside [start, start + sizeimage) of
 * each buffer carries a pattern that depends on the byte's offset.  A
 * board that writes one byte outside what the driver posted, or after
 * the driver stopped it, changes the pattern.
 */
#ifndef DMA_TEST_H
#define DMA_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

#include "mem-node.h"
#include "vcap-stamp.h"

#define DMA_MAX_BUFS	16

struct dma_region {
	uint8_t *base;
	size_t size;
	unsigned int nbufs;
	size_t sizeimage;
	size_t off[DMA_MAX_BUFS];	/* each buffer's start in the region */
};

/* The canary byte at offset off of a region. */
static inline uint8_t dma_canary(size_t off)
{
	return (uint8_t)(off * 131u + (off >> 12) * 7u + 0x5a);
}

/* /sys/class/vcap/vcap0/transfer, without the newline; 0 or -1. */
int dma_transfer(char *buf, size_t len);

/* Map a region for nbufs buffers of sizeimage and paint the canary. */
int dma_region_init(struct dma_region *r, unsigned int nbufs,
		    size_t sizeimage);
void dma_region_free(struct dma_region *r);
/* Paint the canary over the buffers too. */
void dma_region_paint_all(struct dma_region *r);
/*
 * The first byte outside the buffers (or anywhere, with all) that is not
 * the canary: its offset, or -1 when there is none.
 */
long dma_region_check(const struct dma_region *r, bool all);

/* Set YUYV width x height at 1/fps.  0 or -1 (errno). */
int dma_set_mode(int fd, unsigned int width, unsigned int height,
		 unsigned int fps, struct v4l2_pix_format *pix);

/* REQBUFS(USERPTR) and queue every buffer of the region.  0 or -1. */
int dma_queue_userptr(int fd, struct dma_region *r);

/*
 * Open the first vcap node, set YUYV width x height at 1/fps, queue nbufs
 * USERPTR buffers of a new region and stream: the fd, or -1 with a
 * message on stderr.
 */
int dma_start_userptr(unsigned int width, unsigned int height,
		      unsigned int fps, unsigned int nbufs,
		      struct v4l2_pix_format *pix, struct dma_region *r);

/* An unsigned number from the environment, or def. */
unsigned int dma_env(const char *name, unsigned int def);

/* The stamp of a frame: VCAP_STAMP_OK and *seq, or why not. */
enum vcap_stamp_result dma_stamp(const struct v4l2_pix_format *pix,
				 const void *frame, size_t len,
				 uint64_t *seq);

#endif /* DMA_TEST_H */
