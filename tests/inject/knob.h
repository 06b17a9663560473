/* SPDX-License-Identifier: GPL-2.0 */
/* The driver's fault-injection knob: /sys/kernel/debug/vcap/fail_*. */
#ifndef INJ_KNOB_H
#define INJ_KNOB_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define INJ_DEBUGFS	"/sys/kernel/debug"
#define INJ_KNOB_DIR	INJ_DEBUGFS "/vcap"

/* What one armed operation did to the knob. */
struct inj_shot {
	long left;		/* fail_nth afterwards: 0 once it fired */
	long hits;		/* points reached since it was armed */
	char last[16];		/* fail_last */
	bool fired;
};

static inline int inj_read(const char *name, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), INJ_KNOB_DIR "/%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static inline long inj_read_num(const char *name)
{
	char buf[32];

	if (inj_read(name, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * Mount debugfs if needed and find the knob.  0, or -1 with the reason in
 * why: a module without the knob cannot be walked, which is a failure.
 */
static inline int inj_knob_open(char *why, size_t len)
{
	struct stat st;

	if (stat(INJ_KNOB_DIR "/fail_nth", &st) == 0)
		return 0;
	if (mount("debugfs", INJ_DEBUGFS, "debugfs", 0, NULL) < 0 &&
	    errno != EBUSY) {
		snprintf(why, len, "cannot mount debugfs on %s: %s",
			 INJ_DEBUGFS, strerror(errno));
		return -1;
	}
	if (stat(INJ_KNOB_DIR "/fail_nth", &st) == 0)
		return 0;
	snprintf(why, len,
		 "%s/fail_nth is missing: this vcap.ko has no fault-injection knob",
		 INJ_KNOB_DIR);
	return -1;
}

/* Arm the knob: the nth injection point from now fails; 0 disarms. */
static inline int inj_arm(long n)
{
	char buf[32];
	int fd, len;
	ssize_t w;

	fd = open(INJ_KNOB_DIR "/fail_nth", O_WRONLY);
	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%ld\n", n);
	w = write(fd, buf, len);
	close(fd);
	return w == len ? 0 : -1;
}

static inline int inj_disarm(void)
{
	return inj_arm(0);
}

/*
 * Read what happened since inj_arm(n).  It fired when no points are left
 * and at least n were reached; it did not when some are left and fewer
 * than n were reached.  Anything else is a knob that contradicts itself.
 */
static inline int inj_shot(long n, struct inj_shot *s)
{
	memset(s, 0, sizeof(*s));
	s->left = inj_read_num("fail_nth");
	s->hits = inj_read_num("fail_hits");
	if (s->left < 0 || s->hits < 0 ||
	    inj_read("fail_last", s->last, sizeof(s->last)) < 0)
		return -1;
	s->fired = s->left == 0 && s->hits >= n;
	if (s->fired)
		return strcmp(s->last, "none") ? 0 : -1;
	return s->left > 0 && s->hits < n ? 0 : -1;
}

#endif /* INJ_KNOB_H */
