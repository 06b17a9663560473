/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binding a vcap board to its driver through sysfs, and what a bind or a
 * failed bind leaves behind: device nodes, interrupts, memory.
 */
#ifndef INJ_BIND_H
#define INJ_BIND_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vk.h"

/* A board as its bus sees it: /sys/bus/BUS/drivers/DRV/DEV. */
struct inj_board {
	char bus[64];
	char drv[64];
	char dev[64];
};

/* The last component of the symlink /sys/class/vcap/NAME/LINK. */
static inline int inj_link(const char *name, const char *link, char *out,
			   size_t len)
{
	char path[256], target[256];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/vcap/%s/%s", name, link);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -1;
	memcpy(out, base, strlen(base) + 1);
	return 0;
}

/* The board behind the first /dev/vcapN, while it is bound. */
static inline int inj_find_board(struct inj_board *b)
{
	char path[64], name[32];

	if (vk_find_vram(path, sizeof(path), name, sizeof(name)) < 0)
		return -1;
	if (inj_link(name, "device", b->dev, sizeof(b->dev)) < 0 ||
	    inj_link(name, "device/driver", b->drv, sizeof(b->drv)) < 0 ||
	    inj_link(name, "device/subsystem", b->bus, sizeof(b->bus)) < 0)
		return -1;
	return 0;
}

/*
 * Write the board's name to its driver's bind or unbind file.  0, or -1
 * with errno: for bind, the error the probe returned.
 */
static inline int inj_bind_op(const struct inj_board *b, const char *op)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/%s", b->bus,
		 b->drv, op);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, b->dev, strlen(b->dev));
	if (n < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	close(fd);
	return n == (ssize_t)strlen(b->dev) ? 0 : -1;
}

static inline int inj_bind(const struct inj_board *b)
{
	return inj_bind_op(b, "bind");
}

static inline int inj_unbind(const struct inj_board *b)
{
	return inj_bind_op(b, "unbind");
}

/* Whether the board's device has a driver bound now. */
static inline bool inj_bound(const struct inj_board *b)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/bus/%s/devices/%s/driver", b->bus,
		 b->dev);
	return access(path, F_OK) == 0;
}

/*
 * What of vcap is visible: VRAM devices in /sys/class/vcap, /dev/vcap*
 * nodes, video4linux devices named vcap-N, and vcap's interrupt lines.
 * Each found is named in what (for the log); the count is returned.
 */
static inline int inj_leftovers(char *what, size_t len)
{
	static const char *const dirs[] = { "/sys/class/vcap", "/dev" };
	char line[512];
	struct dirent *de;
	size_t used = 0;
	int found = 0;
	unsigned int i;
	FILE *f;
	DIR *d;

	what[0] = '\0';
#define INJ_FOUND(...)							\
	do {								\
		found++;						\
		if (used < len)						\
			used += snprintf(what + used, len - used,	\
					 __VA_ARGS__);			\
	} while (0)
	for (i = 0; i < 2; i++) {
		d = opendir(dirs[i]);
		if (!d)
			continue;
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, "vcap", 4))
				INJ_FOUND("%s/%s ", dirs[i], de->d_name);
		closedir(d);
	}
	d = opendir("/sys/class/video4linux");
	if (d) {
		while ((de = readdir(d))) {
			char path[300], name[64] = "";

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path),
				 "/sys/class/video4linux/%s/name", de->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(name, sizeof(name), f) &&
			    !strncmp(name, "vcap", 4))
				INJ_FOUND("video4linux/%s ", de->d_name);
			fclose(f);
		}
		closedir(d);
	}
	f = fopen("/proc/interrupts", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (strstr(line, "vcap-"))
				INJ_FOUND("irq '%s' ", strtok(line, ":"));
		fclose(f);
	}
#undef INJ_FOUND
	return found;
}

/* A /proc/meminfo line in kB, or -1. */
static inline long long inj_meminfo(const char *key)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) &&
		    line[strlen(key)] == ':')
			v = atoll(line + strlen(key) + 1);
	fclose(f);
	return v;
}

/* Wait up to 5 s for the nodes of a bound board. */
static inline int inj_wait_nodes(void)
{
	char path[64];
	int i;

	for (i = 0; i < 100; i++) {
		if (vk_find_vram(path, sizeof(path), NULL, 0) == 0 &&
		    access(path, F_OK) == 0 &&
		    vk_find_video(path, sizeof(path)) == 0)
			return 0;
		usleep(50000);
	}
	return -1;
}

#endif /* INJ_BIND_H */
