// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Looping playback of frames held in a file, and the source specs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fw-source-file.h"
#include "fw-source-v4l2.h"
#include "vcap-stamp.h"

static void fw_file_render(struct fw_source *s, const struct fw_frame_req *req,
			   u8 *dst, u64 seq, u64 prev)
{
	struct fw_file_source *fs = (struct fw_file_source *)s;
	struct fw_image img = fs->image;

	(void)prev;
	img.data = fs->map + fs->frames[seq % fs->nframes];
	fw_convert(&img, &req->fmt, dst, req->flags, req->src_w, req->src_h);
	vcap_stamp_write(&req->fmt, dst, seq, vcap_stamp_sum(&req->fmt, dst));
}

static void fw_file_destroy(struct fw_source *s)
{
	fw_file_source_free((struct fw_file_source *)s);
}

static const struct fw_source_ops fw_file_ops = {
	.render = fw_file_render,
	.destroy = fw_file_destroy,
};

struct fw_file_source *fw_file_source_open(const char *path, char *err,
					   size_t errlen)
{
	struct fw_file_source *fs;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if (st.st_size == 0) {
		snprintf(err, errlen, "%s: empty file", path);
		close(fd);
		return NULL;
	}
	fs = calloc(1, sizeof(*fs));
	if (!fs) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	fs->len = (size_t)st.st_size;
	fs->map = mmap(NULL, fs->len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (fs->map == MAP_FAILED) {
		snprintf(err, errlen, "%s: cannot map: %s", path,
			 strerror(errno));
		free(fs);
		return NULL;
	}
	fs->base.ops = &fw_file_ops;
	return fs;
}

void fw_file_source_free(struct fw_file_source *fs)
{
	if (!fs)
		return;
	if (fs->map && fs->map != MAP_FAILED)
		munmap((void *)fs->map, fs->len);
	free(fs->frames);
	free(fs);
}

static int parse_size(const char *s, u32 *w, u32 *h)
{
	char *end;
	unsigned long a, b;

	errno = 0;
	a = strtoul(s, &end, 10);
	if (end == s || *end != 'x' || errno)
		return -1;
	s = end + 1;
	b = strtoul(s, &end, 10);
	if (end == s || *end || errno || !a || !b || a > 8192 || b > 8192)
		return -1;
	*w = (u32)a;
	*h = (u32)b;
	return 0;
}

struct fw_source *fw_source_parse(const char *spec, char *err, size_t errlen)
{
	char buf[512], *path, *fcc, *size;
	u32 w, h, fourcc;

	if (!strcmp(spec, "pattern"))
		return fw_source_pattern_new();
	if (!strncmp(spec, "y4m:", 4) && spec[4])
		return fw_source_y4m_new(spec + 4, err, errlen);
	if (!strcmp(spec, "-"))
		return fw_source_pipe_new("-", err, errlen);
	if (!strncmp(spec, "pipe:", 5) && spec[5])
		return fw_source_pipe_new(spec + 5, err, errlen);
	if (!strncmp(spec, "v4l2:", 5) && spec[5])
		return fw_source_v4l2_new(spec + 5, err, errlen);
	if (strncmp(spec, "raw:", 4) || strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen,
			 "bad source '%s': expected pattern, y4m:FILE, raw:FILE:FOURCC:WxH, pipe:PATH, - or v4l2:DEVICE[:WxH][@FPS][:FOURCC]",
			 spec);
		return NULL;
	}
	strcpy(buf, spec + 4);
	/* The path may hold ':'; the last two fields are fixed. */
	size = strrchr(buf, ':');
	if (!size) {
		snprintf(err, errlen, "bad raw source '%s': expected raw:FILE:FOURCC:WxH", spec);
		return NULL;
	}
	*size++ = 0;
	fcc = strrchr(buf, ':');
	if (!fcc || strlen(fcc + 1) != 4 || parse_size(size, &w, &h)) {
		snprintf(err, errlen, "bad raw source '%s': expected raw:FILE:FOURCC:WxH", spec);
		return NULL;
	}
	*fcc++ = 0;
	path = buf;
	fourcc = VCAP_FOURCC(fcc[0], fcc[1], fcc[2], fcc[3]);
	return fw_source_raw_new(path, fourcc, w, h, err, errlen);
}

void fw_source_list(FILE *out)
{
	char names[512];

	fw_hdmi_source_names(names, sizeof(names));
	fprintf(out,
		"Live sources, the HDMI input's signal:\n"
		"  v4l2:DEVICE[:WxH][@FPS][:FOURCC]  a camera or capture card of this host:\n");
	fw_v4l2_list(out);
	fprintf(out,
		"  pipe:PATH   live Y4M from a FIFO or any stream (ffmpeg, GStreamer)\n"
		"  -           live Y4M from standard input\n"
		"Frame sources:\n"
		"  pattern     the test patterns (default)\n"
		"  y4m:FILE    a Y4M file, looping\n"
		"  raw:FILE:FOURCC:WxH  a file of raw frames in a board format, looping\n"
		"Sources plugged into the HDMI input (timings):\n"
		"  %s\n", names);
}
