/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A small ivshmem-doorbell client for tests: it speaks to the firmware the
 * way QEMU's ivshmem device does (docs/specs/ivshmem-spec.rst).
 */
#ifndef IVSHMEM_CLIENT_H
#define IVSHMEM_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <vcap/board.h>

#define IVC_MAX_PEERS	32

struct ivc_peer {
	int64_t id;		/* -1: free */
	int efd[VCAP_NUM_VECTORS];
	int nfd;
};

struct ivc {
	int sock;
	int64_t version;
	int64_t id;
	int shm_fd;
	uint8_t *mem;
	size_t size;
	struct ivc_peer peers[IVC_MAX_PEERS];	/* other peers, by arrival */
	int own[VCAP_NUM_VECTORS];		/* our interrupt eventfds */
	int nown;
	int64_t last_gone;			/* last disconnect notice */
};

/* Connect and read the whole setup; 0, or -1 with why in err. */
int ivc_connect(struct ivc *c, const char *path, char *err, size_t errlen);
void ivc_close(struct ivc *c);

/* Read one later notice (connect or disconnect); 0, 1 if none, -1 EOF. */
int ivc_poll_notice(struct ivc *c, int timeout_ms);

struct ivc_peer *ivc_peer(struct ivc *c, int64_t id);

/* Ring vector of peer id. */
int ivc_ring(struct ivc *c, int64_t id, unsigned int vector);

/* Wait for our own vector; returns the count read, 0 on timeout. */
uint64_t ivc_wait(struct ivc *c, unsigned int vector, int timeout_ms);

#endif /* IVSHMEM_CLIENT_H */
