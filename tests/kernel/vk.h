/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the vcap guest tests: finding nodes, reading stats. */
#ifndef VK_H
#define VK_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include <vcap/board.h>

/* /dev/videoN of the first vcap capture node, or -1 with errno. */
static inline int vk_find_video(char *path, size_t len)
{
	struct v4l2_capability cap;
	int i, fd;

	for (i = 0; i < 64; i++) {
		snprintf(path, len, "/dev/video%d", i);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		memset(&cap, 0, sizeof(cap));
		if (ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0 &&
		    !strcmp((char *)cap.driver, "vcap")) {
			close(fd);
			return 0;
		}
		close(fd);
	}
	errno = ENODEV;
	return -1;
}

/* /dev/vcapN of the first VRAM node (by /sys/class/vcap), or -1. */
static inline int vk_find_vram(char *path, size_t len, char *name,
			       size_t name_len)
{
	struct dirent *de;
	DIR *d = opendir("/sys/class/vcap");
	int ret = -1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "vcap", 4) ||
		    strlen(de->d_name) + 6 > len ||
		    (name && strlen(de->d_name) + 1 > name_len))
			continue;
		strcpy(path, "/dev/");
		strcat(path, de->d_name);
		if (name)
			strcpy(name, de->d_name);
		ret = 0;
		break;
	}
	closedir(d);
	if (ret)
		errno = ENODEV;
	return ret;
}

/*
 * The control page of the first VRAM node, mapped read-only, or NULL.
 * Undone with vk_unmap_ctrl().
 */
static inline const volatile struct vcap_board_ctrl *vk_map_ctrl(void)
{
	char path[64];
	void *c;
	int fd;

	if (vk_find_vram(path, sizeof(path), NULL, 0) < 0)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	c = mmap(NULL, VCAP_CTRL_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	return c == MAP_FAILED ? NULL : c;
}

static inline void vk_unmap_ctrl(const volatile struct vcap_board_ctrl *c)
{
	munmap((void *)c, VCAP_CTRL_SIZE);
}

/* A counter from /sys/class/vcap/NAME/stats/, or -1. */
static inline long long vk_stat(const char *name, const char *stat)
{
	char path[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/vcap/%s/stats/%s", name,
		 stat);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* A /proc/meminfo counter in kB, or -1. */
static inline long long vk_meminfo(const char *key)
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

static inline unsigned int vk_env(const char *name, unsigned int def)
{
	const char *s = getenv(name);

	return s && *s ? (unsigned int)strtoul(s, NULL, 0) : def;
}

static inline int vk_xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

#endif /* VK_H */
