// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vcap-fuzz: memory mappings of the nodes.  mmap with good and bad offsets,
 * lengths, protections and flags; touching what was mapped; munmap (whole
 * and partial), mremap (shrink, grow, move), mprotect, madvise; and fork
 * with mappings and fds inherited, the parent letting go while the child
 * still reads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include "fuzz.h"

#define PAGE		4096ul
/* Bytes one worker keeps mapped; more is unmapped right after a touch. */
#define FZ_MAP_BUDGET	(48ul << 20)

static __thread sigjmp_buf *volatile fz_jb;
static __thread struct fz_worker *fz_self;
static __thread volatile int fz_si_code;	/* of the last caught fault */

/*
 * Each thread takes its faults on a stack of its own: a fault that comes
 * from the thread's stack itself (overflow, or a stack pointer gone bad)
 * is still reported, not turned by the kernel into a silent SIGSEGV.
 */
#define FZ_ALTSTACK	(64u << 10)

void fz_mm_thread(struct fz_worker *w)
{
	stack_t ss = { .ss_size = FZ_ALTSTACK };

	fz_self = w;
	ss.ss_sp = malloc(FZ_ALTSTACK);
	if (!ss.ss_sp || sigaltstack(&ss, NULL))
		fprintf(stderr, "vcap-fuzz: no signal stack for worker %u.%u\n",
			w->proc, w->thread);
}

/*
 * The instruction that faulted, printed beside this handler's own address:
 * the difference places it in the fuzzer, or not, whatever the load base.
 */
static void *fz_fault_ip(void *uc)
{
#if defined(__x86_64__) && defined(REG_RIP)
	return (void *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#else
	(void)uc;
	return NULL;
#endif
}

static void fz_on_fault(int sig, siginfo_t *si, void *uc)
{
	char msg[400];
	int n;

	if (fz_jb) {
		fz_si_code = si->si_code;
		siglongjmp(*fz_jb, sig);
	}
	/* Not in a touch: say where, then die with the signal. */
	n = snprintf(msg, sizeof(msg),
		     "vcap-fuzz: signal %d at %p in worker %u.%u%s op %llu (%s), ip %p (fz_on_fault at %p)\n",
		     sig, si->si_addr, fz_self ? fz_self->proc : 0,
		     fz_self ? fz_self->thread : 0,
		     fz_self && fz_self->in_child ? " (forked child)" : "",
		     fz_self ? (unsigned long long)fz_self->op : 0,
		     fz_self ? fz_self->desc : "?", fz_fault_ip(uc),
		     (void *)fz_on_fault);
	if (n > 0 && write(2, msg, (size_t)n) < 0)
		n = 0;
	signal(sig, SIG_DFL);
}

void fz_mm_init(void)
{
	struct sigaction sa = { .sa_sigaction = fz_on_fault,
				.sa_flags = SA_SIGINFO | SA_NODEFER |
					    SA_ONSTACK };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

static size_t fz_mapped(const struct fz_worker *w)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < FZ_MAPS; i++)
		if (w->maps[i].addr)
			n += w->maps[i].len;
	return n;
}

/* Read (and write when allowed) a few bytes of a mapping. */
static void fz_touch(struct fz_worker *w, struct fz_map *m)
{
	volatile uint8_t *p = m->addr;
	size_t at[3] = { 0, m->len - 1, fz_below(w, m->len) };
	sigjmp_buf jb;
	unsigned int i;
	int sig;

	if (!(m->prot & PROT_READ))
		return;
	fz_describe(w, "touch(%p, %zu, prot %#x, kind %d)", m->addr, m->len,
		    m->prot, m->kind);
	sig = sigsetjmp(jb, 1);
	if (sig) {
		fz_jb = NULL;
		if (m->may_fault) {
			w->faults++;
			return;
		}
		/*
		 * SEGV_MAPERR: no VMA there any more; SEGV_ACCERR: the VMA
		 * refuses the access; SIGBUS: the fault handler refused.
		 */
		fz_fail(w, "signal %d (si_code %d: %s) touching a live mapping "
			"(may_fault %d)", sig, fz_si_code,
			sig == SIGSEGV && fz_si_code == SEGV_MAPERR ? "no VMA" :
			sig == SIGSEGV && fz_si_code == SEGV_ACCERR ?
			"access refused" : "fault handler", m->may_fault);
	}
	fz_jb = &jb;
	for (i = 0; i < 3; i++) {
		uint8_t v = p[at[i]];

		if (m->prot & PROT_WRITE)
			p[at[i]] = v;
	}
	fz_jb = NULL;
}

static struct fz_map *fz_free_map(struct fz_worker *w)
{
	unsigned int i;

	for (i = 0; i < FZ_MAPS; i++)
		if (!w->maps[i].addr)
			return &w->maps[i];
	return NULL;
}

static struct fz_map *fz_some_map(struct fz_worker *w)
{
	unsigned int i, start = fz_below(w, FZ_MAPS);

	for (i = 0; i < FZ_MAPS; i++) {
		struct fz_map *m = &w->maps[(start + i) % FZ_MAPS];

		if (m->addr)
			return m;
	}
	return NULL;
}

static void fz_unmap(struct fz_worker *w, struct fz_map *m)
{
	fz_describe(w, "munmap(%p, %zu)", m->addr, m->len);
	if (munmap(m->addr, m->len))
		fz_fail(w, "munmap of a live mapping: %s", strerror(errno));
	m->addr = NULL;
}

void fz_unmap_all(struct fz_worker *w)
{
	unsigned int i;

	for (i = 0; i < FZ_MAPS; i++)
		if (w->maps[i].addr)
			fz_unmap(w, &w->maps[i]);
}

/*
 * Map and check what must fail; keep the mapping if there is room.
 * f is the fd's slot: its kind is certain only for a worker's own fds.
 */
int fz_mmap(struct fz_worker *w, struct fz_fd *f, size_t len, off_t off,
	    int prot, int flags)
{
	const struct fz_target *tg = w->tg;
	bool own = f >= w->fds && f < w->fds + FZ_PRIV_FDS;
	enum fz_kind kind = own ? f->kind : FZ_NONE;
	int fd = __atomic_load_n(&f->fd, __ATOMIC_ACQUIRE);
	bool must_fail = false;
	const char *why = "";
	struct fz_map *m;
	void *p;

	if (kind == FZ_VRAM) {
		if ((uint64_t)off >= tg->vram_map_size ||
		    len > tg->vram_map_size - (uint64_t)off)
			must_fail = true, why = "past the end of VRAM";
		if ((flags & MAP_TYPE) == MAP_PRIVATE)
			must_fail = true, why = "MAP_PRIVATE";
		if ((prot & PROT_WRITE) && !(f->writable && tg->vram_writable))
			must_fail = true, why = "PROT_WRITE on a read-only fd";
	} else if (kind == FZ_VIDEO && (flags & MAP_TYPE) == MAP_PRIVATE) {
		must_fail = true, why = "MAP_PRIVATE";
	}
	fz_describe(w, "mmap(%zu, prot %#x, flags %#x, fd %d kind %d, "
		    "off %#llx)", len, prot, flags, fd, kind,
		    (unsigned long long)off);
	p = mmap(NULL, len, prot, flags, fd, off);
	if (p == MAP_FAILED) {
		if (must_fail && len && !(off & (PAGE - 1)) &&
		    errno != EINVAL && errno != EACCES && errno != EPERM &&
		    errno != EOVERFLOW && errno != ENOMEM && errno != EBUSY)
			fz_fail(w, "mapping %s failed with errno %d (%s)", why,
				errno, strerror(errno));
		return -1;
	}
	if (must_fail) {
		munmap(p, len);
		fz_fail(w, "mapping %s succeeded", why);
	}
	w->hits[FZH_MMAP]++;
	len = (len + PAGE - 1) & ~(PAGE - 1);	/* what the VMA covers */
	m = fz_free_map(w);
	if (!m || fz_mapped(w) + len > FZ_MAP_BUDGET) {
		struct fz_map tmp = { p, len, prot, kind, false, false };

		fz_touch(w, &tmp);
		fz_unmap(w, &tmp);
		return 0;
	}
	*m = (struct fz_map){ p, len, prot, kind, false,
			      kind == FZ_VRAM &&
			      !(f->writable && tg->vram_writable) };
	fz_touch(w, m);
	return 0;
}

static void fz_op_map(struct fz_worker *w)
{
	static const int prots[] = {
		PROT_READ, PROT_READ, PROT_READ, PROT_READ | PROT_WRITE,
		PROT_WRITE, PROT_NONE, PROT_READ | PROT_EXEC,
	};
	static const int flagss[] = {
		MAP_SHARED, MAP_SHARED, MAP_SHARED, MAP_SHARED | MAP_POPULATE,
		MAP_PRIVATE, MAP_SHARED_VALIDATE, MAP_SHARED | MAP_NORESERVE,
	};
	const struct fz_target *tg = w->tg;
	struct fz_fd *f = fz_any_fd(w);
	uint64_t off = 0, len = PAGE;

	if (!f)
		return;
	if (f->kind == FZ_VRAM) {
		uint64_t ms = tg->vram_map_size;
		const uint64_t offs[] = {
			0, 0, tg->vram_frame_offset, ms - PAGE, ms, ms + PAGE,
			fz_below(w, (uint32_t)(ms / PAGE)) * PAGE,
			((1ull << 52) - 1) << 12, 0xffffffffull << 12,
		};
		const uint64_t lens[] = {
			PAGE, PAGE, 4 * PAGE, ms, ms + PAGE, 2 * ms,
			ms - tg->vram_frame_offset,
		};

		off = FZ_PICK(w, offs);
		len = FZ_PICK(w, lens);
		if (fz_chance(w, 4) && off < ms)
			len = ms - off;
	} else if (f->kind == FZ_VIDEO) {
		struct v4l2_plane planes[VIDEO_MAX_PLANES] = { 0 };
		struct v4l2_buffer b = {
			.type = tg->buf_type, .memory = V4L2_MEMORY_MMAP,
			.index = fz_below(w, 5),
		};
		bool mp = b.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;

		if (mp) {
			b.m.planes = planes;
			b.length = VIDEO_MAX_PLANES;
		}
		if (ioctl(__atomic_load_n(&f->fd, __ATOMIC_ACQUIRE),
			  VIDIOC_QUERYBUF, &b) == 0) {
			off = mp ? planes[0].m.mem_offset : b.m.offset;
			len = mp ? planes[0].length : b.length;
		}
		switch (fz_below(w, 8)) {
		case 0: len += PAGE; break;
		case 1: len = PAGE; break;
		case 2: off = fz_u32(w) & ~(PAGE - 1); break;
		case 3: off = fz_u64(w) & ~(PAGE - 1); break;
		}
	} else {
		/* a dma-buf: offset 0, its length unknown */
		len = PAGE * (1 + fz_below(w, 160));
	}
	if (len > (1ull << 31))
		len = 1ull << 31;
	if (fz_chance(w, 32))
		off |= 1 + fz_below(w, PAGE - 1);	/* unaligned */
	fz_mmap(w, f, len, (off_t)off, FZ_PICK(w, prots), FZ_PICK(w, flagss));
}

static void fz_op_munmap(struct fz_worker *w, struct fz_map *m)
{
	size_t pages = m->len / PAGE, keep;

	if (pages < 2 || fz_chance(w, 2)) {
		fz_unmap(w, m);
		return;
	}
	keep = 1 + fz_below(w, pages - 1);
	if (fz_chance(w, 2)) {
		/* drop the tail */
		fz_describe(w, "munmap tail(%p + %zu)", m->addr, keep * PAGE);
		if (munmap((uint8_t *)m->addr + keep * PAGE,
			   m->len - keep * PAGE))
			fz_fail(w, "partial munmap: %s", strerror(errno));
	} else {
		/* drop the head */
		fz_describe(w, "munmap head(%p, %zu)", m->addr,
			    m->len - keep * PAGE);
		if (munmap(m->addr, m->len - keep * PAGE))
			fz_fail(w, "partial munmap: %s", strerror(errno));
		m->addr = (uint8_t *)m->addr + (m->len - keep * PAGE);
	}
	m->len = keep * PAGE;
}

/*
 * After a failed MREMAP_FIXED, the kernel may already have unmapped the
 * destination (it does so before it checks the source: a source split by
 * a partial mprotect fails with EFAULT then), and another thread may have
 * mapped something into the hole since.  Unmap the reservation only if the
 * whole range is still free to take back; otherwise leave it, so nobody
 * else's mapping is ever destroyed.
 */
static void fz_release_reserve(void *dst, size_t len)
{
	void *q = mmap(dst, len, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (q != MAP_FAILED)
		munmap(q, len);
}

static void fz_op_mremap(struct fz_worker *w, struct fz_map *m)
{
	size_t pages = m->len / PAGE;
	void *p, *dst;

	switch (fz_below(w, 3)) {
	case 0:
		/* growing a device mapping must fail (VM_DONTEXPAND) */
		fz_describe(w, "mremap grow(%p, %zu)", m->addr, m->len);
		p = mremap(m->addr, m->len, m->len + PAGE, MREMAP_MAYMOVE);
		if (p != MAP_FAILED) {
			m->addr = p;
			m->len += PAGE;
			if (m->kind != FZ_NONE)
				fz_fail(w, "mremap grew a device mapping");
		}
		break;
	case 1:
		if (pages < 2)
			break;
		fz_describe(w, "mremap shrink(%p, %zu)", m->addr, m->len);
		p = mremap(m->addr, m->len, (pages / 2) * PAGE, 0);
		if (p == MAP_FAILED)
			fz_fail(w, "mremap shrink: %s", strerror(errno));
		m->len = (pages / 2) * PAGE;
		break;
	default:
		/* move it to a place reserved for the purpose */
		dst = mmap(NULL, m->len, PROT_NONE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (dst == MAP_FAILED)
			break;
		fz_describe(w, "mremap move(%p -> %p, %zu)", m->addr, dst,
			    m->len);
		p = mremap(m->addr, m->len, m->len,
			   MREMAP_MAYMOVE | MREMAP_FIXED, dst);
		if (p == MAP_FAILED) {
			fz_release_reserve(dst, m->len);
			break;
		}
		m->addr = p;
	}
	fz_touch(w, m);
}

static void fz_op_mprotect(struct fz_worker *w, struct fz_map *m)
{
	static const int prots[] = {
		PROT_READ, PROT_NONE, PROT_READ | PROT_WRITE, PROT_WRITE,
		PROT_READ | PROT_EXEC,
	};
	int prot = FZ_PICK(w, prots);
	bool part = m->len > PAGE && fz_chance(w, 2);
	size_t len = part ? PAGE : m->len;
	int ret;

	fz_describe(w, "mprotect(%p, %zu, %#x) of kind %d prot %#x", m->addr,
		    len, prot, m->kind, m->prot);
	ret = mprotect(m->addr, len, prot);
	if (ret == 0 && (prot & PROT_WRITE) && !(m->prot & PROT_WRITE) &&
	    m->ro) {
		/* a read-only VRAM mapping must stay read-only */
		fz_fail(w, "mprotect made a read-only VRAM mapping writable");
	}
	if (ret == 0)
		m->prot = part ? (m->prot & prot) : prot;
	fz_touch(w, m);
}

static void fz_op_madvise(struct fz_worker *w, struct fz_map *m)
{
	static const int advs[] = {
		MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED,
		MADV_DONTNEED, MADV_FREE, MADV_REMOVE, MADV_DONTFORK,
		MADV_DOFORK, MADV_MERGEABLE, MADV_HUGEPAGE, MADV_NOHUGEPAGE,
		MADV_DONTDUMP, MADV_DODUMP, MADV_WIPEONFORK, MADV_COLD,
		MADV_PAGEOUT, MADV_POPULATE_READ, MADV_POPULATE_WRITE, 1000,
	};
	int adv = FZ_PICK(w, advs);

	/* A child would find no mapping at all: leave those out. */
	if (adv == MADV_DONTFORK || adv == MADV_WIPEONFORK)
		adv = MADV_DOFORK;
	fz_describe(w, "madvise(%p, %zu, %d)", m->addr, m->len, adv);
	if (madvise(m->addr, m->len, adv) == 0 &&
	    (adv == MADV_DONTNEED || adv == MADV_FREE ||
	     adv == MADV_REMOVE || adv == MADV_PAGEOUT))
		m->may_fault = true;	/* no fault handler to bring it back */
	fz_touch(w, m);
}

void fz_op_mm(struct fz_worker *w)
{
	struct fz_map *m;
	uint32_t r = fz_below(w, 20);

	w->stats[FZF_MM]++;
	if (r < 7) {
		fz_op_map(w);
		return;
	}
	m = fz_some_map(w);
	if (!m) {
		fz_op_map(w);
		return;
	}
	if (r < 11)
		fz_touch(w, m);
	else if (r < 14)
		fz_op_munmap(w, m);
	else if (r < 16)
		fz_op_mremap(w, m);
	else if (r < 18)
		fz_op_mprotect(w, m);
	else
		fz_op_madvise(w, m);
}

/* ---- fork ------------------------------------------------------------- */

static void fz_child(struct fz_worker *w)
{
	unsigned int i, n = 4 + fz_below(w, 16);

	w->in_child = 1;
	w->has_timer = false;		/* timers do not survive fork */
	for (i = 0; i < n; i++) {
		struct fz_map *m = fz_some_map(w);
		struct fz_fd *f;

		switch (fz_below(w, 4)) {
		case 0: case 1:
			if (m)
				fz_touch(w, m);
			break;
		case 2:
			if (m)
				fz_unmap(w, m);
			break;
		default:
			f = fz_any_fd(w);
			if (f) {
				struct v4l2_format fmt = {
					.type = w->tg->buf_type,
				};

				fz_describe(w, "child G_FMT(%d)", f->fd);
				ioctl(f->fd, VIDIOC_G_FMT, &fmt);
			}
		}
	}
	_exit(0);
}

void fz_op_fork(struct fz_worker *w)
{
	uint64_t t0;
	struct fz_map *m;
	struct fz_fd *f;
	pid_t pid;
	int st;

	w->stats[FZF_FORK]++;
	fz_describe(w, "fork");
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0)
		fz_child(w);
	/* The parent lets go of a mapping and an fd the child still has. */
	m = fz_some_map(w);
	if (m)
		fz_unmap(w, m);
	f = fz_priv_fd(w, FZ_NONE);
	if (f) {
		close(f->fd);
		f->fd = -1;
	}
	/* Woken by the child's exit, or by the timer to look at the clock. */
	t0 = fz_now_ns();
	fz_arm(w, 1000);
	for (;;) {
		pid_t r = waitpid(pid, &st, 0);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			fz_fail(w, "waitpid: %s", strerror(errno));
		if (fz_now_ns() - t0 > 30000000000ull) {
			kill(pid, SIGKILL);
			fz_fail(w, "forked child still running after 30 s");
		}
	}
	fz_disarm(w);
	if (WIFSIGNALED(st))
		fz_fail(w, "forked child killed by signal %d", WTERMSIG(st));
	if (WEXITSTATUS(st))
		fz_fail(w, "forked child failed (status %d)",
			WEXITSTATUS(st));
}
