// SPDX-License-Identifier: GPL-2.0
/*
 * VIDIOC_CREATE_BUFS cannot take more memory than the driver allows, and
 * what it takes is charged to the caller's memory cgroup.
 *
 * The per-device cap is the max_buffer_mb module parameter: a 4 GiB
 * sizeimage fails with ENOMEM (or creates what fits), repeated calls never
 * hold more than the cap in total, and VmallocUsed grows by no more than
 * it; after REQBUFS(0) a stream delivers whole frames.  Then ~200 MiB of
 * buffers, well under the cap, are created outside and inside a cgroup v2
 * group whose memory.max is 64M: outside they all come, inside CREATE_BUFS
 * fails with ENOMEM before the group's limit is passed by more than one
 * buffer.  No cgroup2 or no memory controller is a failure, not a skip.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "hard.h"
#include "vcap-stamp.h"
#include "vk-stream.h"
#include "vtest.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CG_GROUP	CG_ROOT "/vcap-hard"
#define CG_LIMIT_MB	64
#define MB		(1024ull * 1024)

/* The cap the driver announces, in MiB; 0 if it has none. */
static unsigned long long cap_mb(void)
{
	char v[64];

	if (hard_read("/sys/module/vcap/parameters/max_buffer_mb", v,
		      sizeof(v)) < 0)
		return 0;
	return strtoull(v, NULL, 0);
}

/* The vcap node, at 640x480 YUYV; -1 on failure. */
static int open_video(void)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	char path[64];
	int fd;

	if (vk_find_video(path, sizeof(path)) < 0)
		return -1;
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -1;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.width = 640;
	f.fmt.pix.height = 480;
	if (ioctl(fd, VIDIOC_S_FMT, &f) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * CREATE_BUFS of count buffers of sizeimage bytes at 640x480 YUYV: the
 * number created, or -1 with errno.
 */
static int create(int fd, unsigned int count, uint32_t sizeimage)
{
	struct v4l2_create_buffers cb;

	memset(&cb, 0, sizeof(cb));
	cb.count = count;
	cb.memory = V4L2_MEMORY_MMAP;
	cb.format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (ioctl(fd, VIDIOC_G_FMT, &cb.format) < 0)
		return -1;
	cb.format.fmt.pix.sizeimage = sizeimage;
	if (ioctl(fd, VIDIOC_CREATE_BUFS, &cb) < 0)
		return -1;
	return cb.count;
}

static int free_all(int fd)
{
	struct v4l2_requestbuffers rb = {
		.count = 0, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};

	return ioctl(fd, VIDIOC_REQBUFS, &rb);
}

TEST_TIMEOUT(createbufs_capped, 150)
{
	const uint32_t big = 64 * MB;
	unsigned long long cap = cap_mb(), total = 0;
	long long vm0, vm1, peak = 0;
	int fd, n, err = 0, calls = 0;

	EXPECT_NE(cap, 0);
	if (!cap) {
		TH_LOG("no /sys/module/vcap/parameters/max_buffer_mb: judging against 1024 MiB");
		cap = 1024;
	}
	fd = open_video();
	ASSERT_GE(fd, 0);
	vm0 = vk_meminfo("VmallocUsed");

	/* 32 buffers of 4 GiB: nothing of that fits. */
	n = create(fd, 32, 0xffffffffu);
	if (n < 0) {
		EXPECT_EQ(errno, ENOMEM);
		TH_LOG("32 x 4 GiB: %s", strerror(errno));
	} else {
		TH_LOG("32 x 4 GiB: %d created", n);
		EXPECT_LE((unsigned long long)n * 4096, cap);
	}
	ASSERT_EQ(free_all(fd), 0);

	/* 4 x 64 MiB at a time, until refused or past the cap. */
	while (total <= cap && calls < 16) {
		calls++;
		n = create(fd, 4, big);
		if (n < 0) {
			err = errno;
			break;
		}
		total += (unsigned long long)n * (big / MB);
		vm1 = vk_meminfo("VmallocUsed");
		if (vm1 - vm0 > peak)
			peak = vm1 - vm0;
		if (n == 0)
			break;
	}
	TH_LOG("cap %llu MiB: %llu MiB created in %d calls, then %s; VmallocUsed +%llu MiB",
	       cap, total, calls, err ? strerror(err) : "no error",
	       peak / 1024);
	EXPECT_LE(total, cap);
	EXPECT_LE(peak / 1024, (long long)cap + 8);
	if (total <= cap) {
		EXPECT_EQ(err, ENOMEM);
		/* At the cap, even a small buffer that does not fit is refused. */
		if (total == cap)
			EXPECT_ERRNO(create(fd, 1, 640 * 480 * 2), ENOMEM);
	}
	ASSERT_EQ(free_all(fd), 0);
	vm1 = vk_meminfo("VmallocUsed");
	TH_LOG("after REQBUFS(0): VmallocUsed %+lld kB from the start",
	       vm1 - vm0);
	EXPECT_LT(vm1 - vm0, 8 * 1024);
	close(fd);
}

TEST_TIMEOUT(stream_after_createbufs, 120)
{
	struct vcap_frame_fmt ff;
	struct v4l2_buffer b;
	struct vk_stream s;
	unsigned int i, good = 0;
	int fd;

	/* A huge request first, then a normal stream on the same device. */
	fd = open_video();
	ASSERT_GE(fd, 0);
	create(fd, 32, 0xffffffffu);
	ASSERT_EQ(free_all(fd), 0);
	close(fd);

	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 15, 6), 0);
	ff.fourcc = s.pix.pixelformat;
	ff.width = s.pix.width;
	ff.height = s.pix.height;
	ff.bytesperline = s.pix.bytesperline;
	ff.sizeimage = s.pix.sizeimage;
	for (i = 0; i < 30; i++) {
		struct vcap_stamp st;

		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		if (!(b.flags & V4L2_BUF_FLAG_ERROR) &&
		    vcap_stamp_check(&ff, s.map[b.index], b.bytesused, &st) ==
		    VCAP_STAMP_OK)
			good++;
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	vk_stream_stop(&s);
	TH_LOG("30 frames after the huge CREATE_BUFS: %u whole", good);
	EXPECT_EQ(good, 30);
}

/* cgroup v2 with the memory controller, mounted and enabled for children. */
static int cgroup_ready(char *why, size_t len)
{
	char ctl[256];

	if (access(CG_ROOT "/cgroup.controllers", F_OK) &&
	    mount("none", CG_ROOT, "cgroup2", 0, NULL)) {
		snprintf(why, len, "cannot mount cgroup2 at %s: %s", CG_ROOT,
			 strerror(errno));
		return -1;
	}
	if (hard_read(CG_ROOT "/cgroup.controllers", ctl, sizeof(ctl)) < 0 ||
	    !strstr(ctl, "memory")) {
		snprintf(why, len, "no memory controller in %s/cgroup.controllers",
			 CG_ROOT);
		return -1;
	}
	if (hard_write(CG_ROOT "/cgroup.subtree_control", "+memory")) {
		snprintf(why, len, "cannot enable +memory: %s", strerror(errno));
		return -1;
	}
	rmdir(CG_GROUP);
	if (mkdir(CG_GROUP, 0755) ||
	    hard_write(CG_GROUP "/memory.max", "64M")) {
		snprintf(why, len, "cannot make %s with memory.max 64M: %s",
			 CG_GROUP, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Up to 32 CREATE_BUFS of one 6.25 MiB buffer (200 MiB in all), at
 * 640x480: how many came before the first failure, and its errno.
 */
struct fill {
	int created;
	int err;
};

static struct fill fill_200mb(void)
{
	struct fill r = { 0, 0 };
	int fd = open_video(), i, n;

	if (fd < 0) {
		r.err = errno ? errno : ENODEV;
		return r;
	}
	for (i = 0; i < 32; i++) {
		n = create(fd, 1, 6400 * 1024);
		if (n != 1) {
			r.err = n < 0 ? errno : ENOSPC;
			break;
		}
		r.created++;
	}
	free_all(fd);
	close(fd);
	return r;
}

TEST_TIMEOUT(createbufs_charged_to_memcg, 150)
{
	char why[256], ev[256], pidbuf[32];
	struct fill out, in;
	int p[2], status;
	ssize_t got;
	pid_t pid;

	if (cgroup_ready(why, sizeof(why)) < 0) {
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "cgroup2 memory control unavailable: %s", why);
		return;
	}

	out = fill_200mb();
	TH_LOG("outside the group: %d x 6.25 MiB created%s%s", out.created,
	       out.err ? ", then " : "", out.err ? strerror(out.err) : "");
	EXPECT_EQ(out.created, 32);

	ASSERT_EQ(pipe(p), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		snprintf(pidbuf, sizeof(pidbuf), "%d", getpid());
		if (hard_write(CG_GROUP "/cgroup.procs", pidbuf))
			_exit(2);
		in = fill_200mb();
		if (write(p[1], &in, sizeof(in)) != sizeof(in))
			_exit(3);
		_exit(0);
	}
	close(p[1]);
	memset(&in, 0, sizeof(in));
	got = read(p[0], &in, sizeof(in));
	close(p[0]);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (hard_read(CG_GROUP "/memory.events", ev, sizeof(ev)) < 0)
		ev[0] = '\0';
	if (WIFSIGNALED(status))
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "the caller in the 64M group was killed by signal %d (the OOM killer?) instead of getting ENOMEM",
			   WTERMSIG(status));
	else
		EXPECT_EQ(WEXITSTATUS(status), 0);
	EXPECT_EQ(got, (ssize_t)sizeof(in));
	TH_LOG("inside the 64M group: %d x 6.25 MiB created, then %s (memory.events: %s)",
	       in.created, in.err ? strerror(in.err) : "no error", ev);
	EXPECT_EQ(in.err, ENOMEM);
	/* 64 MiB is ten buffers and a quarter. */
	EXPECT_LE(in.created, CG_LIMIT_MB * 1024 / 6400 + 1);
	EXPECT_EQ(rmdir(CG_GROUP), 0);
}

VTEST_MAIN()
