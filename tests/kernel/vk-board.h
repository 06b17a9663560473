/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The board behind the first VRAM node, as a bus device that the guest
 * tests unbind and bind again.
 */
#ifndef VK_BOARD_H
#define VK_BOARD_H

#include "vk.h"

/* 0, or -1 with errno: for a bind, the error the probe returned. */
static inline int vk_sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	err = errno;
	close(fd);
	errno = err;
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

struct vk_board {
	char bus[64];
	char drv[64];
	char dev[64];
};

/* The last component of the symlink /sys/class/vcap/NAME/LINK. */
static inline int vk_link_name(const char *name, const char *link, char *out,
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

static inline int vk_find_board(struct vk_board *b)
{
	char path[64], name[32];

	if (vk_find_vram(path, sizeof(path), name, sizeof(name)) < 0)
		return -1;
	if (vk_link_name(name, "device", b->dev, sizeof(b->dev)) < 0 ||
	    vk_link_name(name, "device/driver", b->drv, sizeof(b->drv)) < 0 ||
	    vk_link_name(name, "device/subsystem", b->bus, sizeof(b->bus)) < 0)
		return -1;
	return 0;
}

static inline int vk_rebind(const struct vk_board *b, const char *op)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/%s", b->bus,
		 b->drv, op);
	return vk_sysfs_write(path, b->dev);
}

/* Wait until the nodes are back after a bind. */
static inline int vk_wait_nodes(void)
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

#endif /* VK_BOARD_H */
