// SPDX-License-Identifier: GPL-2.0 OR MIT
/* What every sink shares: its error message. */
#include "vv-sink.h"

#include <stdarg.h>
#include <stdio.h>

int vv_sink_fail(struct vv_sink *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
	return -1;
}
