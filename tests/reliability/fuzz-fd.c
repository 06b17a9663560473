// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vcap-fuzz: the file descriptors.  Each worker owns a few (their kind is
 * known, so invariants can be checked on them); the threads of a process
 * also share a pool that any of them may use or close at any time, so
 * open, close and ioctls race on the same files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

struct fz_fd *fz_priv_fd(struct fz_worker *w, enum fz_kind kind)
{
	unsigned int i, start = fz_below(w, FZ_PRIV_FDS);

	for (i = 0; i < FZ_PRIV_FDS; i++) {
		struct fz_fd *f = &w->fds[(start + i) % FZ_PRIV_FDS];

		if (f->fd >= 0 && (kind == FZ_NONE || f->kind == kind))
			return f;
	}
	return NULL;
}

struct fz_fd *fz_any_fd(struct fz_worker *w)
{
	unsigned int i, start;

	if (fz_chance(w, 2))
		return fz_priv_fd(w, FZ_NONE);
	start = fz_below(w, FZ_SHARED_FDS);
	for (i = 0; i < FZ_SHARED_FDS; i++) {
		struct fz_fd *f = &w->shared[(start + i) % FZ_SHARED_FDS];

		if (__atomic_load_n(&f->fd, __ATOMIC_ACQUIRE) >= 0)
			return f;
	}
	return fz_priv_fd(w, FZ_NONE);
}

/* A shared slot's fd, read once: another thread may close it meanwhile. */
static int fz_fd_of(const struct fz_fd *f)
{
	return f ? __atomic_load_n(&f->fd, __ATOMIC_ACQUIRE) : -1;
}

void fz_adopt_fd(struct fz_worker *w, int fd, enum fz_kind kind, int acc)
{
	bool rw = acc == O_RDWR, rd = acc != O_WRONLY;

	unsigned int i;

	if (!w->in_child && fz_chance(w, 2)) {
		for (i = 0; i < FZ_SHARED_FDS; i++) {
			struct fz_fd *f = &w->shared[i];
			int none = -1;

			if (__atomic_load_n(&f->fd, __ATOMIC_ACQUIRE) >= 0)
				continue;
			f->kind = kind;
			f->writable = rw;
			f->readable = rd;
			if (__atomic_compare_exchange_n(&f->fd, &none, fd, false,
							__ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
				return;
		}
	}
	for (i = 0; i < FZ_PRIV_FDS; i++) {
		if (w->fds[i].fd < 0) {
			w->fds[i] = (struct fz_fd){ fd, kind, rw, rd };
			return;
		}
	}
	close(fd);
}

static void fz_close_slot(struct fz_worker *w, struct fz_fd *f)
{
	int fd = __atomic_exchange_n(&f->fd, -1, __ATOMIC_ACQ_REL);

	if (fd < 0)
		return;
	fz_describe(w, "close(%d)", fd);
	if (close(fd))
		fz_fail(w, "close of an fd this worker owned: %s",
			strerror(errno));
}

void fz_close_all(struct fz_worker *w)
{
	unsigned int i;

	for (i = 0; i < FZ_PRIV_FDS; i++)
		fz_close_slot(w, &w->fds[i]);
}

static void fz_open(struct fz_worker *w)
{
	static const int accs[] = { O_RDWR, O_RDWR, O_RDONLY, O_WRONLY };
	const struct fz_target *tg = w->tg;
	bool vram = tg->vram && fz_chance(w, 3);
	const char *path = vram ? tg->vram : tg->video;
	int acc = FZ_PICK(w, accs);
	int flags = acc | O_CLOEXEC;
	int fd;

	if (fz_chance(w, 2))
		flags |= O_NONBLOCK;
	fz_describe(w, "open(%s, %#x)", path, flags);
	fd = open(path, flags);
	if (fd < 0) {
		/* Read and read-write opens of a present node must work. */
		if (acc != O_WRONLY)
			fz_fail(w, "open failed: %s", strerror(errno));
		return;
	}
	fz_adopt_fd(w, fd, vram ? FZ_VRAM : FZ_VIDEO, acc);
}

/*
 * What an fd really is, asked of the fd itself: a shared slot's kind and
 * access mode can change under a reader when another thread closes the
 * slot and puts a new file in it.
 */
static enum fz_kind fz_kind_of(const struct fz_target *tg, int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return FZ_NONE;
	if (!S_ISCHR(st.st_mode))
		return FZ_DMABUF;
	if (st.st_rdev == tg->video_rdev)
		return FZ_VIDEO;
	if (tg->vram && st.st_rdev == tg->vram_rdev)
		return FZ_VRAM;
	return FZ_NONE;
}

static void fz_dup(struct fz_worker *w)
{
	struct fz_fd *f = fz_any_fd(w);
	enum fz_kind kind;
	int fd, acc;

	fd = fz_fd_of(f);
	if (fd < 0)
		return;
	fz_describe(w, "dup(%d)", fd);
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return;
	acc = fcntl(fd, F_GETFL);
	kind = fz_kind_of(w->tg, fd);
	if (acc < 0 || kind == FZ_NONE) {
		close(fd);
		return;
	}
	fz_adopt_fd(w, fd, kind, acc & O_ACCMODE);
}

static void fz_read(struct fz_worker *w)
{
	static const size_t lens[] = { 0, 1, 4096, 153600, 614400 };
	struct fz_fd *f = fz_any_fd(w);
	size_t len = FZ_PICK(w, lens);
	void *buf = fz_ptr(w, len);
	int fd = fz_fd_of(f);

	if (fd < 0)
		return;
	fz_describe(w, "read(%d, %p, %zu)", fd, buf, len);
	fz_arm(w, 50);
	if (read(fd, buf, len) < 0 && errno == 0)
		fz_fail(w, "read failed without errno");
	fz_disarm(w);
}

static void fz_poll(struct fz_worker *w)
{
	static const short evs[] = { POLLIN, POLLPRI, POLLOUT,
				     POLLIN | POLLPRI | POLLERR, 0, -1 };
	struct pollfd pfd[2];
	unsigned int i, n = 1 + fz_below(w, 2);

	for (i = 0; i < n; i++) {
		pfd[i].fd = fz_fd_of(fz_any_fd(w));
		pfd[i].events = FZ_PICK(w, evs);
		pfd[i].revents = 0;
	}
	fz_describe(w, "poll(%d fds: %d %#x)", n, pfd[0].fd, pfd[0].events);
	fz_arm(w, 50);
	poll(pfd, n, fz_chance(w, 2) ? 0 : 10);
	fz_disarm(w);
}

void fz_op_fd(struct fz_worker *w)
{
	struct fz_fd *f;

	switch (fz_below(w, 10)) {
	case 0: case 1: case 2: case 3:
		fz_open(w);
		break;
	case 4: case 5: case 6:
		f = fz_any_fd(w);
		if (f)
			fz_close_slot(w, f);
		break;
	case 7:
		fz_dup(w);
		break;
	case 8:
		w->stats[FZF_IO]++;
		fz_read(w);
		return;
	default:
		w->stats[FZF_IO]++;
		fz_poll(w);
		return;
	}
	w->stats[FZF_FD]++;
}
