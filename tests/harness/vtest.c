// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vtest runner: forks each test, enforces its time limit, prints TAP. */
#include "vtest.h"

#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define VTEST_EXIT_FAIL		1
#define VTEST_EXIT_SKIP		77

static struct vtest_meta *vtest_head, **vtest_tail = &vtest_head;
static struct vtest_meta *vtest_running;

void vtest_register(struct vtest_meta *t)
{
	*vtest_tail = t;
	vtest_tail = &t->next;
}

void vtest_log(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

void vtest_fail(struct vtest_meta *t, const char *file, int line,
		const char *fmt, ...)
{
	va_list ap;

	t->failed = true;
	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

void vtest_skip(struct vtest_meta *t, const char *fmt, ...)
{
	va_list ap;

	t->skipped = true;
	va_start(ap, fmt);
	vsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
}

static double vtest_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The child reports through a shared page, so a test that skips can say
 * why; a child that dies without reporting has failed.
 */
struct vtest_report {
	int done;
	int failed;
	int skipped;
	char skip_reason[256];
};

static int vtest_run_one(struct vtest_meta *t, int default_timeout,
			 struct vtest_report *rep)
{
	int timeout = t->timeout ? t->timeout : default_timeout;
	double deadline;
	int status;
	pid_t pid, w;

	memset(rep, 0, sizeof(*rep));
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("# fork: %s\n", strerror(errno));
		return VTEST_EXIT_FAIL;
	}
	if (pid == 0) {
		setpgid(0, 0);
		vtest_running = t;
		t->fn(t);
		rep->failed = t->failed;
		rep->skipped = t->skipped;
		memcpy(rep->skip_reason, t->skip_reason,
		       sizeof(rep->skip_reason));
		rep->done = 1;
		fflush(stdout);
		_exit(0);
	}

	deadline = vtest_now() + timeout;
	for (;;) {
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (vtest_now() > deadline) {
			printf("# timed out after %d s\n", timeout);
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return VTEST_EXIT_FAIL;
		}
		usleep(10000);
	}
	/* The test's own process group may have left children behind. */
	kill(-pid, SIGKILL);

	if (WIFSIGNALED(status)) {
		printf("# killed by signal %d (%s)\n", WTERMSIG(status),
		       strsignal(WTERMSIG(status)));
		return VTEST_EXIT_FAIL;
	}
	if (!rep->done || WEXITSTATUS(status) != 0) {
		printf("# exited with status %d before finishing\n",
		       WEXITSTATUS(status));
		return VTEST_EXIT_FAIL;
	}
	if (rep->failed)
		return VTEST_EXIT_FAIL;
	if (rep->skipped)
		return VTEST_EXIT_SKIP;
	return 0;
}

static void vtest_usage(const char *prog)
{
	printf("usage: %s [-l] [-t SECONDS] [PATTERN...]\n"
	       "  -l          list the tests\n"
	       "  -t SECONDS  time limit of each test\n"
	       "  PATTERN     run only tests whose name matches (fnmatch)\n",
	       prog);
}

static bool vtest_selected(const char *name, int npat, char **pat)
{
	int i;

	if (npat == 0)
		return true;
	for (i = 0; i < npat; i++)
		if (fnmatch(pat[i], name, 0) == 0)
			return true;
	return false;
}

int vtest_main(int argc, char **argv)
{
	int default_timeout = 120, pass = 0, fail = 0, skip = 0, n = 0, i;
	struct vtest_report *rep;
	struct vtest_meta *t;
	const char *env;
	int opt;

	env = getenv("VTEST_TIMEOUT");
	if (env && atoi(env) > 0)
		default_timeout = atoi(env);
	while ((opt = getopt(argc, argv, "lt:h")) != -1) {
		switch (opt) {
		case 'l':
			for (t = vtest_head; t; t = t->next)
				puts(t->name);
			return 0;
		case 't':
			default_timeout = atoi(optarg);
			if (default_timeout <= 0) {
				fprintf(stderr, "%s: bad time limit '%s'\n",
					argv[0], optarg);
				return 2;
			}
			break;
		case 'h':
			vtest_usage(argv[0]);
			return 0;
		default:
			vtest_usage(argv[0]);
			return 2;
		}
	}

	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED) {
		perror("mmap");
		return VTEST_EXIT_FAIL;
	}

	for (t = vtest_head; t; t = t->next)
		if (vtest_selected(t->name, argc - optind, argv + optind))
			n++;
	if (n == 0) {
		fprintf(stderr, "%s: no test matches\n", argv[0]);
		return 2;
	}
	printf("TAP version 13\n1..%d\n", n);
	i = 0;
	for (t = vtest_head; t; t = t->next) {
		int r;

		if (!vtest_selected(t->name, argc - optind, argv + optind))
			continue;
		i++;
		printf("# RUN %s\n", t->name);
		r = vtest_run_one(t, default_timeout, rep);
		if (r == 0) {
			pass++;
			printf("ok %d %s\n", i, t->name);
		} else if (r == VTEST_EXIT_SKIP) {
			skip++;
			printf("ok %d %s # SKIP %s\n", i, t->name,
			       rep->skip_reason);
		} else {
			fail++;
			printf("not ok %d %s\n", i, t->name);
		}
		fflush(stdout);
	}
	printf("# %d passed, %d failed, %d skipped\n", pass, fail, skip);
	munmap(rep, sizeof(*rep));
	if (fail)
		return VTEST_EXIT_FAIL;
	return skip ? VTEST_EXIT_SKIP : 0;
}
