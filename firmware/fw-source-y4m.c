// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Y4M (YUV4MPEG2) playback: header and frame index, checked up front. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fw-source-file.h"

#define Y4M_MAX_LINE	1024

/* Length of the line at p (without '\n'), or -1 if none ends in time. */
static long line_len(const u8 *p, size_t avail)
{
	size_t i, max = avail < Y4M_MAX_LINE ? avail : Y4M_MAX_LINE;

	for (i = 0; i < max; i++)
		if (p[i] == '\n')
			return (long)i;
	return -1;
}

int fw_y4m_colour(const char *c, u32 *fourcc)
{
	static const struct {
		const char *name;
		u32 fourcc;
	} tab[] = {
		{ "420jpeg", VCAP_FMT_YUV420 }, { "420paldv", VCAP_FMT_YUV420 },
		{ "420mpeg2", VCAP_FMT_YUV420 }, { "420", VCAP_FMT_YUV420 },
		{ "422", FW_FMT_YUV422P }, { "444", FW_FMT_YUV444P },
		{ "mono", VCAP_FMT_GREY },
	};
	unsigned int i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(c, tab[i].name)) {
			*fourcc = tab[i].fourcc;
			return 0;
		}
	return -1;
}

static int y4m_header(struct fw_file_source *fs, const char *path,
		      size_t *pos, char *err, size_t errlen)
{
	char line[Y4M_MAX_LINE + 1], *tok, *save;
	unsigned long w = 0, h = 0;
	u32 fourcc = VCAP_FMT_YUV420;
	long n;

	if (fs->len < 10 || memcmp(fs->map, "YUV4MPEG2", 9) ||
	    (fs->map[9] != ' ' && fs->map[9] != '\n')) {
		snprintf(err, errlen, "y4m %s: not a Y4M file (no YUV4MPEG2 signature)", path);
		return -1;
	}
	n = line_len(fs->map, fs->len);
	if (n < 0) {
		snprintf(err, errlen, "y4m %s: header line is not terminated", path);
		return -1;
	}
	memcpy(line, fs->map, (size_t)n);
	line[n] = 0;
	*pos = (size_t)n + 1;
	for (tok = strtok_r(line + 9, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *end;

		switch (tok[0]) {
		case 'W':
		case 'H':
			if (tok[0] == 'W')
				w = strtoul(tok + 1, &end, 10);
			else
				h = strtoul(tok + 1, &end, 10);
			if (end == tok + 1 || *end) {
				snprintf(err, errlen, "y4m %s: bad parameter '%s'",
					 path, tok);
				return -1;
			}
			break;
		case 'C':
			if (fw_y4m_colour(tok + 1, &fourcc)) {
				snprintf(err, errlen,
					 "y4m %s: unsupported colour space '%s' (8-bit 420, 422, 444 or mono)",
					 path, tok + 1);
				return -1;
			}
			break;
		default:
			/* F (rate), I (interlace), A (aspect), X (comment). */
			break;
		}
	}
	if (!w || !h || w > 8192 || h > 8192) {
		snprintf(err, errlen, "y4m %s: missing or bad frame size (W%lu H%lu)",
			 path, w, h);
		return -1;
	}
	fs->image.fourcc = fourcc;
	fs->image.width = (u32)w;
	fs->image.height = (u32)h;
	fs->image.bytesperline = (u32)w;
	return 0;
}

struct fw_source *fw_source_y4m_new(const char *path, char *err,
				    size_t errlen)
{
	struct fw_file_source *fs;
	size_t pos, cap = 0;
	u64 frame;
	long n;

	fs = fw_file_source_open(path, err, errlen);
	if (!fs)
		return NULL;
	if (y4m_header(fs, path, &pos, err, errlen))
		goto err_free;
	frame = fw_image_size(fs->image.fourcc, fs->image.width,
			      fs->image.height);
	while (pos < fs->len) {
		if (fs->len - pos < 5 || memcmp(fs->map + pos, "FRAME", 5)) {
			snprintf(err, errlen,
				 "y4m %s: frame %u: no FRAME marker at byte %zu",
				 path, fs->nframes, pos);
			goto err_free;
		}
		n = line_len(fs->map + pos, fs->len - pos);
		if (n < 0) {
			snprintf(err, errlen,
				 "y4m %s: frame %u: header line is not terminated",
				 path, fs->nframes);
			goto err_free;
		}
		pos += (size_t)n + 1;
		if (fs->len - pos < frame) {
			snprintf(err, errlen,
				 "y4m %s: frame %u is truncated (%zu of %llu bytes)",
				 path, fs->nframes, fs->len - pos,
				 (unsigned long long)frame);
			goto err_free;
		}
		if (fs->nframes == cap) {
			u64 *f;

			cap = cap ? cap * 2 : 64;
			f = realloc(fs->frames, cap * sizeof(*f));
			if (!f) {
				snprintf(err, errlen, "y4m %s: out of memory", path);
				goto err_free;
			}
			fs->frames = f;
		}
		fs->frames[fs->nframes++] = pos;
		pos += frame;
	}
	if (!fs->nframes) {
		snprintf(err, errlen, "y4m %s: no frames", path);
		goto err_free;
	}
	snprintf(fs->base.desc, sizeof(fs->base.desc), "y4m:%s (%ux%u, %u frames)",
		 path, fs->image.width, fs->image.height, fs->nframes);
	return &fs->base;

err_free:
	fw_file_source_free(fs);
	return NULL;
}
