// SPDX-License-Identifier: GPL-2.0
/*
 * The VRAM node /dev/vcapN: QUERY, mmap of the board memory, WAIT_FRAME
 * and poll with stamps checked, and every mapping it must refuse.
 * Run with vram_writable=0 (the default).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <vcap/board.h>
#include <linux/vcap.h>

#include "vcap-stamp.h"
#include "vk-stream.h"
#include "vtest.h"

FIXTURE(vram) {
	int fd;
	struct vcap_info info;
	char name[32];
};

FIXTURE_SETUP(vram)
{
	char path[64];

	ASSERT_EQ(vk_find_vram(path, sizeof(path), self->name,
			       sizeof(self->name)), 0);
	self->fd = open(path, O_RDONLY);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(ioctl(self->fd, VCAP_IOC_QUERY, &self->info), 0);
}

FIXTURE_TEARDOWN(vram)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(vram, query)
{
	const struct vcap_info *in = &self->info;

	EXPECT_EQ(in->abi_version, VCAP_ABI_VERSION);
	EXPECT_EQ(in->board_abi_version, VCAP_BOARD_ABI_VERSION);
	EXPECT_EQ(in->map_size % 4096, 0);
	EXPECT_GE(in->frame_offset, VCAP_CTRL_SIZE);
	EXPECT_LE(in->frame_offset + in->frame_size, in->map_size);
	EXPECT_EQ(in->flags & VCAP_INFO_WRITABLE, 0);
	EXPECT_EQ(in->flags & VCAP_INFO_STREAMING, 0);
}

TEST_F(vram, map_control_page)
{
	const struct vcap_board_ctrl *c;

	c = mmap(NULL, self->info.map_size, PROT_READ, MAP_SHARED, self->fd,
		 0);
	ASSERT_NE(c, MAP_FAILED);
	EXPECT_EQ(c->info.magic, VCAP_BOARD_MAGIC);
	EXPECT_EQ(c->info.vram_size, self->info.map_size);
	/* The last page is mapped too. */
	EXPECT_EQ(((volatile const char *)c)[self->info.map_size - 1] | 1, 1 |
		  ((volatile const char *)c)[self->info.map_size - 1]);
	EXPECT_EQ(munmap((void *)c, self->info.map_size), 0);
}

TEST_F(vram, bad_mappings)
{
	size_t size = self->info.map_size;
	void *p;

	/* Offset at or past the end. */
	ASSERT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, size),
		     EINVAL);
	ASSERT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd,
			  size + 4096), EINVAL);
	/* Length too big, from 0 and from a page in. */
	ASSERT_ERRNO(mmap(NULL, size + 4096, PROT_READ, MAP_SHARED, self->fd,
			  0), EINVAL);
	ASSERT_ERRNO(mmap(NULL, size, PROT_READ, MAP_SHARED, self->fd, 4096),
		     EINVAL);
	/* A huge page offset must not overflow into a valid range. */
	ASSERT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd,
			  (off_t)0x7ffffffffffff000ll), EINVAL);
	/* Private mappings of device memory make no sense. */
	ASSERT_ERRNO(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, self->fd, 0),
		     EINVAL);
	/* Writable shared mapping of a read-only open. */
	ASSERT_ERRNO(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			  self->fd, 0), EACCES);

	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(p, MAP_FAILED);
	/* mprotect cannot make it writable later. */
	ASSERT_ERRNO(mprotect(p, 4096, PROT_READ | PROT_WRITE), EACCES);
	/* mremap cannot grow it (VM_DONTEXPAND). */
	ASSERT_ERRNO(mremap(p, 4096, 8192, MREMAP_MAYMOVE), EFAULT);
	EXPECT_EQ(munmap(p, 4096), 0);
}

TEST_F(vram, rdwr_open_without_parameter)
{
	char path[64];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "/dev/%s", self->name);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	/* vram_writable=0: PROT_WRITE refused even for O_RDWR. */
	ASSERT_ERRNO(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			  0), EACCES);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(p, MAP_FAILED);
	ASSERT_ERRNO(mprotect(p, 4096, PROT_READ | PROT_WRITE), EACCES);
	munmap(p, 4096);
	close(fd);
}

TEST_F(vram, bad_ioctls)
{
	struct vcap_wait w;

	ASSERT_ERRNO(ioctl(self->fd, _IO(VCAP_IOC_MAGIC, 99)), ENOTTY);
	ASSERT_ERRNO(ioctl(self->fd, VCAP_IOC_QUERY, NULL), EFAULT);
	ASSERT_ERRNO(ioctl(self->fd, VCAP_IOC_WAIT_FRAME, NULL), EFAULT);
	/* Nothing streams: no frame newer than everything arrives. */
	memset(&w, 0, sizeof(w));
	w.after_seq = ~0ull;
	w.timeout_ms = 100;
	ASSERT_ERRNO(ioctl(self->fd, VCAP_IOC_WAIT_FRAME, &w), ETIMEDOUT);
}

static pid_t start_streamer(unsigned int w, unsigned int h, unsigned int fps)
{
	pid_t pid = fork();

	if (pid == 0)
		vk_stream_forever(V4L2_PIX_FMT_YUYV, w, h, fps);
	return pid;
}

static void stop_streamer(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* QUERY fd into in until the board streams, for 10 s at most. */
static void wait_streaming(struct vtest_meta *_vtest, int fd,
			   struct vcap_info *in)
{
	int i;

	for (i = 0; i < 100; i++) {
		ASSERT_EQ(ioctl(fd, VCAP_IOC_QUERY, in), 0);
		if (in->flags & VCAP_INFO_STREAMING)
			return;
		usleep(100000);
	}
}

TEST_TIMEOUT(vram_wait_frame_stamps, 300)
{
	unsigned int frames = vk_env("VCAP_FRAMES", 200);
	unsigned int n, good = 0, torn = 0, bad = 0;
	const volatile struct vcap_board_ctrl *c;
	struct vcap_info in;
	struct vcap_frame_fmt ff;
	uint64_t last = 0;
	char path[64];
	pid_t pid;
	int fd;

	ASSERT_EQ(vk_find_vram(path, sizeof(path), NULL, 0), 0);
	fd = open(path, O_RDONLY);
	ASSERT_GE(fd, 0);
	pid = start_streamer(640, 480, 15);
	ASSERT_GT(pid, 0);
	wait_streaming(_vtest, fd, &in);
	ASSERT_FALSE(_vtest->failed);
	ASSERT_TRUE(in.flags & VCAP_INFO_STREAMING);
	ASSERT_EQ(in.width, 640);
	ASSERT_EQ(in.height, 480);
	ASSERT_GE(in.num_slots, VCAP_MIN_SLOTS);
	c = mmap(NULL, in.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(c, MAP_FAILED);
	ff.fourcc = in.fourcc;
	ff.width = in.width;
	ff.height = in.height;
	ff.bytesperline = in.bytesperline;
	ff.sizeimage = in.sizeimage;

	for (n = 0; n < frames; n++) {
		const volatile struct vcap_board_slot *slot;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct vcap_stamp st;
		struct vcap_wait w;
		uint32_t l1, l2;

		/* poll() wakes for a frame. */
		ASSERT_EQ(poll(&pfd, 1, 5000), 1);
		ASSERT_TRUE(pfd.revents & POLLIN);
		memset(&w, 0, sizeof(w));
		w.after_seq = n ? last : 0;
		w.timeout_ms = 5000;
		if (!n)
			w.after_seq = 0;
		ASSERT_EQ(ioctl(fd, VCAP_IOC_WAIT_FRAME, &w), 0);
		ASSERT_LT(w.slot, in.num_slots);
		if (n)
			ASSERT_GT(w.sequence, last);
		last = w.sequence;
		slot = &c->slots[w.slot];
		l1 = slot->lock;
		__sync_synchronize();
		if (slot->sequence != w.sequence || (l1 & 1)) {
			torn++;
			continue;
		}
		if (vcap_stamp_check(&ff, (const char *)c + in.ring_offset +
				     w.slot * in.slot_stride, in.sizeimage,
				     &st) != VCAP_STAMP_OK ||
		    st.seq != w.sequence) {
			__sync_synchronize();
			l2 = slot->lock;
			if (l1 != l2)
				torn++;	/* detected by the slot lock */
			else
				bad++;	/* whole by the lock, yet wrong */
			continue;
		}
		__sync_synchronize();
		l2 = slot->lock;
		if (l1 != l2)
			torn++;
		else
			good++;
	}
	stop_streamer(pid);
	TH_LOG("%u frames: %u good, %u rewritten while read, %u bad", frames,
	       good, torn, bad);
	EXPECT_EQ(bad, 0);
	EXPECT_GE(good, frames * 9 / 10);
	munmap((void *)c, in.map_size);
	close(fd);
}

/*
 * A second stream of the same mode starts its frames from 0 under a new
 * mode_gen, while slots of the ring still hold the first stream's higher
 * sequences: WAIT_FRAME answers with the new stream's frames only.
 */
TEST_TIMEOUT(vram_wait_frame_second_stream, 300)
{
	const volatile struct vcap_board_ctrl *c;
	uint64_t first_last = 0, last = 0;
	struct vcap_info in;
	struct vcap_wait w;
	char path[64];
	uint32_t gen1;
	unsigned int n;
	pid_t pid;
	int fd, i;

	ASSERT_EQ(vk_find_vram(path, sizeof(path), NULL, 0), 0);
	fd = open(path, O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, VCAP_IOC_QUERY, &in), 0);
	c = mmap(NULL, in.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(c, MAP_FAILED);

	/* The first stream fills every slot of the ring and more. */
	pid = start_streamer(640, 480, 15);
	ASSERT_GT(pid, 0);
	wait_streaming(_vtest, fd, &in);
	ASSERT_FALSE(_vtest->failed);
	ASSERT_TRUE(in.flags & VCAP_INFO_STREAMING);
	for (n = 0; n < 30; n++) {
		memset(&w, 0, sizeof(w));
		w.after_seq = first_last;
		w.timeout_ms = 5000;
		ASSERT_EQ(ioctl(fd, VCAP_IOC_WAIT_FRAME, &w), 0);
		first_last = w.sequence;
	}
	gen1 = c->status.mode_gen;
	stop_streamer(pid);

	pid = start_streamer(640, 480, 15);
	ASSERT_GT(pid, 0);
	for (i = 0; i < 100 && c->status.mode_gen == gen1; i++)
		usleep(100000);
	ASSERT_NE(c->status.mode_gen, gen1);
	for (n = 0; n < 10; n++) {
		memset(&w, 0, sizeof(w));
		w.after_seq = last;
		w.timeout_ms = 5000;
		ASSERT_EQ(ioctl(fd, VCAP_IOC_WAIT_FRAME, &w), 0);
		ASSERT_LT(w.slot, VCAP_MAX_SLOTS);
		/* A frame of this stream, not one left from the first. */
		EXPECT_NE(c->slots[w.slot].mode_gen, gen1);
		EXPECT_LT(w.sequence, first_last);
		last = w.sequence;
	}
	stop_streamer(pid);
	TH_LOG("first stream up to sequence %llu (mode_gen %u); the second's frames 0..%llu",
	       (unsigned long long)first_last, gen1, (unsigned long long)last);
	munmap((void *)c, in.map_size);
	close(fd);
}

VTEST_MAIN()
