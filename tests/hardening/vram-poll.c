// SPDX-License-Identifier: GPL-2.0
/*
 * A VRAM client that only polls: POLLIN on /dev/vcapN reports frames that
 * arrived since the last poll (or VCAP_IOC_WAIT_FRAME) that reported them,
 * so a client that never calls WAIT_FRAME sees one POLLIN per frame or
 * per few frames, not a busy loop.
 *
 * While a V4L2 stream runs at 15 fps, poll() for 3 s (timeout 1000 ms
 * each) and count the POLLIN returns: more than none, and at most twice
 * the frames the board produced meanwhile (status.frames_produced from
 * the read-only control page).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include <vcap/board.h>
#include <linux/vcap.h>

#include "hard.h"
#include "vk-stream.h"
#include "vtest.h"

#define POLL_S		3.0
/* A busy loop would make millions; stop counting long before. */
#define POLL_MAX	100000

TEST_TIMEOUT(poll_only_client, 60)
{
	const volatile struct vcap_board_ctrl *c;
	unsigned long pollin = 0, timeouts = 0, other = 0;
	unsigned long long p0, p1;
	struct vcap_info in;
	char path[64];
	double t0, t1;
	pid_t pid;
	int fd, i;

	ASSERT_EQ(vk_find_vram(path, sizeof(path), NULL, 0), 0);
	fd = open(path, O_RDONLY);
	ASSERT_GE(fd, 0);
	c = vk_map_ctrl();
	ASSERT_NE(c, NULL);

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		vk_stream_forever(V4L2_PIX_FMT_YUYV, 640, 480, 15);
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(ioctl(fd, VCAP_IOC_QUERY, &in), 0);
		if ((in.flags & VCAP_INFO_STREAMING) && c->status.frames_produced)
			break;
		usleep(100000);
	}
	ASSERT_TRUE(in.flags & VCAP_INFO_STREAMING);

	p0 = c->status.frames_produced;
	t0 = hard_now();
	while ((t1 = hard_now()) - t0 < POLL_S && pollin < POLL_MAX) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, 1000);

		if (r == 0)
			timeouts++;
		else if (r == 1 && (pfd.revents & POLLIN))
			pollin++;
		else
			other++;
	}
	p1 = c->status.frames_produced;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	TH_LOG("%.2f s: %llu frames produced, %lu POLLIN, %lu timeouts, %lu other",
	       t1 - t0, p1 - p0, pollin, timeouts, other);
	EXPECT_GT(p1 - p0, 0);
	EXPECT_GT(pollin, 0);
	EXPECT_LE(pollin, 2 * (p1 - p0));
	EXPECT_EQ(other, 0);
	vk_unmap_ctrl(c);
	close(fd);
}

VTEST_MAIN()
