// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ioctl-leaks: no kernel memory reaches user space.  Every ioctl that
 * returns a structure is called with the caller's structure filled with a
 * pattern first; reserved fields, string tails, unused union space and
 * padding must come back zeroed.  Then sysfs, debugfs and the kernel log
 * are searched for kernel pointers.
 *
 * Nodes from the environment: REL_VIDEO (V4L2), REL_VRAM (vcap's VRAM
 * node), REL_MODULE (the driver's module name), as rel-dev.sh sets them.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <regex.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <linux/vcap.h>

#include "vtest.h"

#define PAT	0xa5

/*
 * The first byte in [off, off + len) of p that is not zero (nor, with
 * pat, the caller's own pattern coming back unchanged), or -1.
 */
static long dirty_at(const void *p, size_t off, size_t len, bool pat)
{
	const uint8_t *b = p;
	size_t i;

	for (i = off; i < off + len; i++)
		if (b[i] && !(pat && b[i] == PAT))
			return (long)i;
	return -1;
}

#define VTEST_CLEAN(s, off, len, what, pat)				\
	do {								\
		long _at = dirty_at(s, off, len, pat);			\
		if (_at >= 0)						\
			TH_LOG("%s: byte %ld is %#x", what, _at,	\
			       ((const uint8_t *)(s))[_at]);		\
		EXPECT_EQ(_at, -1);					\
	} while (0)
/* Zeroed by the kernel. */
#define EXPECT_ZEROED(s, off, len, what)	VTEST_CLEAN(s, off, len, what, 0)

#define FIELD_END(type, f)	(offsetof(type, f) + sizeof(((type *)0)->f))
/*
 * Padding: the hole between two fields and the tail after the last one.
 * The kernel may hand the caller's own bytes back (structures that are
 * read in and written out), never anything else.
 */
#define EXPECT_GAP(s, type, a, b)					\
	VTEST_CLEAN(s, FIELD_END(type, a),				\
		    offsetof(type, b) - FIELD_END(type, a),		\
		    #type " padding after " #a, 1)
#define EXPECT_TAIL(s, type, last)					\
	VTEST_CLEAN(s, FIELD_END(type, last),				\
		    sizeof(type) - FIELD_END(type, last),		\
		    #type " padding at the end", 1)
#define EXPECT_RESERVED(s, type, f)					\
	EXPECT_ZEROED(s, offsetof(type, f), sizeof(((type *)0)->f),	\
		      #type "." #f)
/* A string: terminated, and nothing after the terminator. */
#define EXPECT_STRING(s, type, f)					\
	do {								\
		const char *_str = (const char *)(s) + offsetof(type, f); \
		size_t _n = sizeof(((type *)0)->f);			\
		size_t _l = strnlen(_str, _n);				\
		EXPECT_LT(_l, _n);					\
		if (_l < _n)						\
			EXPECT_ZEROED(_str, _l, _n - _l,		\
				      #type "." #f " after its end");	\
	} while (0)

static int open_node(const char *env)
{
	const char *path = getenv(env);

	if (!path || !*path) {
		fprintf(stderr, "ioctl-leaks: %s is not set\n", env);
		return -1;
	}
	return open(path, O_RDWR | O_CLOEXEC);
}

FIXTURE(v4l2) {
	int fd;
	uint32_t type;
};

FIXTURE_SETUP(v4l2)
{
	struct v4l2_capability cap;

	self->fd = open_node("REL_VIDEO");
	ASSERT_GE(self->fd, 0);
	memset(&cap, 0, sizeof(cap));
	ASSERT_EQ(ioctl(self->fd, VIDIOC_QUERYCAP, &cap), 0);
	self->type = (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) ?
		     V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
		     V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

FIXTURE_TEARDOWN(v4l2)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(v4l2, querycap)
{
	struct v4l2_capability c;

	memset(&c, PAT, sizeof(c));
	ASSERT_EQ(ioctl(self->fd, VIDIOC_QUERYCAP, &c), 0);
	EXPECT_STRING(&c, struct v4l2_capability, driver);
	EXPECT_STRING(&c, struct v4l2_capability, card);
	EXPECT_STRING(&c, struct v4l2_capability, bus_info);
	EXPECT_RESERVED(&c, struct v4l2_capability, reserved);
}

TEST_F(v4l2, enum_fmt)
{
	struct v4l2_fmtdesc d;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		memset(&d, PAT, sizeof(d));
		d.index = i;
		d.type = self->type;
		d.mbus_code = 0;
		if (ioctl(self->fd, VIDIOC_ENUM_FMT, &d))
			break;
		EXPECT_STRING(&d, struct v4l2_fmtdesc, description);
		EXPECT_RESERVED(&d, struct v4l2_fmtdesc, reserved);
	}
	ASSERT_GT(i, 0u);
	TH_LOG("%u formats checked", i);
}

static void check_pix(struct vtest_meta *_vtest, const struct v4l2_format *f)
{
	if (f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		const struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;
		unsigned int i;

		EXPECT_RESERVED(mp, struct v4l2_pix_format_mplane, reserved);
		for (i = 0; i < mp->num_planes && i < VIDEO_MAX_PLANES; i++)
			EXPECT_RESERVED(&mp->plane_fmt[i],
					struct v4l2_plane_pix_format,
					reserved);
		EXPECT_ZEROED(&f->fmt, sizeof(*mp),
			      sizeof(f->fmt) - sizeof(*mp),
			      "format union after pix_mp");
		return;
	}
	EXPECT_ZEROED(&f->fmt, sizeof(f->fmt.pix),
		      sizeof(f->fmt) - sizeof(f->fmt.pix),
		      "format union after pix");
	EXPECT_GAP(f, struct v4l2_format, type, fmt);
}

TEST_F(v4l2, g_fmt)
{
	struct v4l2_format f;

	memset(&f, PAT, sizeof(f));
	f.type = self->type;
	ASSERT_EQ(ioctl(self->fd, VIDIOC_G_FMT, &f), 0);
	check_pix(_vtest, &f);
}

TEST_F(v4l2, try_fmt)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = self->type;
	ASSERT_EQ(ioctl(self->fd, VIDIOC_G_FMT, &f), 0);
	/* the caller's pattern everywhere the format does not use */
	memset((uint8_t *)&f.fmt + sizeof(f.fmt.pix_mp), PAT,
	       sizeof(f.fmt) - sizeof(f.fmt.pix_mp));
	if (self->type != V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE)
		memset((uint8_t *)&f.fmt + sizeof(f.fmt.pix), PAT,
		       sizeof(f.fmt) - sizeof(f.fmt.pix));
	ASSERT_EQ(ioctl(self->fd, VIDIOC_TRY_FMT, &f), 0);
	check_pix(_vtest, &f);
}

static uint32_t first_fourcc(int fd, uint32_t type)
{
	struct v4l2_fmtdesc d = { .type = type };

	return ioctl(fd, VIDIOC_ENUM_FMT, &d) ? 0 : d.pixelformat;
}

TEST_F(v4l2, enum_framesizes)
{
	struct v4l2_frmsizeenum s;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		memset(&s, PAT, sizeof(s));
		s.index = i;
		s.pixel_format = first_fourcc(self->fd, self->type);
		if (ioctl(self->fd, VIDIOC_ENUM_FRAMESIZES, &s))
			break;
		EXPECT_RESERVED(&s, struct v4l2_frmsizeenum, reserved);
		if (s.type == V4L2_FRMSIZE_TYPE_DISCRETE)
			EXPECT_ZEROED(&s.stepwise, sizeof(s.discrete),
				      sizeof(s.stepwise) - sizeof(s.discrete),
				      "frmsizeenum union after discrete");
		if (s.type != V4L2_FRMSIZE_TYPE_DISCRETE)
			break;
	}
	ASSERT_GT(i, 0u);
}

TEST_F(v4l2, enum_frameintervals)
{
	struct v4l2_format f = { .type = self->type };
	struct v4l2_frmivalenum s;
	unsigned int i;

	ASSERT_EQ(ioctl(self->fd, VIDIOC_G_FMT, &f), 0);
	for (i = 0; i < 64; i++) {
		memset(&s, PAT, sizeof(s));
		s.index = i;
		s.pixel_format = f.fmt.pix.pixelformat;
		s.width = f.fmt.pix.width;
		s.height = f.fmt.pix.height;
		if (ioctl(self->fd, VIDIOC_ENUM_FRAMEINTERVALS, &s))
			break;
		EXPECT_RESERVED(&s, struct v4l2_frmivalenum, reserved);
		if (s.type == V4L2_FRMIVAL_TYPE_DISCRETE)
			EXPECT_ZEROED(&s.stepwise, sizeof(s.discrete),
				      sizeof(s.stepwise) - sizeof(s.discrete),
				      "frmivalenum union after discrete");
		if (s.type != V4L2_FRMIVAL_TYPE_DISCRETE)
			break;
	}
	ASSERT_GT(i, 0u);
}

TEST_F(v4l2, g_parm)
{
	struct v4l2_streamparm p;

	memset(&p, PAT, sizeof(p));
	p.type = self->type;
	ASSERT_EQ(ioctl(self->fd, VIDIOC_G_PARM, &p), 0);
	EXPECT_RESERVED(&p.parm.capture, struct v4l2_captureparm, reserved);
	EXPECT_ZEROED(&p.parm, sizeof(p.parm.capture),
		      sizeof(p.parm) - sizeof(p.parm.capture),
		      "streamparm union after capture");
}

TEST_F(v4l2, querybuf)
{
	struct v4l2_requestbuffers r = {
		.count = 2, .type = self->type, .memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b;
	unsigned int i;

	ASSERT_EQ(ioctl(self->fd, VIDIOC_REQBUFS, &r), 0);
	ASSERT_GT(r.count, 0u);
	for (i = 0; i < r.count; i++) {
		memset(&b, PAT, sizeof(b));
		memset(planes, PAT, sizeof(planes));
		b.index = i;
		b.type = self->type;
		b.memory = V4L2_MEMORY_MMAP;
		if (self->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
			b.m.planes = planes;
			b.length = VIDEO_MAX_PLANES;
		}
		ASSERT_EQ(ioctl(self->fd, VIDIOC_QUERYBUF, &b), 0);
		EXPECT_EQ(b.reserved2, 0u);
		if (!(b.flags & V4L2_BUF_FLAG_REQUEST_FD))
			EXPECT_EQ(b.request_fd, 0);
		EXPECT_GAP(&b, struct v4l2_buffer, field, timestamp);
		EXPECT_EQ(b.timecode.type | b.timecode.flags, 0u);
		EXPECT_RESERVED(&b.timecode, struct v4l2_timecode, userbits);
		if (b.m.planes == planes)
			EXPECT_RESERVED(&planes[0], struct v4l2_plane,
					reserved);
	}
	r.count = 0;
	EXPECT_EQ(ioctl(self->fd, VIDIOC_REQBUFS, &r), 0);
}

TEST_F(v4l2, queryctrl)
{
	struct v4l2_queryctrl q;
	unsigned int n = 0;
	uint32_t id = V4L2_CTRL_FLAG_NEXT_CTRL;

	for (;;) {
		memset(&q, PAT, sizeof(q));
		q.id = id;
		if (ioctl(self->fd, VIDIOC_QUERYCTRL, &q))
			break;
		EXPECT_STRING(&q, struct v4l2_queryctrl, name);
		EXPECT_RESERVED(&q, struct v4l2_queryctrl, reserved);
		id = q.id | V4L2_CTRL_FLAG_NEXT_CTRL;
		if (++n > 1024)
			break;
	}
	ASSERT_GT(n, 0u);
	TH_LOG("%u controls checked", n);
}

TEST_F(v4l2, query_ext_ctrl)
{
	struct v4l2_query_ext_ctrl q;
	unsigned int n = 0;
	uint32_t id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;

	for (;;) {
		memset(&q, PAT, sizeof(q));
		q.id = id;
		if (ioctl(self->fd, VIDIOC_QUERY_EXT_CTRL, &q))
			break;
		EXPECT_STRING(&q, struct v4l2_query_ext_ctrl, name);
		EXPECT_RESERVED(&q, struct v4l2_query_ext_ctrl, reserved);
		EXPECT_LE(q.nr_of_dims, (uint32_t)V4L2_CTRL_MAX_DIMS);
		if (q.nr_of_dims <= V4L2_CTRL_MAX_DIMS)
			EXPECT_ZEROED(q.dims, q.nr_of_dims * sizeof(q.dims[0]),
				      (V4L2_CTRL_MAX_DIMS - q.nr_of_dims) *
				      sizeof(q.dims[0]),
				      "query_ext_ctrl.dims past nr_of_dims");
		id = q.id | V4L2_CTRL_FLAG_NEXT_CTRL |
		     V4L2_CTRL_FLAG_NEXT_COMPOUND;
		if (++n > 1024)
			break;
	}
	ASSERT_GT(n, 0u);
}

TEST_F(v4l2, enuminput)
{
	struct v4l2_input in;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		memset(&in, PAT, sizeof(in));
		in.index = i;
		if (ioctl(self->fd, VIDIOC_ENUMINPUT, &in))
			break;
		EXPECT_STRING(&in, struct v4l2_input, name);
		EXPECT_RESERVED(&in, struct v4l2_input, reserved);
		EXPECT_TAIL(&in, struct v4l2_input, reserved);
	}
	ASSERT_GT(i, 0u);
}

TEST_F(v4l2, g_input)
{
	int in;

	memset(&in, PAT, sizeof(in));
	ASSERT_EQ(ioctl(self->fd, VIDIOC_G_INPUT, &in), 0);
	ASSERT_GE(in, 0);
	ASSERT_LT(in, 64);
}

TEST_F(v4l2, dqevent)
{
	struct v4l2_event_subscription sub;
	struct v4l2_queryctrl q;
	struct v4l2_event ev;

	/* the first control with a value: its initial event comes at once */
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
	do {
		ASSERT_EQ(ioctl(self->fd, VIDIOC_QUERYCTRL, &q), 0);
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	} while (q.type != V4L2_CTRL_TYPE_INTEGER &&
		 q.type != V4L2_CTRL_TYPE_BOOLEAN &&
		 q.type != V4L2_CTRL_TYPE_MENU);
	q.id &= ~V4L2_CTRL_FLAG_NEXT_CTRL;
	ASSERT_EQ(fcntl(self->fd, F_SETFL, O_NONBLOCK), 0);
	memset(&sub, 0, sizeof(sub));
	sub.type = V4L2_EVENT_CTRL;
	sub.id = q.id;
	sub.flags = V4L2_EVENT_SUB_FL_SEND_INITIAL;
	ASSERT_EQ(ioctl(self->fd, VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	memset(&ev, PAT, sizeof(ev));
	ASSERT_EQ(ioctl(self->fd, VIDIOC_DQEVENT, &ev), 0);
	EXPECT_EQ(ev.type, (uint32_t)V4L2_EVENT_CTRL);
	EXPECT_RESERVED(&ev, struct v4l2_event, reserved);
	/* read-only: the kernel wrote every byte, padding included */
	EXPECT_ZEROED(&ev, FIELD_END(struct v4l2_event, type),
		      offsetof(struct v4l2_event, u) -
		      FIELD_END(struct v4l2_event, type), "event padding");
	EXPECT_ZEROED(&ev.u, sizeof(ev.u.ctrl),
		      sizeof(ev.u) - sizeof(ev.u.ctrl),
		      "event union after ctrl");
	EXPECT_ZEROED(&ev, FIELD_END(struct v4l2_event, reserved),
		      sizeof(ev) - FIELD_END(struct v4l2_event, reserved),
		      "event tail padding");
}

/* ---- the VRAM node -------------------------------------------------- */

FIXTURE(vram) {
	int fd;
};

FIXTURE_SETUP(vram)
{
	self->fd = open_node("REL_VRAM");
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(vram)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(vram, query)
{
	struct vcap_info info;

	memset(&info, PAT, sizeof(info));
	ASSERT_EQ(ioctl(self->fd, VCAP_IOC_QUERY, &info), 0);
	EXPECT_EQ(info.abi_version, (uint32_t)VCAP_ABI_VERSION);
	EXPECT_EQ(info.reserved0, 0u);
	EXPECT_RESERVED(&info, struct vcap_info, reserved);
	EXPECT_STRING(&info, struct vcap_info, name);
	EXPECT_STRING(&info, struct vcap_info, serial);
	if (!(info.flags & VCAP_INFO_STREAMING))
		EXPECT_ZEROED(&info, offsetof(struct vcap_info, fourcc),
			      offsetof(struct vcap_info, reserved) -
			      offsetof(struct vcap_info, fourcc),
			      "vcap_info mode while not streaming");
}

/* The board streams while the V4L2 node does: start it for a frame. */
static int start_stream(void)
{
	struct v4l2_requestbuffers r = {
		.count = 3, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;
	int fd = open_node("REL_VIDEO");

	if (fd < 0 || ioctl(fd, VIDIOC_REQBUFS, &r))
		goto fail;
	for (i = 0; i < r.count; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = type, .memory = V4L2_MEMORY_MMAP,
		};

		if (ioctl(fd, VIDIOC_QBUF, &b))
			goto fail;
	}
	if (ioctl(fd, VIDIOC_STREAMON, &type) == 0)
		return fd;
fail:
	perror("ioctl-leaks: starting the V4L2 stream");
	if (fd >= 0)
		close(fd);
	return -1;
}

TEST_F(vram, wait_frame)
{
	struct vcap_wait wt;
	int vfd = start_stream();

	ASSERT_GE(vfd, 0);
	memset(&wt, PAT, sizeof(wt));
	wt.after_seq = 0;
	wt.timeout_ms = 5000;
	memset(wt.reserved, 0, sizeof(wt.reserved));
	ASSERT_EQ(ioctl(self->fd, VCAP_IOC_WAIT_FRAME, &wt), 0);
	EXPECT_RESERVED(&wt, struct vcap_wait, reserved);
	EXPECT_LT(wt.slot, 8u);
	close(vfd);
}

/* ---- kernel pointers in sysfs, debugfs and the log ------------------- */

static regex_t kptr_re;

static void kptr_init(void)
{
	/* A 64-bit kernel address: ffff8... to ffffffff..., 16 hex digits. */
	regcomp(&kptr_re, "(^|[^0-9a-fA-F])(0x)?ffff[89a-fA-F][0-9a-fA-F]{11}"
		"([^0-9a-fA-F]|$)", REG_EXTENDED | REG_ICASE);
}

/* 1 if the text has a kernel pointer (all-ones does not count). */
static int has_kptr(const char *text)
{
	regmatch_t m[1];
	const char *p = text;

	while (regexec(&kptr_re, p, 1, m, p == text ? 0 : REG_NOTBOL) == 0) {
		char hex[24];
		int n = (int)(m[0].rm_eo - m[0].rm_so);

		snprintf(hex, sizeof(hex), "%.*s", n > 23 ? 23 : n,
			 p + m[0].rm_so);
		if (!strstr(hex, "ffffffffffffffff") &&
		    !strstr(hex, "FFFFFFFFFFFFFFFF"))
			return 1;
		p += m[0].rm_eo;
	}
	return 0;
}

struct scan {
	unsigned int files;
	unsigned int hits;
};

static void scan_file(const char *path, struct scan *sc)
{
	char buf[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return;
	buf[n] = 0;
	sc->files++;
	if (has_kptr(buf)) {
		fprintf(stderr, "# kernel pointer in %s: %s\n", path, buf);
		sc->hits++;
	}
}

/* Walk a directory without following links out of it. */
static void scan_dir(const char *dir, int depth, struct scan *sc)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[1024];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth > 0)
			scan_dir(path, depth - 1, sc);
		else if (S_ISREG(st.st_mode) && (st.st_mode & 0444))
			scan_file(path, sc);
	}
	closedir(d);
}

TEST(scan_sysfs)
{
	const char *video = getenv("REL_VIDEO"), *vram = getenv("REL_VRAM");
	struct scan sc = { 0 };
	char dir[256];

	ASSERT_TRUE(video && *video);
	kptr_init();
	snprintf(dir, sizeof(dir), "/sys/class/video4linux/%s",
		 strrchr(video, '/') + 1);
	scan_dir(dir, 2, &sc);
	snprintf(dir, sizeof(dir), "/sys/class/video4linux/%s/device/",
		 strrchr(video, '/') + 1);
	scan_dir(dir, 2, &sc);
	if (vram && *vram) {
		snprintf(dir, sizeof(dir), "/sys/class/vcap/%s",
			 strrchr(vram, '/') + 1);
		scan_dir(dir, 2, &sc);
	}
	TH_LOG("%u sysfs files read", sc.files);
	ASSERT_GT(sc.files, 3u);
	EXPECT_EQ(sc.hits, 0u);
}

TEST(scan_debugfs)
{
	const char *mod = getenv("REL_MODULE");
	struct scan sc = { 0 };
	char dir[256];
	struct stat st;

	ASSERT_TRUE(mod && *mod);
	kptr_init();
	if (stat("/sys/kernel/debug/bdi", &st))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	ASSERT_EQ(stat("/sys/kernel/debug/bdi", &st), 0);
	snprintf(dir, sizeof(dir), "/sys/kernel/debug/%s", mod);
	scan_dir(dir, 3, &sc);
	/* a driver without debugfs files has nothing to leak there */
	TH_LOG("%u debugfs files read under %s", sc.files, dir);
	EXPECT_EQ(sc.hits, 0u);
}

TEST(scan_log)
{
	struct v4l2_capability cap;
	char rec[2048];
	unsigned int lines = 0, hits = 0;
	bool after = false;
	int fd, vfd;
	ssize_t n;

	kptr_init();
	/* the driver's status report goes to the log too */
	vfd = open_node("REL_VIDEO");
	ASSERT_GE(vfd, 0);
	ASSERT_EQ(ioctl(vfd, VIDIOC_QUERYCAP, &cap), 0);
	EXPECT_EQ(ioctl(vfd, VIDIOC_LOG_STATUS), 0);
	close(vfd);

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_GE(fd, 0);
	while ((n = read(fd, rec, sizeof(rec) - 1)) != 0) {
		if (n < 0) {
			if (errno == EPIPE)
				continue;	/* overwritten records */
			break;
		}
		rec[n] = 0;
		/* only what was logged since the driver was loaded */
		if (strstr(rec, "rel-dev: loading"))
			after = true, lines = 0, hits = 0;
		if (!after)
			continue;
		lines++;
		if (has_kptr(strchr(rec, ';') ? strchr(rec, ';') + 1 : rec)) {
			fprintf(stderr, "# kernel pointer in the log: %s", rec);
			hits++;
		}
	}
	close(fd);
	ASSERT_TRUE(after);
	TH_LOG("%u log records since the driver was loaded", lines);
	ASSERT_GT(lines, 1u);
	EXPECT_EQ(hits, 0u);
}

VTEST_MAIN()
