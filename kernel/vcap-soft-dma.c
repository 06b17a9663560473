// SPDX-License-Identifier: GPL-2.0
/*
 * vcap software board's DMA engine: the board's side of the descriptor
 * and completion rings, writing each frame into the buffer posted.
 *
 * The board reaches host memory the way a bus master does: through the
 * bus addresses the driver's DMA API gave the platform device.  Those are
 * physical addresses (dma-direct, no IOMMU, no offset map, no memory
 * encryption; without all of that the board offers no DMA), so a ring or
 * a scatter entry is taken only if every page it covers is RAM with a
 * struct page, neither reserved nor high memory.  The control page may be
 * written by user space too (vram_writable=1), so the engine takes the
 * DMA block's driver fields (the rings, desc_head) from the driver's own
 * register writes, as a board's registers latch them, never from the
 * page.  The rings are taken once, when a START is accepted, each
 * descriptor and its scatter list once, when taken; all are checked,
 * and a bad descriptor completes with VCAP_COMP_ERROR and nothing is
 * written into it.
 *
 * A buffer is written through one contiguous kernel view of its pages
 * (vmap()), so the pattern generator renders straight into it, one write
 * per pixel.  Views are kept per buffer id and scatter list, so a buffer
 * posted again costs a comparison; they go when DMA stops.  A list whose
 * entries do not join at page boundaries (memory that is not page
 * granular) cannot be viewed that way: its frames are rendered aside and
 * copied through the list, and counted.
 *
 * Everything here runs on the board's ordered workqueue, one item at a
 * time: a request that stops DMA never overlaps a frame being written.
 */
#include <linux/cc_platform.h>
#include <linux/highmem.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "vcap-soft-dma.h"

/* A contiguous kernel view of one buffer, for one scatter list. */
struct vcap_soft_dma_view {
	struct vcap_dma_sg *sg;		/* the list it maps; NULL: none */
	u32 nents;
	void *area;			/* vmap() of its pages */
	void *data;			/* the buffer's first byte */
};

/* The DMA block's driver fields, from desc_addr up to comp_head. */
#define VCAP_SOFT_DMA_REG(f) \
	((offsetof(struct vcap_board_dma, f) - \
	  offsetof(struct vcap_board_dma, desc_addr)) / sizeof(u32))
#define VCAP_SOFT_DMA_REGS	VCAP_SOFT_DMA_REG(comp_head)

struct vcap_soft_dma {
	struct device *dev;		/* for the log */
	/* As the driver wrote them: WRITE_ONCE/READ_ONCE, any context. */
	u32 regs[VCAP_SOFT_DMA_REGS];
	bool running;
	struct vcap_soft_dma_rings rings;
	const struct vcap_dma_desc *desc; /* the rings, in the linear map */
	struct vcap_dma_comp *comp;
	u32 desc_tail;			/* descriptors taken since START */
	u32 comp_head;			/* completions written since START */
	u64 frames_written;
	u64 desc_refused;
	u64 frames_scattered;		/* rendered aside, then copied */

	/* The frame being written, between frame_begin and frame_end. */
	bool taken;
	u32 id;
	u32 nents;
	bool scatter;
	void *dst;

	/* The scatter list taken last, copied out of host memory. */
	struct vcap_dma_sg *sg;
	u32 sg_cap;			/* entries sg holds */
	void *scratch;			/* frames of lists not page granular */
	size_t scratch_len;
	struct vcap_soft_dma_view views[VCAP_DMA_MAX_ENTRIES];	/* by id */
};

struct vcap_soft_dma *vcap_soft_dma_create(struct device *dev)
{
	struct vcap_soft_dma *sd;

	if (device_iommu_mapped(dev) || dev->dma_range_map ||
	    cc_platform_has(CC_ATTR_MEM_ENCRYPT))
		return NULL;
	sd = kzalloc_obj(*sd, GFP_KERNEL);
	if (!sd)
		return ERR_PTR(-ENOMEM);
	sd->dev = dev;
	return sd;
}

static void vcap_soft_dma_view_drop(struct vcap_soft_dma_view *v)
{
	if (v->area)
		vunmap(v->area);
	kvfree(v->sg);
	memset(v, 0, sizeof(*v));
}

void vcap_soft_dma_destroy(struct vcap_soft_dma *sd)
{
	if (IS_ERR_OR_NULL(sd))
		return;
	vcap_soft_dma_stop(sd);
	kvfree(sd->sg);
	kvfree(sd->scratch);
	kfree(sd);
}

/* Whether the page at pfn is RAM the board may write. */
static bool vcap_soft_dma_page_ok(unsigned long pfn)
{
	struct page *page;

	if (!pfn_valid(pfn))
		return false;
	page = pfn_to_page(pfn);
	return !PageReserved(page) && !PageHighMem(page);
}

/* Whether len bytes at bus address addr are all such RAM. */
static bool vcap_soft_dma_ram(u64 addr, u64 len)
{
	unsigned long pfn, last;

	if (!len || addr + len < addr)
		return false;
	last = PHYS_PFN(addr + len - 1);
	for (pfn = PHYS_PFN(addr); pfn <= last; pfn++)
		if (!vcap_soft_dma_page_ok(pfn))
			return false;
	return true;
}

/* The kernel address of checked RAM: physically contiguous, linear. */
static void *vcap_soft_dma_va(u64 addr)
{
	return page_address(pfn_to_page(PHYS_PFN(addr))) + offset_in_page(addr);
}

void vcap_soft_dma_write(struct vcap_soft_dma *sd, u32 off, u32 val)
{
	u32 base = offsetof(struct vcap_board_ctrl, dma.desc_addr);

	if (sd && off >= base && (off - base) % sizeof(u32) == 0 &&
	    (off - base) / sizeof(u32) < VCAP_SOFT_DMA_REGS)
		WRITE_ONCE(sd->regs[(off - base) / sizeof(u32)], val);
}

static u64 vcap_soft_dma_reg64(struct vcap_soft_dma *sd, unsigned int reg)
{
	return READ_ONCE(sd->regs[reg]) |
	       (u64)READ_ONCE(sd->regs[reg + 1]) << 32;
}

u32 vcap_soft_dma_check(struct vcap_soft_dma *sd,
			struct vcap_soft_dma_rings *r)
{
	if (!sd)
		return VCAP_ERR_BAD_DMA;
	r->desc_addr = vcap_soft_dma_reg64(sd, VCAP_SOFT_DMA_REG(desc_addr));
	r->comp_addr = vcap_soft_dma_reg64(sd, VCAP_SOFT_DMA_REG(comp_addr));
	r->entries = READ_ONCE(sd->regs[VCAP_SOFT_DMA_REG(entries)]);
	if (r->entries < 2 || r->entries > VCAP_DMA_MAX_ENTRIES ||
	    !is_power_of_2(r->entries))
		return VCAP_ERR_BAD_DMA;
	/* Completions are written with 64-bit stores. */
	if ((r->desc_addr | r->comp_addr) & 7)
		return VCAP_ERR_BAD_DMA;
	if (!vcap_soft_dma_ram(r->desc_addr,
			       r->entries * sizeof(struct vcap_dma_desc)) ||
	    !vcap_soft_dma_ram(r->comp_addr,
			       r->entries * sizeof(struct vcap_dma_comp)))
		return VCAP_ERR_BAD_DMA;
	return VCAP_ERR_NONE;
}

bool vcap_soft_dma_running_on(const struct vcap_soft_dma *sd,
			      const struct vcap_soft_dma_rings *r)
{
	return sd && sd->running && sd->rings.desc_addr == r->desc_addr &&
	       sd->rings.comp_addr == r->comp_addr &&
	       sd->rings.entries == r->entries;
}

bool vcap_soft_dma_running(const struct vcap_soft_dma *sd)
{
	return sd && sd->running;
}

static void vcap_soft_dma_publish(const struct vcap_soft_dma *sd,
				  struct vcap_board_dma *blk)
{
	WRITE_ONCE(blk->frames_written, cpu_to_le64(sd->frames_written));
	WRITE_ONCE(blk->desc_refused, cpu_to_le64(sd->desc_refused));
}

void vcap_soft_dma_start(struct vcap_soft_dma *sd, struct vcap_board_dma *blk,
			 const struct vcap_soft_dma_rings *r)
{
	vcap_soft_dma_stop(sd);
	/* Checked by vcap_soft_dma_check(). */
	sd->desc = vcap_soft_dma_va(r->desc_addr);
	sd->comp = vcap_soft_dma_va(r->comp_addr);
	sd->rings = *r;
	sd->desc_tail = 0;
	sd->comp_head = 0;
	WRITE_ONCE(blk->comp_head, 0);
	WRITE_ONCE(blk->desc_tail, 0);
	vcap_soft_dma_publish(sd, blk);
	sd->running = true;
}

void vcap_soft_dma_stop(struct vcap_soft_dma *sd)
{
	unsigned int i;

	if (!sd)
		return;
	sd->running = false;
	sd->taken = false;
	sd->desc = NULL;
	sd->comp = NULL;
	for (i = 0; i < ARRAY_SIZE(sd->views); i++)
		vcap_soft_dma_view_drop(&sd->views[i]);
}

/* Publish a completion for buffer id at comp_head. */
static void vcap_soft_dma_complete(struct vcap_soft_dma *sd,
				   struct vcap_board_dma *blk, u32 id,
				   const struct vcap_soft_dma_frame *f,
				   u32 bytesused, u32 flags)
{
	struct vcap_dma_comp *c =
		&sd->comp[sd->comp_head & (sd->rings.entries - 1)];

	/* The pixels before the completion that vouches for them ... */
	wmb();
	WRITE_ONCE(c->index, cpu_to_le32(sd->comp_head));
	WRITE_ONCE(c->id, cpu_to_le32(id));
	WRITE_ONCE(c->sequence, cpu_to_le64(f->seq));
	WRITE_ONCE(c->timestamp_ns, cpu_to_le64(f->ts_ns));
	WRITE_ONCE(c->bytesused, cpu_to_le32(bytesused));
	WRITE_ONCE(c->flags, cpu_to_le32(flags));
	WRITE_ONCE(c->mode_gen, cpu_to_le32(f->mode_gen));
	memset(c->reserved, 0, sizeof(c->reserved));
	/* ... and it before the head that publishes it. */
	wmb();
	sd->comp_head++;
	WRITE_ONCE(blk->comp_head, cpu_to_le32(sd->comp_head));
	WRITE_ONCE(blk->desc_tail, cpu_to_le32(sd->desc_tail));
	vcap_soft_dma_publish(sd, blk);
}

/* Room for n scatter entries copied out of host memory. */
static bool vcap_soft_dma_sg_room(struct vcap_soft_dma *sd, u32 n)
{
	struct vcap_dma_sg *sg;

	if (n <= sd->sg_cap)
		return true;
	sg = kvmalloc_array(n, sizeof(*sg), GFP_KERNEL);
	if (!sg)
		return false;
	kvfree(sd->sg);
	sd->sg = sg;
	sd->sg_cap = n;
	return true;
}

/*
 * Copy the descriptor's scatter list out of host memory and check it:
 * NULL, or why not.  sd->sg holds the list.
 */
static const char *vcap_soft_dma_take_list(struct vcap_soft_dma *sd,
					   const struct vcap_dma_desc *desc,
					   u32 sizeimage)
{
	u32 nents = le32_to_cpu(desc->nents), i, len;
	u64 sg_addr = le64_to_cpu(desc->sg_addr), sum = 0, addr;

	if (!nents || nents > VCAP_DMA_MAX_SG)
		return "nents not 1..VCAP_DMA_MAX_SG";
	if (!vcap_soft_dma_ram(sg_addr, (u64)nents * sizeof(*sd->sg)))
		return "scatter list not in RAM";
	if (!vcap_soft_dma_sg_room(sd, nents))
		return "out of memory";
	memcpy(sd->sg, vcap_soft_dma_va(sg_addr), nents * sizeof(*sd->sg));
	for (i = 0; i < nents; i++) {
		addr = le64_to_cpu(sd->sg[i].addr);
		len = le32_to_cpu(sd->sg[i].len);
		if (!vcap_soft_dma_ram(addr, len))
			return "an entry not in RAM";
		sum += len;
	}
	if (sum != le64_to_cpu(desc->length))
		return "entries do not sum to length";
	if (sum < sizeimage)
		return "buffer smaller than the frame";
	sd->nents = nents;
	return NULL;
}

/* Every entry but the first starts on a page, all but the last end on one. */
static bool vcap_soft_dma_granular(const struct vcap_dma_sg *sg, u32 nents)
{
	u32 i;

	for (i = 0; i < nents; i++) {
		u64 addr = le64_to_cpu(sg[i].addr);

		if (i > 0 && offset_in_page(addr))
			return false;
		if (i + 1 < nents &&
		    offset_in_page(addr + le32_to_cpu(sg[i].len)))
			return false;
	}
	return true;
}

/* The pages the first size bytes of a granular list cover, in order. */
static void *vcap_soft_dma_view_map(const struct vcap_dma_sg *sg, u32 nents,
				    u32 size)
{
	u64 first = le64_to_cpu(sg[0].addr);
	unsigned int n = 0, npages = PFN_UP(offset_in_page(first) + size);
	unsigned long pfn, last;
	struct page **pages;
	u64 left = size, addr;
	void *area;
	u32 i, len;

	pages = kvmalloc_array(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return NULL;
	for (i = 0; i < nents && left; i++) {
		addr = le64_to_cpu(sg[i].addr);
		len = min_t(u64, le32_to_cpu(sg[i].len), left);
		last = PHYS_PFN(addr + len - 1);
		for (pfn = PHYS_PFN(addr); pfn <= last && n < npages; pfn++)
			pages[n++] = pfn_to_page(pfn);
		left -= len;
	}
	area = n == npages ? vmap(pages, n, VM_MAP, PAGE_KERNEL) : NULL;
	kvfree(pages);
	return area ? area + offset_in_page(first) : NULL;
}

/* The view of buffer id for the list taken, found or made; or NULL. */
static void *vcap_soft_dma_view_get(struct vcap_soft_dma *sd, u32 id,
				    u32 size)
{
	size_t bytes = sd->nents * sizeof(*sd->sg);
	struct vcap_soft_dma_view *v;
	void *data;

	if (id >= ARRAY_SIZE(sd->views) ||
	    !vcap_soft_dma_granular(sd->sg, sd->nents))
		return NULL;
	v = &sd->views[id];
	if (v->area && v->nents == sd->nents && !memcmp(v->sg, sd->sg, bytes))
		return v->data;
	/* New, or the buffer was set up again elsewhere. */
	vcap_soft_dma_view_drop(v);
	v->sg = kvmalloc(bytes, GFP_KERNEL);
	if (!v->sg)
		return NULL;
	data = vcap_soft_dma_view_map(sd->sg, sd->nents, size);
	if (!data) {
		vcap_soft_dma_view_drop(v);
		return NULL;
	}
	memcpy(v->sg, sd->sg, bytes);
	v->nents = sd->nents;
	v->data = data;
	v->area = (void *)((unsigned long)data & PAGE_MASK);
	return data;
}

static void *vcap_soft_dma_scratch(struct vcap_soft_dma *sd, size_t len)
{
	if (sd->scratch_len < len) {
		kvfree(sd->scratch);
		sd->scratch_len = 0;
		sd->scratch = kvmalloc(len, GFP_KERNEL);
		if (!sd->scratch)
			return NULL;
		sd->scratch_len = len;
	}
	return sd->scratch;
}

enum vcap_soft_dma_take
vcap_soft_dma_frame_begin(struct vcap_soft_dma *sd, struct vcap_board_dma *blk,
			  const struct vcap_soft_dma_frame *f, void **dst)
{
	struct vcap_dma_desc desc;
	const char *why;
	u32 head, posted;

	*dst = NULL;
	sd->taken = false;
	if (!vcap_soft_dma_running(sd))
		return VCAP_SOFT_DMA_EMPTY;
	head = READ_ONCE(sd->regs[VCAP_SOFT_DMA_REG(desc_head)]);
	/* The head before the descriptors it publishes. */
	rmb();
	posted = head - sd->desc_tail;
	if (!posted)
		return VCAP_SOFT_DMA_EMPTY;
	if (posted > sd->rings.entries) {
		/* Not the driver's doing: take nothing rather than guess. */
		dev_warn_ratelimited(sd->dev,
				     "dma: %u descriptors posted, the ring holds %u\n",
				     posted, sd->rings.entries);
		return VCAP_SOFT_DMA_EMPTY;
	}
	memcpy(&desc, &sd->desc[sd->desc_tail & (sd->rings.entries - 1)],
	       sizeof(desc));
	sd->desc_tail++;
	sd->id = le32_to_cpu(desc.id);
	why = vcap_soft_dma_take_list(sd, &desc, f->sizeimage);
	if (!why) {
		sd->dst = vcap_soft_dma_view_get(sd, sd->id, f->sizeimage);
		sd->scatter = !sd->dst;
		if (sd->scatter)
			sd->dst = vcap_soft_dma_scratch(sd, f->sizeimage);
		if (sd->dst) {
			sd->taken = true;
			*dst = sd->dst;
			return VCAP_SOFT_DMA_BUFFER;
		}
		why = "out of memory";
	}
	/* Taken, nothing written into it, and handed back. */
	sd->desc_refused++;
	dev_warn_ratelimited(sd->dev, "dma: descriptor of buffer %u refused: %s\n",
			     sd->id, why);
	vcap_soft_dma_complete(sd, blk, sd->id, f, 0, VCAP_COMP_ERROR);
	return VCAP_SOFT_DMA_REFUSED;
}

/* The frame rendered aside goes out through the scatter list. */
static void vcap_soft_dma_scatter(struct vcap_soft_dma *sd, u32 bytes)
{
	const u8 *src = sd->scratch;
	u64 addr, left = bytes;
	u32 i, len, n;

	for (i = 0; i < sd->nents && left; i++) {
		addr = le64_to_cpu(sd->sg[i].addr);
		len = min_t(u64, le32_to_cpu(sd->sg[i].len), left);
		left -= len;
		while (len) {
			n = min_t(u32, len, PAGE_SIZE - offset_in_page(addr));
			memcpy_to_page(pfn_to_page(PHYS_PFN(addr)),
				       offset_in_page(addr), src, n);
			src += n;
			addr += n;
			len -= n;
		}
	}
}

void vcap_soft_dma_frame_end(struct vcap_soft_dma *sd,
			     struct vcap_board_dma *blk,
			     const struct vcap_soft_dma_frame *f)
{
	if (!sd || !sd->taken)
		return;
	sd->taken = false;
	if (sd->scatter) {
		vcap_soft_dma_scatter(sd, f->sizeimage);
		if (!sd->frames_scattered++)
			dev_info(sd->dev,
				 "dma: buffer %u is not page granular: its frames are rendered aside and copied\n",
				 sd->id);
	} else {
		flush_kernel_vmap_range(sd->dst, f->sizeimage);
	}
	sd->frames_written++;
	vcap_soft_dma_complete(sd, blk, sd->id, f, f->sizeimage, f->flags);
}
