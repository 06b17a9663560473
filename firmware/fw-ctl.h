/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The control socket: one command line per connection, answered with
 * "ok" or "error: ..." and any output, then closed.  Also the client side,
 * for "vcap-fw ctl SOCKET COMMAND...".
 */
#ifndef FW_CTL_H
#define FW_CTL_H

#include <stddef.h>
#include <stdio.h>

struct fw_ctl {
	int listen_fd;
	char path[108];
	unsigned long long commands;
};

/*
 * Runs one command (words split on blanks) and writes its output to out.
 * Returns 0, or -1 with the reason written to out.
 */
typedef int (*fw_ctl_handler)(void *ctx, int argc, char **argv, FILE *out);

int fw_ctl_open(struct fw_ctl *c, const char *path, char *err, size_t errlen);
void fw_ctl_close(struct fw_ctl *c);

/* Serve the connection waiting on the listening socket. */
void fw_ctl_serve(struct fw_ctl *c, fw_ctl_handler fn, void *ctx);

/* Client: send argv as one command, print the answer; exit status. */
int fw_ctl_client(const char *path, int argc, char **argv);

#endif /* FW_CTL_H */
