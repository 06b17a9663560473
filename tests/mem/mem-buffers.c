// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The lifetime and bounds of vcap's frame buffers, seen from user space:
 * mmap of V4L2 buffers and of their exported dma-bufs, USERPTR, and how
 * mappings outlive REQBUFS(0), close(), dup() and fork().
 *
 * Runs as root in the guest with vcap loaded; counts the allocator's live
 * buffers in /proc/vmallocinfo to check that each is freed when its last
 * user goes, and not before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/dma-buf.h>
#include <linux/vcap.h>
#include <linux/videodev2.h>

#include "mem-node.h"
#include "vtest.h"

#define MMAP	V4L2_MEMORY_MMAP
#define NBUFS	3

FIXTURE(buf) {
	int fd;
	char path[32];
	struct v4l2_format fmt;
	int base;		/* allocator buffers alive before the test */
	size_t page;
};

FIXTURE_SETUP(buf)
{
	self->page = (size_t)sysconf(_SC_PAGESIZE);
	self->fd = mem_node_open(self->path, sizeof(self->path), &self->fmt);
	if (self->fd < 0)
		TH_LOG("no vcap capture node in /dev/video*: is vcap loaded?");
	ASSERT_GE(self->fd, 0);
	self->base = mem_vcap_buffers();
	ASSERT_GE(self->base, 0);
}

FIXTURE_TEARDOWN(buf)
{
	if (self->fd >= 0) {
		mem_reqbufs(self->fd, MMAP, 0, NULL);
		close(self->fd);
	}
}

static size_t page_up(size_t n, size_t page)
{
	return (n + page - 1) / page * page;
}

TEST_F(buf, mmap_before_reqbufs)
{
	ASSERT_ERRNO(mmap(NULL, self->fmt.fmt.pix.sizeimage, PROT_READ,
			  MAP_SHARED, self->fd, 0) == MAP_FAILED ? -1 : 0,
		     EINVAL);
}

TEST_F(buf, mmap_after_reqbufs0)
{
	struct v4l2_buffer b;
	int n;

	n = mem_reqbufs(self->fd, MMAP, NBUFS, NULL);
	ASSERT_GE(n, 1);
	EXPECT_EQ(mem_vcap_buffers(), self->base + n);
	ASSERT_EQ(mem_querybuf(self->fd, 0, &b), 0);
	ASSERT_EQ(mem_reqbufs(self->fd, MMAP, 0, NULL), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base);
	ASSERT_ERRNO(mmap(NULL, b.length, PROT_READ, MAP_SHARED, self->fd,
			  b.m.offset) == MAP_FAILED ? -1 : 0, EINVAL);
}

TEST_F(buf, bad_length_and_offset)
{
	struct v4l2_buffer b;
	size_t len;
	void *p;

	ASSERT_GE(mem_reqbufs(self->fd, MMAP, NBUFS, NULL), 1);
	ASSERT_EQ(mem_querybuf(self->fd, 0, &b), 0);
	len = page_up(b.length, self->page);

	/* One page more than the buffer. */
	EXPECT_ERRNO(mmap(NULL, len + self->page, PROT_READ, MAP_SHARED,
			  self->fd, b.m.offset) == MAP_FAILED ? -1 : 0, EINVAL);
	/* Offsets that name no buffer. */
	EXPECT_ERRNO(mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd,
			  b.m.offset + self->page) == MAP_FAILED ? -1 : 0,
		     EINVAL);
	EXPECT_ERRNO(mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd,
			  (off_t)1 << 44) == MAP_FAILED ? -1 : 0, EINVAL);
	/* A private copy of a capture buffer is refused. */
	EXPECT_ERRNO(mmap(NULL, len, PROT_READ, MAP_PRIVATE, self->fd,
			  b.m.offset) == MAP_FAILED ? -1 : 0, EINVAL);

	/* The whole buffer, then growth through mremap() is refused. */
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, b.m.offset);
	ASSERT_NE(p, MAP_FAILED);
	EXPECT_EQ(mem_probe_read((char *)p + len - 1), 0);
	EXPECT_TRUE(mremap(p, len, len + self->page, 0) == MAP_FAILED);
	EXPECT_TRUE(mremap(p, len, len + self->page, MREMAP_MAYMOVE) ==
		    MAP_FAILED);
	EXPECT_EQ(munmap(p, len), 0);
}

TEST_F(buf, touch_past_end)
{
	struct v4l2_buffer b;
	size_t len;
	char *area, *p;
	int sig;

	ASSERT_GE(mem_reqbufs(self->fd, MMAP, 1, NULL), 1);
	ASSERT_EQ(mem_querybuf(self->fd, 0, &b), 0);
	len = page_up(b.length, self->page);

	/* The buffer mapped right below a page that is reserved but not ours. */
	area = mmap(NULL, len + self->page, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(area, MAP_FAILED);
	p = mmap(area, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 self->fd, b.m.offset);
	ASSERT_EQ(p, area);
	EXPECT_EQ(mem_probe_read(p + len - 1), 0);
	sig = mem_probe_read(p + len);
	EXPECT_TRUE(sig == SIGSEGV || sig == SIGBUS);

	/* A one-page mapping of the buffer ends after one page. */
	EXPECT_EQ(munmap(area, len + self->page), 0);
	p = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd,
		 b.m.offset);
	ASSERT_NE(p, MAP_FAILED);
	EXPECT_EQ(mem_probe_read(p), 0);
	EXPECT_EQ(munmap(p, self->page), 0);
}

TEST_F(buf, new_buffers_read_zero)
{
	void *p[VIDEO_MAX_FRAME];
	size_t len[VIDEO_MAX_FRAME];
	int n, i;

	/* Dirty a set of buffers and free them... */
	n = mem_reqbufs(self->fd, MMAP, NBUFS, NULL);
	ASSERT_GE(n, 1);
	for (i = 0; i < n; i++) {
		p[i] = mem_map(self->fd, i, &len[i]);
		ASSERT_NE(p[i], MAP_FAILED);
		memset(p[i], 0xa5, len[i]);
		ASSERT_EQ(munmap(p[i], len[i]), 0);
	}
	ASSERT_EQ(mem_reqbufs(self->fd, MMAP, 0, NULL), 0);
	ASSERT_EQ(mem_vcap_buffers(), self->base);

	/* ...then new ones show none of it before the first frame. */
	n = mem_reqbufs(self->fd, MMAP, NBUFS, NULL);
	ASSERT_GE(n, 1);
	for (i = 0; i < n; i++) {
		p[i] = mem_map(self->fd, i, &len[i]);
		ASSERT_NE(p[i], MAP_FAILED);
		EXPECT_EQ(mem_find_nonzero(p[i], page_up(len[i], self->page)),
			  -1);
		EXPECT_EQ(munmap(p[i], len[i]), 0);
	}
}

TEST_F(buf, reqbufs_while_mapped)
{
	unsigned int caps = 0;
	size_t len, len2;
	void *p, *q;
	int n, r;

	n = mem_reqbufs(self->fd, MMAP, NBUFS, &caps);
	ASSERT_GE(n, 1);
	p = mem_map(self->fd, 0, &len);
	ASSERT_NE(p, MAP_FAILED);
	mem_fill(p, len, 1);

	r = mem_reqbufs(self->fd, MMAP, 0, NULL);
	if (!(caps & V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS)) {
		TH_LOG("queue does not orphan buffers: REQBUFS(0) must fail");
		EXPECT_EQ(r, -1);
		EXPECT_EQ(errno, EBUSY);
		EXPECT_EQ(munmap(p, len), 0);
		return;
	}

	/* Orphaned: the mapped buffer lives on, alone. */
	ASSERT_EQ(r, 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base + 1);
	EXPECT_EQ(mem_check(p, len, 1), -1);
	mem_fill(p, len, 2);
	EXPECT_EQ(mem_check(p, len, 2), -1);

	/* New buffers are new memory; the orphan keeps its bytes. */
	n = mem_reqbufs(self->fd, MMAP, NBUFS, NULL);
	ASSERT_GE(n, 1);
	EXPECT_EQ(mem_vcap_buffers(), self->base + 1 + n);
	q = mem_map(self->fd, 0, &len2);
	ASSERT_NE(q, MAP_FAILED);
	EXPECT_EQ(mem_find_nonzero(q, len2), -1);
	EXPECT_EQ(mem_check(p, len, 2), -1);
	EXPECT_EQ(munmap(q, len2), 0);

	EXPECT_EQ(munmap(p, len), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base + n);
	EXPECT_EQ(mem_reqbufs(self->fd, MMAP, 0, NULL), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base);
}

TEST_F(buf, mapping_survives_close)
{
	size_t len;
	void *p;
	int n;

	n = mem_reqbufs(self->fd, MMAP, NBUFS, NULL);
	ASSERT_GE(n, 1);
	p = mem_map(self->fd, 0, &len);
	ASSERT_NE(p, MAP_FAILED);
	mem_fill(p, len, 3);

	/* The mapping holds the file: the queue lives until munmap(). */
	ASSERT_EQ(close(self->fd), 0);
	self->fd = -1;
	EXPECT_EQ(mem_vcap_buffers(), self->base + n);
	EXPECT_EQ(mem_check(p, len, 3), -1);
	mem_fill(p, len, 4);
	EXPECT_EQ(mem_check(p, len, 4), -1);

	EXPECT_EQ(munmap(p, len), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base);
}

TEST_F(buf, dup_closed_while_mapped)
{
	struct v4l2_capability cap;
	size_t len, len2;
	void *p, *q;
	int fd2;

	fd2 = dup(self->fd);
	ASSERT_GE(fd2, 0);
	ASSERT_GE(mem_reqbufs(fd2, MMAP, NBUFS, NULL), 1);
	p = mem_map(fd2, 0, &len);
	ASSERT_NE(p, MAP_FAILED);
	mem_fill(p, len, 5);

	/* The other copy still maps and answers ioctls. */
	ASSERT_EQ(close(fd2), 0);
	q = mem_map(self->fd, 0, &len2);
	ASSERT_NE(q, MAP_FAILED);
	EXPECT_EQ(mem_check(q, len2, 5), -1);
	EXPECT_EQ(ioctl(self->fd, VIDIOC_QUERYCAP, &cap), 0);
	EXPECT_ERRNO(ioctl(fd2, VIDIOC_QUERYCAP, &cap), EBADF);

	/* Both mappings outlive the last descriptor. */
	ASSERT_EQ(close(self->fd), 0);
	self->fd = -1;
	EXPECT_EQ(mem_check(p, len, 5), -1);
	EXPECT_EQ(munmap(p, len), 0);
	EXPECT_EQ(mem_check(q, len2, 5), -1);
	EXPECT_EQ(munmap(q, len2), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base);
}

TEST_F(buf, fork_child_reads_after_parent_unmaps)
{
	int go[2], status;
	size_t len;
	pid_t pid;
	void *p;
	char c;

	ASSERT_GE(mem_reqbufs(self->fd, MMAP, NBUFS, NULL), 1);
	p = mem_map(self->fd, 0, &len);
	ASSERT_NE(p, MAP_FAILED);
	mem_fill(p, len, 6);
	ASSERT_EQ(pipe(go), 0);

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		if (mem_check(p, len, 6) != -1)
			_exit(3);
		mem_fill(p, len, 7);
		_exit(mem_check(p, len, 7) == -1 ? 0 : 4);
	}
	close(go[0]);

	/* The parent lets go of everything before the child reads. */
	EXPECT_EQ(munmap(p, len), 0);
	EXPECT_EQ(mem_reqbufs(self->fd, MMAP, 0, NULL), 0);
	EXPECT_EQ(close(self->fd), 0);
	self->fd = -1;
	EXPECT_EQ(mem_vcap_buffers(), self->base + 1);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	close(go[1]);

	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base);
}

TEST_F(buf, split_move_and_protect)
{
	size_t len, pg = self->page;
	char *p, *moved, *dst, *ref;

	ASSERT_GE(mem_reqbufs(self->fd, MMAP, 1, NULL), 1);
	p = mem_map(self->fd, 0, &len);
	ASSERT_NE(p, MAP_FAILED);
	ASSERT_GE(len, 6 * pg);
	mem_fill(p, len, 8);

	/* Punch out page 1, make page 3 read-only, move pages 4-5 away. */
	ASSERT_EQ(munmap(p + pg, pg), 0);
	ASSERT_EQ(mprotect(p + 3 * pg, pg, PROT_READ), 0);
	dst = mmap(NULL, 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(dst, MAP_FAILED);
	moved = mremap(p + 4 * pg, 2 * pg, 2 * pg,
		       MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	ASSERT_EQ(moved, dst);

	/* Every piece still shows its own part of the buffer. */
	ASSERT_EQ(mem_reqbufs(self->fd, MMAP, 0, NULL), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base + 1);
	EXPECT_EQ(mem_probe_read(p + pg), SIGSEGV);
	ref = malloc(len);
	ASSERT_TRUE(ref != NULL);
	mem_fill(ref, len, 8);
	EXPECT_EQ(memcmp(p, ref, pg), 0);
	EXPECT_EQ(memcmp(p + 2 * pg, ref + 2 * pg, 2 * pg), 0);
	EXPECT_EQ(memcmp(moved, ref + 4 * pg, 2 * pg), 0);
	EXPECT_EQ(memcmp(p + 6 * pg, ref + 6 * pg, len - 6 * pg), 0);
	free(ref);

	/* The buffer goes with the last piece, not before. */
	EXPECT_EQ(munmap(p, pg), 0);
	EXPECT_EQ(munmap(p + 2 * pg, 2 * pg), 0);
	EXPECT_EQ(munmap(p + 6 * pg, len - 6 * pg), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base + 1);
	EXPECT_EQ(munmap(moved, 2 * pg), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base);
}

static int expbuf(int fd, unsigned int index, int flags)
{
	struct v4l2_exportbuffer eb;

	memset(&eb, 0, sizeof(eb));
	eb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	eb.index = index;
	eb.flags = flags;
	if (ioctl(fd, VIDIOC_EXPBUF, &eb))
		return -1;
	return eb.fd;
}

static int dmabuf_sync(int dfd, __u64 flags)
{
	struct dma_buf_sync s = { .flags = flags };

	return ioctl(dfd, DMA_BUF_IOCTL_SYNC, &s);
}

TEST_F(buf, expbuf_maps_the_same_bytes)
{
	size_t len, dlen;
	void *p, *d;
	int dfd;

	ASSERT_GE(mem_reqbufs(self->fd, MMAP, NBUFS, NULL), 1);
	p = mem_map(self->fd, 0, &len);
	ASSERT_NE(p, MAP_FAILED);
	dfd = expbuf(self->fd, 0, O_RDWR | O_CLOEXEC);
	ASSERT_GE(dfd, 0);
	dlen = (size_t)lseek(dfd, 0, SEEK_END);
	EXPECT_EQ(dlen, page_up(len, self->page));

	d = mmap(NULL, dlen, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	ASSERT_NE(d, MAP_FAILED);
	EXPECT_EQ(dmabuf_sync(dfd, DMA_BUF_SYNC_START | DMA_BUF_SYNC_RW), 0);
	mem_fill(p, len, 9);
	EXPECT_EQ(mem_check(d, len, 9), -1);
	mem_fill(d, len, 10);
	EXPECT_EQ(mem_check(p, len, 10), -1);
	EXPECT_EQ(dmabuf_sync(dfd, DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW), 0);

	/* Bounds of the dma-buf's own mmap. */
	EXPECT_TRUE(mmap(NULL, dlen + self->page, PROT_READ, MAP_SHARED, dfd,
			 0) == MAP_FAILED);
	EXPECT_TRUE(mmap(NULL, self->page, PROT_READ, MAP_SHARED, dfd,
			 (off_t)dlen) == MAP_FAILED);
	EXPECT_TRUE(mmap(NULL, dlen, PROT_READ, MAP_PRIVATE, dfd, 0) ==
		    MAP_FAILED);
	/* An offset into the dma-buf maps from there. */
	if (dlen >= 2 * self->page) {
		char *o = mmap(NULL, self->page, PROT_READ, MAP_SHARED, dfd,
			       (off_t)self->page);

		ASSERT_NE(o, MAP_FAILED);
		EXPECT_EQ(memcmp(o, (char *)p + self->page, self->page), 0);
		EXPECT_EQ(munmap(o, self->page), 0);
	}

	/* The dma-buf keeps the buffer after the V4L2 side lets go. */
	EXPECT_EQ(munmap(d, dlen), 0);
	EXPECT_EQ(munmap(p, len), 0);
	EXPECT_EQ(mem_reqbufs(self->fd, MMAP, 0, NULL), 0);
	EXPECT_EQ(close(self->fd), 0);
	self->fd = -1;
	EXPECT_EQ(mem_vcap_buffers(), self->base + 1);
	d = mmap(NULL, dlen, PROT_READ, MAP_SHARED, dfd, 0);
	ASSERT_NE(d, MAP_FAILED);
	EXPECT_EQ(mem_check(d, len, 10), -1);
	EXPECT_EQ(close(dfd), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base + 1);
	EXPECT_EQ(mem_check(d, len, 10), -1);
	EXPECT_EQ(munmap(d, dlen), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base);
}

TEST_F(buf, expbuf_read_only)
{
	size_t len;
	void *d;
	int dfd;

	ASSERT_GE(mem_reqbufs(self->fd, MMAP, NBUFS, NULL), 1);
	dfd = expbuf(self->fd, 0, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(dfd, 0);
	len = (size_t)lseek(dfd, 0, SEEK_END);
	EXPECT_ERRNO(mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, dfd,
			  0) == MAP_FAILED ? -1 : 0, EACCES);
	d = mmap(NULL, len, PROT_READ, MAP_SHARED, dfd, 0);
	ASSERT_NE(d, MAP_FAILED);
	EXPECT_EQ(mem_find_nonzero(d, len), -1);
	EXPECT_ERRNO(mprotect(d, len, PROT_READ | PROT_WRITE), EACCES);
	EXPECT_EQ(munmap(d, len), 0);
	EXPECT_EQ(close(dfd), 0);
	/* Unknown flags and indexes. */
	EXPECT_ERRNO(expbuf(self->fd, 0, O_RDWR | O_APPEND), EINVAL);
	EXPECT_ERRNO(expbuf(self->fd, VIDEO_MAX_FRAME, O_RDWR), EINVAL);
}

static int qbuf_userptr(int fd, unsigned int index, const void *ptr,
			size_t length)
{
	struct v4l2_buffer b;

	memset(&b, 0, sizeof(b));
	b.index = index;
	b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b.memory = V4L2_MEMORY_USERPTR;
	b.m.userptr = (unsigned long)ptr;
	b.length = length;
	return ioctl(fd, VIDIOC_QBUF, &b);
}

static bool bad_userptr_errno(int r)
{
	return r == -1 && (errno == EFAULT || errno == EINVAL);
}

/*
 * Maps at least want bytes of vcap's VRAM node read-only, or all of it;
 * returns MAP_FAILED when there is none.
 */
static void *map_vram(size_t want, size_t *len, int *vfd)
{
	struct vcap_info info;
	glob_t g;
	void *p = MAP_FAILED;
	size_t i;

	*vfd = -1;
	if (glob("/dev/vcap[0-9]*", 0, NULL, &g))
		return MAP_FAILED;
	for (i = 0; i < g.gl_pathc && p == MAP_FAILED; i++) {
		*vfd = open(g.gl_pathv[i], O_RDONLY | O_CLOEXEC);
		if (*vfd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!ioctl(*vfd, VCAP_IOC_QUERY, &info) && info.map_size) {
			*len = info.map_size < want ? info.map_size : want;
			p = mmap(NULL, *len, PROT_READ, MAP_SHARED, *vfd, 0);
			if (p == MAP_FAILED)
				TH_LOG("mmap of %zu bytes of %s: %s", *len,
				       g.gl_pathv[i], strerror(errno));
		}
		if (p == MAP_FAILED) {
			close(*vfd);
			*vfd = -1;
		}
	}
	globfree(&g);
	return p;
}

TEST_F(buf, userptr_bad_addresses)
{
	size_t size = self->fmt.fmt.pix.sizeimage, pg = self->page;
	size_t vlen = 0;
	void *none, *ro, *vram, *good;
	int vfd;

	ASSERT_GT(size, 0u);
	ASSERT_GE(mem_reqbufs(self->fd, V4L2_MEMORY_USERPTR, NBUFS, NULL), 1);

	/* Nothing mapped there, no access, read-only pages. */
	EXPECT_TRUE(bad_userptr_errno(qbuf_userptr(self->fd, 0,
						   (void *)0x1000, size)));
	none = mmap(NULL, page_up(size, pg), PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(none, MAP_FAILED);
	EXPECT_TRUE(bad_userptr_errno(qbuf_userptr(self->fd, 0, none, size)));
	ro = mmap(NULL, page_up(size, pg), PROT_READ,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(ro, MAP_FAILED);
	EXPECT_TRUE(bad_userptr_errno(qbuf_userptr(self->fd, 0, ro, size)));
	/* A range that runs off the end of the address space. */
	EXPECT_TRUE(bad_userptr_errno(qbuf_userptr(self->fd, 0,
						   (void *)-pg, size)));

	/* VRAM has no pages to pin. */
	vram = map_vram(page_up(size, pg), &vlen, &vfd);
	if (vram != MAP_FAILED) {
		EXPECT_TRUE(bad_userptr_errno(qbuf_userptr(self->fd, 0, vram,
							   size)));
		EXPECT_EQ(munmap(vram, vlen), 0);
		close(vfd);
	} else {
		TH_LOG("no VRAM node mapped: VRAM as USERPTR not checked");
	}

	/* After all that, a good buffer is taken. */
	good = mmap(NULL, page_up(size, pg), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(good, MAP_FAILED);
	EXPECT_EQ(qbuf_userptr(self->fd, 0, good, size), 0);
	EXPECT_EQ(mem_reqbufs(self->fd, V4L2_MEMORY_USERPTR, 0, NULL), 0);
	munmap(good, page_up(size, pg));
	munmap(ro, page_up(size, pg));
	munmap(none, page_up(size, pg));
}

static int streamon(int fd, bool on)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	return ioctl(fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type);
}

TEST_F_TIMEOUT(buf, userptr_frame, 90)
{
	size_t size = page_up(self->fmt.fmt.pix.sizeimage, self->page);
	struct v4l2_buffer b;
	uint8_t *mem[NBUFS];
	int n, i;
	long diff;

	n = mem_reqbufs(self->fd, V4L2_MEMORY_USERPTR, NBUFS, NULL);
	ASSERT_GE(n, 1);
	if (n > NBUFS)
		n = NBUFS;
	for (i = 0; i < n; i++) {
		mem[i] = mmap(NULL, size, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(mem[i], MAP_FAILED);
		memset(mem[i], 0xee, size);
		ASSERT_EQ(qbuf_userptr(self->fd, i, mem[i], size), 0);
	}
	ASSERT_EQ(streamon(self->fd, true), 0);
	ASSERT_EQ(mem_dqbuf(self->fd, V4L2_MEMORY_USERPTR, &b, 30000), 0);
	ASSERT_LT(b.index, (unsigned int)n);
	EXPECT_EQ(b.m.userptr, (unsigned long)mem[b.index]);
	EXPECT_GT(b.bytesused, 0u);
	EXPECT_LE(b.bytesused, size);
	/* The frame landed in the user's own pages. */
	for (diff = 0; diff < (long)b.bytesused; diff++)
		if (mem[b.index][diff] != 0xee)
			break;
	EXPECT_LT(diff, (long)b.bytesused);
	EXPECT_EQ(streamon(self->fd, false), 0);
	EXPECT_EQ(mem_reqbufs(self->fd, V4L2_MEMORY_USERPTR, 0, NULL), 0);
	for (i = 0; i < n; i++)
		munmap(mem[i], size);
}

TEST_F_TIMEOUT(buf, mmap_frame, 90)
{
	struct v4l2_buffer b;
	void *p[VIDEO_MAX_FRAME];
	size_t len[VIDEO_MAX_FRAME];
	int n, i;

	n = mem_reqbufs(self->fd, MMAP, NBUFS, NULL);
	ASSERT_GE(n, 1);
	for (i = 0; i < n; i++) {
		p[i] = mem_map(self->fd, i, &len[i]);
		ASSERT_NE(p[i], MAP_FAILED);
		ASSERT_EQ(mem_querybuf(self->fd, i, &b), 0);
		ASSERT_EQ(ioctl(self->fd, VIDIOC_QBUF, &b), 0);
	}
	ASSERT_EQ(streamon(self->fd, true), 0);
	ASSERT_EQ(mem_dqbuf(self->fd, MMAP, &b, 30000), 0);
	ASSERT_LT(b.index, (unsigned int)n);
	EXPECT_GT(b.bytesused, 0u);
	EXPECT_LE(b.bytesused, len[b.index]);
	/* The frame, zeros until then, is visible through the mapping. */
	EXPECT_NE(mem_find_nonzero(p[b.index], b.bytesused), -1);
	EXPECT_EQ(streamon(self->fd, false), 0);
	for (i = 0; i < n; i++)
		EXPECT_EQ(munmap(p[i], len[i]), 0);
}

TEST_F_TIMEOUT(buf, read_frame, 90)
{
	size_t size = self->fmt.fmt.pix.sizeimage;
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	uint8_t *frame;
	ssize_t r;

	frame = malloc(size);
	ASSERT_TRUE(frame != NULL);
	memset(frame, 0, size);
	/* The first poll() starts read() I/O. */
	ASSERT_GE(poll(&pfd, 1, 30000), 0);
	r = read(self->fd, frame, size);
	ASSERT_GT(r, 0);
	EXPECT_LE((size_t)r, size);
	EXPECT_NE(mem_find_nonzero(frame, (size_t)r), -1);
	free(frame);
	/* With read() I/O active, mmap is refused. */
	EXPECT_TRUE(mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd,
			 0) == MAP_FAILED);
}

struct race {
	int fd;
	atomic_bool stop;
	atomic_long maps;
	atomic_long reqs;
	atomic_int bad;		/* a mapping that did not read back */
};

static void *race_mapper(void *arg)
{
	struct race *r = arg;
	struct v4l2_buffer b;
	uint8_t *p;

	while (!atomic_load(&r->stop)) {
		if (mem_querybuf(r->fd, 0, &b))
			continue;
		p = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED,
			 r->fd, b.m.offset);
		if (p == MAP_FAILED)
			continue;
		/* Once mapped, the buffer is ours, whatever REQBUFS does. */
		p[0] = 0x5a;
		p[b.length - 1] = 0xa5;
		if (p[0] != 0x5a || p[b.length - 1] != 0xa5)
			atomic_fetch_add(&r->bad, 1);
		munmap(p, b.length);
		atomic_fetch_add(&r->maps, 1);
	}
	return NULL;
}

TEST_F_TIMEOUT(buf, mmap_races_reqbufs_and_streamoff, 120)
{
	struct race r = { .fd = self->fd };
	struct timespec t0, t;
	pthread_t th;
	int i = 0;

	ASSERT_GE(mem_reqbufs(self->fd, MMAP, NBUFS, NULL), 1);
	ASSERT_EQ(pthread_create(&th, NULL, race_mapper, &r), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		struct v4l2_format f = self->fmt;

		mem_reqbufs(self->fd, MMAP, 0, NULL);
		mem_reqbufs(self->fd, MMAP, NBUFS, NULL);
		if (i % 4 == 1)
			ioctl(self->fd, VIDIOC_S_FMT, &f);
		if (i % 4 == 2) {
			struct v4l2_buffer b;

			if (!mem_querybuf(self->fd, 0, &b))
				ioctl(self->fd, VIDIOC_QBUF, &b);
			streamon(self->fd, true);
			streamon(self->fd, false);
		}
		atomic_fetch_add(&r.reqs, 1);
		i++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 4);
	atomic_store(&r.stop, true);
	pthread_join(th, NULL);

	TH_LOG("%ld mappings against %ld reallocations",
	       atomic_load(&r.maps), atomic_load(&r.reqs));
	EXPECT_GT(atomic_load(&r.maps), 0);
	EXPECT_GT(atomic_load(&r.reqs), 0);
	EXPECT_EQ(atomic_load(&r.bad), 0);
	EXPECT_EQ(mem_reqbufs(self->fd, MMAP, 0, NULL), 0);
	EXPECT_EQ(mem_vcap_buffers(), self->base);
}

VTEST_MAIN()
