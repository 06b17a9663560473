// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* The per-thread last error: one line naming device, operation and errno. */
#include "vcap-priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[320];
static _Thread_local int last_errno;

const char *vcap_last_error(void)
{
	return last_error;
}

int vcap_last_errno(void)
{
	return last_errno;
}

void vcap_clear_error(void)
{
	last_error[0] = '\0';
	last_errno = 0;
}

int vcap_set_error(int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	if (err && n >= 0 && (size_t)n < sizeof(last_error))
		snprintf(last_error + n, sizeof(last_error) - n, ": %s",
			 strerror(err));
	last_errno = err;
	errno = err;
	return -1;
}
