// SPDX-License-Identifier: GPL-2.0
/*
 * Exported capture buffers as dma-bufs: CPU access brackets, mapping, and
 * import into a DRM device that maps the attachment.
 *
 * While a stream runs: VIDIOC_EXPBUF of a dequeued buffer,
 * DMA_BUF_IOCTL_SYNC START|READ and END|READ, and the frame read through
 * an mmap of the dma-buf equals the one read through the V4L2 mapping
 * and carries a whole stamp.  Then 100 times: export, import into vgem
 * with DRM_IOCTL_PRIME_FD_TO_HANDLE (which attaches and maps the dma-buf),
 * GEM close, close; the process's open files, VmallocUsed and the kernel's
 * count of dma-bufs come back to where they were.  The kernels under test
 * have no vkms; vgem imports the same way.  Load vgem before the run.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <drm/drm.h>
#include <linux/dma-buf.h>

#include "hard.h"
#include "vcap-stamp.h"
#include "vk-stream.h"
#include "vtest.h"

#define IMPORTS	100

static int expbuf(struct vk_stream *s, unsigned int index)
{
	struct v4l2_exportbuffer e;

	memset(&e, 0, sizeof(e));
	e.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	e.index = index;
	e.flags = O_RDONLY | O_CLOEXEC;
	if (vk_xioctl(s->fd, VIDIOC_EXPBUF, &e) < 0)
		return -1;
	return e.fd;
}

static int dmabuf_sync(int fd, uint64_t flags)
{
	struct dma_buf_sync sync = { .flags = flags };

	return vk_xioctl(fd, DMA_BUF_IOCTL_SYNC, &sync);
}

static bool stamped(const struct vk_stream *s, const void *frame)
{
	struct vcap_frame_fmt ff = {
		.fourcc = s->pix.pixelformat, .width = s->pix.width,
		.height = s->pix.height, .bytesperline = s->pix.bytesperline,
		.sizeimage = s->pix.sizeimage,
	};
	struct vcap_stamp st;

	return vcap_stamp_check(&ff, frame, s->pix.sizeimage, &st) ==
	       VCAP_STAMP_OK;
}

TEST_TIMEOUT(expbuf_sync_and_mmap, 120)
{
	unsigned int i, same = 0;
	struct v4l2_buffer b;
	struct vk_stream s;

	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 15, 6), 0);
	for (i = 0; i < 10; i++) {
		const void *p;
		size_t len;
		int fd;

		ASSERT_EQ(vk_stream_dqbuf(&s, &b), 0);
		ASSERT_FALSE(b.flags & V4L2_BUF_FLAG_ERROR);
		len = s.len[b.index];
		fd = expbuf(&s, b.index);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(dmabuf_sync(fd, DMA_BUF_SYNC_START |
				      DMA_BUF_SYNC_READ), 0);
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		ASSERT_NE(p, MAP_FAILED);
		EXPECT_TRUE(stamped(&s, p));
		if (!memcmp(p, s.map[b.index], b.bytesused))
			same++;
		ASSERT_EQ(dmabuf_sync(fd, DMA_BUF_SYNC_END |
				      DMA_BUF_SYNC_READ), 0);
		munmap((void *)p, len);
		close(fd);
		ASSERT_EQ(vk_stream_qbuf(&s, &b), 0);
	}
	vk_stream_stop(&s);
	TH_LOG("10 exported frames: %u equal through both mappings", same);
	EXPECT_EQ(same, 10);
}

/* The vgem DRM device, opened, or -1. */
static int open_vgem(char *path, size_t len)
{
	int i, fd;

	for (i = 0; i < 16; i++) {
		struct drm_version v;
		char name[64] = "";

		snprintf(path, len, "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&v, 0, sizeof(v));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		if (ioctl(fd, DRM_IOCTL_VERSION, &v) == 0 &&
		    !strcmp(name, "vgem"))
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * "Total N objects" from debugfs' dma-buf list, or -1.  Every dma-buf in
 * the list has a "Total N devices attached" line of its own, which the
 * number alone would match: the word after it must be "object".
 */
static long dmabuf_count(void)
{
	char line[256];
	long n = -1, v;
	char s;
	FILE *f = fopen("/sys/kernel/debug/dma_buf/bufinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Total %ld object%c", &v, &s) == 2) {
			n = v;
			break;
		}
	fclose(f);
	return n;
}

/* One export, import, GEM close and close; 0 or -1 with errno. */
static int import_once(struct vtest_meta *_vtest, struct vk_stream *s,
		       int drm)
{
	struct drm_prime_handle ph;
	struct drm_gem_close gc;
	struct v4l2_buffer b;
	int fd, ret = 0;

	if (vk_stream_dqbuf(s, &b) < 0)
		return -1;
	fd = expbuf(s, b.index);
	if (fd < 0)
		return -1;
	memset(&ph, 0, sizeof(ph));
	ph.fd = fd;
	if (ioctl(drm, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph) < 0) {
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "PRIME_FD_TO_HANDLE: %s", strerror(errno));
		ret = -1;
	} else {
		memset(&gc, 0, sizeof(gc));
		gc.handle = ph.handle;
		if (ioctl(drm, DRM_IOCTL_GEM_CLOSE, &gc) < 0) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "GEM_CLOSE: %s", strerror(errno));
			ret = -1;
		}
	}
	close(fd);
	if (vk_stream_qbuf(s, &b) < 0)
		return -1;
	return ret;
}

TEST_TIMEOUT(import_into_vgem, 150)
{
	long long vm0, vm1;
	long bufs0, bufs1;
	struct vk_stream s;
	char path[64];
	int drm, fds0, fds1, i;

	drm = open_vgem(path, sizeof(path));
	if (drm < 0) {
		vtest_fail(_vtest, __FILE__, __LINE__,
			   "no vgem DRM device in /dev/dri (modprobe vgem)");
		return;
	}
	TH_LOG("importer: vgem at %s", path);
	ASSERT_EQ(vk_stream_start(&s, V4L2_PIX_FMT_YUYV, 640, 480, 15, 6), 0);
	/* A few rounds first, so that caches are warm before the baseline. */
	for (i = 0; i < 5; i++)
		ASSERT_EQ(import_once(_vtest, &s, drm), 0);
	fds0 = hard_fd_count();
	vm0 = vk_meminfo("VmallocUsed");
	bufs0 = dmabuf_count();
	for (i = 0; i < IMPORTS; i++)
		ASSERT_EQ(import_once(_vtest, &s, drm), 0);
	fds1 = hard_fd_count();
	vm1 = vk_meminfo("VmallocUsed");
	bufs1 = dmabuf_count();
	vk_stream_stop(&s);
	close(drm);
	TH_LOG("%d imports: fds %d -> %d, VmallocUsed %lld -> %lld kB, dma-bufs %ld -> %ld",
	       IMPORTS, fds0, fds1, vm0, vm1, bufs0, bufs1);
	EXPECT_EQ(fds1, fds0);
	EXPECT_LT(vm1 - vm0, 256);
	EXPECT_GE(bufs0, 0);
	EXPECT_EQ(bufs1, bufs0);
}

VTEST_MAIN()
