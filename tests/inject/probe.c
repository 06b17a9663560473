// SPDX-License-Identifier: GPL-2.0
/*
 * Probe under fault injection: every injection point a bind of the board
 * reaches fails once in turn, and each failed bind leaves nothing behind.
 *
 * The board (the first /dev/vcapN's device, a software board or the PCI
 * board) is unbound, then for N = 1, 2, ... the Nth injection point is
 * armed and the board bound.  When the point fired, the bind fails and no
 * vcap node, video4linux device or interrupt line exists; an IRQ setup
 * that fails is the exception, by design: the board binds and is polled.
 * When the point did not fire, the probe passed every point: the walk is
 * over, and it must have passed at least three.  Clean unbind/bind cycles
 * follow; then unreclaimable slab, vmalloc and available memory must be
 * back to what they were after the clean binds before the walk, and the
 * board must stream.
 *
 * Environment: INJ_ROUNDS walks (default 2: a leak shows twice as large),
 * INJ_CYCLES clean cycles after them (default 3).
 */
#include <poll.h>

#include <linux/vcap.h>

#include "bind.h"
#include "knob.h"
#include "vk-stream.h"
#include "vtest.h"

#define INJ_MAX_POINTS		256

/*
 * Tolerances, in kB, against the memory measured after clean binds
 * before the walk.  Measured between two clean cycles under slub_debug,
 * unreclaimable slab moves by tens of kB and vmalloc by a few pages;
 * available memory, after dropping caches, by under a MiB.  A software
 * board's memory (16 MiB) leaked once is over the last tolerance.
 */
#define INJ_SLAB_TOL_KB		256
#define INJ_VMALLOC_TOL_KB	256
#define INJ_AVAIL_TOL_KB	(8 * 1024)

struct inj_mem {
	long long sunreclaim, vmalloc, avail;
};

static void inj_measure(struct inj_mem *m)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "3\n", 2) != 2)
			perror("drop_caches");
		close(fd);
	}
	/* Let RCU-freed objects go before counting. */
	usleep(300000);
	m->sunreclaim = vk_meminfo("SUnreclaim");
	m->vmalloc = vk_meminfo("VmallocUsed");
	m->avail = vk_meminfo("MemAvailable");
}

/* One clean unbind and bind; after the unbind nothing of vcap is left. */
static void inj_cycle(struct vtest_meta *_vtest, const struct vk_board *b)
{
	char left[1024];

	ASSERT_EQ(vk_rebind(b, "unbind"), 0);
	EXPECT_FALSE(inj_bound(b));
	if (inj_leftovers(left, sizeof(left)))
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "after a clean unbind: %s", left);
	ASSERT_EQ(vk_rebind(b, "bind"), 0);
	ASSERT_EQ(vk_wait_nodes(), 0);
}

/* The board's VCAP_INFO_* flags, or -1. */
static long inj_board_flags(void)
{
	struct vcap_info in;
	char path[64];
	int fd;
	long r = -1;

	if (vk_find_vram(path, sizeof(path), NULL, 0) < 0)
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (ioctl(fd, VCAP_IOC_QUERY, &in) == 0)
		r = in.flags;
	close(fd);
	return r;
}

/*
 * One walk over the probe's points.  Returns the number of points the
 * probe passed when nothing failed, or -1; the board is bound after it.
 */
static long inj_walk(struct vtest_meta *_vtest, const struct vk_board *b,
		     bool verbose)
{
	char left[1024], names[2048] = "";
	size_t used = 0;
	struct inj_shot s;
	long n;

	if (vk_rebind(b, "unbind")) {
		vtest_fail(_vtest, __FILE__, __LINE__, "unbind: %s",
			   strerror(errno));
		return -1;
	}
	for (n = 1; n <= INJ_MAX_POINTS; n++) {
		int r, err;

		if (inj_arm(n)) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "arming fail_nth=%ld: %s", n,
				   strerror(errno));
			return -1;
		}
		errno = 0;
		r = vk_rebind(b, "bind");
		err = errno;
		if (inj_shot(n, &s)) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld: knob reads fail_nth %ld fail_hits %ld fail_last %s",
				   n, s.left, s.hits, s.last);
			inj_disarm();
			return -1;
		}
		inj_disarm();
		if (!s.fired) {
			if (r) {
				vtest_fail(_vtest, __FILE__, __LINE__,
					   "N=%ld: nothing fired (%ld points), yet bind failed: %s",
					   n, s.hits, strerror(err));
				return -1;
			}
			if (verbose)
				TH_LOG("probe: %ld points, each failed once: %s",
				       s.hits, names);
			return s.hits;
		}
		if (used < sizeof(names))
			used += snprintf(names + used, sizeof(names) - used,
					 "%s%ld %s", n > 1 ? ", " : "", n,
					 s.last);
		if (!strcmp(s.last, "irq")) {
			/* By design: the board binds, and is polled. */
			if (r) {
				vtest_fail(_vtest, __FILE__, __LINE__,
					   "N=%ld (irq): bind failed (%s), expected polling",
					   n, strerror(err));
				continue;
			}
			if (vk_wait_nodes()) {
				vtest_fail(_vtest, __FILE__, __LINE__,
					   "N=%ld (irq): no nodes after bind", n);
				return -1;
			}
			if (inj_board_flags() & VCAP_INFO_IRQ)
				vtest_fail(_vtest, __FILE__, __LINE__,
					   "N=%ld (irq): the board says interrupts",
					   n);
			if (vk_rebind(b, "unbind")) {
				vtest_fail(_vtest, __FILE__, __LINE__,
					   "N=%ld (irq): unbind: %s", n,
					   strerror(errno));
				return -1;
			}
			continue;
		}
		if (!r) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld (%s): the point fired, yet bind succeeded",
				   n, s.last);
			if (vk_rebind(b, "unbind"))
				return -1;
			continue;
		}
		if (inj_bound(b))
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld (%s): bind failed (%s) but the device has a driver",
				   n, s.last, strerror(err));
		if (inj_leftovers(left, sizeof(left)))
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "N=%ld (%s): bind failed (%s) and left %s",
				   n, s.last, strerror(err), left);
	}
	vtest_fail(_vtest, __FILE__, __LINE__,
		   "the probe still fails at point %d: no end to the walk",
		   INJ_MAX_POINTS);
	return -1;
}

static bool inj_frame(struct vk_stream *st, struct v4l2_buffer *buf)
{
	struct pollfd pfd = { .fd = st->fd, .events = POLLIN };

	return poll(&pfd, 1, 5000) == 1 && vk_stream_dqbuf(st, buf) == 0 &&
	       !(buf->flags & V4L2_BUF_FLAG_ERROR) &&
	       vk_stream_qbuf(st, buf) == 0;
}

TEST_TIMEOUT(probe_walk, 1500)
{
	unsigned int rounds = vk_env("INJ_ROUNDS", 2);
	unsigned int cycles = vk_env("INJ_CYCLES", 3);
	struct inj_mem m0, m1, noise;
	struct vk_board b;
	struct vk_stream st;
	struct v4l2_buffer buf;
	char why[256];
	unsigned int i;
	long points;

	if (inj_knob_open(why, sizeof(why))) {
		vtest_fail(_vtest, __FILE__, __LINE__, "%s", why);
		return;
	}
	ASSERT_EQ(inj_disarm(), 0);
	ASSERT_EQ(vk_find_board(&b), 0);
	TH_LOG("board %s on bus %s, driver %s", b.dev, b.bus, b.drv);

	/* Clean binds first, so that caches are warm before the baseline. */
	for (i = 0; i < 2; i++)
		inj_cycle(_vtest, &b);
	if (_vtest->failed)
		return;
	inj_measure(&noise);
	inj_cycle(_vtest, &b);
	inj_measure(&m0);
	TH_LOG("one clean cycle: SUnreclaim %+lld kB, VmallocUsed %+lld kB, MemAvailable %+lld kB",
	       m0.sunreclaim - noise.sunreclaim, m0.vmalloc - noise.vmalloc,
	       m0.avail - noise.avail);

	for (i = 0; i < rounds; i++) {
		points = inj_walk(_vtest, &b, i == 0);
		if (points < 0)
			return;
		/* A walk that ends at once would prove nothing. */
		ASSERT_GE(points, 3);
		ASSERT_EQ(vk_wait_nodes(), 0);
	}
	for (i = 0; i < cycles; i++)
		inj_cycle(_vtest, &b);
	if (_vtest->failed)
		return;
	inj_measure(&m1);
	TH_LOG("%u walks and %u clean cycles: SUnreclaim %lld -> %lld kB, VmallocUsed %lld -> %lld kB, MemAvailable %lld -> %lld kB",
	       rounds, cycles, m0.sunreclaim, m1.sunreclaim, m0.vmalloc,
	       m1.vmalloc, m0.avail, m1.avail);
	/*
	 * Under KASAN freed objects wait in its quarantine and still count
	 * as slab: there kmemleak, which the VM runner scans after the
	 * command, judges the slab instead.
	 */
	if (access("/sys/kernel/debug/kmemleak", F_OK) == 0)
		TH_LOG("slab judged by kmemleak after the run (KASAN quarantine)");
	else
		EXPECT_LE(m1.sunreclaim - m0.sunreclaim, INJ_SLAB_TOL_KB);
	EXPECT_LE(m1.vmalloc - m0.vmalloc, INJ_VMALLOC_TOL_KB);
	EXPECT_LE(m0.avail - m1.avail, INJ_AVAIL_TOL_KB);

	/* The board that went through all that still streams. */
	ASSERT_EQ(vk_stream_start(&st, V4L2_PIX_FMT_YUYV, 640, 480, 15, 6), 0);
	for (i = 0; i < 5; i++) {
		if (!inj_frame(&st, &buf)) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "frame %u did not come: %s", i,
				   strerror(errno));
			break;
		}
	}
	vk_stream_stop(&st);
	if (i == 5)
		TH_LOG("5 frames after the walk");
}

VTEST_MAIN()
