/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* vcap-fuzz: the state every fuzzing worker carries, and its operations. */
#ifndef FUZZ_H
#define FUZZ_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define FZ_PRIV_FDS	3	/* owned by one thread: invariants hold */
#define FZ_SHARED_FDS	6	/* any thread of the process: races */
#define FZ_MAPS		8
#define FZ_SCRATCH	(64 * 1024)
#define FZ_USERPTR	(4u << 20)	/* a 1280x720 YUYV frame, and more */

enum fz_kind {
	FZ_NONE = 0,
	FZ_VIDEO,		/* the V4L2 node */
	FZ_VRAM,		/* /dev/vcapN */
	FZ_DMABUF,		/* a buffer exported with VIDIOC_EXPBUF */
};

/* What the fuzzer learnt about the nodes before it started. */
struct fz_target {
	const char *video;		/* V4L2 node */
	const char *vram;		/* VRAM node, or NULL */
	dev_t video_rdev, vram_rdev;	/* their device numbers */
	uint32_t buf_type;		/* the node's capture buffer type */
	uint64_t vram_map_size;		/* from VCAP_IOC_QUERY */
	uint64_t vram_frame_offset;
	bool vram_writable;		/* an O_RDWR fd may map PROT_WRITE */
	/*
	 * Writable VRAM only: the control page, mapped PROT_WRITE once for
	 * every process, and a copy of it as it was when the run started.
	 */
	volatile uint8_t *vram_ctrl;
	uint8_t *vram_saved;
	uint32_t ctrl_ids[128];		/* controls the node offers */
	unsigned int num_ctrls;
	uint32_t avoid_ctrl[8];		/* never set: would remove the device */
	unsigned int num_avoid;
	uint8_t v4l2_supported[256];	/* by _IOC_NR: not ENOTTY when valid */
	const char *skip[8];		/* ioctls left out (--skip) */
	unsigned int num_skip;
};

struct fz_map {
	void *addr;			/* NULL: free slot */
	size_t len;
	int prot;
	enum fz_kind kind;
	bool may_fault;			/* discarded by madvise: no fault handler */
	bool ro;			/* VRAM that must never become writable */
};

struct fz_fd {
	int fd;				/* -1: free */
	enum fz_kind kind;
	bool writable;			/* opened O_RDWR */
	bool readable;			/* opened O_RDONLY or O_RDWR */
};

/* One fuzzing thread. */
struct fz_worker {
	const struct fz_target *tg;
	unsigned int proc, thread;
	int tid;				/* gettid(), for the watchdog */
	uint64_t seed;			/* the run's seed */
	uint64_t rng;			/* this worker's stream */
	uint64_t op, nops;		/* current op index, quota */
	volatile uint64_t progress;	/* bumped per op, for the watchdog */
	volatile int in_child;		/* a forked child runs the ops */
	struct fz_fd fds[FZ_PRIV_FDS];
	struct fz_fd *shared;		/* FZ_SHARED_FDS, the process's */
	struct fz_map maps[FZ_MAPS];
	uint8_t *scratch;		/* FZ_SCRATCH bytes, then a guard page */
	uint8_t *userptr;		/* FZ_USERPTR bytes, then a guard page */
	timer_t timer;			/* interrupts blocking calls */
	bool has_timer;
	char desc[192];			/* the op in progress, for reports */
	uint64_t stats[8];		/* per op family */
	uint64_t ns[8];			/* wall time per op family */
	uint64_t wait_ns[8];		/* of which armed for a blocking call */
	uint64_t armed_ns;		/* this op's armed time so far */
	uint64_t armed_at;		/* when the timer was armed, or 0 */
	uint64_t faults;		/* touches that faulted where allowed */
	uint64_t hits[4];		/* FZH_*: deep paths reached */
	uint64_t scribbles;		/* writes to a writable control page */
	bool trace;
};

/* Successes that show the run got past the argument checks. */
enum fz_hit { FZH_MMAP, FZH_STREAMON, FZH_DQBUF, FZH_EXPBUF };

enum fz_family {
	FZF_FD, FZF_V4L2, FZF_STREAM, FZF_VRAM, FZF_INVARIANT, FZF_MM,
	FZF_FORK, FZF_IO,
};

/* Random numbers: splitmix64, one stream per worker. */
static inline uint64_t fz_next(struct fz_worker *w)
{
	uint64_t z = (w->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t fz_below(struct fz_worker *w, uint32_t n)
{
	return n ? (uint32_t)(fz_next(w) % n) : 0;
}

static inline bool fz_chance(struct fz_worker *w, uint32_t one_in)
{
	return fz_below(w, one_in) == 0;
}

#define FZ_PICK(w, arr)	((arr)[fz_below(w, sizeof(arr) / sizeof((arr)[0]))])

/* A 32-bit value biased to boundaries, or one of the given sane ones. */
uint32_t fz_u32(struct fz_worker *w);
uint64_t fz_u64(struct fz_worker *w);
/* A pointer for the kernel to read or write n bytes: good or bad. */
void *fz_ptr(struct fz_worker *w, size_t n);
/* A USERPTR buffer of *len bytes (cut to fit): good or bad. */
unsigned long fz_userptr(struct fz_worker *w, uint32_t *len);
void fz_fill(struct fz_worker *w, void *p, size_t n);

/* Report a broken invariant with the seed and op, then exit. */
void fz_fail(struct fz_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void fz_describe(struct fz_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Arm the worker's timer so a blocking call returns EINTR. */
void fz_arm(struct fz_worker *w, unsigned int ms);
void fz_disarm(struct fz_worker *w);
uint64_t fz_now_ns(void);

/* fd pool (fuzz-fd.c) */
struct fz_fd *fz_any_fd(struct fz_worker *w);	/* may return NULL */
struct fz_fd *fz_priv_fd(struct fz_worker *w, enum fz_kind kind);
void fz_adopt_fd(struct fz_worker *w, int fd, enum fz_kind kind, int acc);
void fz_op_fd(struct fz_worker *w);
void fz_close_all(struct fz_worker *w);

/* V4L2 ioctls (fuzz-v4l2.c) */
void fz_probe_v4l2(struct fz_target *tg, int fd);
int fz_skip_ioctl(struct fz_target *tg, const char *name);
void fz_op_v4l2(struct fz_worker *w);
void fz_op_stream(struct fz_worker *w);
void fz_op_invariant(struct fz_worker *w);

/* VRAM node (fuzz-vram.c) */
int fz_probe_vram(struct fz_target *tg);
void fz_op_vram(struct fz_worker *w);

/* Memory mappings and fork (fuzz-mm.c) */
void fz_mm_init(void);
void fz_mm_thread(struct fz_worker *w);
void fz_op_mm(struct fz_worker *w);
void fz_op_fork(struct fz_worker *w);
void fz_unmap_all(struct fz_worker *w);
int fz_mmap(struct fz_worker *w, struct fz_fd *f, size_t len, off_t off,
	    int prot, int flags);

#endif /* FUZZ_H */
