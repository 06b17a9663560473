/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a bind or a failed bind of a vcap board leaves behind: whether a
 * driver is bound, and the device nodes and interrupts that are visible.
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

#include "vk-board.h"

/* Whether the board's device has a driver bound now. */
static inline bool inj_bound(const struct vk_board *b)
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

#endif /* INJ_BIND_H */
