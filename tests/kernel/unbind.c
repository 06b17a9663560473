// SPDX-License-Identifier: GPL-2.0
/*
 * Unbind a vcap board while one process streams V4L2 and this one has
 * its VRAM mapped: the mapping then faults with SIGBUS, the VRAM file
 * returns ENODEV and polls EPOLLERR|EPOLLHUP, the streamer gets ENODEV
 * instead of hanging, and after rebind everything works again.
 *
 * The board is the first /dev/vcapN's device, unbound through its bus
 * driver (the software board's platform driver or the PCI driver).
 * Environment: VCAP_CYCLES unbind/rebind cycles with a stream each
 * (default 1), after which Slab and VmallocUsed must not have grown
 * beyond noise.
 */
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <linux/vcap.h>

#include "vk-board.h"
#include "vk-stream.h"
#include "vtest.h"

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

/* One cycle: stream + map, unbind, check the fallout, rebind. */
static void cycle(struct vtest_meta *_vtest, const struct vk_board *b,
		  bool verbose)
{
	const volatile uint32_t *magic;
	struct pollfd pfd;
	struct vcap_info in;
	char path[64];
	int fd, status, i;
	pid_t pid;

	ASSERT_EQ(vk_wait_nodes(), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		vk_stream_forever(V4L2_PIX_FMT_YUYV, 640, 480, 15);

	ASSERT_EQ(vk_find_vram(path, sizeof(path), NULL, 0), 0);
	fd = open(path, O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, VCAP_IOC_QUERY, &in), 0);
	magic = mmap(NULL, in.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(magic, MAP_FAILED);
	ASSERT_EQ(*magic, 0x50414356u);
	/* Let the streamer get going. */
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(ioctl(fd, VCAP_IOC_QUERY, &in), 0);
		if (in.flags & VCAP_INFO_STREAMING)
			break;
		usleep(50000);
	}
	EXPECT_TRUE(in.flags & VCAP_INFO_STREAMING);
	usleep(300000);

	ASSERT_EQ(vk_rebind(b, "unbind"), 0);

	/* The mapping is gone: a touch is SIGBUS, never the old memory. */
	signal(SIGBUS, on_sigbus);
	if (sigsetjmp(bus_jmp, 1) == 0) {
		volatile uint32_t v = *magic;

		(void)v;
		signal(SIGBUS, SIG_DFL);
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "VRAM mapping still readable after unbind");
		return;
	}
	signal(SIGBUS, SIG_DFL);
	ASSERT_ERRNO(ioctl(fd, VCAP_IOC_QUERY, &in), ENODEV);
	pfd.fd = fd;
	pfd.events = POLLIN;
	ASSERT_EQ(poll(&pfd, 1, 1000), 1);
	EXPECT_TRUE(pfd.revents & POLLERR);
	EXPECT_TRUE(pfd.revents & POLLHUP);
	ASSERT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0), ENODEV);

	/* The streamer sees ENODEV (exit 3), not a hang or EINVAL. */
	for (i = 0; i < 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		usleep(50000);
	}
	if (i == 100) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "streamer still running 5 s after unbind");
	} else {
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(WEXITSTATUS(status), 3);
	}
	munmap((void *)magic, in.map_size);
	close(fd);

	ASSERT_EQ(vk_rebind(b, "bind"), 0);
	ASSERT_EQ(vk_wait_nodes(), 0);
	if (verbose)
		TH_LOG("unbind: SIGBUS, ENODEV, EPOLLERR|EPOLLHUP, streamer error; rebound");
}

TEST_TIMEOUT(unbind_while_mapped_and_streaming, 1500)
{
	unsigned int cycles = vk_env("VCAP_CYCLES", 1), n;
	long long slab0, vmalloc0, slab1, vmalloc1;
	struct vk_board b;

	ASSERT_EQ(vk_find_board(&b), 0);
	TH_LOG("board %s on bus %s, driver %s", b.dev, b.bus, b.drv);
	/* One cycle first, so caches are warm before the baseline. */
	cycle(_vtest, &b, true);
	if (_vtest->failed || cycles < 2)
		return;
	slab0 = vk_meminfo("Slab");
	vmalloc0 = vk_meminfo("VmallocUsed");
	for (n = 1; n < cycles && !_vtest->failed; n++)
		cycle(_vtest, &b, false);
	slab1 = vk_meminfo("Slab");
	vmalloc1 = vk_meminfo("VmallocUsed");
	TH_LOG("%u cycles: Slab %lld -> %lld kB, VmallocUsed %lld -> %lld kB",
	       cycles, slab0, slab1, vmalloc0, vmalloc1);
	/* A leak per cycle would grow these by the cycle count. */
	EXPECT_LT(slab1 - slab0, 2048);
	EXPECT_LT(vmalloc1 - vmalloc0, 1024);
}

VTEST_MAIN()
