// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Host side of the ivshmem round trip: "put FILE" before, "check FILE" after. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "roundtrip.h"

int main(int argc, char **argv)
{
	struct stat st;
	uint8_t *mem;
	size_t i;
	int fd;

	if (argc != 3 || (strcmp(argv[1], "put") && strcmp(argv[1], "check"))) {
		fprintf(stderr, "usage: rt-host put|check FILE\n");
		return 2;
	}
	fd = open(argv[2], O_RDWR);
	if (fd < 0 || fstat(fd, &st) || st.st_size < RT_GUEST_OFF + RT_LEN) {
		fprintf(stderr, "rt-host: %s: missing or too small\n", argv[2]);
		return 1;
	}
	mem = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (!strcmp(argv[1], "put")) {
		for (i = 0; i < RT_LEN; i++)
			mem[RT_HOST_OFF + i] = rt_host_byte(i);
		return msync(mem, st.st_size, MS_SYNC) ? 1 : 0;
	}
	for (i = 0; i < RT_LEN; i++) {
		if (mem[RT_GUEST_OFF + i] != rt_guest_byte(i)) {
			fprintf(stderr, "rt-host: guest byte %zu is 0x%02x, want 0x%02x\n",
				i, mem[RT_GUEST_OFF + i], rt_guest_byte(i));
			return 1;
		}
	}
	printf("rt-host: %d guest bytes read back through the memory file\n", RT_LEN);
	return 0;
}
