// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Y4M (YUV4MPEG2) playback: header and frame index, checked up front. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fw-source-file.h"
#include "fw-y4m.h"

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

static int y4m_header(struct fw_file_source *fs, const char *path,
		      size_t *pos, char *err, size_t errlen)
{
	char line[Y4M_MAX_LINE + 1], msg[200];
	struct fw_y4m_header h;
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
	if (fw_y4m_parse_header(line, &h, msg, sizeof(msg))) {
		snprintf(err, errlen, "y4m %s: %s", path, msg);
		return -1;
	}
	/* A file plays as progressive frames, whatever it says. */
	fs->image.fourcc = h.fourcc;
	fs->image.width = h.w;
	fs->image.height = h.h;
	fs->image.bytesperline = h.w;
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
