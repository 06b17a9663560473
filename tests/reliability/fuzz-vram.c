// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vcap-fuzz: the VRAM node's ioctls, and what its answers must hold. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include <linux/vcap.h>

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
	static const uint32_t tmo[] = { 0, 0, 1, 10, 50, 0xffffffffu };
	struct vcap_wait *wt = (void *)w->scratch;
	int ret;

	fz_fill(w, wt, sizeof(*wt));
	wt->after_seq = fz_chance(w, 2) ? 0 : fz_u64(w);
	wt->timeout_ms = FZ_PICK(w, tmo);
	if (fz_chance(w, 2))
		memset(wt->reserved, 0, sizeof(wt->reserved));
	fz_describe(w, "VCAP_IOC_WAIT_FRAME(%d, after %llu, %u ms)", f->fd,
		    (unsigned long long)wt->after_seq, wt->timeout_ms);
	fz_arm(w, 100);
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

void fz_op_vram(struct fz_worker *w)
{
	struct fz_fd *f = fz_priv_fd(w, FZ_VRAM);
	struct fz_fd *any;

	w->stats[FZF_VRAM]++;
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
		fz_arm(w, 100);
		ioctl(__atomic_load_n(&any->fd, __ATOMIC_ACQUIRE),
		      fz_chance(w, 2) ? VCAP_IOC_QUERY : VCAP_IOC_WAIT_FRAME,
		      w->scratch);
		fz_disarm(w);
	}
}
