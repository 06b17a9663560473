// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Contiguous host views of scattered guest buffers (a host-side IOMMU). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "fw-dma-view.h"
#include "fw-log.h"

#define FW_PAGE		4096ull
#define FW_PAGE_MASK	(FW_PAGE - 1)

void fw_dma_views_init(struct fw_dma_views *vs, const struct fw_guest_ram *ram)
{
	memset(vs, 0, sizeof(*vs));
	vs->ram = ram;
}

static void fw_dma_view_free(struct fw_dma_views *vs, struct fw_dma_view *v)
{
	if (!v->used)
		return;
	/* One munmap takes the reservation and every mapping in it. */
	munmap(v->area, v->area_len);
	free(v->ents);
	vs->maps -= v->maps;
	memset(v, 0, sizeof(*v));
}

void fw_dma_views_drop(struct fw_dma_views *vs)
{
	unsigned int i;

	for (i = 0; i < FW_DMA_VIEWS; i++)
		fw_dma_view_free(vs, &vs->v[i]);
}

bool fw_dma_view_granular(const struct fw_dma_ent *ents, u32 nents)
{
	u32 i;

	for (i = 0; i < nents; i++) {
		if (i > 0 && (ents[i].addr & FW_PAGE_MASK))
			return false;
		if (i + 1 < nents &&
		    ((ents[i].addr + ents[i].len) & FW_PAGE_MASK))
			return false;
	}
	return nents > 0;
}

/* Mappings a list needs: runs of entries contiguous in the file merge. */
static u32 fw_dma_view_runs(const struct fw_dma_ent *ents, u32 nents)
{
	u32 i, runs = 0;

	for (i = 0; i < nents; i++)
		if (!i || ents[i].off != ents[i - 1].off + ents[i - 1].len)
			runs++;
	return runs;
}

static int fw_dma_view_map(struct fw_dma_views *vs, struct fw_dma_view *v,
			   const struct fw_dma_ent *ents, u32 nents)
{
	u64 first = ents[0].off & FW_PAGE_MASK, total = first, pos, off, len;
	u32 i, j;
	void *p;

	for (i = 0; i < nents; i++)
		total += ents[i].len;
	v->area_len = (size_t)((total + FW_PAGE_MASK) & ~FW_PAGE_MASK);
	v->area = mmap(NULL, v->area_len, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (v->area == MAP_FAILED) {
		v->area = NULL;
		return -1;
	}
	pos = 0;
	for (i = 0; i < nents; i = j) {
		/* A run of entries back to back in the file: one mapping. */
		off = ents[i].off & ~FW_PAGE_MASK;
		len = (ents[i].off & FW_PAGE_MASK) + ents[i].len;
		for (j = i + 1; j < nents &&
		     ents[j].off == ents[j - 1].off + ents[j - 1].len; j++)
			len += ents[j].len;
		len = (len + FW_PAGE_MASK) & ~FW_PAGE_MASK;
		p = mmap(v->area + pos, (size_t)len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, vs->ram->fd, (off_t)off);
		if (p == MAP_FAILED) {
			munmap(v->area, v->area_len);
			v->area = NULL;
			return -1;
		}
		v->maps++;
		pos += len;
	}
	v->data = v->area + first;
	return 0;
}

u8 *fw_dma_view_get(struct fw_dma_views *vs, u32 id,
		    const struct fw_dma_ent *ents, u32 nents)
{
	struct fw_dma_view *v = NULL, *oldest = NULL;
	u32 runs = fw_dma_view_runs(ents, nents);
	unsigned int i;

	vs->clock++;
	for (i = 0; i < FW_DMA_VIEWS; i++) {
		struct fw_dma_view *c = &vs->v[i];

		if (c->used && c->id == id) {
			if (c->nents == nents &&
			    !memcmp(c->ents, ents, nents * sizeof(*ents))) {
				c->used_at = vs->clock;
				vs->hits++;
				return c->data;
			}
			/* The buffer was set up again elsewhere. */
			fw_dma_view_free(vs, c);
		}
	}
	if (runs > FW_DMA_VIEW_MAX_MAPS)
		return NULL;
	for (;;) {
		v = NULL;
		oldest = NULL;
		for (i = 0; i < FW_DMA_VIEWS; i++) {
			struct fw_dma_view *c = &vs->v[i];

			if (!c->used && !v)
				v = c;
			if (c->used && (!oldest || c->used_at < oldest->used_at))
				oldest = c;
		}
		if (v && vs->maps + runs <= FW_DMA_VIEW_MAX_MAPS)
			break;
		if (!oldest)
			return NULL;
		fw_dma_view_free(vs, oldest);
	}
	v->ents = malloc(nents * sizeof(*ents));
	if (!v->ents)
		return NULL;
	memcpy(v->ents, ents, nents * sizeof(*ents));
	if (fw_dma_view_map(vs, v, ents, nents)) {
		fw_err("dma: cannot map a view of buffer %u (%u entries)\n",
		       id, nents);
		free(v->ents);
		memset(v, 0, sizeof(*v));
		return NULL;
	}
	v->used = true;
	v->id = id;
	v->nents = nents;
	v->used_at = vs->clock;
	vs->maps += v->maps;
	vs->built++;
	return v->data;
}
