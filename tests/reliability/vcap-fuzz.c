// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vcap-fuzz: a fixed number of random operations with a fixed seed against
 * a V4L2 node and, when given, a vcap VRAM node, from several threads and
 * processes at once.
 *
 * Every worker (process p, thread t) draws its operations from its own
 * random stream, derived from the seed, so a failing worker replays with
 * the same --seed, --procs and --threads.  Assertions: the invariants the
 * operations check (unknown ioctl gives ENOTTY, a bad pointer gives
 * EFAULT, a mapping past the end gives EINVAL, ...), no crash of the
 * fuzzer, and no operation blocked for longer than --hang seconds.  The
 * guest kernel log is judged by the VM runner.
 *
 * A VRAM node that maps writable (vcap.ko vram_writable=1) puts the
 * fuzzer in the board's place as well: some VRAM operations write random
 * values into the control page's fields, random bytes anywhere in it, or
 * the page as it was at the start.  A read-only node runs exactly the
 * operations it always did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

struct fz_opts {
	uint64_t seed;
	uint64_t ops;
	unsigned int threads;
	unsigned int procs;
	unsigned int hang_s;
	bool trace;
};

static struct fz_opts opts = {
	.seed = 1, .ops = 10000, .threads = 2, .procs = 2, .hang_s = 60,
};
static struct fz_target target;

/* The process's workers, for the watchdog. */
static struct fz_worker *workers;
static struct fz_fd shared_fds[FZ_SHARED_FDS];
static volatile int finished;

static void fz_vreport(struct fz_worker *w, const char *what,
		       const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr,
		"vcap-fuzz: %s: seed %llu worker %u.%u%s op %llu (%s): %s\n"
		"vcap-fuzz: replay: vcap-fuzz --seed %llu --ops %llu "
		"--procs %u --threads %u --video %s%s%s\n",
		what, (unsigned long long)w->seed, w->proc, w->thread,
		w->in_child ? " (forked child)" : "",
		(unsigned long long)w->op, w->desc, msg,
		(unsigned long long)opts.seed, (unsigned long long)opts.ops,
		opts.procs, opts.threads, target.video,
		target.vram ? " --vram " : "", target.vram ? target.vram : "");
	fflush(stderr);
}

void fz_fail(struct fz_worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fz_vreport(w, "FAIL", fmt, ap);
	va_end(ap);
	_exit(1);
}

void fz_describe(struct fz_worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->desc, sizeof(w->desc), fmt, ap);
	va_end(ap);
	if (w->trace)
		fprintf(stderr, "[%u.%u #%llu] %s\n", w->proc, w->thread,
			(unsigned long long)w->op, w->desc);
}

/* ---- random arguments ------------------------------------------------ */

static const uint32_t u32_edges[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256,
	160, 120, 320, 240, 640, 480, 1280, 720, 1920, 1080, 3840, 2160,
	4095, 4096, 4097, 65535, 65536, 0x7fffffffu, 0x80000000u,
	0xfffffffeu, 0xffffffffu,
};

uint32_t fz_u32(struct fz_worker *w)
{
	switch (fz_below(w, 4)) {
	case 0:
		return (uint32_t)fz_next(w);
	case 1:
		return fz_below(w, 16);
	default:
		return FZ_PICK(w, u32_edges);
	}
}

uint64_t fz_u64(struct fz_worker *w)
{
	static const uint64_t edges[] = {
		0, 1, ~0ull, ~0ull - 1, 1ull << 63, (1ull << 63) - 1,
		1ull << 32, 0xffffffffull, 1ull << 52,
	};

	switch (fz_below(w, 3)) {
	case 0:
		return fz_next(w);
	case 1:
		return fz_u32(w);
	default:
		return FZ_PICK(w, edges);
	}
}

void fz_fill(struct fz_worker *w, void *p, size_t n)
{
	uint8_t *b = p;
	size_t i;

	switch (fz_below(w, 3)) {
	case 0:
		memset(p, 0, n);
		break;
	case 1:
		memset(p, fz_chance(w, 2) ? 0xff : 0xa5, n);
		break;
	default:
		for (i = 0; i < n; i++)
			b[i] = (uint8_t)fz_next(w);
	}
}

/*
 * maps: whether a mapping of the nodes may be the answer; only where the
 * kernel touches no more than n bytes from the pointer.
 */
static void *fz_pick_ptr(struct fz_worker *w, size_t n, bool maps)
{
	unsigned int i;

	switch (fz_below(w, 10)) {
	case 0:
		return NULL;
	case 1:
		return (void *)0x1000;			/* never mapped */
	case 2:
		return (void *)0xffff888000000000ull;	/* kernel's direct map */
	case 3:
		return (void *)0x8000000000000000ull;	/* non-canonical */
	case 4:
		/* straddles the guard page after the scratch area */
		n = n > 1 ? n / 2 : 1;
		return w->scratch + FZ_SCRATCH - n;
	case 5:
		for (i = 0; maps && i < FZ_MAPS; i++) {
			struct fz_map *m = &w->maps[fz_below(w, FZ_MAPS)];

			if (m->addr && (m->prot & PROT_READ) && !m->may_fault &&
			    m->len >= n)
				return m->addr;
		}
		__attribute__((fallthrough));
	default:
		/* the scratch area: room for any ioctl argument */
		return w->scratch + (fz_chance(w, 2) ? 0 : fz_below(w, 64) * 8);
	}
}

void *fz_ptr(struct fz_worker *w, size_t n)
{
	return fz_pick_ptr(w, n, true);
}

/*
 * The driver fills a USERPTR buffer's every byte with a frame, as it
 * must, so a good one never reaches past memory handed over for that.
 * The USERPTR area and the scratch area end in guard pages, so a longer
 * buffer there fails to pin; a mapping of the nodes is cut to its own
 * length, since past it lies whatever the process mapped next: its heap,
 * its stacks.
 */
unsigned long fz_userptr(struct fz_worker *w, uint32_t *len)
{
	struct fz_map *m = &w->maps[fz_below(w, FZ_MAPS)];

	switch (fz_below(w, 8)) {
	case 0:
		if (m->addr && (m->prot & PROT_WRITE) && !m->may_fault) {
			if (*len > m->len)
				*len = (uint32_t)m->len;
			return (unsigned long)m->addr;
		}
		break;
	case 1: case 2: case 3:
		return (unsigned long)w->userptr;
	}
	return (unsigned long)fz_pick_ptr(w, 4096, false);
}

/* ---- the interrupt timer --------------------------------------------- */

uint64_t fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void fz_on_alarm(int sig)
{
	(void)sig;
}

void fz_arm(struct fz_worker *w, unsigned int ms)
{
	struct itimerspec its = {
		.it_value = { .tv_sec = ms / 1000,
			      .tv_nsec = (long)(ms % 1000) * 1000000 },
		/* keep knocking: a call may restart once */
		.it_interval = { .tv_nsec = (long)(ms < 100 ? ms : 100) *
					    1000000 },
	};

	if (w->has_timer)
		timer_settime(w->timer, 0, &its, NULL);
	w->armed_at = fz_now_ns();
}

void fz_disarm(struct fz_worker *w)
{
	struct itimerspec its = { 0 };

	if (w->has_timer)
		timer_settime(w->timer, 0, &its, NULL);
	if (w->armed_at)
		w->armed_ns += fz_now_ns() - w->armed_at;
	w->armed_at = 0;
}

static void fz_timer_init(struct fz_worker *w)
{
	struct sigevent sev = {
		.sigev_notify = SIGEV_THREAD_ID,
		.sigev_signo = SIGUSR1,
	};

	sev._sigev_un._tid = w->tid;
	w->has_timer = timer_create(CLOCK_MONOTONIC, &sev, &w->timer) == 0;
}

/* ---- workers ----------------------------------------------------------- */

static void fz_pick_op(struct fz_worker *w)
{
	uint32_t r = fz_below(w, 1000);

	if (r < 80)
		fz_op_fd(w);
	else if (r < 420)
		fz_op_v4l2(w);
	else if (r < 600)
		fz_op_stream(w);
	else if (r < 700) {
		if (target.vram)
			fz_op_vram(w);
		else
			fz_op_v4l2(w);
	} else if (r < 790)
		fz_op_invariant(w);
	else if (r < 998)
		fz_op_mm(w);
	else
		fz_op_fork(w);
}

/* One op, its time charged to the family it counted itself in. */
static void fz_op(struct fz_worker *w)
{
	uint64_t before[8], t0 = fz_now_ns(), t1;
	unsigned int j;

	memcpy(before, w->stats, sizeof(before));
	w->armed_ns = 0;
	fz_pick_op(w);
	t1 = fz_now_ns();
	for (j = 0; j < 8; j++) {
		if (w->stats[j] != before[j]) {
			w->ns[j] += t1 - t0;
			w->wait_ns[j] += w->armed_ns;
			break;
		}
	}
}

/* size bytes of private memory and a guard page after them. */
static uint8_t *fz_guarded(size_t size, const char *what)
{
	uint8_t *p = mmap(NULL, size + 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "vcap-fuzz: %s: %s\n", what, strerror(errno));
		_exit(2);
	}
	mprotect(p + size, 4096, PROT_NONE);
	return p;
}

static void *fz_worker_main(void *arg)
{
	struct fz_worker *w = arg;
	unsigned int i;

	w->tid = gettid();
	fz_mm_thread(w);
	fz_timer_init(w);
	w->scratch = fz_guarded(FZ_SCRATCH, "scratch");
	w->userptr = fz_guarded(FZ_USERPTR, "USERPTR area");
	for (i = 0; i < FZ_PRIV_FDS; i++)
		w->fds[i].fd = -1;
	for (w->op = 0; w->op < w->nops; w->op++) {
		w->desc[0] = 0;
		fz_op(w);
		w->progress++;
	}
	fz_disarm(w);
	fz_unmap_all(w);
	fz_close_all(w);
	return NULL;
}

static void *fz_watchdog(void *arg)
{
	unsigned int n = *(unsigned int *)arg;
	uint64_t *last = calloc(n, sizeof(*last));
	unsigned int *still = calloc(n, sizeof(*still));
	unsigned int i;

	while (!finished) {
		sleep(1);
		for (i = 0; i < n; i++) {
			struct fz_worker *w = &workers[i];
			char path[64], stack[2048];
			ssize_t len = 0;
			int fd;

			if (w->progress != last[i] || w->op >= w->nops) {
				last[i] = w->progress;
				still[i] = 0;
				continue;
			}
			if (++still[i] < opts.hang_s)
				continue;
			snprintf(path, sizeof(path), "/proc/self/task/%d/stack",
				 w->tid);
			fd = open(path, O_RDONLY);
			if (fd >= 0) {
				len = read(fd, stack, sizeof(stack) - 1);
				close(fd);
			}
			stack[len > 0 ? len : 0] = 0;
			fprintf(stderr,
				"vcap-fuzz: HANG: worker %u.%u stuck for %u s "
				"in op %llu (%s); kernel stack:\n%s",
				w->proc, w->thread, opts.hang_s,
				(unsigned long long)w->op, w->desc, stack);
			fprintf(stderr,
				"vcap-fuzz: replay: vcap-fuzz --seed %llu "
				"--ops %llu --procs %u --threads %u\n",
				(unsigned long long)opts.seed,
				(unsigned long long)opts.ops, opts.procs,
				opts.threads);
			fflush(stderr);
			_exit(3);
		}
	}
	free(last);
	free(still);
	return NULL;
}

static const char *const family_name[] = {
	"fd", "v4l2", "stream", "vram", "invariant", "mm", "fork", "io",
};

/* One process: opts.threads workers sharing a pool of fds. */
static int fz_process(unsigned int proc, uint64_t quota)
{
	pthread_t *tids, wd;
	uint64_t stats[8] = { 0 }, hits[4] = { 0 }, faults = 0, scribbles = 0;
	uint64_t ns[8] = { 0 }, wait_ns[8] = { 0 };
	struct rusage ru, rc;
	unsigned int i, j, n = opts.threads;

	for (i = 0; i < FZ_SHARED_FDS; i++)
		shared_fds[i].fd = -1;
	workers = calloc(n, sizeof(*workers));
	tids = calloc(n, sizeof(*tids));
	for (i = 0; i < n; i++) {
		struct fz_worker *w = &workers[i];

		w->tg = &target;
		w->proc = proc;
		w->thread = i;
		w->seed = opts.seed;
		w->rng = opts.seed * 0x100000001b3ull ^
			 ((uint64_t)proc << 32 | i) * 0xd6e8feb86659fd93ull;
		w->nops = quota / n + (i < quota % n);
		w->shared = shared_fds;
		w->trace = opts.trace;
		if (pthread_create(&tids[i], NULL, fz_worker_main, w)) {
			fprintf(stderr, "vcap-fuzz: pthread_create failed\n");
			return 2;
		}
	}
	pthread_create(&wd, NULL, fz_watchdog, &n);
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	finished = 1;
	pthread_join(wd, NULL);
	for (i = 0; i < FZ_SHARED_FDS; i++)
		if (shared_fds[i].fd >= 0)
			close(shared_fds[i].fd);
	for (i = 0; i < n; i++) {
		for (j = 0; j < 8; j++) {
			stats[j] += workers[i].stats[j];
			ns[j] += workers[i].ns[j];
			wait_ns[j] += workers[i].wait_ns[j];
		}
		for (j = 0; j < 4; j++)
			hits[j] += workers[i].hits[j];
		faults += workers[i].faults;
		scribbles += workers[i].scribbles;
	}
	printf("vcap-fuzz: process %u:", proc);
	for (j = 0; j < 8; j++)
		printf(" %s %llu", family_name[j],
		       (unsigned long long)stats[j]);
	printf("; mapped %llu, streamon %llu, dqbuf %llu, expbuf %llu"
	       " (allowed faults %llu)\n", (unsigned long long)hits[0],
	       (unsigned long long)hits[1], (unsigned long long)hits[2],
	       (unsigned long long)hits[3], (unsigned long long)faults);
	/* Thread time: where the run's time goes, and how much is waiting. */
	printf("vcap-fuzz: process %u: seconds in (blocked):", proc);
	for (j = 0; j < 8; j++)
		printf(" %s %.1f (%.1f)", family_name[j], (double)ns[j] / 1e9,
		       (double)wait_ns[j] / 1e9);
	getrusage(RUSAGE_SELF, &ru);
	getrusage(RUSAGE_CHILDREN, &rc);
	printf("; cpu %.1f s, forked children %.1f s\n",
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
	       (double)(rc.ru_utime.tv_sec + rc.ru_stime.tv_sec) +
	       (double)(rc.ru_utime.tv_usec + rc.ru_stime.tv_usec) / 1e6);
	if (target.vram_ctrl)
		printf("vcap-fuzz: process %u: %llu writes to the control "
		       "page\n", proc, (unsigned long long)scribbles);
	fflush(stdout);
	return 0;
}

/* The machine's busy and idle CPU time so far, in clock ticks. */
static void fz_cpu_ticks(unsigned long long *busy, unsigned long long *idle)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*busy = *idle = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		*idle = v[3] + v[4];
	}
	fclose(f);
}

static void usage(const char *prog)
{
	printf("usage: %s [--video DEV] [--vram DEV] [--seed N] [--ops N]\n"
	       "          [--threads N] [--procs N] [--hang S] [--trace]\n"
	       "          [--skip VIDIOC_NAME]...\n"
	       "  --video DEV   V4L2 capture node (default $REL_VIDEO)\n"
	       "  --vram DEV    vcap VRAM node (default $REL_VRAM)\n"
	       "  --seed N      seed of the run (default 1)\n"
	       "  --ops N       operations in all (default 10000)\n"
	       "  --threads N   threads per process (default 2)\n"
	       "  --procs N     processes (default 2)\n"
	       "  --hang S      an operation blocked S seconds fails (60)\n"
	       "  --trace       print every operation\n"
	       "  --skip NAME   leave that ioctl out of the random calls\n",
	       prog);
}

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end) {
		fprintf(stderr, "vcap-fuzz: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static void fz_signals(void)
{
	struct sigaction sa = { .sa_handler = fz_on_alarm };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: EINTR */
	signal(SIGPIPE, SIG_IGN);
	fz_mm_init();
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "video", required_argument, NULL, 'v' },
		{ "vram", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "hang", required_argument, NULL, 'H' },
		{ "trace", no_argument, NULL, 'T' },
		{ "skip", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long long busy0, idle0, busy1, idle1;
	struct timespec t0, t1;
	unsigned int p, failed = 0;
	pid_t *pids;
	double secs;
	int c, fd;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'v': target.video = optarg; break;
		case 'r': target.vram = optarg; break;
		case 's': opts.seed = parse_u64(optarg, "seed"); break;
		case 'n': opts.ops = parse_u64(optarg, "ops"); break;
		case 't': opts.threads = parse_u64(optarg, "threads"); break;
		case 'p': opts.procs = parse_u64(optarg, "procs"); break;
		case 'H': opts.hang_s = parse_u64(optarg, "hang"); break;
		case 'T': opts.trace = true; break;
		case 'S':
			if (fz_skip_ioctl(&target, optarg)) {
				fprintf(stderr, "vcap-fuzz: cannot skip '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h': usage(argv[0]); return 0;
		default: usage(argv[0]); return 2;
		}
	}
	if (!target.video)
		target.video = getenv("REL_VIDEO");
	if (!target.vram && getenv("REL_VRAM") && *getenv("REL_VRAM"))
		target.vram = getenv("REL_VRAM");
	if (!target.video || optind != argc || !opts.threads ||
	    !opts.procs || opts.threads > 64 || opts.procs > 64) {
		usage(argv[0]);
		return 2;
	}
	fd = open(target.video, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "vcap-fuzz: %s: %s\n", target.video,
			strerror(errno));
		return 1;
	}
	fz_probe_v4l2(&target, fd);
	close(fd);
	if (target.vram && fz_probe_vram(&target))
		return 1;
	fz_signals();
	printf("vcap-fuzz: seed %llu ops %llu procs %u threads %u video %s "
	       "vram %s (%u controls, %u supported ioctls)\n",
	       (unsigned long long)opts.seed, (unsigned long long)opts.ops,
	       opts.procs, opts.threads, target.video,
	       target.vram ? target.vram : "-", target.num_ctrls,
	       (unsigned int)({ unsigned int k = 0, i;
				for (i = 0; i < 256; i++)
					k += target.v4l2_supported[i];
				k; }));
	if (target.vram_ctrl)
		printf("vcap-fuzz: %s maps writable: operations scribble on "
		       "its control page\n", target.vram);
	fflush(stdout);

	fz_cpu_ticks(&busy0, &idle0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pids = calloc(opts.procs, sizeof(*pids));
	for (p = 0; p < opts.procs; p++) {
		uint64_t quota = opts.ops / opts.procs + (p < opts.ops % opts.procs);

		pids[p] = fork();
		if (pids[p] < 0) {
			perror("vcap-fuzz: fork");
			return 2;
		}
		if (pids[p] == 0)
			_exit(fz_process(p, quota));
	}
	for (p = 0; p < opts.procs; p++) {
		int st;

		while (waitpid(pids[p], &st, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(st)) {
			fprintf(stderr, "vcap-fuzz: FAIL: process %u killed by "
				"signal %d (%s); replay: --seed %llu --procs %u "
				"--threads %u --ops %llu\n", p, WTERMSIG(st),
				strsignal(WTERMSIG(st)),
				(unsigned long long)opts.seed, opts.procs,
				opts.threads, (unsigned long long)opts.ops);
			failed++;
		} else if (WEXITSTATUS(st)) {
			fprintf(stderr, "vcap-fuzz: FAIL: process %u exited "
				"with status %d\n", p, WEXITSTATUS(st));
			failed++;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fz_cpu_ticks(&busy1, &idle1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (busy1 + idle1 > busy0 + idle0)
		printf("vcap-fuzz: the machine's CPUs %.0f%% busy during the run\n",
		       100.0 * (double)(busy1 - busy0) /
		       (double)(busy1 + idle1 - busy0 - idle0));
	printf("vcap-fuzz: %s: seed %llu, %llu operations in %.1f s "
	       "(%.0f ops/s), %u procs x %u threads\n",
	       failed ? "FAILED" : "passed", (unsigned long long)opts.seed,
	       (unsigned long long)opts.ops, secs, (double)opts.ops / secs,
	       opts.procs, opts.threads);
	return failed ? 1 : 0;
}
