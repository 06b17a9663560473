// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading vcap with the PCI board: refused while a node is open, while
 * VRAM is mapped, and while V4L2 buffers are mapped after their file was
 * closed; accepted after the last close and munmap.  Then FX_LOADS rounds
 * of load, stream, unload.  FX_KMOD and FX_PARAMS name the module.
 */
#include <sys/mman.h>

#include "fx.h"
#include "vtest.h"

static int unload(void)
{
	return syscall(__NR_delete_module, "vcap", O_NONBLOCK);
}

static int load(void)
{
	const char *ko = getenv("FX_KMOD");
	const char *params = getenv("FX_PARAMS") ?: "";
	int fd, r;

	if (!ko)
		return -1;
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = syscall(__NR_finit_module, fd, params, 0);
	close(fd);
	return r;
}

static bool loaded(void)
{
	return access("/sys/module/vcap/refcnt", F_OK) == 0;
}

/* rmmod must fail with "in use" and leave the module loaded. */
#define EXPECT_REFUSED(what)						\
	do {								\
		int _r = unload();					\
		int _e = errno;						\
									\
		if (_r == 0 || (_e != EBUSY && _e != EWOULDBLOCK))	\
			vtest_fail(_vtest, __FILE__, __LINE__,		\
				   "rmmod %s: %d errno %d (%s)", what,	\
				   _r, _e, strerror(_e));		\
		else							\
			TH_LOG("rmmod %s: refused, %s", what,		\
			       strerror(_e));				\
		ASSERT_TRUE(loaded());					\
	} while (0)

/* Stream n frames with whole stamps. */
static void stream_some(struct vtest_meta *_vtest, unsigned int n)
{
	struct vcap_frame_fmt ff;
	struct v4l2_buffer b;
	struct vcap_stamp st;
	struct vk_stream s;

	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 320, 240, 30, 6), 0);
	fx_frame_fmt(&s, &ff);
	while (n--) {
		ASSERT_EQ(fx_poll(s.fd, POLLIN, 5000) & POLLIN, POLLIN);
		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		EXPECT_FALSE(b.flags & V4L2_BUF_FLAG_ERROR);
		EXPECT_EQ(vcap_stamp_check(&ff, s.map[b.index], b.bytesused,
					   &st), VCAP_STAMP_OK);
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	vk_stream_stop(&s);
}

TEST_TIMEOUT(rmmod_refused_while_in_use, 120)
{
	struct vk_stream s;
	struct v4l2_buffer b;
	struct vcap_info in;
	char path[64];
	void *map;
	unsigned int i;
	int fd;

	ASSERT_TRUE(loaded());
	ASSERT_EQ(fx_wait_nodes(10), 0);

	ASSERT_EQ(vk_find_video(path, sizeof(path)), 0);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	EXPECT_REFUSED("with the video node open");
	close(fd);

	ASSERT_EQ(vk_find_vram(path, sizeof(path), NULL, 0), 0);
	fd = open(path, O_RDONLY);
	ASSERT_GE(fd, 0);
	EXPECT_REFUSED("with the VRAM node open");
	ASSERT_EQ(ioctl(fd, VCAP_IOC_QUERY, &in), 0);
	map = mmap(NULL, in.map_size, PROT_READ, MAP_SHARED, fd, 0);
	/* A failed map is a failure; the V4L2 part still runs. */
	EXPECT_NE(map, MAP_FAILED);
	close(fd);
	if (map != MAP_FAILED) {
		EXPECT_REFUSED("with VRAM mapped, its file closed");
		EXPECT_EQ(*(volatile uint32_t *)map, 0x50414356u);
		munmap(map, in.map_size);
	}

	/* V4L2 buffers mapped, streaming stopped by close(). */
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 320, 240, 30, 6), 0);
	ASSERT_EQ(fx_poll(s.fd, POLLIN, 5000) & POLLIN, POLLIN);
	ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
	EXPECT_REFUSED("while streaming");
	close(s.fd);
	EXPECT_REFUSED("with V4L2 buffers mapped, their file closed");
	/* The buffers stay readable until their munmap. */
	for (i = 0; i < s.nbufs; i++) {
		volatile uint8_t v = ((volatile uint8_t *)s.map[i])[0];

		v = ((volatile uint8_t *)s.map[i])[s.len[i] - 1];
		(void)v;
	}
	for (i = 0; i < s.nbufs; i++)
		munmap(s.map[i], s.len[i]);

	ASSERT_EQ(unload(), 0);
	ASSERT_FALSE(loaded());
	TH_LOG("rmmod after the last close and munmap: done");
	ASSERT_EQ(load(), 0);
	ASSERT_EQ(fx_wait_nodes(10), 0);
	stream_some(_vtest, 5);
}

TEST_TIMEOUT(load_stream_unload, 600)
{
	unsigned int loads = vk_env("FX_LOADS", 10), n;
	char dev[64];
	double t0 = fx_now();

	for (n = 0; n < loads && !_vtest->failed; n++) {
		if (!loaded())
			ASSERT_EQ(load(), 0);
		ASSERT_EQ(fx_wait_nodes(10), 0);
		ASSERT_EQ(fx_pci_dev(dev, sizeof(dev)), 0);
		stream_some(_vtest, 5);
		ASSERT_EQ(unload(), 0);
		ASSERT_FALSE(loaded());
	}
	TH_LOG("%u rounds of load, stream 5 frames, unload in %.0f s", n,
	       fx_now() - t0);
	EXPECT_EQ(n, loads);
	ASSERT_EQ(load(), 0);
	ASSERT_EQ(fx_wait_nodes(10), 0);
}

VTEST_MAIN()
