// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* Device listing: every V4L2 and VRAM node, with what it is. */
#include "vcap-priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/vcap.h>
#include <linux/videodev2.h>

static void probe_v4l2(int fd, struct vcap_device_info *d)
{
	struct v4l2_capability cap;
	uint32_t caps;

	memset(&cap, 0, sizeof(cap));
	d->kind = VCAP_DEVICE_V4L2_OTHER;
	if (vcap_xioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		return;
	caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps :
							   cap.capabilities;
	snprintf(d->driver, sizeof(d->driver), "%.15s", (char *)cap.driver);
	snprintf(d->card, sizeof(d->card), "%.31s", (char *)cap.card);
	snprintf(d->bus, sizeof(d->bus), "%.31s", (char *)cap.bus_info);
	d->caps = caps;
	if ((caps & V4L2_CAP_VIDEO_CAPTURE) && (caps & V4L2_CAP_STREAMING))
		d->kind = VCAP_DEVICE_V4L2_CAPTURE;
}

static bool probe_vram(int fd, struct vcap_device_info *d)
{
	struct vcap_info info;

	memset(&info, 0, sizeof(info));
	if (vcap_xioctl(fd, VCAP_IOC_QUERY, &info) < 0)
		return false;
	d->kind = VCAP_DEVICE_VRAM;
	snprintf(d->driver, sizeof(d->driver), "vcap");
	snprintf(d->card, sizeof(d->card), "%.31s", info.name);
	snprintf(d->bus, sizeof(d->bus), "%.31s", info.serial);
	return true;
}

static int by_path(const void *a, const void *b)
{
	const struct vcap_device_info *x = a, *y = b;
	size_t lx = strlen(x->path), ly = strlen(y->path);

	/* video2 before video10 */
	if (lx != ly && !strncmp(x->path, y->path, 10))
		return lx < ly ? -1 : 1;
	return strcmp(x->path, y->path);
}

int vcap_device_list(struct vcap_device_info **list, size_t *count)
{
	struct vcap_device_info *out = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dir;

	*list = NULL;
	*count = 0;
	dir = opendir("/dev");
	if (!dir)
		return vcap_set_error(errno, "/dev: opendir");
	while ((de = readdir(dir))) {
		struct vcap_device_info d;
		bool video = !strncmp(de->d_name, "video", 5);
		int fd;

		if (!video && strncmp(de->d_name, "vcap", 4))
			continue;
		memset(&d, 0, sizeof(d));
		snprintf(d.path, sizeof(d.path), "/dev/%.58s", de->d_name);
		fd = open(d.path, (video ? O_RDWR : O_RDONLY) | O_NONBLOCK |
				  O_CLOEXEC);
		if (fd < 0)
			continue;
		if (video)
			probe_v4l2(fd, &d);
		else if (!probe_vram(fd, &d))
			d.kind = VCAP_DEVICE_V4L2_OTHER;
		close(fd);
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			void *p = realloc(out, nc * sizeof(*out));

			if (!p) {
				closedir(dir);
				free(out);
				return vcap_set_error(ENOMEM, "device list");
			}
			out = p;
			cap = nc;
		}
		out[n++] = d;
	}
	closedir(dir);
	if (n)
		qsort(out, n, sizeof(*out), by_path);
	*list = out;
	*count = n;
	return 0;
}
