/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The Y4M (YUV4MPEG2) stream header, as files and pipes carry it. */
#ifndef FW_Y4M_H
#define FW_Y4M_H

#include <stdbool.h>
#include <stddef.h>
#include "vcap-types.h"

/* A stream header; rate 0/0 when it gives none (F30000:1001: 30000/1001). */
struct fw_y4m_header {
	u32 w, h, fourcc, rate_num, rate_den;
	bool interlaced;
};

/* A Y4M colour space (C tag: 420jpeg, 422, mono, ...) as a layout. */
int fw_y4m_colour(const char *c, u32 *fourcc);

/*
 * Parse a header line (without its '\n'; tokenised in place): 0, or -1
 * with msg naming the problem.
 */
int fw_y4m_parse_header(char *line, struct fw_y4m_header *h, char *msg,
			size_t msglen);

#endif /* FW_Y4M_H */
