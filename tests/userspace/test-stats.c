// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* libvcap statistics: drops from sequence gaps, percentiles, fps, CPU. */
#include <libvcap.h>
#include <time.h>
#include <unistd.h>

#include "ut.h"

#define MS 1000000ull

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void test_percentiles(void)
{
	uint64_t v[100];

	for (int i = 0; i < 100; i++)
		v[i] = 100 - i;		/* 100..1, unsorted */
	CHECK_EQ(vcap_percentile(v, 100, 50), 50);
	CHECK_EQ(vcap_percentile(v, 100, 95), 95);
	CHECK_EQ(vcap_percentile(v, 100, 99), 99);
	CHECK_EQ(vcap_percentile(v, 100, 100), 100);
	CHECK_EQ(vcap_percentile(v, 100, 0), 1);

	uint64_t w[] = { 7, 3, 5 };	/* nearest rank on a tiny set */
	CHECK_EQ(vcap_percentile(w, 3, 50), 5);
	CHECK_EQ(vcap_percentile(w, 3, 34), 5);
	CHECK_EQ(vcap_percentile(w, 3, 33), 3);
	CHECK_EQ(vcap_percentile(w, 3, 99), 7);

	uint64_t one[] = { 42 };
	CHECK_EQ(vcap_percentile(one, 1, 99), 42);
	CHECK_EQ(vcap_percentile(NULL, 0, 50), 0);
}

static void test_drops(void)
{
	struct vcap_stats *st = vcap_stats_new(0);
	struct vcap_stats_summary s;
	/* 0 1 2 5 6 (3,4 missing) 6 (repeat) 4 (back) 10 (7,8,9 missing) */
	uint64_t seq[] = { 0, 1, 2, 5, 6, 6, 4, 10 };

	CHECK(st);
	for (unsigned int i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		vcap_stats_add(st, seq[i], 0, (i + 1) * 10 * MS, 0);
	vcap_stats_get(st, &s);
	CHECK_EQ(s.frames, 8);
	CHECK_EQ(s.drops, 5);
	CHECK_EQ(s.reorders, 2);
	CHECK_EQ(s.errors, 0);
	CHECK_EQ(s.latency_samples, 0);	/* no timestamps given */

	/* A restart clears the counters; a baseline counts no frame. */
	vcap_stats_start(st);
	vcap_stats_baseline(st, 100);
	vcap_stats_add(st, 101, 0, MS, VCAP_FRAME_ERROR);
	vcap_stats_add(st, 103, 0, 2 * MS, VCAP_FRAME_TORN);
	vcap_stats_get(st, &s);
	CHECK_EQ(s.frames, 2);
	CHECK_EQ(s.drops, 1);
	CHECK_EQ(s.errors, 2);
	CHECK_EQ(s.reorders, 0);
	vcap_stats_destroy(st);
}

static void test_latency(void)
{
	struct vcap_stats *st = vcap_stats_new(0);
	struct vcap_stats_summary s;

	/* Latencies 1..200 ms on the monotonic clock. */
	for (uint64_t i = 0; i < 200; i++) {
		uint64_t ts = 1000 * MS + i * 33 * MS;

		vcap_stats_add(st, i, ts, ts + (i + 1) * MS,
			       VCAP_FRAME_TS_MONOTONIC);
	}
	/* Not on the monotonic clock, or in the future: no sample. */
	vcap_stats_add(st, 200, 5 * MS, 9 * MS, 0);
	vcap_stats_add(st, 201, 9 * MS, 5 * MS, VCAP_FRAME_TS_MONOTONIC);
	vcap_stats_get(st, &s);
	CHECK_EQ(s.latency_samples, 200);
	CHECK_EQ(s.latency_ahead, 1);
	CHECK_EQ(s.latency_p50, 100 * MS);
	CHECK_EQ(s.latency_p95, 190 * MS);
	CHECK_EQ(s.latency_p99, 198 * MS);
	CHECK_EQ(s.latency_max, 200 * MS);
	CHECK_EQ(s.drops, 0);
	vcap_stats_destroy(st);
}

static void test_fps(void)
{
	struct vcap_stats *st = vcap_stats_new(1000 * MS);
	struct vcap_stats_summary s;
	volatile uint64_t spin = 0;

	/* 300 frames at 10 ms, then 100 at 20 ms: the 1 s window sees 50. */
	uint64_t t = 0;

	for (int i = 0; i < 300; i++)
		vcap_stats_add(st, i, 0, t += 10 * MS, 0);
	for (int i = 300; i < 400; i++)
		vcap_stats_add(st, i, 0, t += 20 * MS, 0);
	vcap_stats_get(st, &s);
	CHECK(s.fps_window > 49.9 && s.fps_window < 50.1);

	/* Wall-time fps and CPU: burn some CPU over a known wall time. */
	vcap_stats_start(st);
	for (int i = 0; i < 10; i++) {
		uint64_t end = cpu_ns() + 10 * MS;

		while (cpu_ns() < end)
			spin++;
		vcap_stats_add(st, i, 0, vcap_now_ns(), 0);
	}
	vcap_stats_stop(st);
	vcap_stats_get(st, &s);
	CHECK_EQ(s.frames, 10);
	CHECK(s.wall_ns >= 100 * MS);
	CHECK(s.fps > 0 && s.fps <= 10 * 1e9 / (100 * MS) + 0.01);
	/* 10 ms of CPU per frame, give or take the accounting tick. */
	CHECK(s.cpu_ns_per_frame >= 5 * MS);
	CHECK(s.cpu_ns_per_frame <= s.wall_ns / 10 + 5 * MS);
	/* Stopped: the figures no longer move. */
	usleep(20000);
	struct vcap_stats_summary s2;

	vcap_stats_get(st, &s2);
	CHECK_EQ(s2.wall_ns, s.wall_ns);
	vcap_stats_destroy(st);
}

int main(void)
{
	test_percentiles();
	test_drops();
	test_latency();
	test_fps();
	UT_DONE();
}
