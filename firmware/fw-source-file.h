/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* A source that plays frames from a mapped file in a loop (Y4M or raw). */
#ifndef FW_SOURCE_FILE_H
#define FW_SOURCE_FILE_H

#include "fw-convert.h"
#include "fw-source.h"

struct fw_file_source {
	struct fw_source base;
	const u8 *map;
	size_t len;
	u64 *frames;		/* byte offset of each frame's pixels */
	u32 nframes;
	struct fw_image image;	/* geometry; data set per frame */
};

/* Map path read-only; err names the file and the problem on failure. */
struct fw_file_source *fw_file_source_open(const char *path, char *err,
					   size_t errlen);
void fw_file_source_free(struct fw_file_source *fs);

#endif /* FW_SOURCE_FILE_H */
