// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The ivshmem server protocol, firmware side. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "fw-log.h"
#include "fw-server.h"

#define FW_PROTOCOL_VERSION	0

/* One message: an 8-byte little-endian number, maybe with one fd. */
static int fw_send(int sock, int64_t v, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	int64_t le = (int64_t)htole64((uint64_t)v);
	struct iovec iov = { &le, sizeof(le) };
	struct msghdr msg = { 0 };
	struct cmsghdr *cm;

	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (fd >= 0) {
		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	/* A peer that does not read its socket is not waited for. */
	return sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) ==
	       (ssize_t)sizeof(le) ? 0 : -1;
}

/* Tell sock about a peer: its id once per vector, with its eventfds. */
static int fw_send_peer(int sock, uint16_t id, const int *efd)
{
	unsigned int v;

	for (v = 0; v < VCAP_NUM_VECTORS; v++)
		if (fw_send(sock, id, efd[v]))
			return -1;
	return 0;
}

static void fw_peer_free(struct fw_peer *p)
{
	unsigned int v;

	if (p->sock >= 0)
		close(p->sock);
	for (v = 0; v < VCAP_NUM_VECTORS; v++) {
		if (p->efd[v] >= 0)
			close(p->efd[v]);
		p->efd[v] = -1;
	}
	p->sock = -1;
}

static void fw_server_drop(struct fw_server *s, struct fw_peer *gone,
			   const char *why)
{
	uint16_t id = gone->id;
	unsigned int i;

	fw_info("peer %u leaves: %s\n", id, why);
	fw_peer_free(gone);
	for (i = 0; i < FW_MAX_PEERS; i++)
		if (s->peers[i].sock >= 0 && fw_send(s->peers[i].sock, id, -1))
			fw_server_drop(s, &s->peers[i], "cannot send");
}

int fw_server_open(struct fw_server *s, const char *path, int shm_fd,
		   char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned int i, v;

	memset(s, 0, sizeof(*s));
	s->listen_fd = -1;
	s->shm_fd = shm_fd;
	s->next_id = FW_PEER_ID + 1;
	for (v = 0; v < VCAP_NUM_VECTORS; v++)
		s->fw_efd[v] = -1;
	for (i = 0; i < FW_MAX_PEERS; i++) {
		s->peers[i].sock = -1;
		for (v = 0; v < VCAP_NUM_VECTORS; v++)
			s->peers[i].efd[v] = -1;
	}
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "socket path too long: %s", path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	strcpy(s->path, path);
	for (v = 0; v < VCAP_NUM_VECTORS; v++) {
		s->fw_efd[v] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (s->fw_efd[v] < 0) {
			snprintf(err, errlen, "eventfd: %s", strerror(errno));
			goto err_close;
		}
	}
	s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
			      SOCK_NONBLOCK, 0);
	if (s->listen_fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		goto err_close;
	}
	unlink(path);
	if (bind(s->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(s->listen_fd, 8)) {
		snprintf(err, errlen, "cannot listen on %s: %s", path,
			 strerror(errno));
		goto err_close;
	}
	return 0;

err_close:
	fw_server_close(s);
	return -EIO;
}

void fw_server_close(struct fw_server *s)
{
	unsigned int i, v;

	for (i = 0; i < FW_MAX_PEERS; i++)
		fw_peer_free(&s->peers[i]);
	for (v = 0; v < VCAP_NUM_VECTORS; v++) {
		if (s->fw_efd[v] >= 0)
			close(s->fw_efd[v]);
		s->fw_efd[v] = -1;
	}
	if (s->listen_fd >= 0) {
		close(s->listen_fd);
		unlink(s->path);
	}
	s->listen_fd = -1;
}

static bool fw_id_used(const struct fw_server *s, uint16_t id)
{
	unsigned int i;

	if (id == FW_PEER_ID)
		return true;
	for (i = 0; i < FW_MAX_PEERS; i++)
		if (s->peers[i].sock >= 0 && s->peers[i].id == id)
			return true;
	return false;
}

static void fw_server_accept(struct fw_server *s)
{
	struct fw_peer *p = NULL;
	unsigned int i, v;
	int sock;

	sock = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (sock < 0)
		return;
	for (i = 0; i < FW_MAX_PEERS && !p; i++)
		if (s->peers[i].sock < 0)
			p = &s->peers[i];
	if (!p) {
		fw_err("too many peers: refusing a connection\n");
		close(sock);
		return;
	}
	p->sock = sock;
	while (fw_id_used(s, s->next_id))
		s->next_id = (uint16_t)(s->next_id + 1);
	p->id = s->next_id;
	s->next_id = (uint16_t)(s->next_id + 1);
	for (v = 0; v < VCAP_NUM_VECTORS; v++) {
		p->efd[v] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (p->efd[v] < 0) {
			fw_peer_free(p);
			return;
		}
	}
	if (fw_send(sock, FW_PROTOCOL_VERSION, -1) ||
	    fw_send(sock, p->id, -1) || fw_send(sock, -1, s->shm_fd) ||
	    fw_send_peer(sock, FW_PEER_ID, s->fw_efd))
		goto err_drop;
	for (i = 0; i < FW_MAX_PEERS; i++) {
		struct fw_peer *o = &s->peers[i];

		if (o != p && o->sock >= 0 && fw_send_peer(sock, o->id, o->efd))
			goto err_drop;
	}
	if (fw_send_peer(sock, p->id, p->efd))
		goto err_drop;
	s->connects++;
	fw_info("peer %u connected\n", p->id);
	for (i = 0; i < FW_MAX_PEERS; i++) {
		struct fw_peer *o = &s->peers[i];

		if (o != p && o->sock >= 0 && fw_send_peer(o->sock, p->id, p->efd))
			fw_server_drop(s, o, "cannot send");
	}
	return;

err_drop:
	s->dropped++;
	fw_server_drop(s, p, "cannot send setup");
}

int fw_server_pollfds(const struct fw_server *s, struct pollfd *pfd)
{
	unsigned int i, v;
	int n = 0;

	pfd[n].fd = s->listen_fd;
	pfd[n++].events = POLLIN;
	for (v = 0; v < VCAP_NUM_VECTORS; v++) {
		pfd[n].fd = s->fw_efd[v];
		pfd[n++].events = POLLIN;
	}
	for (i = 0; i < FW_MAX_PEERS; i++) {
		pfd[n].fd = s->peers[i].sock;	/* -1 is ignored by poll */
		pfd[n++].events = POLLIN;
	}
	return n;
}

unsigned int fw_server_handle(struct fw_server *s, const struct pollfd *pfd,
			      int n)
{
	unsigned int rang = 0, i, v;
	uint64_t cnt;
	char junk[64];
	ssize_t r;

	if (n < FW_SERVER_MAX_FDS)
		return 0;
	for (v = 0; v < VCAP_NUM_VECTORS; v++) {
		if (!(pfd[1 + v].revents & POLLIN))
			continue;
		if (read(s->fw_efd[v], &cnt, sizeof(cnt)) == sizeof(cnt)) {
			s->irq_received += cnt;
			rang += (unsigned int)cnt;
		}
	}
	for (i = 0; i < FW_MAX_PEERS; i++) {
		const struct pollfd *p = &pfd[1 + VCAP_NUM_VECTORS + i];
		struct fw_peer *peer = &s->peers[i];

		if (peer->sock < 0 || p->fd != peer->sock || !p->revents)
			continue;
		/* The protocol is one-way: a client never sends anything. */
		r = recv(peer->sock, junk, sizeof(junk), MSG_DONTWAIT);
		if (r > 0) {
			s->dropped++;
			fw_server_drop(s, peer, "sent data (protocol error)");
		} else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
			fw_server_drop(s, peer, "disconnected");
		}
	}
	if (pfd[0].revents & POLLIN)
		fw_server_accept(s);
	return rang;
}

void fw_server_notify(struct fw_server *s, unsigned int vector)
{
	uint64_t one = 1;
	unsigned int i;

	if (vector >= VCAP_NUM_VECTORS)
		return;
	for (i = 0; i < FW_MAX_PEERS; i++) {
		if (s->peers[i].sock < 0)
			continue;
		if (write(s->peers[i].efd[vector], &one, sizeof(one)) ==
		    sizeof(one))
			s->irq_sent++;
	}
}

unsigned int fw_server_peer_count(const struct fw_server *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < FW_MAX_PEERS; i++)
		n += s->peers[i].sock >= 0;
	return n;
}
