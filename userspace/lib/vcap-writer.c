// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Frame writers (raw, Y4M): each frame goes out whole or not at all, so a
 * full disk or a closed pipe leaves a file that ends on a frame boundary.
 */
#include "vcap-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

struct vcap_writer {
	enum vcap_writer_kind kind;
	int fd;
	bool own_fd;			/* false for stdout */
	bool seekable;			/* a regular file: can be cut back */
	char path[256];
	struct vcap_mode mode;
	size_t in_size;			/* bytes of one captured frame */
	uint8_t *buf;			/* Y4M: "FRAME\n" + planes */
	size_t out_size;		/* Y4M: bytes of buf per frame */
	off_t good_end;			/* end of the last whole frame */
	uint64_t frames;
	bool failed;
};

/* Write everything or fail; returns bytes written before an error. */
static ssize_t write_all(int fd, const struct iovec *iov_in, int iovcnt)
{
	struct iovec iov[4];
	ssize_t total = 0;
	int i = 0;

	memcpy(iov, iov_in, iovcnt * sizeof(*iov));
	while (i < iovcnt) {
		ssize_t n = writev(fd, iov + i, iovcnt - i);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return total ? total : -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return total;
		}
		total += n;
		while (i < iovcnt && (size_t)n >= iov[i].iov_len) {
			n -= iov[i].iov_len;
			i++;
		}
		if (i < iovcnt) {
			iov[i].iov_base = (char *)iov[i].iov_base + n;
			iov[i].iov_len -= n;
		}
	}
	return total;
}

/* Append buffers as one unit; on failure cut the file back to good_end. */
static int emit(struct vcap_writer *w, const struct iovec *iov, int iovcnt,
		const char *what)
{
	size_t want = 0;
	ssize_t n;
	int err;

	for (int i = 0; i < iovcnt; i++)
		want += iov[i].iov_len;
	errno = 0;
	n = write_all(w->fd, iov, iovcnt);
	if (n == (ssize_t)want) {
		w->good_end += n;
		return 0;
	}
	err = errno ? errno : ENOSPC;
	w->failed = true;
	if (w->seekable && ftruncate(w->fd, w->good_end) == 0 &&
	    lseek(w->fd, w->good_end, SEEK_SET) == w->good_end)
		return vcap_set_error(err,
				      "%s: write %s (file kept with %llu whole frames)",
				      w->path, what,
				      (unsigned long long)w->frames);
	return vcap_set_error(err, "%s: write %s after %llu frames", w->path,
			      what, (unsigned long long)w->frames);
}

static int y4m_header(struct vcap_writer *w, const struct vcap_pixfmt *pf)
{
	char hdr[128];
	uint32_t num = w->mode.interval_den, den = w->mode.interval_num;
	struct iovec iov;
	int len;

	/* A device that reports no interval is written as 30 fps. */
	if (!num || !den) {
		num = 30;
		den = 1;
	}
	len = snprintf(hdr, sizeof(hdr),
		       "YUV4MPEG2 W%u H%u F%u:%u Ip A1:1 C%s\n",
		       w->mode.width, w->mode.height, num, den, pf->y4m_tag);
	iov.iov_base = hdr;
	iov.iov_len = len;
	return emit(w, &iov, 1, "Y4M header");
}

struct vcap_writer *vcap_writer_open(enum vcap_writer_kind kind,
				     const char *path,
				     const struct vcap_mode *mode)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(mode->fourcc);
	char fcc[VCAP_FOURCC_STR_LEN];
	struct vcap_writer *w;
	struct stat st;

	w = calloc(1, sizeof(*w));
	if (!w) {
		vcap_set_error(ENOMEM, "%s: open", path);
		return NULL;
	}
	w->kind = kind;
	w->mode = *mode;
	snprintf(w->path, sizeof(w->path), "%s",
		 strcmp(path, "-") ? path : "stdout");
	w->in_size = vcap_mode_frame_size(mode);
	if (kind == VCAP_WRITER_Y4M) {
		if (!pf || !pf->y4m_tag || !w->in_size) {
			vcap_set_error(EINVAL,
				       "%s: Y4M cannot hold %s frames (use --raw)",
				       w->path,
				       vcap_fourcc_str(mode->fourcc, fcc));
			goto err_free;
		}
		w->out_size = 6 + vcap_y4m_frame_size(pf->y4m_tag, mode->width,
						       mode->height);
		w->buf = malloc(w->out_size);
		if (!w->buf) {
			vcap_set_error(ENOMEM, "%s: frame buffer", w->path);
			goto err_free;
		}
		memcpy(w->buf, "FRAME\n", 6);
	}
	if (!strcmp(path, "-")) {
		w->fd = STDOUT_FILENO;
	} else {
		w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			     0644);
		if (w->fd < 0) {
			vcap_set_error(errno, "%s: open", path);
			goto err_free;
		}
		w->own_fd = true;
	}
	w->seekable = fstat(w->fd, &st) == 0 && S_ISREG(st.st_mode);
	if (w->seekable)
		w->good_end = lseek(w->fd, 0, SEEK_CUR);
	if (kind == VCAP_WRITER_Y4M && y4m_header(w, pf) < 0)
		goto err_close;
	return w;

err_close:
	if (w->own_fd)
		close(w->fd);
err_free:
	free(w->buf);
	free(w);
	return NULL;
}

int vcap_writer_write(struct vcap_writer *w, const void *data, size_t len)
{
	struct iovec iov;

	if (w->failed)
		return vcap_set_error(EIO, "%s: write after an earlier failure",
				      w->path);
	if (w->kind == VCAP_WRITER_Y4M) {
		if (len < w->in_size)
			return vcap_set_error(EINVAL,
					      "%s: frame %llu short (%zu of %zu bytes)",
					      w->path,
					      (unsigned long long)w->frames, len,
					      w->in_size);
		vcap_y4m_pack(&w->mode, data, w->buf + 6);
		iov.iov_base = w->buf;
		iov.iov_len = w->out_size;
	} else {
		iov.iov_base = (void *)data;
		iov.iov_len = len;
	}
	if (emit(w, &iov, 1, "frame") < 0)
		return -1;
	w->frames++;
	return 0;
}

uint64_t vcap_writer_frames(const struct vcap_writer *w)
{
	return w->frames;
}

int vcap_writer_close(struct vcap_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = w->failed ? -1 : 0;
	if (w->own_fd) {
		if (!w->failed && w->seekable && fsync(w->fd) < 0 &&
		    errno != EINVAL && errno != EROFS) {
			ret = vcap_set_error(errno, "%s: fsync", w->path);
		}
		if (close(w->fd) < 0 && !ret)
			ret = vcap_set_error(errno, "%s: close", w->path);
	}
	free(w->buf);
	free(w);
	return ret;
}
