// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Scaling and colour conversion through libswscale, its contexts cached. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
#include <vcap/board.h>
#include "fw-log.h"
#include "fw-pace.h"
#include "fw-sws.h"

/*
 * Scaled: bilinear, not SWS_FAST_BILINEAR.  The board is a capture card
 * and its user watches the scaled picture: libswscale's bilinear widens
 * its filter with the ratio when it shrinks, so 1080p into 640x480
 * averages every source pixel, where the fast one takes two taps and
 * aliases fine detail (text, stripes) as the nearest neighbour scaler
 * did.  At the same size nothing is filtered but chroma, and the fast
 * flag lets the library take its direct converters (4:2:0 into 4:2:2 at
 * a tenth of the cost).  Into RGB, scaled, full chroma interpolation:
 * without it the library's RGB is up to 2 below BT.601 (grey 100 gives
 * 96, not 98); into 4:2:2 it would triple the cost for nothing.
 * bench-convert measures each.
 */
#define SWS_SCALED		SWS_BILINEAR
#define SWS_SCALED_RGB		(SWS_BILINEAR | SWS_FULL_CHR_H_INT)
#define SWS_UNSCALED		SWS_FAST_BILINEAR

/*
 * A handful of conversions are live at once: the frame source's into the
 * active mode, a live stream's letterbox into its timing.  More are made
 * again when needed; the least recently used goes.
 */
#define SWS_CACHE_SIZE		4

/*
 * libswscale's SIMD reads and writes whole vectors: up to a vector past
 * the end of a row.  Into the frame that would write beyond the picture,
 * and past the end of the buffer on its last row; from a file's mapping
 * it would read past the end of the file.  So the library writes into a
 * scratch picture with this much room after each row and plane, which is
 * copied into the frame (flips applied on the way: libswscale has no
 * horizontal flip), and reads the source's last rows from a padded copy.
 */
#define SWS_PAD			128
#define SWS_ALIGN(x)		(((x) + 63) & ~(u64)63)
#define SWS_TAIL_ROWS		3

struct sws_key {
	u32 src_fourcc, src_w, src_h;
	u32 dst_fourcc, dst_w, dst_h;
};

/* A conversion: one thread at a time uses it (busy). */
struct sws_entry {
	struct sws_key key;
	struct SwsContext *ctx;		/* NULL: refused, err says why */
	int err;
	u8 *scratch;			/* the picture, dst_w x dst_h */
	struct fw_planes spl;
	u8 *tail;			/* the source's last rows */
	struct fw_planes tpl;
	u8 *grey;			/* neutral chroma for a grey source */
	u64 used;			/* when, on the cache's clock */
	bool valid;
	bool busy;
	bool temp;			/* made outside a full cache */
};

static struct {
	pthread_mutex_t lock;
	/* protected by lock; an entry's other fields by its busy flag */
	struct sws_entry e[SWS_CACHE_SIZE];
	u64 clock;
	struct fw_sws_stats stats;
	u64 last_msg_ns;
	u32 msgs_suppressed;
} cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

static pthread_once_t sws_once = PTHREAD_ONCE_INIT;

static const struct {
	u32 fourcc;
	enum AVPixelFormat av;
} sws_formats[] = {
	{ VCAP_FMT_YUYV, AV_PIX_FMT_YUYV422 },
	{ VCAP_FMT_UYVY, AV_PIX_FMT_UYVY422 },
	{ VCAP_FMT_NV12, AV_PIX_FMT_NV12 },
	{ VCAP_FMT_YUV420, AV_PIX_FMT_YUV420P },
	{ FW_FMT_YUV422P, AV_PIX_FMT_YUV422P },
	{ FW_FMT_YUV444P, AV_PIX_FMT_YUV444P },
	{ VCAP_FMT_RGB24, AV_PIX_FMT_RGB24 },
	{ VCAP_FMT_BGR24, AV_PIX_FMT_BGR24 },
	{ VCAP_FMT_XRGB32, AV_PIX_FMT_0RGB },
	{ VCAP_FMT_XBGR32, AV_PIX_FMT_BGR0 },
	{ VCAP_FMT_GREY, AV_PIX_FMT_GRAY8 },
};

static enum AVPixelFormat sws_format(u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sws_formats); i++)
		if (sws_formats[i].fourcc == fourcc)
			return sws_formats[i].av;
	return AV_PIX_FMT_NONE;
}

/*
 * libswscale draws 8-bit grey into RGB as full range (its palette path,
 * whatever range it is told); the board's grey is limited range luma, as
 * the patterns draw it.  So a grey source goes in as 4:2:0 with neutral
 * chroma, its rows overlapping (the library takes no stride 0).
 */
#define SWS_GREY_STRIDE		64
static enum AVPixelFormat sws_src_format(u32 fourcc)
{
	return fourcc == VCAP_FMT_GREY ? AV_PIX_FMT_YUV420P : sws_format(fourcc);
}

/* A rectangle of a picture's planes. */
struct sws_view {
	unsigned int n;
	u8 *p[3];		/* its first byte in each plane */
	u32 stride[3];
	u32 bytes[3];		/* of one of its rows */
	u32 rows[3];
};

/* The rectangle r of a w x h picture at base; r's edges are even. */
static void sws_view(const struct fw_planes *pl, u8 *base, u32 w, u32 h,
		     const struct vcap_rect *r, struct sws_view *v)
{
	u32 r0, b0;
	unsigned int i;

	v->n = pl->n;
	for (i = 0; i < pl->n; i++) {
		r0 = (u32)((u64)r->y0 * pl->rows[i] / h);
		b0 = (u32)((u64)r->x0 * pl->bytes[i] / w);
		v->p[i] = base + pl->off[i] + (u64)r0 * pl->bpl[i] + b0;
		v->stride[i] = pl->bpl[i];
		v->rows[i] = (u32)((u64)r->y1 * pl->rows[i] / h) - r0;
		v->bytes[i] = (u32)((u64)r->x1 * pl->bytes[i] / w) - b0;
	}
}

/* Bytes a horizontal flip moves as one: a pixel, a pair for 4:2:2. */
static u32 mirror_unit(u32 fourcc, unsigned int plane)
{
	const struct vcap_format_info *fi = vcap_format_find(fourcc);

	if (plane)
		return fourcc == VCAP_FMT_NV12 ? 2 : 1;
	if (fourcc == VCAP_FMT_YUYV || fourcc == VCAP_FMT_UYVY)
		return 4;
	return fi ? fi->bpp : 1;
}

/* A row in reverse order of its units; a 4:2:2 pair swaps its lumas. */
static void mirror_row(u8 *d, const u8 *s, u32 bytes, u32 unit, u32 fourcc)
{
	const u8 *q = s + bytes;
	u32 i;

	switch (unit) {
	case 1:
		for (i = 0; i < bytes; i++)
			d[i] = q[-1 - (int)i];
		return;
	case 2:
		for (i = 0; i + 2 <= bytes; i += 2) {
			d[i] = q[-2 - (int)i];
			d[i + 1] = q[-1 - (int)i];
		}
		return;
	case 3:
		for (i = 0; i + 3 <= bytes; i += 3) {
			d[i] = q[-3 - (int)i];
			d[i + 1] = q[-2 - (int)i];
			d[i + 2] = q[-1 - (int)i];
		}
		return;
	}
	if (fourcc == VCAP_FMT_YUYV) {
		/* Y0 U Y1 V: the pair's lumas swap. */
		for (i = 0; i + 4 <= bytes; i += 4) {
			d[i] = q[-2 - (int)i];
			d[i + 1] = q[-3 - (int)i];
			d[i + 2] = q[-4 - (int)i];
			d[i + 3] = q[-1 - (int)i];
		}
	} else if (fourcc == VCAP_FMT_UYVY) {
		for (i = 0; i + 4 <= bytes; i += 4) {
			d[i] = q[-4 - (int)i];
			d[i + 1] = q[-1 - (int)i];
			d[i + 2] = q[-2 - (int)i];
			d[i + 3] = q[-3 - (int)i];
		}
	} else {
		for (i = 0; i + 4 <= bytes; i += 4)
			memcpy(d + i, q - 4 - i, 4);
	}
}

/* s into d, rectangles of the same size in fourcc, flipped by flags. */
static void sws_copy(const struct sws_view *s, const struct sws_view *d,
		     u32 fourcc, u32 flags)
{
	unsigned int i;
	u32 r, dr, unit;
	const u8 *sr;
	u8 *drow;

	for (i = 0; i < d->n; i++) {
		unit = mirror_unit(fourcc, i);
		for (r = 0; r < d->rows[i]; r++) {
			dr = flags & VCAP_REQ_VFLIP ? d->rows[i] - 1 - r : r;
			sr = s->p[i] + (u64)r * s->stride[i];
			drow = d->p[i] + (u64)dr * d->stride[i];
			if (flags & VCAP_REQ_HFLIP)
				mirror_row(drow, sr, d->bytes[i], unit,
					   i ? 0 : fourcc);
			else
				memcpy(drow, sr, d->bytes[i]);
		}
	}
}

/* Planes of w x h fourcc, each row and plane followed by SWS_PAD bytes. */
static u8 *sws_padded(u32 fourcc, u32 w, u32 h, struct fw_planes *pl)
{
	unsigned int i;
	u64 size = 0;

	fw_image_planes(fourcc, w, h, 0, pl);
	fw_image_planes(fourcc, w, h, (u32)SWS_ALIGN(pl->bytes[0] + SWS_PAD),
			pl);
	for (i = 0; i < pl->n; i++) {
		pl->off[i] = size;
		size += SWS_ALIGN((u64)pl->bpl[i] * pl->rows[i] + SWS_PAD);
	}
	return aligned_alloc(64, size);
}

static void sws_free_entry(struct sws_entry *e)
{
	sws_freeContext(e->ctx);
	free(e->scratch);
	free(e->tail);
	free(e->grey);
	e->ctx = NULL;
	e->scratch = NULL;
	e->tail = NULL;
	e->grey = NULL;
	e->valid = false;
}

/* One line a second at most: a source that keeps changing size. */
static void sws_say(const struct sws_key *k, const char *why)
{
	u64 now = fw_now_ns();
	u32 more;

	pthread_mutex_lock(&cache.lock);
	if (cache.last_msg_ns && now - cache.last_msg_ns < 1000000000ull) {
		cache.msgs_suppressed++;
		pthread_mutex_unlock(&cache.lock);
		return;
	}
	cache.last_msg_ns = now;
	more = cache.msgs_suppressed;
	cache.msgs_suppressed = 0;
	pthread_mutex_unlock(&cache.lock);
	fw_err("libswscale cannot convert %.4s %ux%u to %.4s %ux%u (%s): the firmware scales it itself, nearest neighbour%s\n",
	       (const char *)&k->src_fourcc, k->src_w, k->src_h,
	       (const char *)&k->dst_fourcc, k->dst_w, k->dst_h, why,
	       more ? " (and other conversions since the last message)" : "");
}

static void sws_build(struct sws_entry *e)
{
	const struct sws_key *k = &e->key;
	enum AVPixelFormat sf = sws_src_format(k->src_fourcc);
	enum AVPixelFormat df = sws_format(k->dst_fourcc);
	const int *bt601 = sws_getCoefficients(SWS_CS_ITU601);
	const char *why = NULL;
	int flags;

	e->err = -ENOTSUP;
	if (sf == AV_PIX_FMT_NONE || df == AV_PIX_FMT_NONE) {
		why = "a format it does not know";
		goto err;
	}
	flags = vcap_format_find(k->dst_fourcc)->is_rgb ? SWS_SCALED_RGB :
								 SWS_SCALED;
	if (k->src_w == k->dst_w && k->src_h == k->dst_h)
		flags = SWS_UNSCALED;
	e->ctx = sws_getContext((int)k->src_w, (int)k->src_h, sf,
				(int)k->dst_w, (int)k->dst_h, df, flags, NULL,
				NULL, NULL);
	if (!e->ctx) {
		why = "refused";
		goto err;
	}
	/*
	 * BT.601 limited range on both sides, as the patterns draw: the
	 * library would take 8-bit grey as full range.
	 */
	if (sws_setColorspaceDetails(e->ctx, bt601, 0, bt601, 0, 0, 1 << 16,
				     1 << 16) < 0) {
		why = "no BT.601 limited range";
		goto err_ctx;
	}
	e->err = -ENOMEM;
	why = "out of memory";
	e->scratch = sws_padded(k->dst_fourcc, k->dst_w, k->dst_h, &e->spl);
	e->tail = sws_padded(k->src_fourcc, k->src_w, SWS_TAIL_ROWS, &e->tpl);
	if (!e->scratch || !e->tail)
		goto err_ctx;
	if (k->src_fourcc == VCAP_FMT_GREY) {
		size_t n = (size_t)SWS_GREY_STRIDE * k->src_h / 2 +
			   k->src_w / 2 + SWS_PAD;

		e->grey = malloc(n);
		if (!e->grey)
			goto err_ctx;
		memset(e->grey, 128, n);
	}
	e->err = 0;
	return;

err_ctx:
	sws_free_entry(e);
err:
	sws_say(k, why);
}

void fw_sws_release(void)
{
	unsigned int i;

	pthread_mutex_lock(&cache.lock);
	for (i = 0; i < SWS_CACHE_SIZE; i++)
		if (cache.e[i].valid && !cache.e[i].busy)
			sws_free_entry(&cache.e[i]);
	pthread_mutex_unlock(&cache.lock);
}

static void sws_init(void)
{
	/* Its errors are ours to say, once, and its notes are noise. */
	if (av_log_get_level() > AV_LOG_ERROR)
		av_log_set_level(AV_LOG_ERROR);
	atexit(fw_sws_release);
}

/* The entry of k, busy: cached, or made (in the least recently used). */
static struct sws_entry *sws_get(const struct sws_key *k)
{
	struct sws_entry *e, *victim = NULL;
	unsigned int i;

	pthread_once(&sws_once, sws_init);
	pthread_mutex_lock(&cache.lock);
	for (i = 0; i < SWS_CACHE_SIZE; i++) {
		e = &cache.e[i];
		if (e->busy)
			continue;
		if (e->valid && !memcmp(&e->key, k, sizeof(*k))) {
			e->busy = true;
			e->used = ++cache.clock;
			cache.stats.reused++;
			pthread_mutex_unlock(&cache.lock);
			return e;
		}
		if (!victim || !e->valid ||
		    (victim->valid && e->used < victim->used))
			victim = e;
	}
	if (victim) {
		if (victim->valid)
			sws_free_entry(victim);
		victim->busy = true;
		victim->used = ++cache.clock;
	}
	cache.stats.made++;
	pthread_mutex_unlock(&cache.lock);
	/* Every entry busy: another thread per entry; this one makes its own. */
	e = victim ? victim : calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->temp = !victim;
	e->key = *k;
	sws_build(e);
	e->valid = true;
	return e;
}

static void sws_put(struct sws_entry *e)
{
	if (e->temp) {
		sws_free_entry(e);
		free(e);
		return;
	}
	pthread_mutex_lock(&cache.lock);
	e->busy = false;
	pthread_mutex_unlock(&cache.lock);
}

/* src into the entry's scratch picture; its last rows from the tail copy. */
static int sws_run(struct sws_entry *e, const struct fw_image *src)
{
	const u8 *sp[4] = { NULL };
	u8 *dp[4] = { NULL };
	int ss[4] = { 0 }, ds[4] = { 0 };
	u32 h = src->height, t, y0, r0, r;
	struct fw_planes pl;
	unsigned int i;

	/* A slice starts on a chroma row: an even row. */
	t = h <= SWS_TAIL_ROWS ? h : 2 + (h & 1);
	y0 = h - t;
	fw_image_planes(src->fourcc, src->width, h, src->bytesperline, &pl);
	for (i = 0; i < e->spl.n; i++) {
		dp[i] = e->scratch + e->spl.off[i];
		ds[i] = (int)e->spl.bpl[i];
	}
	if (e->grey) {
		sp[1] = sp[2] = e->grey;
		ss[1] = ss[2] = SWS_GREY_STRIDE;
	}
	if (y0) {
		for (i = 0; i < pl.n; i++) {
			sp[i] = src->data + pl.off[i];
			ss[i] = (int)pl.bpl[i];
		}
		if (sws_scale(e->ctx, sp, ss, 0, (int)y0, dp, ds) < 0)
			return -EIO;
	}
	for (i = 0; i < pl.n; i++) {
		r0 = (u32)((u64)y0 * pl.rows[i] / h);
		for (r = r0; r < pl.rows[i]; r++)
			memcpy(e->tail + e->tpl.off[i] +
			       (u64)(r - r0) * e->tpl.bpl[i],
			       src->data + pl.off[i] + (u64)r * pl.bpl[i],
			       pl.bytes[i]);
		sp[i] = e->tail + e->tpl.off[i];
		ss[i] = (int)e->tpl.bpl[i];
	}
	if (sws_scale(e->ctx, sp, ss, (int)y0, (int)t, dp, ds) < 0)
		return -EIO;
	return 0;
}

int fw_sws_draw(const struct fw_image *src, const struct vcap_frame_fmt *fmt,
		u8 *dst, const struct vcap_rect *pic, u32 flags)
{
	struct sws_key k = {
		src->fourcc, src->width, src->height,
		fmt->fourcc, pic->x1 - pic->x0, pic->y1 - pic->y0,
	};
	struct vcap_rect whole = { 0, 0, k.dst_w, k.dst_h };
	struct fw_planes pl;
	struct sws_view s, d;
	struct sws_entry *e;
	int ret;

	fw_image_planes(fmt->fourcc, fmt->width, fmt->height,
			fmt->bytesperline, &pl);
	sws_view(&pl, dst, fmt->width, fmt->height, pic, &d);
	/* The same format at the same size is a copy. */
	if (k.src_fourcc == k.dst_fourcc && k.src_w == k.dst_w &&
	    k.src_h == k.dst_h) {
		fw_image_planes(src->fourcc, src->width, src->height,
				src->bytesperline, &pl);
		sws_view(&pl, (u8 *)src->data, k.src_w, k.src_h, &whole, &s);
		sws_copy(&s, &d, fmt->fourcc, flags);
		return 0;
	}
	e = sws_get(&k);
	if (!e)
		return -ENOMEM;
	ret = e->err;
	if (!ret) {
		ret = sws_run(e, src);
		/* Said once: the conversion is refused from now on. */
		if (ret) {
			e->err = ret;
			sws_say(&k, "it fails to scale");
		}
	}
	if (!ret) {
		sws_view(&e->spl, e->scratch, k.dst_w, k.dst_h, &whole, &s);
		sws_copy(&s, &d, fmt->fourcc, flags);
	} else {
		pthread_mutex_lock(&cache.lock);
		cache.stats.refused++;
		pthread_mutex_unlock(&cache.lock);
	}
	sws_put(e);
	return ret;
}

void fw_sws_get_stats(struct fw_sws_stats *st)
{
	pthread_mutex_lock(&cache.lock);
	*st = cache.stats;
	pthread_mutex_unlock(&cache.lock);
}
