// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The Y4M stream header: one parser for files and live pipes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fw-convert.h"
#include "fw-y4m.h"

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

static int y4m_ratio(const char *s, u32 *num, u32 *den)
{
	unsigned long a, b;
	char *end;

	a = strtoul(s, &end, 10);
	if (end == s || *end != ':')
		return -1;
	s = end + 1;
	b = strtoul(s, &end, 10);
	if (end == s || *end || a > 0xffffffffu || b > 0xffffffffu)
		return -1;
	*num = (u32)a;
	*den = (u32)b;
	return 0;
}

int fw_y4m_parse_header(char *line, struct fw_y4m_header *h, char *msg,
			size_t msglen)
{
	unsigned long w = 0, hh = 0;
	char *tok, *save, *end;
	u32 a, b;

	memset(h, 0, sizeof(*h));
	h->fourcc = VCAP_FMT_YUV420;
	if (strncmp(line, "YUV4MPEG2", 9) || (line[9] && line[9] != ' ')) {
		snprintf(msg, msglen,
			 "not a Y4M stream (no YUV4MPEG2 signature): '%.40s'",
			 line);
		return -1;
	}
	for (tok = strtok_r(line + 9, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		switch (tok[0]) {
		case 'W':
		case 'H':
			if (tok[0] == 'W')
				w = strtoul(tok + 1, &end, 10);
			else
				hh = strtoul(tok + 1, &end, 10);
			if (end == tok + 1 || *end)
				goto bad;
			break;
		case 'F':
			if (y4m_ratio(tok + 1, &a, &b) || !a || !b)
				goto bad;
			h->rate_num = a;
			h->rate_den = b;
			break;
		case 'A':
			if (y4m_ratio(tok + 1, &a, &b))
				goto bad;
			break;
		case 'I':
			if (strlen(tok) != 2 || !strchr("ptbm?", tok[1]))
				goto bad;
			h->interlaced = tok[1] != 'p' && tok[1] != '?';
			break;
		case 'C':
			if (fw_y4m_colour(tok + 1, &h->fourcc)) {
				snprintf(msg, msglen,
					 "unsupported colour space '%s' (8-bit 420, 422, 444 or mono)",
					 tok + 1);
				return -1;
			}
			break;
		case 'X':
			break;
		default:
			goto bad;
		}
	}
	if (!w || !hh || w > 8192 || hh > 8192) {
		snprintf(msg, msglen, "missing or bad frame size (W%lu H%lu)",
			 w, hh);
		return -1;
	}
	h->w = (u32)w;
	h->h = (u32)hh;
	return 0;
bad:
	snprintf(msg, msglen, "bad header parameter '%.40s'", tok);
	return -1;
}
