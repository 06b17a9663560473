// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Pacing: over 5 s at 60 fps the mean frame interval, from the board's own
 * frame timestamps, is within 0.5% of nominal; jitter is reported.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include "vtest.h"
#include "fw-run.h"
#include "fw-test.h"

#define FPS		60
#define RUN_S		5

static void *loop(void *arg)
{
	fw_run_loop(arg);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

TEST_TIMEOUT(sixty_fps_for_five_seconds, 60)
{
	char path[] = "/tmp/vcap-pace-XXXXXX", err[256];
	u64 *ts = calloc(FPS * RUN_S * 2, sizeof(u64));
	u64 *dev = calloc(FPS * RUN_S * 2, sizeof(u64));
	u64 *seqs = calloc(FPS * RUN_S * 2, sizeof(u64));
	u64 last_seq = ~0ull, first_seq = 0, seq, t0, nominal;
	struct fw_run *r = calloc(1, sizeof(*r));
	unsigned int n = 0, i, gaps = 0;
	double mean, err_pct;
	pthread_t th;
	int fd;

	ASSERT_TRUE(ts && dev && seqs && r);
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	close(fd);
	ASSERT_EQ(fw_run_init(r, path, 4 << 20, NULL, NULL, err, sizeof(err)), 0);
	unlink(path);
	ASSERT_EQ(fw_run_start(r, VCAP_FMT_YUYV, 320, 240, FPS,
			       VCAP_PATTERN_MOVING_BOX), 0);
	/* Real-time priority where allowed: the host may be busy. */
	{
		struct sched_param sp = { .sched_priority = 10 };
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
		if (pthread_create(&th, &attr, loop, r)) {
			TH_LOG("no real-time priority: plain scheduling");
			ASSERT_EQ(pthread_create(&th, NULL, loop, r), 0);
		}
		pthread_attr_destroy(&attr);
	}

	/* Watch latest_seq as a polling driver would, and note each frame. */
	t0 = fw_now_ns();
	while (fw_now_ns() - t0 < 2 * RUN_S * 1000000000ull &&
	       n < FPS * RUN_S * 2 &&
	       (last_seq == ~0ull || last_seq - first_seq < FPS * RUN_S)) {
		const struct vcap_board_ctrl *c = r->board.ctrl;
		u32 slot = t_rd32(&c->status.latest_slot);

		if (slot < VCAP_MAX_SLOTS) {
			seq = t_rd64(&c->slots[slot].sequence);
			if (seq != last_seq) {
				if (last_seq != ~0ull && seq != last_seq + 1)
					gaps++;
				if (!n)
					first_seq = seq;
				seqs[n] = seq;
				ts[n++] = t_rd64(&c->slots[slot].timestamp_ns);
				last_seq = seq;
			}
		}
		usleep(500);
	}
	r->quit = true;
	pthread_join(th, NULL);

	ASSERT_GE(n, 2);
	nominal = 1000000000ull / FPS;
	/*
	 * The mean interval is the slope of timestamp against sequence (a
	 * least-squares fit), so one frame delayed by the host at either
	 * end does not stand for the whole run.
	 */
	{
		double sx = 0, sy = 0, sxx = 0, sxy = 0, x, y;

		for (i = 0; i < n; i++) {
			x = (double)(seqs[i] - first_seq);
			y = (double)(ts[i] - ts[0]);
			sx += x;
			sy += y;
			sxx += x * x;
			sxy += x * y;
		}
		mean = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	}
	err_pct = 100.0 * (mean - (double)nominal) / (double)nominal;
	/* Jitter: each frame against its place on the fitted schedule. */
	for (i = 1; i < n; i++) {
		double at = (double)(seqs[i] - first_seq) * mean;
		double d = (double)(ts[i] - ts[0]) - at;

		dev[i - 1] = (u64)(d < 0 ? -d : d);
	}
	qsort(dev, n - 1, sizeof(u64), cmp_u64);
	TH_LOG("%u frames, mean interval %.1f us (nominal %.1f us, %+.4f%%), jitter p50 %.1f us p99 %.1f us, max %.1f us, %u gaps, late %llu",
	       n, mean / 1e3, nominal / 1e3, err_pct, dev[(n - 1) / 2] / 1e3,
	       dev[(n - 1) * 99 / 100] / 1e3, dev[n - 2] / 1e3, gaps,
	       (unsigned long long)r->board.frames_late);
	EXPECT_GE(last_seq - first_seq, FPS * RUN_S - 2);
	EXPECT_LT(err_pct < 0 ? -err_pct : err_pct, 0.5);
	/* Every period is either a frame or a counted late/missed one. */
	EXPECT_EQ(r->board.frames_produced + r->pace.late, last_seq + 1);
	fw_run_fini(r);
	free(r);
	free(ts);
	free(dev);
	free(seqs);
}

/* The schedule is absolute: a late frame does not move the ones after it. */
TEST(schedule_does_not_drift)
{
	struct fw_pace p;
	u64 start = 1000;

	fw_pace_start(&p, 1, 30, start);
	ASSERT_EQ(fw_pace_deadline(&p), start);
	fw_pace_advance(&p, start + 5000000);		/* 5 ms late */
	ASSERT_EQ(fw_pace_deadline(&p), start + 33333333);
	fw_pace_advance(&p, start + 33333333);
	ASSERT_EQ(fw_pace_deadline(&p), start + 66666666);
	/* Three intervals behind: skips ahead, counts the missed ones. */
	fw_pace_advance(&p, start + 200000000);
	ASSERT_EQ(p.late, 4);
	ASSERT_GT(fw_pace_deadline(&p), start + 200000000);
	ASSERT_LE(fw_pace_deadline(&p), start + 233333334);
	/* Frame 3000 at 30000/1001 fps lands exactly, no rounding build-up. */
	fw_pace_start(&p, 1001, 30000, 0);
	p.n = 3000;
	ASSERT_EQ(fw_pace_deadline(&p), 100100000000ull);
}

VTEST_MAIN()
