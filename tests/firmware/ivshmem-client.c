// SPDX-License-Identifier: GPL-2.0 OR MIT
/* An ivshmem-doorbell client for tests, as QEMU's device speaks it. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "ivshmem-client.h"

/* One message: 0 with *v (and *fd or -1), 1 on timeout, -1 on EOF/error. */
static int ivc_recv(int sock, int64_t *v, int *fd, int timeout_ms)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct pollfd p = { .fd = sock, .events = POLLIN };
	struct iovec iov;
	struct msghdr msg = { 0 };
	struct cmsghdr *cm;
	int64_t le;
	ssize_t r;

	*fd = -1;
	r = poll(&p, 1, timeout_ms);
	if (r == 0)
		return 1;
	if (r < 0)
		return -1;
	iov.iov_base = &le;
	iov.iov_len = sizeof(le);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	if (r != sizeof(le))
		return -1;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(cm), sizeof(int));
	*v = (int64_t)le64toh((uint64_t)le);
	return 0;
}

struct ivc_peer *ivc_peer(struct ivc *c, int64_t id)
{
	int i;

	for (i = 0; i < IVC_MAX_PEERS; i++)
		if (c->peers[i].id == id)
			return &c->peers[i];
	return NULL;
}

static void ivc_peer_gone(struct ivc_peer *p)
{
	int v;

	for (v = 0; v < p->nfd; v++)
		close(p->efd[v]);
	p->nfd = 0;
	p->id = -1;
}

/* Apply one peer message: an fd for a peer (or us), or a disconnect. */
static int ivc_apply(struct ivc *c, int64_t v, int fd)
{
	struct ivc_peer *p;

	if (v < 0 || v > 65535) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fd < 0) {
		p = ivc_peer(c, v);
		if (p)
			ivc_peer_gone(p);
		c->last_gone = v;
		return 0;
	}
	if (v == c->id) {
		if (c->nown < VCAP_NUM_VECTORS)
			c->own[c->nown++] = fd;
		else
			close(fd);
		return 0;
	}
	p = ivc_peer(c, v);
	if (!p) {
		p = ivc_peer(c, -1);
		if (!p) {
			close(fd);
			return -1;
		}
		p->id = v;
	}
	if (p->nfd < VCAP_NUM_VECTORS)
		p->efd[p->nfd++] = fd;
	else
		close(fd);
	return 0;
}

int ivc_connect(struct ivc *c, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int64_t v;
	int i, fd;

	memset(c, 0, sizeof(*c));
	c->shm_fd = -1;
	c->last_gone = -1;
	for (i = 0; i < IVC_MAX_PEERS; i++)
		c->peers[i].id = -1;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	c->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->sock < 0 || connect(c->sock, (struct sockaddr *)&sa, sizeof(sa))) {
		snprintf(err, errlen, "connect %s: %s", path, strerror(errno));
		return -1;
	}
	if (ivc_recv(c->sock, &c->version, &fd, 2000) || fd >= 0) {
		snprintf(err, errlen, "no protocol version");
		return -1;
	}
	if (ivc_recv(c->sock, &c->id, &fd, 2000) || fd >= 0) {
		snprintf(err, errlen, "no peer id");
		return -1;
	}
	if (ivc_recv(c->sock, &v, &c->shm_fd, 2000) || v != -1 || c->shm_fd < 0) {
		snprintf(err, errlen, "no shared memory fd");
		return -1;
	}
	/* Peers, then our own vectors: setup ends with our last one. */
	while (c->nown < VCAP_NUM_VECTORS) {
		if (ivc_recv(c->sock, &v, &fd, 2000) || fd < 0 ||
		    ivc_apply(c, v, fd)) {
			snprintf(err, errlen, "bad peer setup message");
			return -1;
		}
	}
	if (fstat(c->shm_fd, &st)) {
		snprintf(err, errlen, "fstat shm: %s", strerror(errno));
		return -1;
	}
	c->size = (size_t)st.st_size;
	c->mem = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      c->shm_fd, 0);
	if (c->mem == MAP_FAILED) {
		c->mem = NULL;
		snprintf(err, errlen, "mmap shm: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void ivc_close(struct ivc *c)
{
	int i;

	for (i = 0; i < IVC_MAX_PEERS; i++)
		if (c->peers[i].id >= 0)
			ivc_peer_gone(&c->peers[i]);
	for (i = 0; i < c->nown; i++)
		close(c->own[i]);
	c->nown = 0;
	if (c->mem)
		munmap(c->mem, c->size);
	if (c->shm_fd >= 0)
		close(c->shm_fd);
	if (c->sock >= 0)
		close(c->sock);
	c->mem = NULL;
	c->shm_fd = -1;
	c->sock = -1;
}

int ivc_poll_notice(struct ivc *c, int timeout_ms)
{
	int64_t v;
	int fd, r;

	r = ivc_recv(c->sock, &v, &fd, timeout_ms);
	if (r)
		return r;
	return ivc_apply(c, v, fd) ? -1 : 0;
}

int ivc_ring(struct ivc *c, int64_t id, unsigned int vector)
{
	struct ivc_peer *p = ivc_peer(c, id);
	uint64_t one = 1;

	if (!p || (int)vector >= p->nfd)
		return -1;
	return write(p->efd[vector], &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}

uint64_t ivc_wait(struct ivc *c, unsigned int vector, int timeout_ms)
{
	struct pollfd p;
	uint64_t cnt = 0;

	if ((int)vector >= c->nown)
		return 0;
	p.fd = c->own[vector];
	p.events = POLLIN;
	if (poll(&p, 1, timeout_ms) != 1)
		return 0;
	if (read(c->own[vector], &cnt, sizeof(cnt)) != sizeof(cnt))
		return 0;
	return cnt;
}
