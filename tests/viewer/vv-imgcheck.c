// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vv-imgcheck: checks the pixels of a PNG or binary PPM picture against
 * known colours, for the viewer's tests (its snapshots and QEMU's
 * screendumps).
 *
 *   vv-imgcheck FILE [--size WxH] [--tolerance N] [--rect X,Y,W,H]
 *               [--fit WxH] [--bars] [X,Y=RRGGBB ...] [X,Y<N ...]
 *
 * --bars checks the centre of each of the eight 75% colour bars, at 60%
 * of the height of the rectangle: the whole picture by default, --rect,
 * or with --fit the centred aspect-keeping rectangle of a WxH frame; the
 * borders around the rectangle must be black.  --level N gives the bars'
 * level (191 for 75% bars, the default; 255 for 100% bars).  X,Y<N
 * checks that every channel at X,Y is below N.  Exit 0 when every check
 * passes, 1 with one line per failed check, 2 on a bad file or option.
 */
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct image {
	uint32_t w, h;
	uint8_t *rgb;		/* w * h * 3 */
};

/* The bars at full level; --level scales 0xff to the wanted level. */
static const uint32_t bars[8] = {
	0xffffff, 0xffff00, 0x00ffff, 0x00ff00,
	0xff00ff, 0xff0000, 0x0000ff, 0x000000,
};

static const char *const bar_names[8] = {
	"white", "yellow", "cyan", "green", "magenta", "red", "blue", "black",
};

static int load_png(FILE *f, struct image *im)
{
	png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL,
						 NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	png_bytep *rows = NULL;

	if (!info)
		return -1;
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_read_struct(&png, &info, NULL);
		free(rows);
		return -1;
	}
	png_init_io(png, f);
	png_read_info(png, info);
	png_set_strip_16(png);
	png_set_strip_alpha(png);
	png_set_expand(png);
	png_set_gray_to_rgb(png);
	png_read_update_info(png, info);
	im->w = png_get_image_width(png, info);
	im->h = png_get_image_height(png, info);
	if (png_get_rowbytes(png, info) != (size_t)im->w * 3)
		png_error(png, "unexpected row size");
	im->rgb = malloc((size_t)im->w * im->h * 3);
	rows = malloc(sizeof(*rows) * im->h);
	if (!im->rgb || !rows)
		png_error(png, "out of memory");
	for (uint32_t y = 0; y < im->h; y++)
		rows[y] = im->rgb + (size_t)y * im->w * 3;
	png_read_image(png, rows);
	png_destroy_read_struct(&png, &info, NULL);
	free(rows);
	return 0;
}

static int load_ppm(FILE *f, struct image *im)
{
	unsigned int w, h, max;

	if (fscanf(f, "P6 %u %u %u", &w, &h, &max) != 3 || max != 255 ||
	    fgetc(f) == EOF || !w || !h || w > 16384 || h > 16384)
		return -1;
	im->w = w;
	im->h = h;
	im->rgb = malloc((size_t)w * h * 3);
	if (!im->rgb || fread(im->rgb, 3, (size_t)w * h, f) != (size_t)w * h)
		return -1;
	return 0;
}

static int load(const char *path, struct image *im)
{
	unsigned char magic[8] = { 0 };
	FILE *f = fopen(path, "rb");
	int ret;

	if (!f)
		return -1;
	if (fread(magic, 1, 8, f) < 2) {
		fclose(f);
		return -1;
	}
	rewind(f);
	ret = !png_sig_cmp(magic, 0, 8) ? load_png(f, im) :
	      (magic[0] == 'P' && magic[1] == '6') ? load_ppm(f, im) : -1;
	fclose(f);
	return ret;
}

static int tolerance = 0;
static int failures;

static void check(const struct image *im, uint32_t x, uint32_t y,
		  uint32_t want, const char *what)
{
	const uint8_t *p;
	int d[3];

	if (x >= im->w || y >= im->h) {
		printf("%s at %u,%u: outside the %ux%u picture\n", what, x, y,
		       im->w, im->h);
		failures++;
		return;
	}
	p = im->rgb + ((size_t)y * im->w + x) * 3;
	d[0] = abs(p[0] - (int)(want >> 16));
	d[1] = abs(p[1] - (int)((want >> 8) & 0xff));
	d[2] = abs(p[2] - (int)(want & 0xff));
	if (d[0] > tolerance || d[1] > tolerance || d[2] > tolerance) {
		printf("%s at %u,%u: got %02x%02x%02x, want %06x (tolerance %d)\n",
		       what, x, y, p[0], p[1], p[2], want, tolerance);
		failures++;
	}
}

static void check_below(const struct image *im, uint32_t x, uint32_t y,
			int limit)
{
	const uint8_t *p;

	if (x >= im->w || y >= im->h) {
		printf("%u,%u: outside the %ux%u picture\n", x, y, im->w,
		       im->h);
		failures++;
		return;
	}
	p = im->rgb + ((size_t)y * im->w + x) * 3;
	if (p[0] >= limit || p[1] >= limit || p[2] >= limit) {
		printf("%u,%u: got %02x%02x%02x, want every channel below %d\n",
		       x, y, p[0], p[1], p[2], limit);
		failures++;
	}
}

static int usage(void)
{
	fprintf(stderr,
		"usage: vv-imgcheck FILE [--size WxH] [--tolerance N] "
		"[--rect X,Y,W,H] [--fit WxH] [--level N] [--bars] "
		"[X,Y=RRGGBB ...] "
		"[X,Y<N ...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct image im = { 0 };
	uint32_t rx = 0, ry = 0, rw = 0, rh = 0, sw, sh;
	int checks = 0, level = 191;

	if (argc < 2)
		return usage();
	if (load(argv[1], &im)) {
		fprintf(stderr, "vv-imgcheck: %s: not a readable PNG or PPM\n",
			argv[1]);
		return 2;
	}
	rw = im.w;
	rh = im.h;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		unsigned int x, y, v;
		char c;

		if (!strcmp(a, "--size") && i + 1 < argc) {
			if (sscanf(argv[++i], "%ux%u", &sw, &sh) != 2)
				return usage();
			checks++;
			if (sw != im.w || sh != im.h) {
				printf("size: got %ux%u, want %ux%u\n", im.w,
				       im.h, sw, sh);
				failures++;
			}
		} else if (!strcmp(a, "--tolerance") && i + 1 < argc) {
			tolerance = atoi(argv[++i]);
		} else if (!strcmp(a, "--level") && i + 1 < argc) {
			level = atoi(argv[++i]);
			if (level < 1 || level > 255)
				return usage();
		} else if (!strcmp(a, "--rect") && i + 1 < argc) {
			if (sscanf(argv[++i], "%u,%u,%u,%u", &rx, &ry, &rw,
				   &rh) != 4 || !rw || !rh)
				return usage();
		} else if (!strcmp(a, "--fit") && i + 1 < argc) {
			if (sscanf(argv[++i], "%ux%u", &sw, &sh) != 2 || !sw ||
			    !sh)
				return usage();
			if ((uint64_t)sw * im.h > (uint64_t)im.w * sh) {
				rw = im.w;
				rh = (uint64_t)im.w * sh / sw;
			} else {
				rh = im.h;
				rw = (uint64_t)im.h * sw / sh;
			}
			rx = (im.w - rw) / 2;
			ry = (im.h - rh) / 2;
		} else if (!strcmp(a, "--bars")) {
			for (int b = 0; b < 8; b++) {
				uint32_t c = bars[b] / 0xff * level;

				check(&im, rx + (uint32_t)((2 * b + 1) * (uint64_t)rw / 16),
				      ry + rh * 6 / 10, c, bar_names[b]);
				checks++;
			}
			/* Borders around a fitted picture are black. */
			if (rx > 0) {
				check(&im, rx / 2, ry + rh / 2, 0, "left border");
				checks++;
			}
			if (ry > 0) {
				check(&im, rx + rw / 2, ry / 2, 0, "top border");
				checks++;
			}
		} else if (sscanf(a, "%u,%u=%x%c", &x, &y, &v, &c) == 3) {
			check(&im, x, y, v, a);
			checks++;
		} else if (sscanf(a, "%u,%u<%u%c", &x, &y, &v, &c) == 3) {
			check_below(&im, x, y, v);
			checks++;
		} else {
			return usage();
		}
	}
	free(im.rgb);
	if (!checks) {
		fprintf(stderr, "vv-imgcheck: nothing to check\n");
		return 2;
	}
	if (failures)
		printf("vv-imgcheck: %s: %d of %d checks failed\n", argv[1],
		       failures, checks);
	return failures ? 1 : 0;
}
