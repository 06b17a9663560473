// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Capture into imported dma-bufs (V4L2_MEMORY_DMABUF), from three
 * exporters: vgem (DRM dumb buffers exported with PRIME), udmabuf (memfd
 * pages), and vcap's own exported buffers.  Each frame is read back
 * through the exporter's own mapping: its stamps must decode, with the
 * same step as the V4L2 sequence, and every buffer comes back with the
 * dma-buf it was queued with.  The buffers are requeued with other
 * dma-bufs than the ones they held, so every frame attaches and maps anew.
 *
 * Then what must fail cleanly: a dma-buf smaller than the image, a plane
 * length past the dma-buf's end, descriptors that are no dma-buf.  And
 * what must stay safe: every descriptor and mapping of the dma-bufs
 * closed while they are queued, the kernel's count of dma-bufs back to
 * where it was once the queue lets them go.
 *
 * Runs as root with vcap and vgem loaded; the udmabuf tests need a kernel
 * built with CONFIG_UDMABUF.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>
#include <drm/drm.h>
#include <linux/dma-buf.h>
#include <linux/udmabuf.h>
#include <linux/videodev2.h>

#include "mem-node.h"
#include "vcap-stamp.h"
#include "vtest.h"

#define DMABUF		V4L2_MEMORY_DMABUF
#define WIDTH		640
#define HEIGHT		480
#define FPS		15
#define NBUFS		6	/* the driver's minimum */
#define NDBUFS		(NBUFS + 2)
#define FRAMES		20

/* The dma-bufs a test captures into, and a CPU view of each. */
struct imp {
	unsigned int n;
	int fd[NDBUFS];			/* -1 once closed */
	const uint8_t *view[NDBUFS];	/* the exporter's mapping */
	size_t len[NDBUFS];
};

static void imp_init(struct imp *im)
{
	unsigned int i;

	memset(im, 0, sizeof(*im));
	for (i = 0; i < NDBUFS; i++)
		im->fd[i] = -1;
}

static void imp_close(struct imp *im)
{
	unsigned int i;

	for (i = 0; i < im->n; i++) {
		if (im->view[i])
			munmap((void *)im->view[i], im->len[i]);
		if (im->fd[i] >= 0)
			close(im->fd[i]);
	}
	imp_init(im);
}

/* The vcap node at 640x480 YUYV, 15 fps, or -1. */
static int open_node(struct v4l2_pix_format *pix)
{
	struct v4l2_streamparm parm;
	struct v4l2_format fmt;
	char path[32];
	int fd;

	fd = mem_node_open(path, sizeof(path), &fmt);
	if (fd < 0)
		return -1;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	fmt.fmt.pix.width = WIDTH;
	fmt.fmt.pix.height = HEIGHT;
	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	parm.parm.capture.timeperframe.numerator = 1;
	parm.parm.capture.timeperframe.denominator = FPS;
	if (ioctl(fd, VIDIOC_S_FMT, &fmt) || ioctl(fd, VIDIOC_S_PARM, &parm) ||
	    fmt.fmt.pix.width != WIDTH || fmt.fmt.pix.height != HEIGHT) {
		close(fd);
		return -1;
	}
	*pix = fmt.fmt.pix;
	return fd;
}

static int qbuf(int fd, unsigned int index, int dfd, unsigned int length)
{
	struct v4l2_buffer b;

	memset(&b, 0, sizeof(b));
	b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b.memory = DMABUF;
	b.index = index;
	b.m.fd = dfd;
	b.length = length;
	return ioctl(fd, VIDIOC_QBUF, &b);
}

static int stream(int fd, bool on)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	return ioctl(fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type);
}

static int dmabuf_sync(int fd, uint64_t flags)
{
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_READ | flags };

	return ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync);
}

/*
 * "Total N objects" from debugfs' list of dma-bufs, or -1.  Each dma-buf
 * there has a "Total N devices attached" line of its own.
 */
static long dmabuf_count(void)
{
	const char *path = "/sys/kernel/debug/dma_buf/bufinfo";
	char line[256], s;
	long n = -1;
	FILE *f;

	if (access(path, R_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Total %ld object%c", &n, &s) == 2)
			break;
	fclose(f);
	return n;
}

/* exporters */

static int open_vgem(void)
{
	char path[32], name[64];
	struct drm_version v;
	int i, fd;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&v, 0, sizeof(v));
		memset(name, 0, sizeof(name));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "vgem"))
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * A dumb buffer of width x height bytes exported by PRIME: its dma-buf
 * fd, or -1.  The GEM handle is closed at once: the dma-buf holds the
 * object.
 */
static int vgem_dmabuf(int drm, unsigned int width, unsigned int height,
		       size_t *size)
{
	struct drm_mode_create_dumb cd;
	struct drm_prime_handle ph;
	struct drm_gem_close gc;
	int ret;

	memset(&cd, 0, sizeof(cd));
	cd.width = width;
	cd.height = height;
	cd.bpp = 8;
	if (ioctl(drm, DRM_IOCTL_MODE_CREATE_DUMB, &cd))
		return -1;
	memset(&ph, 0, sizeof(ph));
	ph.handle = cd.handle;
	ph.flags = DRM_CLOEXEC | DRM_RDWR;
	ret = ioctl(drm, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph);
	memset(&gc, 0, sizeof(gc));
	gc.handle = cd.handle;
	ioctl(drm, DRM_IOCTL_GEM_CLOSE, &gc);
	if (ret)
		return -1;
	*size = cd.size;
	return ph.fd;
}

/* n vgem dma-bufs of at least sizeimage bytes, each mapped. */
static void vgem_imp(struct vtest_meta *_vtest, int drm,
		     const struct v4l2_pix_format *pix, unsigned int n,
		     struct imp *im)
{
	unsigned int i;
	void *p;

	if (drm < 0)
		TH_LOG("no vgem DRM device in /dev/dri (modprobe vgem)");
	ASSERT_GE(drm, 0);
	for (i = 0; i < n; i++) {
		im->fd[i] = vgem_dmabuf(drm, pix->bytesperline, pix->height,
					&im->len[i]);
		ASSERT_GE(im->fd[i], 0);
		im->n++;
		ASSERT_GE(im->len[i], pix->sizeimage);
		p = mmap(NULL, im->len[i], PROT_READ, MAP_SHARED, im->fd[i], 0);
		ASSERT_NE(p, MAP_FAILED);
		im->view[i] = p;
	}
}

/*
 * n udmabufs of sizeimage bytes (page aligned) over memfds; the frame is
 * read through the memfd's own mapping, so it shows the pages themselves.
 */
static void udmabuf_imp(struct vtest_meta *_vtest,
			const struct v4l2_pix_format *pix, unsigned int n,
			struct imp *im)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t size = (pix->sizeimage + page - 1) / page * page;
	struct udmabuf_create c;
	unsigned int i;
	int dev, memfd;
	void *p;

	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		TH_LOG("no /dev/udmabuf on a kernel built with CONFIG_UDMABUF");
	ASSERT_GE(dev, 0);
	for (i = 0; i < n; i++) {
		memfd = memfd_create("vcap-import", MFD_ALLOW_SEALING |
						    MFD_CLOEXEC);
		ASSERT_GE(memfd, 0);
		ASSERT_EQ(ftruncate(memfd, (off_t)size), 0);
		ASSERT_EQ(fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
		memset(&c, 0, sizeof(c));
		c.memfd = memfd;
		c.flags = UDMABUF_FLAGS_CLOEXEC;
		c.size = size;
		im->fd[i] = ioctl(dev, UDMABUF_CREATE, &c);
		p = mmap(NULL, size, PROT_READ, MAP_SHARED, memfd, 0);
		close(memfd);
		ASSERT_GE(im->fd[i], 0);
		im->n++;
		ASSERT_NE(p, MAP_FAILED);
		im->view[i] = p;
		im->len[i] = size;
	}
	close(dev);
}

/*
 * vcap's own buffers: MMAP buffers exported, then freed by REQBUFS(0),
 * which leaves them to their dma-bufs.
 */
static void vcap_imp(struct vtest_meta *_vtest, int fd, unsigned int n,
		     struct imp *im)
{
	struct v4l2_exportbuffer e;
	struct v4l2_buffer b;
	unsigned int i;
	void *p;

	ASSERT_GE(mem_reqbufs(fd, V4L2_MEMORY_MMAP, n, NULL), (int)n);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(mem_querybuf(fd, i, &b), 0);
		memset(&e, 0, sizeof(e));
		e.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		e.index = i;
		e.flags = O_RDWR | O_CLOEXEC;
		ASSERT_EQ(ioctl(fd, VIDIOC_EXPBUF, &e), 0);
		im->fd[i] = e.fd;
		im->n++;
		im->len[i] = b.length;
		p = mmap(NULL, b.length, PROT_READ, MAP_SHARED, e.fd, 0);
		ASSERT_NE(p, MAP_FAILED);
		im->view[i] = p;
	}
	ASSERT_EQ(mem_reqbufs(fd, V4L2_MEMORY_MMAP, 0, NULL), 0);
}

/* capture */

static bool stamp_of(const struct v4l2_pix_format *pix, const void *frame,
		     uint64_t *seq)
{
	struct vcap_frame_fmt ff = {
		.fourcc = pix->pixelformat, .width = pix->width,
		.height = pix->height, .bytesperline = pix->bytesperline,
		.sizeimage = pix->sizeimage,
	};
	struct vcap_stamp st;

	if (vcap_stamp_check(&ff, frame, pix->sizeimage, &st) != VCAP_STAMP_OK)
		return false;
	*seq = st.seq;
	return true;
}

/*
 * Captures frames into the dma-bufs of im, NBUFS queued at a time; each
 * dequeued buffer is requeued with the dma-buf that has waited longest,
 * never the one it just returned.  length is the plane length QBUF gives
 * (0: the dma-buf's size).
 */
static void capture(struct vtest_meta *_vtest, int fd,
		    const struct v4l2_pix_format *pix, struct imp *im,
		    unsigned int length)
{
	unsigned int i, n, next, wait[NDBUFS], nwait = 0, held[NBUFS];
	uint64_t stamp = 0, last_stamp = 0;
	uint32_t last_seq = 0;
	struct v4l2_buffer b;
	int count;

	ASSERT_EQ(im->n, NDBUFS);
	count = mem_reqbufs(fd, DMABUF, NBUFS, NULL);
	ASSERT_EQ(count, NBUFS);
	for (i = 0; i < NBUFS; i++) {
		ASSERT_EQ(qbuf(fd, i, im->fd[i], length), 0);
		held[i] = i;
	}
	for (i = NBUFS; i < NDBUFS; i++)
		wait[nwait++] = i;
	ASSERT_EQ(stream(fd, true), 0);
	for (n = 0; n < FRAMES; n++) {
		ASSERT_EQ(mem_dqbuf(fd, DMABUF, &b, 5000), 0);
		ASSERT_LT(b.index, NBUFS);
		EXPECT_FALSE(b.flags & V4L2_BUF_FLAG_ERROR);
		EXPECT_EQ(b.bytesused, pix->sizeimage);
		EXPECT_EQ(b.m.fd, im->fd[held[b.index]]);
		if (n)
			EXPECT_GT(b.sequence, last_seq);
		next = held[b.index];
		EXPECT_EQ(dmabuf_sync(im->fd[next], DMA_BUF_SYNC_START), 0);
		if (!stamp_of(pix, im->view[next], &stamp)) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "frame %u (sequence %u): no whole stamp in dma-buf %u",
				   n, b.sequence, next);
		} else if (n && stamp - last_stamp != b.sequence - last_seq) {
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "frame %u: stamp %llu after %llu, sequence %u after %u",
				   n, (unsigned long long)stamp,
				   (unsigned long long)last_stamp, b.sequence,
				   last_seq);
		}
		EXPECT_EQ(dmabuf_sync(im->fd[next], DMA_BUF_SYNC_END), 0);
		last_stamp = stamp;
		last_seq = b.sequence;
		if (_vtest->failed)
			break;

		wait[nwait++] = next;
		held[b.index] = wait[0];
		memmove(wait, wait + 1, --nwait * sizeof(wait[0]));
		ASSERT_EQ(qbuf(fd, b.index, im->fd[held[b.index]], length), 0);
	}
	EXPECT_EQ(stream(fd, false), 0);
	EXPECT_EQ(mem_reqbufs(fd, DMABUF, 0, NULL), 0);
	TH_LOG("%u frames into %u dma-bufs, last sequence %u", n, im->n,
	       last_seq);
}

FIXTURE(imp) {
	int fd;
	int drm;
	struct v4l2_pix_format pix;
	struct imp im;
	long dmabufs;		/* the kernel's dma-bufs before the test */
};

FIXTURE_SETUP(imp)
{
	imp_init(&self->im);
	self->drm = -1;
	self->dmabufs = dmabuf_count();
	if (self->dmabufs < 0)
		TH_LOG("cannot read /sys/kernel/debug/dma_buf/bufinfo");
	ASSERT_GE(self->dmabufs, 0);
	self->fd = open_node(&self->pix);
	if (self->fd < 0)
		TH_LOG("no vcap capture node at 640x480 YUYV: is vcap loaded?");
	ASSERT_GE(self->fd, 0);
	/* The tests that import vgem's buffers fail without it. */
	self->drm = open_vgem();
}

/* Every dma-buf a test made is gone once its descriptors are. */
FIXTURE_TEARDOWN(imp)
{
	imp_close(&self->im);
	if (self->drm >= 0)
		close(self->drm);
	if (self->fd >= 0)
		close(self->fd);
	if (self->dmabufs >= 0)
		EXPECT_EQ(dmabuf_count(), self->dmabufs);
}

TEST_F_TIMEOUT(imp, vgem_capture, 60)
{
	vgem_imp(_vtest, self->drm, &self->pix, NDBUFS, &self->im);
	if (!_vtest->failed)
		capture(_vtest, self->fd, &self->pix, &self->im, 0);
}

/* The plane length given, not the dma-buf's size. */
TEST_F_TIMEOUT(imp, vgem_capture_length, 60)
{
	vgem_imp(_vtest, self->drm, &self->pix, NDBUFS, &self->im);
	if (!_vtest->failed)
		capture(_vtest, self->fd, &self->pix, &self->im,
			self->pix.sizeimage);
}

TEST_F_TIMEOUT(imp, udmabuf_capture, 60)
{
	udmabuf_imp(_vtest, &self->pix, NDBUFS, &self->im);
	if (!_vtest->failed)
		capture(_vtest, self->fd, &self->pix, &self->im, 0);
}

TEST_F_TIMEOUT(imp, vcap_capture, 60)
{
	vcap_imp(_vtest, self->fd, NDBUFS, &self->im);
	if (!_vtest->failed)
		capture(_vtest, self->fd, &self->pix, &self->im, 0);
}

TEST_F(imp, too_small)
{
	size_t size;
	int dfd;

	ASSERT_GE(self->drm, 0);
	ASSERT_EQ(mem_reqbufs(self->fd, DMABUF, NBUFS, NULL), NBUFS);
	/* One page; and eight rows short of the image, rounded to pages. */
	dfd = vgem_dmabuf(self->drm, 64, 64, &size);
	ASSERT_GE(dfd, 0);
	self->im.fd[self->im.n++] = dfd;
	EXPECT_ERRNO(qbuf(self->fd, 0, dfd, 0), EINVAL);
	EXPECT_ERRNO(qbuf(self->fd, 0, dfd, self->pix.sizeimage), EINVAL);
	dfd = vgem_dmabuf(self->drm, self->pix.bytesperline,
			  self->pix.height - 8, &size);
	ASSERT_GE(dfd, 0);
	self->im.fd[self->im.n++] = dfd;
	ASSERT_LT(size, self->pix.sizeimage);
	EXPECT_ERRNO(qbuf(self->fd, 1, dfd, 0), EINVAL);
	EXPECT_ERRNO(qbuf(self->fd, 1, dfd, self->pix.sizeimage), EINVAL);
	/* Big enough, but a plane length past its end. */
	dfd = vgem_dmabuf(self->drm, self->pix.bytesperline,
			  self->pix.height, &size);
	ASSERT_GE(dfd, 0);
	self->im.fd[self->im.n++] = dfd;
	EXPECT_ERRNO(qbuf(self->fd, 2, dfd, (unsigned int)size + 4096),
		     EINVAL);
	/* The same buffer, queued right, still works. */
	EXPECT_EQ(qbuf(self->fd, 2, dfd, 0), 0);
	EXPECT_EQ(stream(self->fd, false), 0);
	EXPECT_EQ(mem_reqbufs(self->fd, DMABUF, 0, NULL), 0);
}

TEST_F(imp, not_a_dmabuf)
{
	int memfd, null, closed;

	ASSERT_EQ(mem_reqbufs(self->fd, DMABUF, NBUFS, NULL), NBUFS);
	memfd = memfd_create("vcap-import", MFD_CLOEXEC);
	ASSERT_GE(memfd, 0);
	ASSERT_EQ(ftruncate(memfd, self->pix.sizeimage), 0);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	ASSERT_GE(null, 0);
	closed = dup(null);
	ASSERT_GE(closed, 0);
	close(closed);
	EXPECT_ERRNO(qbuf(self->fd, 0, memfd, 0), EINVAL);
	EXPECT_ERRNO(qbuf(self->fd, 0, null, 0), EINVAL);
	EXPECT_ERRNO(qbuf(self->fd, 0, self->fd, 0), EINVAL);
	EXPECT_ERRNO(qbuf(self->fd, 0, self->drm, 0), EINVAL);
	EXPECT_ERRNO(qbuf(self->fd, 0, closed, 0), EINVAL);
	EXPECT_ERRNO(qbuf(self->fd, 0, -1, 0), EINVAL);
	close(memfd);
	close(null);
	EXPECT_EQ(mem_reqbufs(self->fd, DMABUF, 0, NULL), 0);
}

/*
 * Every descriptor, mapping and GEM handle of the dma-bufs closed while
 * they are queued: the queue's references keep them, the frames still
 * arrive, and they go with the queue.
 */
/*
 * NBUFS vgem dma-bufs queued, then user space's descriptors and mappings
 * of them closed: from here on only the driver holds them.
 */
static void queue_vgem_and_close(struct vtest_meta *_vtest,
				 FIXTURE(imp) *self)
{
	unsigned int i;

	vgem_imp(_vtest, self->drm, &self->pix, NBUFS, &self->im);
	ASSERT_FALSE(_vtest->failed);
	ASSERT_EQ(mem_reqbufs(self->fd, DMABUF, NBUFS, NULL), NBUFS);
	for (i = 0; i < NBUFS; i++)
		ASSERT_EQ(qbuf(self->fd, i, self->im.fd[i], 0), 0);
	imp_close(&self->im);
}

TEST_F_TIMEOUT(imp, closed_while_queued, 60)
{
	struct v4l2_buffer b;
	uint32_t last = 0;
	unsigned int i;

	queue_vgem_and_close(_vtest, self);
	ASSERT_FALSE(_vtest->failed);
	close(self->drm);
	self->drm = -1;
	ASSERT_GE(dmabuf_count(), self->dmabufs + NBUFS);
	ASSERT_EQ(stream(self->fd, true), 0);
	for (i = 0; i < NBUFS; i++) {
		ASSERT_EQ(mem_dqbuf(self->fd, DMABUF, &b, 5000), 0);
		EXPECT_FALSE(b.flags & V4L2_BUF_FLAG_ERROR);
		EXPECT_EQ(b.bytesused, self->pix.sizeimage);
		if (i)
			EXPECT_GT(b.sequence, last);
		last = b.sequence;
	}
	EXPECT_GE(dmabuf_count(), self->dmabufs + NBUFS);
	/*
	 * The descriptor numbers are gone: a requeue needs a real one (and
	 * the failed QBUF may let the buffer's old dma-buf go).
	 */
	EXPECT_ERRNO(qbuf(self->fd, b.index, b.m.fd, 0), EINVAL);
	EXPECT_EQ(stream(self->fd, false), 0);
	EXPECT_EQ(mem_reqbufs(self->fd, DMABUF, 0, NULL), 0);
	EXPECT_EQ(dmabuf_count(), self->dmabufs);
}

/* Queued dma-bufs let go when the node is closed while streaming. */
TEST_F_TIMEOUT(imp, close_node_while_streaming, 60)
{
	struct v4l2_buffer b;

	queue_vgem_and_close(_vtest, self);
	ASSERT_FALSE(_vtest->failed);
	ASSERT_EQ(stream(self->fd, true), 0);
	ASSERT_EQ(mem_dqbuf(self->fd, DMABUF, &b, 5000), 0);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(dmabuf_count(), self->dmabufs);
}

VTEST_MAIN()
