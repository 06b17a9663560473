// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vcap-fuzz: the VRAM node's ioctls, and what its answers must hold; on a
 * node that maps writable, the board's control page scribbled on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include <linux/vcap.h>
#include <vcap/board.h>

/*
 * Map the control page writable for the whole run and keep a copy of it:
 * the processes fork after this and share the one mapping.
 */
static int fz_map_ctrl(struct fz_target *tg, int fd)
{
	void *p;

	p = mmap(NULL, VCAP_CTRL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "vcap-fuzz: %s says writable, but a "
			"PROT_WRITE mapping fails: %s\n", tg->vram,
			strerror(errno));
		return -1;
	}
	tg->vram_saved = malloc(sizeof(struct vcap_board_ctrl));
	if (!tg->vram_saved) {
		munmap(p, VCAP_CTRL_SIZE);
		return -1;
	}
	memcpy(tg->vram_saved, p, sizeof(struct vcap_board_ctrl));
	tg->vram_ctrl = p;
	return 0;
}

int fz_probe_vram(struct fz_target *tg)
{
	struct vcap_info info;
	struct stat st;
	int fd = open(tg->vram, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "vcap-fuzz: %s: %s\n", tg->vram,
			strerror(errno));
		return -1;
	}
	if (!fstat(fd, &st))
		tg->vram_rdev = st.st_rdev;
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, VCAP_IOC_QUERY, &info)) {
		fprintf(stderr, "vcap-fuzz: VCAP_IOC_QUERY: %s\n",
			strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (info.abi_version != VCAP_ABI_VERSION || !info.map_size ||
	    info.map_size & 4095) {
		fprintf(stderr, "vcap-fuzz: VCAP_IOC_QUERY: abi %u map_size "
			"%llu\n", info.abi_version,
			(unsigned long long)info.map_size);
		return -1;
	}
	tg->vram_map_size = info.map_size;
	tg->vram_frame_offset = info.frame_offset;
	fd = open(tg->vram, O_RDWR);
	if (fd >= 0) {
		memset(&info, 0, sizeof(info));
		tg->vram_writable = ioctl(fd, VCAP_IOC_QUERY, &info) == 0 &&
				    (info.flags & VCAP_INFO_WRITABLE);
		if (tg->vram_writable && fz_map_ctrl(tg, fd)) {
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

static bool fz_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

static void fz_vram_query(struct fz_worker *w, struct fz_fd *f)
{
	struct vcap_info *info = (void *)w->scratch;
	int ret;

	memset(info, 0xa5, sizeof(*info));
	fz_describe(w, "VCAP_IOC_QUERY(%d)", f->fd);
	ret = ioctl(f->fd, VCAP_IOC_QUERY, info);
	if (ret)
		fz_fail(w, "VCAP_IOC_QUERY failed: %s", strerror(errno));
	if (info->abi_version != VCAP_ABI_VERSION ||
	    info->map_size != w->tg->vram_map_size)
		fz_fail(w, "VCAP_IOC_QUERY: abi %u map_size %llu, expected "
			"%u and %llu", info->abi_version,
			(unsigned long long)info->map_size, VCAP_ABI_VERSION,
			(unsigned long long)w->tg->vram_map_size);
	if (info->reserved0 || !fz_zero(info->reserved, sizeof(info->reserved)))
		fz_fail(w, "VCAP_IOC_QUERY: reserved fields not zeroed");
	if ((info->flags & VCAP_INFO_WRITABLE) && !f->writable)
		fz_fail(w, "VCAP_IOC_QUERY: a read-only fd says writable");
}

static void fz_vram_wait(struct fz_worker *w, struct fz_fd *f)
{
	/*
	 * A random after_seq never comes: the wait ends at its timeout, or
	 * (forever) at the timer.  Short ones cover both ends as well.
	 */
	static const uint32_t tmo[] = { 0, 0, 1, 5, 10, 0xffffffffu };
	struct vcap_wait *wt = (void *)w->scratch;
	int ret;

	fz_fill(w, wt, sizeof(*wt));
	wt->after_seq = fz_chance(w, 2) ? 0 : fz_u64(w);
	wt->timeout_ms = FZ_PICK(w, tmo);
	if (fz_chance(w, 2))
		memset(wt->reserved, 0, sizeof(wt->reserved));
	fz_describe(w, "VCAP_IOC_WAIT_FRAME(%d, after %llu, %u ms)", f->fd,
		    (unsigned long long)wt->after_seq, wt->timeout_ms);
	fz_arm(w, 20);
	ret = ioctl(f->fd, VCAP_IOC_WAIT_FRAME, wt);
	fz_disarm(w);
	if (ret == 0 && wt->slot >= 8)
		fz_fail(w, "VCAP_IOC_WAIT_FRAME: slot %u out of range",
			wt->slot);
	if (ret == 0 && !fz_zero(wt->reserved, sizeof(wt->reserved)))
		fz_fail(w, "VCAP_IOC_WAIT_FRAME: reserved fields not zeroed");
}

static void fz_vram_badptr(struct fz_worker *w, struct fz_fd *f)
{
	static void *const bad[] = {
		NULL, (void *)0x1000, (void *)0xffff888000000000ull,
	};
	unsigned long cmd = fz_chance(w, 2) ? VCAP_IOC_QUERY :
					      VCAP_IOC_WAIT_FRAME;
	void *arg = FZ_PICK(w, bad);
	int ret;

	fz_describe(w, "vcap ioctl(%d, %#lx, bad %p)", f->fd, cmd, arg);
	ret = ioctl(f->fd, cmd, arg);
	if (ret != -1 || errno != EFAULT)
		fz_fail(w, "bad pointer returned %d errno %d (%s), "
			"expected EFAULT", ret, errno, strerror(errno));
}

/* ---- scribbling on a writable control page ---------------------------- */

/* A field, or with count > 1 the same field of each array element. */
struct fz_field {
	const char *name;
	uint32_t off;
	uint8_t size;			/* 4 or 8 */
	uint16_t count;
	uint32_t stride;
};

#define FZ_CTRL(part, f)						\
	{ #part "." #f, offsetof(struct vcap_board_ctrl, part.f),	\
	  sizeof(((struct vcap_board_ctrl *)0)->part.f), 1, 0 }
#define FZ_CTRL_ARR(part, arr, n, f)					\
	{ #part "." #arr "[]." #f,					\
	  offsetof(struct vcap_board_ctrl, part.arr[0].f),		\
	  sizeof(((struct vcap_board_ctrl *)0)->part.arr[0].f), n,	\
	  sizeof(((struct vcap_board_ctrl *)0)->part.arr[0]) }
#define FZ_SLOT(f)							\
	{ "slots[]." #f, offsetof(struct vcap_board_ctrl, slots[0].f),	\
	  sizeof(((struct vcap_board_ctrl *)0)->slots[0].f),		\
	  VCAP_MAX_SLOTS, sizeof(struct vcap_board_slot) }

static const struct fz_field fz_fields[] = {
	FZ_CTRL(info, magic), FZ_CTRL(info, abi_version),
	FZ_CTRL(info, ctrl_size), FZ_CTRL(info, caps),
	FZ_CTRL(info, vram_size), FZ_CTRL(info, frame_offset),
	FZ_CTRL(info, frame_size), FZ_CTRL(info, fw_peer_id),
	FZ_CTRL(info, num_modes), FZ_CTRL(info, num_intervals),
	FZ_CTRL_ARR(info, intervals, VCAP_MAX_INTERVALS, numerator),
	FZ_CTRL_ARR(info, intervals, VCAP_MAX_INTERVALS, denominator),
	FZ_CTRL_ARR(info, modes, VCAP_MAX_MODES, fourcc),
	FZ_CTRL_ARR(info, modes, VCAP_MAX_MODES, width),
	FZ_CTRL_ARR(info, modes, VCAP_MAX_MODES, height),
	FZ_CTRL_ARR(info, modes, VCAP_MAX_MODES, interval_mask),
	FZ_CTRL(request, seq), FZ_CTRL(request, cmd),
	FZ_CTRL(request, fourcc), FZ_CTRL(request, width),
	FZ_CTRL(request, height), FZ_CTRL(request, bytesperline),
	FZ_CTRL(request, interval_num), FZ_CTRL(request, interval_den),
	FZ_CTRL(request, pattern), FZ_CTRL(request, flags),
	FZ_CTRL(request, consumed_seq),
	FZ_CTRL(status, ack_seq), FZ_CTRL(status, error),
	FZ_CTRL(status, state), FZ_CTRL(status, mode_gen),
	FZ_CTRL(status, fourcc), FZ_CTRL(status, width),
	FZ_CTRL(status, height), FZ_CTRL(status, bytesperline),
	FZ_CTRL(status, sizeimage), FZ_CTRL(status, interval_num),
	FZ_CTRL(status, interval_den), FZ_CTRL(status, num_slots),
	FZ_CTRL(status, ring_offset), FZ_CTRL(status, slot_stride),
	FZ_CTRL(status, heartbeat), FZ_CTRL(status, frames_produced),
	FZ_CTRL(status, frames_overwritten), FZ_CTRL(status, frames_late),
	FZ_CTRL(status, latest_slot), FZ_CTRL(status, latest_seq),
	FZ_SLOT(lock),
	FZ_SLOT(flags),
	FZ_SLOT(sequence),
	FZ_SLOT(timestamp_ns),
	FZ_SLOT(bytesused),
	FZ_SLOT(mode_gen),
};

static uint64_t fz_ctrl_load(volatile uint8_t *p, unsigned int size)
{
	return size == 8 ? *(volatile uint64_t *)p : *(volatile uint32_t *)p;
}

static void fz_ctrl_store(volatile uint8_t *p, unsigned int size,
			  uint64_t v)
{
	if (size == 8)
		*(volatile uint64_t *)p = v;
	else
		*(volatile uint32_t *)p = (uint32_t)v;
}

/*
 * A value for a field: anything, a boundary, or a near miss of what is
 * there (a slot lock made odd, a sequence one ahead, a count one over).
 */
static uint64_t fz_ctrl_value(struct fz_worker *w, uint64_t cur,
			      unsigned int size)
{
	static const int64_t deltas[] = { 1, -1, 2, 0x1000, -0x1000 };

	switch (fz_below(w, 4)) {
	case 0:
		return cur + (uint64_t)FZ_PICK(w, deltas);
	case 1:
		return cur ^ (1ull << fz_below(w, size * 8));
	default:
		return size == 8 ? fz_u64(w) : fz_u32(w);
	}
}

/* The saved copy back: whole, or one part of it (info, request, ...). */
static void fz_ctrl_restore(struct fz_worker *w)
{
	static const struct { const char *name; size_t off, len; } parts[] = {
		{ "all", 0, sizeof(struct vcap_board_ctrl) },
		{ "info", offsetof(struct vcap_board_ctrl, info),
		  sizeof(struct vcap_board_info) },
		{ "request", offsetof(struct vcap_board_ctrl, request),
		  sizeof(struct vcap_board_request) },
		{ "status", offsetof(struct vcap_board_ctrl, status),
		  sizeof(struct vcap_board_status) },
		{ "slots", offsetof(struct vcap_board_ctrl, slots),
		  sizeof(((struct vcap_board_ctrl *)0)->slots) },
	};
	unsigned int i = fz_chance(w, 2) ? 0 : 1 + fz_below(w, 4);
	volatile uint8_t *dst = w->tg->vram_ctrl + parts[i].off;
	const uint8_t *src = w->tg->vram_saved + parts[i].off;
	size_t n;

	fz_describe(w, "control page: restore %s", parts[i].name);
	for (n = 0; n < parts[i].len; n += 4)
		*(volatile uint32_t *)(dst + n) = *(const uint32_t *)(src + n);
}

static void fz_vram_scribble(struct fz_worker *w)
{
	volatile uint8_t *ctrl = w->tg->vram_ctrl;
	const struct fz_field *fl;
	unsigned int i, n, size;
	uint32_t off;
	uint64_t v;

	w->scribbles++;
	switch (fz_below(w, 16)) {
	case 0:
		fz_ctrl_restore(w);
		return;
	case 1: case 2: case 3:
		/* random bytes anywhere in the page the board describes */
		n = 1 + fz_below(w, 16);
		off = fz_below(w, sizeof(struct vcap_board_ctrl) - n + 1);
		fz_describe(w, "control page: %u random bytes at %#x", n, off);
		for (i = 0; i < n; i++)
			ctrl[off + i] = (uint8_t)fz_next(w);
		return;
	default:
		fl = &FZ_PICK(w, fz_fields);
		i = fz_below(w, fl->count);
		off = fl->off + i * fl->stride;
		size = fl->size;
		/* now and then a 64-bit write over two 32-bit fields */
		if (size == 4 && !(off & 7) && fz_chance(w, 8) &&
		    off + 8 <= sizeof(struct vcap_board_ctrl))
			size = 8;
		v = fz_ctrl_value(w, fz_ctrl_load(ctrl + off, size), size);
		fz_describe(w, "control page: %s (#%u at %#x) = %#llx/%u",
			    fl->name, i, off, (unsigned long long)v, size * 8);
		fz_ctrl_store(ctrl + off, size, v);
	}
}

void fz_op_vram(struct fz_worker *w)
{
	struct fz_fd *f = fz_priv_fd(w, FZ_VRAM);
	struct fz_fd *any;

	w->stats[FZF_VRAM]++;
	/* Only when writable: the read-only run draws the same numbers. */
	if (w->tg->vram_ctrl && fz_chance(w, 3)) {
		fz_vram_scribble(w);
		return;
	}
	switch (fz_below(w, 6)) {
	case 0: case 1:
		if (f)
			fz_vram_query(w, f);
		break;
	case 2: case 3:
		if (f)
			fz_vram_wait(w, f);
		break;
	case 4:
		if (f)
			fz_vram_badptr(w, f);
		break;
	default:
		/* vcap's ioctls with random arguments on any fd */
		any = fz_any_fd(w);
		if (!any)
			break;
		fz_fill(w, w->scratch, 256);
		fz_describe(w, "vcap ioctl(%d, random)", any->fd);
		fz_arm(w, 20);
		ioctl(__atomic_load_n(&any->fd, __ATOMIC_ACQUIRE),
		      fz_chance(w, 2) ? VCAP_IOC_QUERY : VCAP_IOC_WAIT_FRAME,
		      w->scratch);
		fz_disarm(w);
	}
}
