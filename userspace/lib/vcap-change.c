// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* Source changes as values: what differs between two modes, and its text. */
#include "vcap-priv.h"

#include <string.h>

uint32_t vcap_mode_diff(const struct vcap_mode *a, const struct vcap_mode *b)
{
	uint32_t what = 0;

	if (a->fourcc != b->fourcc)
		what |= VCAP_CHANGE_FORMAT;
	if (a->width != b->width || a->height != b->height ||
	    (a->bytesperline && b->bytesperline &&
	     a->bytesperline != b->bytesperline))
		what |= VCAP_CHANGE_SIZE;
	/* Compared as fractions: 1/60 and 2/120 are the same rate. */
	if (a->interval_num && a->interval_den && b->interval_num &&
	    b->interval_den &&
	    (uint64_t)a->interval_num * b->interval_den !=
	    (uint64_t)b->interval_num * a->interval_den)
		what |= VCAP_CHANGE_RATE;
	return what;
}

static size_t append(char *buf, size_t size, size_t at, const char *s)
{
	size_t n = strlen(s);

	if (at < size) {
		size_t room = size - at - 1;

		memcpy(buf + at, s, n < room ? n : room);
		buf[at + (n < room ? n : room)] = '\0';
	}
	return at + n;
}

const char *vcap_change_str(const struct vcap_source_change *c, char *buf,
			    size_t size)
{
	static const char *const names[] = { "format", "size", "rate" };
	char a[96], b[96], t[64];
	size_t at = 0;
	bool first = true;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (c->what & VCAP_CHANGE_SIGNAL_LOST || !c->signal) {
		append(buf, size, 0, "signal lost");
		return buf;
	}
	if (c->what & VCAP_CHANGE_SIGNAL_BACK) {
		snprintf(t, sizeof(t), "signal back after %.3f s: ",
			 c->no_signal_ns / 1e9);
		at = append(buf, size, at, t);
	}
	vcap_mode_str(&c->old_mode, a, sizeof(a));
	vcap_mode_str(&c->mode, b, sizeof(b));
	if (!(c->what & (VCAP_CHANGE_FORMAT | VCAP_CHANGE_SIZE |
			 VCAP_CHANGE_RATE))) {
		at = append(buf, size, at, b);
		append(buf, size, at, " (unchanged)");
		return buf;
	}
	at = append(buf, size, at, a);
	at = append(buf, size, at, " -> ");
	at = append(buf, size, at, b);
	at = append(buf, size, at, " (");
	for (unsigned int i = 0; i < 3; i++) {
		if (!(c->what & (1u << i)))
			continue;
		if (!first)
			at = append(buf, size, at, ", ");
		at = append(buf, size, at, names[i]);
		first = false;
	}
	append(buf, size, at, ")");
	return buf;
}
