// SPDX-License-Identifier: GPL-2.0
/*
 * Unbind a software board while its stream runs at a high rate and
 * another process changes the test pattern as fast as it can, so that
 * mode requests are in flight and the producer's timer is armed while the
 * board is torn down.  Every round must unbind and bind cleanly, both
 * processes must see the device go (ENODEV) within seconds, and memory
 * must not grow; the VM runner fails the run on any kernel warning (a
 * timer left queueing work onto a destroyed workqueue warns, or worse).
 *
 * Environment: VCAP_ROUNDS rounds (default 100).
 */
#include <signal.h>
#include <sys/wait.h>

#include "vk-board.h"
#include "vk-stream.h"
#include "vtest.h"

/* Exit 0 when the device goes away (ENODEV), 4 on another error. */
static void __attribute__((noreturn)) set_patterns_forever(void)
{
	struct v4l2_control ctrl = { .id = V4L2_CID_TEST_PATTERN };
	char path[64];
	int fd;

	if (vk_find_video(path, sizeof(path)) < 0)
		_exit(2);
	fd = open(path, O_RDWR);
	if (fd < 0)
		_exit(2);
	for (;;) {
		ctrl.value = !ctrl.value;
		if (vk_xioctl(fd, VIDIOC_S_CTRL, &ctrl) == 0)
			continue;
		if (errno == ENODEV)
			_exit(0);
		/* A request cut short by the removal itself. */
		if (errno != EIO && errno != ETIMEDOUT && errno != EBUSY)
			_exit(4);
	}
}

/* The child's exit status, or -1 if it is still running after 5 s. */
static int reap(pid_t pid)
{
	int status, i;

	for (i = 0; i < 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		usleep(50000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static void round_once(struct vtest_meta *_vtest, const struct vk_board *b,
		       unsigned int n)
{
	pid_t streamer, setter;

	ASSERT_EQ(vk_wait_nodes(), 0);
	streamer = fork();
	ASSERT_GE(streamer, 0);
	if (streamer == 0)
		vk_stream_forever(V4L2_PIX_FMT_YUYV, 320, 240, 240);
	/* Let the stream start before the requests begin. */
	usleep(200000);
	setter = fork();
	ASSERT_GE(setter, 0);
	if (setter == 0)
		set_patterns_forever();
	/* A different point of the request traffic each round. */
	usleep(50000 + (n % 10) * 20000);
	ASSERT_EQ(vk_rebind(b, "unbind"), 0);
	EXPECT_EQ(reap(streamer), 3);
	EXPECT_EQ(reap(setter), 0);
	ASSERT_EQ(vk_rebind(b, "bind"), 0);
}

TEST_TIMEOUT(unbind_with_requests_in_flight, 1500)
{
	unsigned int rounds = vk_env("VCAP_ROUNDS", 100), n;
	long long slab0, vmalloc0, slab1, vmalloc1;
	struct vk_board b;

	ASSERT_EQ(vk_find_board(&b), 0);
	TH_LOG("board %s on bus %s, driver %s", b.dev, b.bus, b.drv);
	round_once(_vtest, &b, 0);
	if (_vtest->failed)
		return;
	ASSERT_EQ(vk_wait_nodes(), 0);
	slab0 = vk_meminfo("Slab");
	vmalloc0 = vk_meminfo("VmallocUsed");
	for (n = 1; n < rounds && !_vtest->failed; n++)
		round_once(_vtest, &b, n);
	ASSERT_EQ(vk_wait_nodes(), 0);
	slab1 = vk_meminfo("Slab");
	vmalloc1 = vk_meminfo("VmallocUsed");
	TH_LOG("%u rounds: Slab %lld -> %lld kB, VmallocUsed %lld -> %lld kB",
	       rounds, slab0, slab1, vmalloc0, vmalloc1);
	EXPECT_LT(slab1 - slab0, 2048);
	EXPECT_LT(vmalloc1 - vmalloc0, 1024);
}

VTEST_MAIN()
