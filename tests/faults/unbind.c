// SPDX-License-Identifier: GPL-2.0
/*
 * Unbind and rebind the PCI board while one process streams V4L2 and
 * another reads the mapped VRAM: the reader ends on SIGBUS or ENODEV, the
 * streamer on ENODEV (or EIO, if the watchdog saw the board die first),
 * also from a DQBUF that was waiting when the board went away; nobody
 * hangs, and after rebind both start again.
 *
 * Environment: FX_CYCLES (default 100) cycles, stopping early once
 * FX_SECS (default 120) seconds have passed; at least FX_MIN_CYCLES
 * (default 10) must fit.
 */
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "fx.h"
#include "vtest.h"

enum {
	READER_SIGBUS = 10,	/* a touch of the mapping faulted */
	READER_ENODEV = 11,	/* an ioctl said the board is gone */
	READER_OTHER = 12,	/* anything else: a failure */
	READER_SETUP = 13,
	STREAMER_ERROR = 3,	/* DQBUF/QBUF failed with ENODEV or EIO */
};

static void streamer_end(const char *what)
{
	if (errno == ENODEV || errno == EIO)
		_exit(STREAMER_ERROR);
	fprintf(stderr, "streamer: %s after unbind: %s\n", what,
		strerror(errno));
	_exit(4);
}

/* Stream; one byte on ready after the first good frame. */
static void streamer(int ready)
{
	struct vk_stream s;
	struct v4l2_buffer b;
	bool told = false;

	if (vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 320, 240, 30, 6) < 0)
		_exit(2);
	for (;;) {
		if (vk_stream_dqbuf(&s, &b) < 0)
			streamer_end("DQBUF");
		if (!told && !(b.flags & V4L2_BUF_FLAG_ERROR))
			told = write(ready, "s", 1) == 1;
		if (vk_stream_qbuf(&s, &b) < 0)
			streamer_end("QBUF");
	}
}

static void on_sigbus(int sig)
{
	(void)sig;
	_exit(READER_SIGBUS);
}

/*
 * Wait for frames on the VRAM node and read each one's slot through the
 * mapping; one byte on ready after the first frame.
 */
static void reader(int ready)
{
	const volatile uint8_t *map;
	struct vcap_info in;
	struct vcap_wait w;
	uint64_t after = 0;
	char path[64];
	bool told = false;
	int fd;

	signal(SIGBUS, on_sigbus);
	if (vk_find_vram(path, sizeof(path), NULL, 0) < 0) {
		perror("reader: no VRAM node");
		_exit(READER_SETUP);
	}
	fd = open(path, O_RDONLY);
	if (fd < 0 || ioctl(fd, VCAP_IOC_QUERY, &in) < 0) {
		perror(path);
		_exit(READER_SETUP);
	}
	map = mmap(NULL, in.map_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		/* Reported by the parent; go on waiting for frames. */
		if (write(ready, "m", 1) != 1)
			_exit(READER_SETUP);
		map = NULL;
	}
	for (;;) {
		volatile uint32_t sum = 0;
		uint64_t off, i;

		/* The control page is read on every round. */
		if (map)
			sum += *(const volatile uint32_t *)map;
		memset(&w, 0, sizeof(w));
		w.after_seq = after;
		w.timeout_ms = 200;
		if (ioctl(fd, VCAP_IOC_WAIT_FRAME, &w) < 0) {
			if (errno == ETIMEDOUT || errno == EAGAIN ||
			    errno == EINTR)
				continue;
			_exit(errno == ENODEV ? READER_ENODEV : READER_OTHER);
		}
		if (ioctl(fd, VCAP_IOC_QUERY, &in) < 0)
			_exit(errno == ENODEV ? READER_ENODEV : READER_OTHER);
		after = w.sequence;
		off = in.ring_offset + (uint64_t)w.slot * in.slot_stride;
		if (!(in.flags & VCAP_INFO_STREAMING) ||
		    off + in.sizeimage > in.map_size)
			continue;
		for (i = 0; map && i < in.sizeimage; i += 4096)
			sum += map[off + i];
		if (!told)
			told = write(ready, "r", 1) == 1;
	}
}

/* Wait for a child for at most secs; its status, or -1 if it hung. */
static int reap(pid_t pid, double secs)
{
	double t0 = fx_now();
	int status;

	do {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(20000);
	} while (fx_now() - t0 < secs);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

struct tally {
	unsigned int sigbus, enodev, nomap, s_enodev;
	double worst_reader, worst_streamer;
};

static void cycle(struct vtest_meta *_vtest, const char *dev,
		  struct tally *t)
{
	int p[2], rs, ss;
	pid_t spid, rpid;
	char c;
	unsigned int got = 0;
	double t0, tu;

	ASSERT_EQ(fx_wait_nodes(10), 0);
	ASSERT_EQ(pipe(p), 0);
	spid = fork();
	ASSERT_GE(spid, 0);
	if (spid == 0) {
		close(p[0]);
		streamer(p[1]);
	}
	rpid = fork();
	ASSERT_GE(rpid, 0);
	if (rpid == 0) {
		close(p[0]);
		reader(p[1]);
	}
	close(p[1]);
	/* Both running: one byte from each. */
	for (t0 = fx_now(); got < 2 && fx_now() - t0 < 15;) {
		if (fx_poll(p[0], POLLIN, 500) > 0 && read(p[0], &c, 1) == 1) {
			if (c == 'm') {
				/* Counted; the reader goes on without a map. */
				t->nomap++;
				continue;
			}
			got++;
		}
	}
	close(p[0]);
	EXPECT_EQ(got, 2);

	tu = fx_now();
	ASSERT_EQ(fx_pci("unbind", dev), 0);
	rs = reap(rpid, 10);
	if (rs >= 0 && t->worst_reader < fx_now() - tu)
		t->worst_reader = fx_now() - tu;
	ss = reap(spid, 10);
	if (ss >= 0 && t->worst_streamer < fx_now() - tu)
		t->worst_streamer = fx_now() - tu;

	if (rs < 0) {
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "VRAM reader still running 10 s after unbind");
	} else {
		EXPECT_TRUE(WIFEXITED(rs));
		if (WIFEXITED(rs) && WEXITSTATUS(rs) == READER_SIGBUS)
			t->sigbus++;
		else if (WIFEXITED(rs) && WEXITSTATUS(rs) == READER_ENODEV)
			t->enodev++;
		else
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "VRAM reader ended with status 0x%x", rs);
	}
	if (ss < 0)
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "streamer still running 10 s after unbind");
	else if (WIFEXITED(ss) && WEXITSTATUS(ss) == STREAMER_ERROR)
		t->s_enodev++;
	else
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "streamer ended with status 0x%x, want exit %d",
			   ss, STREAMER_ERROR);
	ASSERT_EQ(fx_pci("bind", dev), 0);
}

TEST_TIMEOUT(pci_unbind_rebind_while_streaming_and_mapped, 1200)
{
	unsigned int cycles = vk_env("FX_CYCLES", 100);
	unsigned int secs = vk_env("FX_SECS", 120);
	unsigned int min = vk_env("FX_MIN_CYCLES", 10);
	long long slab0 = 0, vm0 = 0;
	struct tally t = { 0 };
	char dev[64];
	unsigned int n;
	double t0;

	ASSERT_EQ(fx_wait_nodes(10), 0);
	ASSERT_EQ(fx_pci_dev(dev, sizeof(dev)), 0);
	TH_LOG("PCI board %s", dev);
	t0 = fx_now();
	for (n = 0; n < cycles && fx_now() - t0 < secs; n++) {
		cycle(_vtest, dev, &t);
		if (_vtest->failed)
			break;
		if (n == 0) {
			slab0 = vk_meminfo("Slab");
			vm0 = vk_meminfo("VmallocUsed");
		}
	}
	TH_LOG("%u cycles in %.0f s: reader SIGBUS %u, ENODEV %u, VRAM mmap failed %u; streamer ENODEV/EIO %u; slowest exit after unbind: reader %.2f s, streamer %.2f s",
	       n, fx_now() - t0, t.sigbus, t.enodev, t.nomap, t.s_enodev,
	       t.worst_reader, t.worst_streamer);
	TH_LOG("Slab %lld -> %lld kB, VmallocUsed %lld -> %lld kB", slab0,
	       vk_meminfo("Slab"), vm0, vk_meminfo("VmallocUsed"));
	/* Every cycle's reader must have had VRAM mapped. */
	EXPECT_EQ(t.nomap, 0);
	EXPECT_GE(n, min);

	/* After the last rebind: a stream with whole frames again. */
	{
		struct vcap_frame_fmt ff;
		struct vk_stream s;
		struct v4l2_buffer b;
		struct vcap_stamp st;
		unsigned int i;

		ASSERT_EQ(fx_wait_nodes(10), 0);
		ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 320, 240, 30,
					  6), 0);
		fx_frame_fmt(&s, &ff);
		for (i = 0; i < 10; i++) {
			ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
			EXPECT_FALSE(b.flags & V4L2_BUF_FLAG_ERROR);
			EXPECT_EQ(vcap_stamp_check(&ff, s.map[b.index],
						   b.bytesused, &st),
				  VCAP_STAMP_OK);
			ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
		}
		vk_stream_stop(&s);
	}
}

VTEST_MAIN()
