// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Guest side of the ivshmem round trip: finds the ivshmem device, maps
 * its BAR2 through sysfs, checks the bytes the host wrote and writes a
 * reply for the host to check.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "roundtrip.h"

static int read_hex(const char *dir, const char *name, unsigned int *val)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%x", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int find_ivshmem(char *out, size_t len)
{
	const char *base = "/sys/bus/pci/devices";
	struct dirent *de;
	DIR *d = opendir(base);

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char dir[300];
		unsigned int vendor, device;

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name);
		if (read_hex(dir, "vendor", &vendor) ||
		    read_hex(dir, "device", &device))
			continue;
		if (vendor == 0x1af4 && device == 0x1110) {
			snprintf(out, len, "%s/resource2", dir);
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -1;
}

int main(void)
{
	char path[512];
	struct stat st;
	uint8_t *bar;
	size_t i;
	int fd;

	if (find_ivshmem(path, sizeof(path))) {
		fprintf(stderr, "bar-rw: no ivshmem device (1af4:1110) found\n");
		return 1;
	}
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return 1;
	}
	bar = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (bar == MAP_FAILED) {
		perror("mmap BAR2");
		return 1;
	}
	printf("bar-rw: %s, %lld bytes\n", path, (long long)st.st_size);
	for (i = 0; i < RT_LEN; i++) {
		if (bar[RT_HOST_OFF + i] != rt_host_byte(i)) {
			fprintf(stderr,
				"bar-rw: host byte %zu is 0x%02x, want 0x%02x\n",
				i, bar[RT_HOST_OFF + i], rt_host_byte(i));
			return 1;
		}
	}
	for (i = 0; i < RT_LEN; i++)
		bar[RT_GUEST_OFF + i] = rt_guest_byte(i);
	msync(bar, st.st_size, MS_SYNC);
	printf("bar-rw: read %d host bytes, wrote %d guest bytes\n",
	       RT_LEN, RT_LEN);
	munmap(bar, st.st_size);
	close(fd);
	return 0;
}
