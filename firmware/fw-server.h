/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The ivshmem server: QEMU's ivshmem-doorbell devices connect to it on a
 * unix socket and get the board memory and the interrupt eventfds
 * (QEMU docs/specs/ivshmem-spec.rst, protocol version 0).  The firmware is
 * a peer of its own, so a guest can ring it.
 */
#ifndef FW_SERVER_H
#define FW_SERVER_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vcap/board.h>

#define FW_MAX_PEERS		16
#define FW_PEER_ID		0	/* the firmware's own peer id */

struct fw_peer {
	int sock;			/* -1: free */
	uint16_t id;
	int efd[VCAP_NUM_VECTORS];	/* written to interrupt this peer */
};

struct fw_server {
	int listen_fd;
	char path[108];
	int shm_fd;
	int fw_efd[VCAP_NUM_VECTORS];	/* guests ring these */
	struct fw_peer peers[FW_MAX_PEERS];
	uint16_t next_id;
	/* Statistics. */
	uint64_t irq_received;		/* doorbells from guests */
	uint64_t irq_sent;		/* interrupts raised to guests */
	uint64_t connects;
	uint64_t dropped;		/* peers cut off for a protocol error */
};

int fw_server_open(struct fw_server *s, const char *path, int shm_fd,
		   char *err, size_t errlen);
void fw_server_close(struct fw_server *s);

/* Fill pfd (room for FW_SERVER_MAX_FDS) with the fds to watch. */
#define FW_SERVER_MAX_FDS	(1 + VCAP_NUM_VECTORS + FW_MAX_PEERS)
int fw_server_pollfds(const struct fw_server *s, struct pollfd *pfd);

/*
 * Handle what poll() reported on the fds fw_server_pollfds() gave.
 * Returns how many doorbells the guests rang.
 */
unsigned int fw_server_handle(struct fw_server *s, const struct pollfd *pfd,
			      int n);

/* Raise an interrupt vector in every connected guest. */
void fw_server_notify(struct fw_server *s, unsigned int vector);

unsigned int fw_server_peer_count(const struct fw_server *s);

#endif /* FW_SERVER_H */
