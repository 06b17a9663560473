// SPDX-License-Identifier: GPL-2.0 OR MIT
/* frame-cmp: captured frames against the frames a source sent, stamp bands left out. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vcap-format.h"
#include "vcap-pattern.h"
#include "vcap-stamp.h"

static void usage(void)
{
	fprintf(stderr,
"usage: frame-cmp hash FOURCC WxH FILE\n"
"       frame-cmp psnr FOURCC WxH REF CAP\n"
"Raw frames, back to back, of one format and size.  The board draws its\n"
"stamp into the top and bottom rows of plane 0 (vcap-stamp.h); those rows\n"
"are left out of every hash and every comparison.\n"
"  hash   one line per frame: its index and a 64-bit hash\n"
"  psnr   one line per frame of CAP: its index, the index of the REF\n"
"         frame nearest it and their PSNR in dB ('inf' when equal)\n");
}

/* A frame's layout: which bytes are compared. */
struct fc_geom {
	size_t size;		/* the whole frame */
	size_t band;		/* bytes of one stamp band of plane 0 */
	size_t plane0;		/* bytes of plane 0 */
};

static int fc_geom(const char *fourcc, const char *size, struct fc_geom *g)
{
	const struct vcap_format_info *fi;
	struct vcap_frame_fmt fmt = { 0 };
	struct vcap_stamp_geom sg;
	unsigned int w, h;

	if (strlen(fourcc) != 4 || sscanf(size, "%ux%u", &w, &h) != 2) {
		usage();
		return -1;
	}
	fmt.fourcc = VCAP_FOURCC(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
	fi = vcap_format_find(fmt.fourcc);
	if (!fi) {
		fprintf(stderr, "frame-cmp: unknown format %s\n", fourcc);
		return -1;
	}
	fmt.width = w;
	fmt.height = h;
	fmt.bytesperline = vcap_format_min_bpl(fi, w);
	fmt.sizeimage = (u32)vcap_format_sizeimage(fi, fmt.bytesperline, h);
	if (!fmt.sizeimage || vcap_stamp_geom(&fmt, &sg)) {
		fprintf(stderr, "frame-cmp: %s %ux%u carries no stamp\n",
			fourcc, w, h);
		return -1;
	}
	g->size = fmt.sizeimage;
	g->band = (size_t)sg.band_h * fmt.bytesperline;
	g->plane0 = (size_t)h * fmt.bytesperline;
	return 0;
}

/* The compared ranges of a frame: [band, plane0 - band) and [plane0, size). */
static u64 fc_hash(const struct fc_geom *g, const u8 *f)
{
	u64 h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = g->band; i < g->size; i++) {
		if (i == g->plane0 - g->band)
			i = g->plane0;
		if (i >= g->size)
			break;
		h = (h ^ f[i]) * 0x100000001b3ull;
	}
	return h;
}

/* Sum of squared differences over the compared ranges, and their length. */
static double fc_sse(const struct fc_geom *g, const u8 *a, const u8 *b,
		     size_t *n)
{
	double sse = 0;
	size_t i;
	int d;

	*n = 0;
	for (i = g->band; i < g->size; i++) {
		if (i == g->plane0 - g->band)
			i = g->plane0;
		if (i >= g->size)
			break;
		d = (int)a[i] - (int)b[i];
		sse += (double)(d * d);
		(*n)++;
	}
	return sse;
}

static FILE *fc_open(const char *path)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		fprintf(stderr, "frame-cmp: %s: %s\n", path, strerror(errno));
	return f;
}

/* Whole frames only: a short tail is an error. */
static int fc_read(FILE *f, const char *path, u8 *buf, size_t size)
{
	size_t got = fread(buf, 1, size, f);

	if (got == size)
		return 1;
	if (got) {
		fprintf(stderr, "frame-cmp: %s: a partial frame (%zu of %zu bytes) at its end\n",
			path, got, size);
		return -1;
	}
	return 0;
}

static int cmd_hash(const struct fc_geom *g, const char *path)
{
	FILE *f = fc_open(path);
	u8 *buf = malloc(g->size);
	unsigned long n = 0;
	int r = 1;

	if (!f || !buf)
		goto out;
	while ((r = fc_read(f, path, buf, g->size)) > 0)
		printf("%lu %016llx\n", n++, (unsigned long long)fc_hash(g, buf));
	if (!r && !n) {
		fprintf(stderr, "frame-cmp: %s: no frame\n", path);
		r = -1;
	}
out:
	free(buf);
	if (f)
		fclose(f);
	return r ? 1 : 0;
}

static int cmd_psnr(const struct fc_geom *g, const char *ref_path,
		    const char *cap_path)
{
	FILE *rf = fc_open(ref_path), *cf = NULL;
	u8 *ref = NULL, *cap = malloc(g->size);
	size_t nref = 0, i, n, best_i;
	unsigned long k = 0;
	double sse, best;
	int r = -1;

	if (!rf || !cap)
		goto out;
	/* The reference whole in memory: every captured frame meets each. */
	for (;;) {
		u8 *t = realloc(ref, (nref + 1) * g->size);

		if (!t)
			goto out;
		ref = t;
		r = fc_read(rf, ref_path, ref + nref * g->size, g->size);
		if (r < 0)
			goto out;
		if (!r)
			break;
		nref++;
	}
	r = -1;
	if (!nref) {
		fprintf(stderr, "frame-cmp: %s: no frame\n", ref_path);
		goto out;
	}
	cf = fc_open(cap_path);
	if (!cf)
		goto out;
	while ((r = fc_read(cf, cap_path, cap, g->size)) > 0) {
		best = -1;
		best_i = 0;
		for (i = 0; i < nref; i++) {
			sse = fc_sse(g, ref + i * g->size, cap, &n);
			if (best < 0 || sse < best) {
				best = sse;
				best_i = i;
			}
		}
		if (best == 0)
			printf("%lu %zu inf\n", k, best_i);
		else
			printf("%lu %zu %.2f\n", k, best_i,
			       10 * log10(255.0 * 255.0 * (double)n / best));
		k++;
	}
	if (!r && !k) {
		fprintf(stderr, "frame-cmp: %s: no frame\n", cap_path);
		r = -1;
	}
out:
	free(ref);
	free(cap);
	if (rf)
		fclose(rf);
	if (cf)
		fclose(cf);
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct fc_geom g;

	if (argc == 5 && !strcmp(argv[1], "hash")) {
		if (fc_geom(argv[2], argv[3], &g))
			return 2;
		return cmd_hash(&g, argv[4]);
	}
	if (argc == 6 && !strcmp(argv[1], "psnr")) {
		if (fc_geom(argv[2], argv[3], &g))
			return 2;
		return cmd_psnr(&g, argv[4], argv[5]);
	}
	usage();
	return 2;
}
