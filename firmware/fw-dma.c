// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The board's DMA engine: descriptors in, frames and completions out, in
 * the guest's RAM.  Everything it reads there or in the control page is
 * the guest's and untrusted: it is copied out once, then checked.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "fw-dma.h"
#include "fw-log.h"
#include "fw-mem.h"

int fw_dma_open(struct fw_dma *d, const char *ram_path,
		enum fw_guest_machine m, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	if (fw_guest_ram_open(&d->ram, ram_path, m, err, errlen))
		return -1;
	d->raw = malloc(VCAP_DMA_MAX_SG * sizeof(*d->raw));
	d->ents = malloc(VCAP_DMA_MAX_SG * sizeof(*d->ents));
	if (!d->raw || !d->ents) {
		snprintf(err, errlen, "out of memory for scatter lists");
		fw_dma_close(d);
		return -1;
	}
	fw_dma_views_init(&d->views, &d->ram);
	return 0;
}

void fw_dma_close(struct fw_dma *d)
{
	fw_dma_halt(d);
	fw_dma_views_drop(&d->views);
	fw_guest_ram_close(&d->ram);
	free(d->raw);
	free(d->ents);
	free(d->scratch);
	d->raw = NULL;
	d->ents = NULL;
	d->scratch = NULL;
}

int fw_dma_check(struct fw_dma *d, const struct vcap_board_dma *blk,
		 struct fw_dma_rings *r)
{
	u64 off;

	r->desc_addr = rd64(&blk->desc_addr);
	r->comp_addr = rd64(&blk->comp_addr);
	r->entries = rd32(&blk->entries);
	if (!d->ram.mem)
		return VCAP_ERR_BAD_DMA;
	if (r->entries < 2 || r->entries > VCAP_DMA_MAX_ENTRIES ||
	    (r->entries & (r->entries - 1)))
		return VCAP_ERR_BAD_DMA;
	/* The board writes completions with 64-bit stores. */
	if ((r->desc_addr | r->comp_addr) & 7)
		return VCAP_ERR_BAD_DMA;
	if (fw_guest_ram_translate(&d->ram, r->desc_addr, (u64)r->entries *
				   sizeof(struct vcap_dma_desc), &off) ||
	    fw_guest_ram_translate(&d->ram, r->comp_addr, (u64)r->entries *
				   sizeof(struct vcap_dma_comp), &off))
		return VCAP_ERR_BAD_DMA;
	return VCAP_ERR_NONE;
}

bool fw_dma_running_on(const struct fw_dma *d, const struct fw_dma_rings *r)
{
	return d->running && d->rings.desc_addr == r->desc_addr &&
	       d->rings.comp_addr == r->comp_addr &&
	       d->rings.entries == r->entries;
}

void fw_dma_publish(const struct fw_dma *d, struct vcap_board_dma *blk)
{
	wr64(&blk->frames_written, d->frames_written);
	wr64(&blk->desc_refused, d->desc_refused);
}

void fw_dma_clear_block(struct vcap_board_dma *blk)
{
	wr32(&blk->comp_head, 0);
	wr32(&blk->desc_tail, 0);
	wr64(&blk->frames_written, 0);
	wr64(&blk->desc_refused, 0);
}

void fw_dma_start(struct fw_dma *d, struct vcap_board_dma *blk,
		  const struct fw_dma_rings *rings, u64 now_ns)
{
	fw_dma_stop(d, now_ns);
	/* Checked by fw_dma_check(): both arrays are in one run of RAM. */
	fw_guest_ram_translate(&d->ram, rings->desc_addr, (u64)rings->entries *
			       sizeof(struct vcap_dma_desc), &d->desc_off);
	fw_guest_ram_translate(&d->ram, rings->comp_addr, (u64)rings->entries *
			       sizeof(struct vcap_dma_comp), &d->comp_off);
	d->rings = *rings;
	d->desc_tail = 0;
	d->comp_head = 0;
	d->have_last = false;
	/* A new stream: an after-stop fault of the old one is void. */
	d->after_stop_pending = false;
	wr32(&blk->comp_head, 0);
	wr32(&blk->desc_tail, 0);
	wmb();
	d->running = true;
}

void fw_dma_stop(struct fw_dma *d, u64 now_ns)
{
	if (!d->running)
		return;
	d->running = false;
	d->taken = false;
	if (d->after_stop_armed) {
		d->after_stop_armed = false;
		d->after_stop_pending = true;
		d->after_stop_due = now_ns + FW_DMA_AFTER_STOP_NS;
		d->stopped = d->rings;
		d->stopped_comp_off = d->comp_off;
		d->stopped_comp_head = d->comp_head;
	}
}

void fw_dma_halt(struct fw_dma *d)
{
	d->after_stop_armed = false;
	d->after_stop_pending = false;
	d->running = false;
	d->taken = false;
}

/* Write c into a completion ring at position pos. */
static void fw_dma_put_comp(struct fw_dma *d, u64 ring_off, u32 entries,
			    u32 pos, const struct vcap_dma_comp *c)
{
	struct vcap_dma_comp *dst = (struct vcap_dma_comp *)
		(d->ram.mem + ring_off +
		 (u64)(pos & (entries - 1)) * sizeof(*dst));
	unsigned int i;

	wr32(&dst->index, le32_to_cpu(c->index));
	wr32(&dst->id, le32_to_cpu(c->id));
	wr64(&dst->sequence, le64_to_cpu(c->sequence));
	wr64(&dst->timestamp_ns, le64_to_cpu(c->timestamp_ns));
	wr32(&dst->bytesused, le32_to_cpu(c->bytesused));
	wr32(&dst->flags, le32_to_cpu(c->flags));
	wr32(&dst->mode_gen, le32_to_cpu(c->mode_gen));
	for (i = 0; i < 3; i++)
		wr32(&dst->reserved[i], 0);
}

/*
 * Publish completion c at comp_head: whatever was written for it (pixels)
 * before, then the entry, then the heads.
 */
static void fw_dma_complete(struct fw_dma *d, struct vcap_board_dma *blk,
			    const struct vcap_dma_comp *c)
{
	wmb();
	fw_dma_put_comp(d, d->comp_off, d->rings.entries, d->comp_head, c);
	wmb();
	d->comp_head++;
	wr32(&blk->comp_head, d->comp_head);
	wr32(&blk->desc_tail, d->desc_tail);
	d->last = *c;
	d->have_last = true;
}

static void fw_dma_fill_comp(struct vcap_dma_comp *c, u32 index, u32 id,
			     const struct fw_dma_frame *f, u32 bytesused,
			     u32 flags)
{
	memset(c, 0, sizeof(*c));
	c->index = cpu_to_le32(index);
	c->id = cpu_to_le32(id);
	c->sequence = cpu_to_le64(f->seq);
	c->timestamp_ns = cpu_to_le64(f->ts_ns);
	c->bytesused = cpu_to_le32(bytesused);
	c->flags = cpu_to_le32(flags);
	c->mode_gen = cpu_to_le32(f->mode_gen);
}

/*
 * Copy the descriptor's scatter list out of RAM and check it: 0, or -1
 * with why in *why.  d->ents gets the checked entries.
 */
static int fw_dma_check_desc(struct fw_dma *d, const struct vcap_dma_desc *desc,
			     u32 sizeimage, const char **why)
{
	u32 nents = le32_to_cpu(desc->nents), i, len;
	u64 sg_addr = le64_to_cpu(desc->sg_addr), off, sum = 0, addr;

	if (!nents || nents > VCAP_DMA_MAX_SG) {
		*why = "nents not 1..VCAP_DMA_MAX_SG";
		return -1;
	}
	if (fw_guest_ram_translate(&d->ram, sg_addr,
				   (u64)nents * sizeof(*d->raw), &off)) {
		*why = "scatter list not in RAM";
		return -1;
	}
	memcpy(d->raw, d->ram.mem + off, (size_t)nents * sizeof(*d->raw));
	for (i = 0; i < nents; i++) {
		addr = le64_to_cpu(d->raw[i].addr);
		len = le32_to_cpu(d->raw[i].len);
		if (!len) {
			*why = "an entry of length 0";
			return -1;
		}
		if (fw_guest_ram_translate(&d->ram, addr, len, &off)) {
			*why = "an entry not in one run of RAM";
			return -1;
		}
		d->ents[i].addr = addr;
		d->ents[i].off = off;
		d->ents[i].len = len;
		sum += len;
	}
	if (sum != le64_to_cpu(desc->length)) {
		*why = "entries do not sum to length";
		return -1;
	}
	if (sum < sizeimage) {
		*why = "buffer smaller than the frame";
		return -1;
	}
	return 0;
}

static u8 *fw_dma_scratch(struct fw_dma *d, size_t len)
{
	u8 *p;

	if (d->scratch_len >= len)
		return d->scratch;
	p = realloc(d->scratch, len);
	if (!p)
		return NULL;
	d->scratch = p;
	d->scratch_len = len;
	return p;
}

enum fw_dma_take fw_dma_frame_begin(struct fw_dma *d,
				    struct vcap_board_dma *blk,
				    const struct fw_dma_frame *f, u8 **dst)
{
	struct vcap_dma_desc desc;
	struct vcap_dma_comp c;
	const char *why = NULL;
	u32 head, posted;

	d->taken = false;
	if (!d->running)
		return FW_DMA_EMPTY;
	head = rd32(&blk->desc_head);
	rmb();
	posted = head - d->desc_tail;
	if (!posted) {
		d->frames_empty++;
		return FW_DMA_EMPTY;
	}
	if (posted > d->rings.entries) {
		/* The driver's error: take nothing rather than guess. */
		if (!d->overruns++)
			fw_err("dma: %u descriptors posted, the ring holds %u\n",
			       posted, d->rings.entries);
		return FW_DMA_OVERRUN;
	}
	memcpy(&desc, d->ram.mem + d->desc_off +
	       (u64)(d->desc_tail & (d->rings.entries - 1)) * sizeof(desc),
	       sizeof(desc));
	d->desc_tail++;
	d->id = le32_to_cpu(desc.id);
	if (!fw_dma_check_desc(d, &desc, f->sizeimage, &why)) {
		d->nents = le32_to_cpu(desc.nents);
		d->length = le64_to_cpu(desc.length);
		d->dst = NULL;
		if (fw_dma_view_granular(d->ents, d->nents))
			d->dst = fw_dma_view_get(&d->views, d->id, d->ents,
						 d->nents);
		d->scatter = !d->dst;
		if (d->scatter)
			d->dst = fw_dma_scratch(d, f->sizeimage);
		if (d->dst) {
			d->taken = true;
			*dst = d->dst;
			return FW_DMA_BUFFER;
		}
		why = "out of memory";
	}
	/* Consumed, nothing written into it, and handed back. */
	if (!d->desc_refused++)
		fw_err("dma: descriptor of buffer %u refused: %s\n", d->id, why);
	fw_dma_fill_comp(&c, d->comp_head, d->id, f, 0, VCAP_COMP_ERROR);
	fw_dma_complete(d, blk, &c);
	fw_dma_publish(d, blk);
	return FW_DMA_REFUSED;
}

/* The frame rendered aside goes out through the scatter list. */
static void fw_dma_scatter(struct fw_dma *d, u32 bytes)
{
	u64 pos = 0, n;
	u32 i;

	for (i = 0; i < d->nents && pos < bytes; i++) {
		n = d->ents[i].len;
		if (n > bytes - pos)
			n = bytes - pos;
		memcpy(d->ram.mem + d->ents[i].off, d->scratch + pos, n);
		pos += n;
	}
}

bool fw_dma_frame_end(struct fw_dma *d, struct vcap_board_dma *blk,
		      const struct fw_dma_frame *f, enum fw_comp_fault fault)
{
	struct vcap_dma_comp c;
	bool applied = false;

	if (!d->taken)
		return false;
	d->taken = false;
	if (d->scatter) {
		fw_dma_scatter(d, f->sizeimage);
		d->frames_scattered++;
	}
	fw_dma_fill_comp(&c, d->comp_head, d->id, f, f->sizeimage, f->flags);
	if (fault == FW_COMP_SIZE) {
		c.bytesused = cpu_to_le32(d->length > 0xffffffffull - 4096 ?
					  0xffffffffu : (u32)d->length + 4096);
		applied = true;
	} else if (fault == FW_COMP_REORDER && d->have_last &&
		   le64_to_cpu(d->last.sequence) > 0) {
		c.sequence = cpu_to_le64(le64_to_cpu(d->last.sequence) - 1);
		applied = true;
	}
	if (applied)
		d->bad_completions++;
	fw_dma_complete(d, blk, &c);
	d->frames_written++;
	fw_dma_publish(d, blk);
	return applied;
}

/* Whether id is among the descriptors posted and not taken. */
static bool fw_dma_posted(const struct fw_dma *d, u32 head, u32 id)
{
	const struct vcap_dma_desc *ring = (const struct vcap_dma_desc *)
		(d->ram.mem + d->desc_off);
	u32 i;

	for (i = d->desc_tail; i != head; i++)
		if (rd32(&ring[i & (d->rings.entries - 1)].id) == id)
			return true;
	return false;
}

/* An id the driver has not got out: the last one completed, or unused. */
static u32 fw_dma_stale_id(const struct fw_dma *d, u32 head)
{
	u32 id;

	if (head - d->desc_tail > d->rings.entries)
		head = d->desc_tail;
	if (d->have_last && !fw_dma_posted(d, head, le32_to_cpu(d->last.id)))
		return le32_to_cpu(d->last.id);
	for (id = 0; fw_dma_posted(d, head, id); id++)
		;
	return id;
}

bool fw_dma_inject(struct fw_dma *d, struct vcap_board_dma *blk,
		   enum fw_comp_fault kind, const struct fw_dma_frame *f)
{
	struct vcap_dma_comp c;
	u32 head;

	if (!d->running)
		return false;
	head = rd32(&blk->desc_head);
	rmb();
	switch (kind) {
	case FW_COMP_ID:
		fw_dma_fill_comp(&c, d->comp_head, 0x80000000u | d->comp_head,
				 f, f->sizeimage, 0);
		break;
	case FW_COMP_STALE:
		fw_dma_fill_comp(&c, d->comp_head, fw_dma_stale_id(d, head), f,
				 f->sizeimage, 0);
		break;
	case FW_COMP_REPLAY:
		if (!d->have_last)
			return false;
		c = d->last;
		break;
	case FW_COMP_IDLE:
		if (head != d->desc_tail)
			return false;
		fw_dma_fill_comp(&c, d->comp_head, d->have_last ?
				 le32_to_cpu(d->last.id) : 0, f, f->sizeimage, 0);
		break;
	default:
		return false;
	}
	/* Never pixels: a completion entry and the head, nothing else. */
	fw_dma_complete(d, blk, &c);
	d->bad_completions++;
	return true;
}

bool fw_dma_after_stop(struct fw_dma *d, struct vcap_board_dma *blk,
		       u64 now_ns)
{
	struct vcap_dma_comp c;

	if (!d->after_stop_pending || now_ns < d->after_stop_due)
		return false;
	d->after_stop_pending = false;
	c = d->last;
	if (!d->have_last)
		memset(&c, 0, sizeof(c));
	c.index = cpu_to_le32(d->stopped_comp_head);
	c.sequence = cpu_to_le64(le64_to_cpu(c.sequence) + 1);
	c.bytesused = cpu_to_le32(0);
	/* Into the ring the driver owns again, and its head: no pixel. */
	fw_dma_put_comp(d, d->stopped_comp_off, d->stopped.entries,
			d->stopped_comp_head, &c);
	wmb();
	wr32(&blk->comp_head, d->stopped_comp_head + 1);
	d->bad_completions++;
	return true;
}
