/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The clock and the median of the firmware's benchmarks. */
#ifndef BENCH_TIME_H
#define BENCH_TIME_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v. */
static inline double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp);
	return v[n / 2];
}

#endif /* BENCH_TIME_H */
