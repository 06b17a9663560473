/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The driver's side of the board's DMA, for the firmware tests: a guest
 * RAM file, rings and scattered buffers in it, descriptors posted and
 * completions read and judged as board.h tells a driver to judge them.
 */
#ifndef FW_TEST_DMA_H
#define FW_TEST_DMA_H

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "vtest.h"
#include "fw-test.h"
#include "vcap-stamp.h"

#define TD_PAGE		4096ull
#define TD_MAX_BUFS	16
#define TD_MAX_ENTS	4096

/* Where the driver's structures live in guest-physical memory. */
#define TD_DESC_GPA	0x200000ull
#define TD_COMP_GPA	0x201000ull
#define TD_SG_GPA	0x210000ull	/* one 64 KiB list per buffer */
#define TD_SG_STRIDE	0x10000ull
#define TD_POOL_GPA	0x400000ull	/* pages for buffers from here */

struct td_ent {
	u64 addr;	/* guest-physical */
	u64 off;	/* in the file */
	u32 len;
};

struct td_buf {
	u32 id;
	u32 nents;
	u64 length;
	struct td_ent ents[TD_MAX_ENTS];
	bool out;		/* posted and not completed */
};

/* Completions as a driver judges them. */
struct td_judge {
	u32 good;
	u32 errors;		/* VCAP_COMP_ERROR: a refused descriptor */
	u32 bad_index;
	u32 bad_id;		/* out of range */
	u32 not_outstanding;
	u32 bad_size;
	u32 seq_back;		/* sequence not after the previous */
	u32 bad_stamp;
	u32 bad_head;		/* comp_head further than the ring holds */
	u64 last_seq;
	bool have_seq;
};

struct td {
	int fd;
	u8 *ram;
	u64 size;
	u64 below;			/* pc layout */
	struct vcap_board_ctrl *c;
	u32 entries;
	u32 head;			/* descriptors posted */
	u32 comp_seen;			/* completions read */
	struct td_buf bufs[TD_MAX_BUFS];
	u32 nbufs;
	u64 pool;			/* next free page (GPA) */
	struct td_judge j;
	struct vcap_dma_comp last;	/* the last completion read */
};

static inline u8 td_canary(u64 off)
{
	return (u8)(off * 31 + (off >> 12) * 7 + 0x5b);
}

/* The file at offset off of a guest-physical address, pc layout. */
static inline u64 td_off(const struct td *t, u64 gpa)
{
	return gpa >= 0x100000000ull ? t->below + gpa - 0x100000000ull : gpa;
}

static inline u8 *td_ptr(const struct td *t, u64 gpa)
{
	return t->ram + td_off(t, gpa);
}

/*
 * A guest RAM file of size bytes (sparse); canary fills it with the
 * canary pattern (small files only).
 */
static inline int td_init(struct td *t, const char *path, u64 size,
			  bool canary)
{
	u64 i;

	memset(t, 0, sizeof(*t));
	t->fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (t->fd < 0 || ftruncate(t->fd, (off_t)size))
		return -1;
	t->ram = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
	if (t->ram == MAP_FAILED)
		return -1;
	t->size = size;
	t->below = size < 0xe0000000ull ? size : 0xc0000000ull;
	if (canary)
		for (i = 0; i < size; i++)
			t->ram[i] = td_canary(i);
	t->pool = TD_POOL_GPA;
	return 0;
}

static inline void td_fini(struct td *t)
{
	if (t->ram && t->ram != MAP_FAILED)
		munmap(t->ram, t->size);
	if (t->fd >= 0)
		close(t->fd);
}

static inline void td_wr64(__le64 *p, u64 v)
{
	__atomic_store_n((u64 *)p, htole64(v), __ATOMIC_RELAXED);
}

/* The DMA block, as a driver writes it before a START. */
static inline void td_rings(struct td *t, u64 desc, u64 comp, u32 entries)
{
	struct vcap_board_dma *d = &t->c->dma;

	td_wr64(&d->desc_addr, desc);
	td_wr64(&d->comp_addr, comp);
	t_wr32(&d->entries, entries);
	t_wr32(&d->desc_head, 0);
	t->entries = entries;
	t->head = 0;
	t->comp_seen = 0;
	memset(&t->j, 0, sizeof(t->j));
}

/* A request in the page, seq bumped: the firmware acts on it. */
static inline void td_request(struct td *t, u32 cmd, u32 flags)
{
	struct vcap_board_request *q = &t->c->request;

	q->cmd = htole32(cmd);
	q->fourcc = htole32(VCAP_FMT_YUYV);
	q->width = htole32(320);
	q->height = htole32(240);
	q->bytesperline = 0;
	q->interval_num = htole32(1);
	q->interval_den = htole32(120);
	q->pattern = htole32(VCAP_PATTERN_MOVING_BOX);
	q->flags = htole32(flags);
	q->input = htole32(VCAP_INPUT_TPG);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&q->seq, t_rd32(&t->c->request.seq) + 1);
}

/*
 * A buffer of length bytes in pages taken from the pool in a shuffled
 * order, each entry one page (or chunk bytes at an odd offset when
 * chunk is not a page: not page granular).
 */
static inline struct td_buf *td_buf_new(struct td *t, u32 id, u64 length,
					u32 chunk, u32 *rng)
{
	struct td_buf *b = &t->bufs[t->nbufs++];
	u64 pages = (length + TD_PAGE - 1) / TD_PAGE, left = length, i, j;
	u64 order[TD_MAX_ENTS];
	u32 skew = chunk == TD_PAGE ? 0 : 100;

	b->id = id;
	b->length = length;
	if (chunk != TD_PAGE)
		pages = (length + chunk - 1) / chunk;
	for (i = 0; i < pages; i++)
		order[i] = i;
	/* Out of order: each piece on its own page, pages shuffled. */
	for (i = pages - 1; i > 0; i--) {
		*rng = *rng * 1103515245u + 12345u;
		j = (*rng >> 8) % (i + 1);
		u64 x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (i = 0; i < pages; i++) {
		u32 len = left < chunk ? (u32)left : chunk;

		/* Every other page of the pool: neighbours stay canaries. */
		b->ents[i].addr = t->pool + order[i] * 2 * TD_PAGE + skew;
		b->ents[i].off = td_off(t, b->ents[i].addr);
		b->ents[i].len = len;
		left -= len;
	}
	b->nents = (u32)pages;
	t->pool += pages * 2 * TD_PAGE;
	return b;
}

/* Write a raw descriptor and its list (nents entries of sg) and post it. */
static inline void td_post_raw(struct td *t, u32 id, u32 nents, u64 sg_gpa,
			       u64 length, const struct vcap_dma_sg *sg,
			       u32 nsg)
{
	struct vcap_dma_desc *d = (struct vcap_dma_desc *)
		td_ptr(t, TD_DESC_GPA) + (t->head & (t->entries - 1));

	if (sg && nsg)
		memcpy(td_ptr(t, sg_gpa), sg, nsg * sizeof(*sg));
	d->id = htole32(id);
	d->nents = htole32(nents);
	d->sg_addr = htole64(sg_gpa);
	d->length = htole64(length);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t_wr32(&t->c->dma.desc_head, ++t->head);
}

static inline void td_post(struct td *t, struct td_buf *b)
{
	static struct vcap_dma_sg sg[TD_MAX_ENTS];
	u32 i;

	for (i = 0; i < b->nents; i++) {
		sg[i].addr = htole64(b->ents[i].addr);
		sg[i].len = htole32(b->ents[i].len);
		sg[i].reserved = 0;
	}
	b->out = true;
	td_post_raw(t, b->id, b->nents, TD_SG_GPA + (b - t->bufs) * TD_SG_STRIDE,
		    b->length, sg, b->nents);
}

static inline struct td_buf *td_find(struct td *t, u32 id)
{
	u32 i;

	for (i = 0; i < t->nbufs; i++)
		if (t->bufs[i].id == id)
			return &t->bufs[i];
	return NULL;
}

/* A buffer's bytes, gathered through its list. */
static inline void td_gather(const struct td *t, const struct td_buf *b,
			     u8 *dst)
{
	u32 i;

	for (i = 0; i < b->nents; i++) {
		memcpy(dst, t->ram + b->ents[i].off, b->ents[i].len);
		dst += b->ents[i].len;
	}
}

/*
 * Bytes of the file that are not canaries, outside the driver's own
 * structures (rings, lists: [TD_DESC_GPA, TD_POOL_GPA)) and the
 * buffers.  Returns the count; *first the first such offset.
 */
static inline u64 td_canaries_hit(const struct td *t, u64 *first)
{
	u8 *mask = calloc(1, t->size);
	u64 i, hits = 0;
	u32 b, k;

	if (!mask)
		return ~0ull;
	memset(mask + TD_DESC_GPA, 1, TD_POOL_GPA - TD_DESC_GPA);
	for (b = 0; b < t->nbufs; b++)
		for (k = 0; k < t->bufs[b].nents; k++)
			memset(mask + t->bufs[b].ents[k].off, 1,
			       t->bufs[b].ents[k].len);
	for (i = 0; i < t->size; i++) {
		if (mask[i] || t->ram[i] == td_canary(i))
			continue;
		if (!hits++)
			*first = i;
	}
	free(mask);
	return hits;
}

/*
 * Read the completions the board wrote since the last call and judge
 * them as a driver must; fmt for the stamps.  Returns how many.
 */
static inline u32 td_reap(struct td *t, const struct vcap_frame_fmt *fmt,
			  u8 *scratch)
{
	const struct vcap_dma_comp *ring = (const struct vcap_dma_comp *)
		td_ptr(t, TD_COMP_GPA);
	u32 head = t_rd32(&t->c->dma.comp_head), n = 0;
	struct vcap_stamp st;

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (head - t->comp_seen > t->entries) {
		t->j.bad_head++;
		return 0;
	}
	while (t->comp_seen != head) {
		const struct vcap_dma_comp *c =
			&ring[t->comp_seen & (t->entries - 1)];
		u32 id = le32toh(c->id), flags = le32toh(c->flags);
		u64 seq = le64toh(c->sequence);
		struct td_buf *b = td_find(t, id);

		t->last = *c;
		n++;
		if (le32toh(c->index) != t->comp_seen)
			t->j.bad_index++;
		t->comp_seen++;
		if (!b) {
			t->j.bad_id++;
			continue;
		}
		if (!b->out) {
			t->j.not_outstanding++;
			continue;
		}
		if (le32toh(c->bytesused) > b->length) {
			t->j.bad_size++;
			b->out = false;
			continue;
		}
		if (t->j.have_seq && seq <= t->j.last_seq) {
			t->j.seq_back++;
			b->out = false;
			continue;
		}
		t->j.last_seq = seq;
		t->j.have_seq = true;
		b->out = false;
		if (flags & VCAP_COMP_ERROR) {
			t->j.errors++;
			continue;
		}
		td_gather(t, b, scratch);
		if (vcap_stamp_check(fmt, scratch, fmt->sizeimage, &st) !=
		    VCAP_STAMP_OK || st.seq != seq) {
			t->j.bad_stamp++;
			continue;
		}
		t->j.good++;
	}
	return n;
}

#endif /* FW_TEST_DMA_H */
