/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the fault tests in the guest: commands to the firmware on
 * the host, the PCI board in sysfs, the kernel log, stamped frames.
 */
#ifndef FX_H
#define FX_H

#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#include <linux/vcap.h>

#include "vcap-stamp.h"
#include "vk-stream.h"

static inline double fx_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Send "vcap-fw ctl" arguments to the firmware on the host.  The host's
 * relay (faults.sh) watches the directory FX_RPC, shared with the guest:
 * a request is the file cmd.N, its answer out.N (the ctl output, then a
 * last line "status S").  Returns S, or -1 when no answer comes in 10 s.
 */
static inline int fx_fw(char *out, size_t len, const char *fmt, ...)
{
	static unsigned int n;
	const char *dir = getenv("FX_RPC");
	char tmp[256], path[256], buf[4096];
	int status = -1;
	size_t got = 0;
	va_list ap;
	double t0;
	FILE *f;

	if (!dir)
		return -1;
	n++;
	snprintf(tmp, sizeof(tmp), "%s/tmp.%d.%u", dir, getpid(), n);
	snprintf(path, sizeof(path), "%s/cmd.%d.%u", dir, getpid(), n);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	if (fclose(f) || rename(tmp, path))
		return -1;
	snprintf(path, sizeof(path), "%s/out.%d.%u", dir, getpid(), n);
	for (t0 = fx_now(); fx_now() - t0 < 10; usleep(20000)) {
		f = fopen(path, "r");
		if (!f)
			continue;
		got = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[got] = 0;
		break;
	}
	if (!got)
		return -1;
	{
		char *st = strstr(buf, "status ");

		if (st) {
			status = atoi(st + 7);
			*st = 0;
		}
	}
	if (out && len) {
		snprintf(out, len, "%s", buf);
	}
	return status;
}

/* One "name=value" line of the firmware's stats, or -1. */
static inline long long fx_fw_stat(const char *name)
{
	char buf[4096], *p;
	size_t l = strlen(name);

	if (fx_fw(buf, sizeof(buf), "stats") != 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, l) && p[l] == '=')
			return atoll(p + l + 1);
	return -1;
}

/* The PCI address of the first board bound to vcap, or -1. */
static inline int fx_pci_dev(char *dev, size_t len)
{
	struct dirent *de;
	DIR *d = opendir("/sys/bus/pci/drivers/vcap");
	int ret = -1;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "0000:", 5) &&
		    strlen(de->d_name) < len) {
			strcpy(dev, de->d_name);
			ret = 0;
			break;
		}
	closedir(d);
	return ret;
}

static inline int fx_sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static inline int fx_pci(const char *op, const char *dev)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/vcap/%s", op);
	return fx_sysfs_write(path, dev);
}

/* Wait until both nodes of a board exist, at most secs. */
static inline int fx_wait_nodes(double secs)
{
	char path[64];
	double t0 = fx_now();

	do {
		if (vk_find_vram(path, sizeof(path), NULL, 0) == 0 &&
		    access(path, F_OK) == 0 &&
		    vk_find_video(path, sizeof(path)) == 0)
			return 0;
		usleep(50000);
	} while (fx_now() - t0 < secs);
	return -1;
}

/* The name (vcapN) of the first VRAM node, for its stats. */
static inline int fx_vram_name(char *name, size_t len)
{
	char path[64];

	return vk_find_vram(path, sizeof(path), name, len);
}

static inline unsigned int fx_param(const char *name, unsigned int def)
{
	char path[128];
	unsigned int v = def;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/vcap/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return def;
	if (fscanf(f, "%u", &v) != 1)
		v = def;
	fclose(f);
	return v;
}

/*
 * Lines of the kernel log that mention vcap, counted from /dev/kmsg:
 * fx_klog_open() at the start, fx_klog_count() at the end.
 */
static inline int fx_klog_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

static inline int fx_klog_count(int fd, const char *what, bool show)
{
	char rec[2048];
	int n = 0, shown = 0;
	ssize_t r;

	for (;;) {
		r = read(fd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;
		if (r <= 0)
			break;
		rec[r] = 0;
		if (strstr(rec, what)) {
			n++;
			if (show && shown++ < 8)
				fprintf(stderr, "# klog: %s", strchr(rec, ';') ?
					strchr(rec, ';') + 1 : rec);
		}
	}
	return n;
}

static inline void fx_frame_fmt(const struct vk_stream *s,
				struct vcap_frame_fmt *ff)
{
	memset(ff, 0, sizeof(*ff));
	ff->fourcc = s->pix.pixelformat;
	ff->width = s->pix.width;
	ff->height = s->pix.height;
	ff->bytesperline = s->pix.bytesperline;
	ff->sizeimage = s->pix.sizeimage;
}

/* Wait up to ms for a buffer (or an event with POLLPRI). */
static inline int fx_poll(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int r = poll(&p, 1, ms);

	return r > 0 ? p.revents : r;
}

#endif /* FX_H */
