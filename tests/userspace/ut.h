/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/* Assert-style checks for the host unit tests of libvcap and vcap-stream. */
#ifndef UT_H
#define UT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ut_checks;

/* A failed check prints where and what, then ends the test with status 1. */
#define CHECK(cond) do { \
	ut_checks++; \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
			__LINE__, #cond); \
		exit(1); \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long _a = (long long)(a), _b = (long long)(b); \
	ut_checks++; \
	if (_a != _b) { \
		fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", \
			__FILE__, __LINE__, #a, #b, _a, _b); \
		exit(1); \
	} \
} while (0)

#define CHECK_STR(haystack, needle) do { \
	const char *_h = (haystack), *_n = (needle); \
	ut_checks++; \
	if (!_h || !strstr(_h, _n)) { \
		fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", \
			__FILE__, __LINE__, _h ? _h : "(null)", _n); \
		exit(1); \
	} \
} while (0)

/* Print the count so a run that checked nothing is visible as such. */
#define UT_DONE() do { \
	if (!ut_checks) { \
		fprintf(stderr, "no checks ran\n"); \
		return 1; \
	} \
	printf("ok: %d checks\n", ut_checks); \
	return 0; \
} while (0)

#endif /* UT_H */
