// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Raw frames: a file of back-to-back frames in one board format and size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fw-source-file.h"

struct fw_source *fw_source_raw_new(const char *path, u32 fourcc, u32 width,
				    u32 height, char *err, size_t errlen)
{
	const struct vcap_format_info *fi = vcap_format_find(fourcc);
	struct fw_file_source *fs;
	u64 frame, i;

	if (!fi) {
		snprintf(err, errlen, "raw %s: format %.4s is not a board format",
			 path, (const char *)&fourcc);
		return NULL;
	}
	if ((width % fi->hsub) || (height % fi->vsub)) {
		snprintf(err, errlen, "raw %s: %ux%u does not suit %.4s",
			 path, width, height, (const char *)&fourcc);
		return NULL;
	}
	frame = fw_image_size(fourcc, width, height);
	fs = fw_file_source_open(path, err, errlen);
	if (!fs)
		return NULL;
	if (fs->len % frame) {
		snprintf(err, errlen,
			 "raw %s: size %zu is not a whole number of %.4s %ux%u frames (%llu bytes each)",
			 path, fs->len, (const char *)&fourcc, width, height,
			 (unsigned long long)frame);
		goto err_free;
	}
	fs->nframes = (u32)(fs->len / frame);
	fs->frames = calloc(fs->nframes, sizeof(*fs->frames));
	if (!fs->frames) {
		snprintf(err, errlen, "raw %s: out of memory", path);
		goto err_free;
	}
	for (i = 0; i < fs->nframes; i++)
		fs->frames[i] = i * frame;
	fs->image.fourcc = fourcc;
	fs->image.width = width;
	fs->image.height = height;
	fs->image.bytesperline = vcap_format_min_bpl(fi, width);
	snprintf(fs->base.desc, sizeof(fs->base.desc), "raw:%s (%u frames)",
		 path, fs->nframes);
	return &fs->base;

err_free:
	fw_file_source_free(fs);
	return NULL;
}
