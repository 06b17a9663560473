// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* Frame statistics: fps, drops from sequence gaps, latency, CPU time. */
#include "vcap-priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define WINDOW_SLOTS	1024	/* recent dequeue times kept for fps */

struct vcap_stats {
	uint64_t window_ns;
	uint64_t start_ns;
	uint64_t stop_ns;		/* 0 while running */
	uint64_t cpu_user_start, cpu_sys_start;
	uint64_t cpu_user, cpu_sys;	/* frozen at stop */

	uint64_t frames, drops, reorders, errors;
	bool have_prev;
	uint64_t prev_seq;

	uint64_t recent[WINDOW_SLOTS];	/* ring of dequeue times */
	unsigned int recent_head;	/* next slot to write */

	uint64_t lat_ahead;		/* timestamp after dequeue */
	uint64_t *lat;			/* latency samples, ns */
	size_t lat_len, lat_cap;
};

uint64_t vcap_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

static void cpu_now(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0) {
		*user = *sys = 0;
		return;
	}
	*user = tv_ns(&ru.ru_utime);
	*sys = tv_ns(&ru.ru_stime);
}

struct vcap_stats *vcap_stats_new(uint64_t window_ns)
{
	struct vcap_stats *st = calloc(1, sizeof(*st));

	if (!st) {
		vcap_set_error(ENOMEM, "statistics");
		return NULL;
	}
	st->window_ns = window_ns ? window_ns : 1000000000ull;
	vcap_stats_start(st);
	return st;
}

void vcap_stats_destroy(struct vcap_stats *st)
{
	if (!st)
		return;
	free(st->lat);
	free(st);
}

void vcap_stats_start(struct vcap_stats *st)
{
	uint64_t window = st->window_ns;
	uint64_t *lat = st->lat;
	size_t cap = st->lat_cap;

	memset(st, 0, sizeof(*st));
	st->window_ns = window;
	st->lat = lat;
	st->lat_cap = cap;
	st->start_ns = vcap_now_ns();
	cpu_now(&st->cpu_user_start, &st->cpu_sys_start);
}

static void add_latency(struct vcap_stats *st, uint64_t ns)
{
	if (st->lat_len == st->lat_cap) {
		size_t cap = st->lat_cap ? st->lat_cap * 2 : 1024;
		uint64_t *p = realloc(st->lat, cap * sizeof(*p));

		/* Out of memory costs samples, never the run. */
		if (!p)
			return;
		st->lat = p;
		st->lat_cap = cap;
	}
	st->lat[st->lat_len++] = ns;
}

void vcap_stats_add(struct vcap_stats *st, uint64_t sequence,
		    uint64_t timestamp_ns, uint64_t dequeue_ns,
		    uint32_t flags)
{
	st->frames++;
	if (flags & (VCAP_FRAME_ERROR | VCAP_FRAME_TORN))
		st->errors++;
	if (st->have_prev) {
		if (sequence > st->prev_seq)
			st->drops += sequence - st->prev_seq - 1;
		else
			st->reorders++;
	}
	if (!st->have_prev || sequence > st->prev_seq)
		st->prev_seq = sequence;
	st->have_prev = true;

	st->recent[st->recent_head] = dequeue_ns;
	st->recent_head = (st->recent_head + 1) % WINDOW_SLOTS;

	if (timestamp_ns && (flags & VCAP_FRAME_TS_MONOTONIC)) {
		if (dequeue_ns >= timestamp_ns)
			add_latency(st, dequeue_ns - timestamp_ns);
		else
			st->lat_ahead++;
	}
}

void vcap_stats_baseline(struct vcap_stats *st, uint64_t sequence)
{
	st->prev_seq = sequence;
	st->have_prev = true;
}

void vcap_stats_new_segment(struct vcap_stats *st)
{
	st->have_prev = false;
}

void vcap_stats_frame(struct vcap_stats *st, const struct vcap_frame *frame)
{
	vcap_stats_add(st, frame->sequence, frame->timestamp_ns,
		       frame->dequeue_ns ? frame->dequeue_ns : vcap_now_ns(),
		       frame->flags);
}

void vcap_stats_stop(struct vcap_stats *st)
{
	uint64_t user, sys;

	if (st->stop_ns)
		return;
	st->stop_ns = vcap_now_ns();
	cpu_now(&user, &sys);
	st->cpu_user = user - st->cpu_user_start;
	st->cpu_sys = sys - st->cpu_sys_start;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t vcap_percentile(uint64_t *v, size_t n, double p)
{
	size_t rank;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	if (p <= 0)
		return v[0];
	if (p >= 100)
		return v[n - 1];
	/* Nearest rank: the smallest value with at least p% at or below. */
	rank = (size_t)((p / 100.0) * (double)n);
	if ((double)rank < (p / 100.0) * (double)n)
		rank++;
	return v[rank ? rank - 1 : 0];
}

/* Frames per second over the last window_ns of dequeue times. */
static double window_fps(const struct vcap_stats *st)
{
	unsigned int n = st->frames < WINDOW_SLOTS ? st->frames : WINDOW_SLOTS;
	unsigned int newest = (st->recent_head + WINDOW_SLOTS - 1) %
			      WINDOW_SLOTS;
	uint64_t last = st->recent[newest], first = last;
	unsigned int count = 1;

	if (n < 2)
		return 0;
	for (unsigned int i = 1; i < n; i++) {
		uint64_t t = st->recent[(newest + WINDOW_SLOTS - i) %
					WINDOW_SLOTS];

		if (last - t > st->window_ns)
			break;
		first = t;
		count++;
	}
	if (count < 2 || last == first)
		return 0;
	return (double)(count - 1) * 1e9 / (double)(last - first);
}

void vcap_stats_get(const struct vcap_stats *st,
		    struct vcap_stats_summary *out)
{
	uint64_t end = st->stop_ns ? st->stop_ns : vcap_now_ns();
	uint64_t user = st->cpu_user, sys = st->cpu_sys;

	memset(out, 0, sizeof(*out));
	if (!st->stop_ns) {
		cpu_now(&user, &sys);
		user -= st->cpu_user_start;
		sys -= st->cpu_sys_start;
	}
	out->frames = st->frames;
	out->drops = st->drops;
	out->reorders = st->reorders;
	out->errors = st->errors;
	out->wall_ns = end - st->start_ns;
	if (out->wall_ns)
		out->fps = (double)st->frames * 1e9 / (double)out->wall_ns;
	out->fps_window = window_fps(st);
	out->cpu_user_ns = user;
	out->cpu_sys_ns = sys;
	if (st->frames)
		out->cpu_ns_per_frame = (user + sys) / st->frames;
	out->latency_samples = st->lat_len;
	out->latency_ahead = st->lat_ahead;
	if (st->lat_len) {
		/* Percentiles sort the samples; work on a copy. */
		uint64_t *v = malloc(st->lat_len * sizeof(*v));

		if (!v)
			return;
		memcpy(v, st->lat, st->lat_len * sizeof(*v));
		out->latency_p50 = vcap_percentile(v, st->lat_len, 50);
		out->latency_p95 = vcap_percentile(v, st->lat_len, 95);
		out->latency_p99 = vcap_percentile(v, st->lat_len, 99);
		out->latency_max = v[st->lat_len - 1];
		free(v);
	}
}
