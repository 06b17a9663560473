// SPDX-License-Identifier: GPL-2.0
/*
 * mmap of /dev/vcapN racing unbind of its board: whatever mapping a
 * process still holds once unbind has returned gives SIGBUS when touched,
 * even one made while the unbind ran.  A read that succeeds would read the
 * board's freed memory.
 *
 * HARD_ROUNDS rounds (500, about 2 minutes under emulation) of:
 * HARD_MAPPERS children (2) open the VRAM node and map all of it
 * read-only, over and over, each keeping its last HELD mappings, while
 * this process unbinds the software board; each child then touches one
 * byte of the control page and one of the frame area of every mapping it
 * holds, and this process binds the board again.  Run with
 * soft_vram_mb=4.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/vcap.h>

#include "hard.h"
#include "vk.h"
#include "vtest.h"

#define DRV	"/sys/bus/platform/drivers/vcap-soft"
#define BOARD	"vcap-soft.0"
#define HELD	4
#define MAPPERS	2
#define MAPPERS_MAX	8

struct shared {
	volatile int unbound;		/* set once unbind has returned */
	volatile unsigned long maps;	/* mappings made this round */
	volatile unsigned int ready;	/* mappers that have mapped once */
	volatile unsigned long touched;
	volatile unsigned long readable;	/* touches that did not fault */
	volatile unsigned int value;	/* the first byte so read */
	volatile unsigned long offset;	/* and where */
};

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

/* 1 if the byte at p could be read, 0 if it raised SIGBUS. */
static int readable(const volatile uint8_t *p, unsigned int *v)
{
	if (sigsetjmp(bus_jmp, 1))
		return 0;
	*v = *p;
	return 1;
}

/* The VRAM node, once it exists: its path, or -1 after 10 s. */
static int wait_node(char *path, size_t len)
{
	struct stat st;
	int i;

	for (i = 0; i < 1000; i++) {
		if (vk_find_vram(path, len, NULL, 0) == 0 &&
		    stat(path, &st) == 0 && S_ISCHR(st.st_mode))
			return 0;
		usleep(10000);
	}
	return -1;
}

static void mapper(struct shared *sh, const char *path)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	const volatile uint8_t *held[HELD] = { NULL };
	unsigned int k = 0, i, j, v;
	struct vcap_info in;
	bool first = true;
	int fd;

	sigaction(SIGBUS, &sa, NULL);
	fd = open(path, O_RDONLY);
	if (fd < 0 || ioctl(fd, VCAP_IOC_QUERY, &in) < 0)
		_exit(2);
	while (!sh->unbound) {
		void *p = mmap(NULL, in.map_size, PROT_READ, MAP_SHARED, fd,
			       0);

		if (p == MAP_FAILED)
			continue;
		if (held[k])
			munmap((void *)held[k], in.map_size);
		held[k] = p;
		k = (k + 1) % HELD;
		__sync_fetch_and_add(&sh->maps, 1);
		if (first) {
			first = false;
			__sync_fetch_and_add(&sh->ready, 1);
		}
	}
	/* Unbind has returned: nothing held may read. */
	for (i = 0; i < HELD; i++) {
		size_t off[2] = { 0, in.frame_offset };

		if (!held[i])
			continue;
		for (j = 0; j < 2; j++) {
			__sync_fetch_and_add(&sh->touched, 1);
			if (readable(held[i] + off[j], &v) &&
			    !__sync_fetch_and_add(&sh->readable, 1)) {
				sh->value = v;
				sh->offset = off[j];
			}
		}
	}
	close(fd);
	_exit(0);
}

static void stop_mappers(pid_t *pids, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
}

TEST_TIMEOUT(mmap_races_unbind, 600)
{
	unsigned int rounds = vk_env("HARD_ROUNDS", 500), n, i;
	unsigned int nmap = vk_env("HARD_MAPPERS", MAPPERS), bad = 0;
	unsigned long maps = 0, touched = 0, reads = 0;
	pid_t pids[MAPPERS_MAX];
	struct shared *sh;
	char path[64];
	double t0, t, t_unbind = 0, t_bind = 0, t_node = 0, t_fork = 0;
	int status;

	if (nmap < 1 || nmap > MAPPERS_MAX)
		nmap = MAPPERS;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(sh, MAP_FAILED);
	srand(20261204);
	t0 = hard_now();
	for (n = 0; n < rounds; n++) {
		t = hard_now();
		ASSERT_EQ(wait_node(path, sizeof(path)), 0);
		t_node += hard_now() - t;
		t = hard_now();
		memset((void *)sh, 0, sizeof(*sh));
		for (i = 0; i < nmap; i++) {
			pids[i] = fork();
			ASSERT_GE(pids[i], 0);
			if (pids[i] == 0)
				mapper(sh, path);
		}
		/* Unbind once they map, at a varying point of their loops. */
		while (sh->ready < nmap && hard_now() - t < 5)
			usleep(100);
		if (sh->ready < nmap) {
			stop_mappers(pids, nmap);
			vtest_fail(_vtest, __FILE__, __LINE__,
				   "round %u: %u of %u mappers mapped %s in 5 s",
				   n, sh->ready, nmap, path);
			return;
		}
		usleep(rand() % 3000);
		t_fork += hard_now() - t;
		t = hard_now();
		ASSERT_EQ(hard_write(DRV "/unbind", BOARD), 0);
		sh->unbound = 1;
		t_unbind += hard_now() - t;
		for (i = 0; i < nmap; i++) {
			ASSERT_EQ(waitpid(pids[i], &status, 0), pids[i]);
			EXPECT_TRUE(WIFEXITED(status) &&
				    WEXITSTATUS(status) == 0);
		}
		maps += sh->maps;
		touched += sh->touched;
		if (sh->readable) {
			/* Freed memory read: say where, and carry on counting. */
			if (bad++ < 5)
				TH_LOG("round %u: %lu of %lu touches read after unbind (byte 0x%02x at offset %lu)",
				       n, sh->readable, sh->touched,
				       sh->value, sh->offset);
			reads += sh->readable;
		}
		t = hard_now();
		ASSERT_EQ(hard_write(DRV "/bind", BOARD), 0);
		t_bind += hard_now() - t;
	}
	t = hard_now() - t0;
	if (n)
		TH_LOG("a round: %.0f ms to start mapping, %.0f ms unbind, %.0f ms bind, %.0f ms until the node is back",
		       1000 * t_fork / n, 1000 * t_unbind / n,
		       1000 * t_bind / n, 1000 * t_node / n);
	TH_LOG("%u rounds, %u mappers, in %.1f s (%.0f ms a round): %lu mappings made, %lu touches after unbind, %lu read in %u rounds",
	       n, nmap, t, n ? 1000 * t / n : 0.0, maps, touched, reads, bad);
	EXPECT_EQ(bad, 0);
	ASSERT_EQ(wait_node(path, sizeof(path)), 0);
}

VTEST_MAIN()
