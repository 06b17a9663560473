// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The firmware's control socket and its command line client. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "fw-ctl.h"

#define FW_CTL_MAX_LINE		1024
#define FW_CTL_MAX_ARGS		16
#define FW_CTL_TIMEOUT_MS	500

static int fw_ctl_addr(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -1;
	strcpy(sa->sun_path, path);
	return 0;
}

int fw_ctl_open(struct fw_ctl *c, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa;

	memset(c, 0, sizeof(*c));
	c->listen_fd = -1;
	if (fw_ctl_addr(&sa, path)) {
		snprintf(err, errlen, "control socket path too long: %s", path);
		return -1;
	}
	strcpy(c->path, path);
	c->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
			      SOCK_NONBLOCK, 0);
	if (c->listen_fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	unlink(path);
	if (bind(c->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(c->listen_fd, 8)) {
		snprintf(err, errlen, "cannot listen on %s: %s", path,
			 strerror(errno));
		close(c->listen_fd);
		c->listen_fd = -1;
		return -1;
	}
	return 0;
}

void fw_ctl_close(struct fw_ctl *c)
{
	if (c->listen_fd >= 0) {
		close(c->listen_fd);
		unlink(c->path);
	}
	c->listen_fd = -1;
}

/* Read one line within the time limit; NUL-terminated, '\n' dropped. */
static int fw_ctl_read_line(int fd, char *buf, size_t size)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t n = 0;
	ssize_t r;

	while (n < size - 1) {
		if (poll(&p, 1, FW_CTL_TIMEOUT_MS) <= 0)
			return -1;
		r = read(fd, buf + n, size - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (memchr(buf, '\n', n))
			break;
	}
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return n ? 0 : -1;
}

static void fw_ctl_write_all(int fd, const char *p, size_t n)
{
	ssize_t r;

	while (n) {
		r = send(fd, p, n, MSG_NOSIGNAL);
		if (r <= 0)
			return;
		p += r;
		n -= (size_t)r;
	}
}

void fw_ctl_serve(struct fw_ctl *c, fw_ctl_handler fn, void *ctx)
{
	char line[FW_CTL_MAX_LINE], *argv[FW_CTL_MAX_ARGS], *save, *tok;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int fd, argc = 0, ret;

	fd = accept4(c->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (fw_ctl_read_line(fd, line, sizeof(line))) {
		close(fd);
		return;
	}
	for (tok = strtok_r(line, " \t", &save); tok && argc < FW_CTL_MAX_ARGS;
	     tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	out = open_memstream(&text, &len);
	if (!out) {
		close(fd);
		return;
	}
	c->commands++;
	if (!argc) {
		fprintf(out, "empty command");
		ret = -1;
	} else {
		ret = fn(ctx, argc, argv, out);
	}
	fclose(out);
	if (ret) {
		fw_ctl_write_all(fd, "error: ", 7);
		fw_ctl_write_all(fd, text, len);
		fw_ctl_write_all(fd, "\n", 1);
	} else {
		fw_ctl_write_all(fd, "ok\n", 3);
		fw_ctl_write_all(fd, text, len);
	}
	free(text);
	close(fd);
}

int fw_ctl_client(const char *path, int argc, char **argv)
{
	char line[FW_CTL_MAX_LINE], buf[4096];
	struct sockaddr_un sa;
	size_t n = 0;
	int fd, i, ok = -1;
	ssize_t r;

	if (fw_ctl_addr(&sa, path)) {
		fprintf(stderr, "vcap-fw ctl: socket path too long: %s\n", path);
		return 2;
	}
	line[0] = 0;
	for (i = 0; i < argc; i++) {
		size_t l = strlen(argv[i]);

		if (n + l + 2 > sizeof(line)) {
			fprintf(stderr, "vcap-fw ctl: command too long\n");
			return 2;
		}
		memcpy(line + n, argv[i], l);
		n += l;
		line[n++] = i + 1 < argc ? ' ' : '\n';
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "vcap-fw ctl: cannot connect to %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	fw_ctl_write_all(fd, line, n);
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		if (ok < 0)
			ok = r >= 3 && !memcmp(buf, "ok\n", 3);
		if (ok == 1 && fwrite(buf, 1, (size_t)r, stdout) != (size_t)r)
			break;
		if (ok == 0 && fwrite(buf, 1, (size_t)r, stderr) != (size_t)r)
			break;
	}
	close(fd);
	if (ok < 0) {
		fprintf(stderr, "vcap-fw ctl: no answer from %s\n", path);
		return 1;
	}
	return ok ? 0 : 1;
}
