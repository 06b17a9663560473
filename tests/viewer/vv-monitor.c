// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vv-monitor: sends one command to QEMU's human monitor on a unix socket
 * and waits for its prompt to come back, so that the command has finished
 * (a screendump file is complete) when this exits.
 *
 *   vv-monitor SOCKET "screendump /path/file.ppm"
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define PROMPT "(qemu) "
#define TIMEOUT_MS 30000

/* Read until the prompt has been seen; 0, or -1 on EOF/timeout. */
static int wait_prompt(int fd)
{
	char buf[4096];
	size_t have = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, TIMEOUT_MS) <= 0)
			return -1;
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			return -1;
		have += n;
		buf[have] = 0;
		if (strstr(buf, PROMPT))
			return 0;
		/* Keep the tail only: the prompt may straddle two reads. */
		if (have > sizeof(buf) / 2) {
			memmove(buf, buf + have - 16, 16);
			have = 16;
		}
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (argc != 3 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: vv-monitor SOCKET COMMAND\n");
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "vv-monitor: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	if (wait_prompt(fd)) {
		fprintf(stderr, "vv-monitor: %s: no monitor prompt\n", argv[1]);
		return 1;
	}
	if (dprintf(fd, "%s\n", argv[2]) < 0 || wait_prompt(fd)) {
		fprintf(stderr, "vv-monitor: '%s' did not complete\n", argv[2]);
		return 1;
	}
	close(fd);
	return 0;
}
