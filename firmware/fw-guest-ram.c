// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The guest's RAM file and QEMU's guest-physical layout of it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fw-guest-ram.h"

int fw_guest_machine_by_name(const char *name, enum fw_guest_machine *m)
{
	if (!strcmp(name, "pc"))
		*m = FW_GUEST_PC;
	else if (!strcmp(name, "q35"))
		*m = FW_GUEST_Q35;
	else
		return -EINVAL;
	return 0;
}

const char *fw_guest_machine_name(enum fw_guest_machine m)
{
	return m == FW_GUEST_Q35 ? "q35" : "pc";
}

void fw_guest_ram_layout(struct fw_guest_ram *g, u64 size,
			 enum fw_guest_machine m)
{
	u64 max_below = m == FW_GUEST_Q35 ? FW_GUEST_Q35_MAX_BELOW :
					    FW_GUEST_PC_MAX_BELOW;

	g->size = size;
	g->machine = m;
	if (size < max_below)
		g->below = size;
	else
		g->below = m == FW_GUEST_Q35 ? FW_GUEST_Q35_BELOW :
					       FW_GUEST_PC_BELOW;
}

int fw_guest_ram_open(struct fw_guest_ram *g, const char *path,
		      enum fw_guest_machine m, char *err, size_t errlen)
{
	struct stat st;

	memset(g, 0, sizeof(*g));
	g->fd = open(path, O_RDWR | O_CLOEXEC);
	if (g->fd < 0) {
		snprintf(err, errlen,
			 "cannot open guest RAM %s: %s (it must exist, the file QEMU's memory-backend-file uses, with the guest's RAM size)",
			 path, strerror(errno));
		return -errno;
	}
	if (fstat(g->fd, &st)) {
		snprintf(err, errlen, "cannot stat guest RAM %s: %s", path,
			 strerror(errno));
		goto err_close;
	}
	if (!S_ISREG(st.st_mode) || (u64)st.st_size < FW_GUEST_MIN_SIZE ||
	    (st.st_size & 0xfff)) {
		snprintf(err, errlen,
			 "guest RAM %s: %llu bytes; it must be a regular file of the guest's RAM size (at least %llu MiB, whole pages)",
			 path, (unsigned long long)st.st_size,
			 FW_GUEST_MIN_SIZE >> 20);
		goto err_close;
	}
	g->mem = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
		      MAP_SHARED, g->fd, 0);
	if (g->mem == MAP_FAILED) {
		g->mem = NULL;
		snprintf(err, errlen, "cannot map guest RAM %s: %s", path,
			 strerror(errno));
		goto err_close;
	}
	fw_guest_ram_layout(g, (u64)st.st_size, m);
	return 0;

err_close:
	close(g->fd);
	g->fd = -1;
	return -EINVAL;
}

void fw_guest_ram_close(struct fw_guest_ram *g)
{
	if (g->mem)
		munmap(g->mem, g->size);
	if (g->fd >= 0)
		close(g->fd);
	g->mem = NULL;
	g->fd = -1;
}

/* [start, end) of guest-physical RAM at file offset off. */
struct fw_guest_run {
	u64 start, end, off;
};

int fw_guest_ram_translate(const struct fw_guest_ram *g, u64 addr, u64 len,
			   u64 *off)
{
	struct fw_guest_run runs[3] = {
		{ 0, FW_GUEST_LOW_END, 0 },
		{ FW_GUEST_HIGH_START, g->below, FW_GUEST_HIGH_START },
		{ FW_GUEST_4G, FW_GUEST_4G + (g->size - g->below), g->below },
	};
	unsigned int i;

	if (!len || addr + len < addr)
		return -EINVAL;
	if (runs[0].end > g->below)
		runs[0].end = g->below;
	for (i = 0; i < 3; i++) {
		const struct fw_guest_run *r = &runs[i];

		if (addr >= r->start && addr < r->end) {
			if (len > r->end - addr)
				return -ERANGE;
			*off = r->off + (addr - r->start);
			return 0;
		}
	}
	return -ERANGE;
}
