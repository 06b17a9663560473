// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vcap-fuzz: V4L2 ioctls.  Real ioctl numbers with their real structures,
 * filled with random, boundary and sane values; well-formed streaming
 * sequences (REQBUFS, QBUF, STREAMON, DQBUF, STREAMOFF) racing each other;
 * and the invariants every V4L2 node must keep.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include "fuzz.h"
#include <linux/vcap.h>

/* Keep what one REQBUFS/CREATE_BUFS may allocate under this. */
#define FZ_ALLOC_BUDGET		(64u << 20)

typedef void (*fz_filler)(struct fz_worker *w, void *arg);

struct fz_ioctl {
	unsigned long cmd;
	const char *name;
	fz_filler fill;
};

static const uint32_t buf_types[] = {
	V4L2_BUF_TYPE_VIDEO_CAPTURE, V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE,
	V4L2_BUF_TYPE_VIDEO_OUTPUT, V4L2_BUF_TYPE_VIDEO_OVERLAY,
	V4L2_BUF_TYPE_VBI_CAPTURE, V4L2_BUF_TYPE_SLICED_VBI_CAPTURE,
	V4L2_BUF_TYPE_META_CAPTURE, V4L2_BUF_TYPE_SDR_CAPTURE, 0, 15, 0x80,
	0xffffffffu,
};

static const uint32_t fourccs[] = {
	V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_NV12,
	V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
	V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_XBGR32, V4L2_PIX_FMT_GREY,
	V4L2_PIX_FMT_NV12M, V4L2_PIX_FMT_MJPEG, 0, 0xffffffffu,
};

static uint32_t fz_type(struct fz_worker *w)
{
	return fz_below(w, 10) < 7 ? w->tg->buf_type : FZ_PICK(w, buf_types);
}

static uint32_t fz_memory(struct fz_worker *w)
{
	static const uint32_t mem[] = {
		V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP,
		V4L2_MEMORY_USERPTR, V4L2_MEMORY_DMABUF, V4L2_MEMORY_OVERLAY,
		0, 5, 0xffffffffu,
	};

	return FZ_PICK(w, mem);
}

/* A width or height: mostly usable, sometimes at or past the edges. */
static uint32_t fz_dim(struct fz_worker *w)
{
	static const uint32_t sane[] = { 160, 176, 320, 352, 640, 720, 800 };

	return fz_below(w, 10) < 8 ? FZ_PICK(w, sane) : fz_u32(w);
}

static uint32_t fz_ctrl_id(struct fz_worker *w)
{
	const struct fz_target *tg = w->tg;
	uint32_t id;
	unsigned int i;

	if (tg->num_ctrls && fz_below(w, 4))
		id = tg->ctrl_ids[fz_below(w, tg->num_ctrls)];
	else if (fz_chance(w, 2))
		id = V4L2_CID_BASE + fz_below(w, 64);
	else
		id = fz_u32(w);
	if (fz_chance(w, 8))
		id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	if (fz_chance(w, 8))
		id |= V4L2_CTRL_FLAG_NEXT_COMPOUND;
	for (i = 0; i < tg->num_avoid; i++)
		if ((id & ~(V4L2_CTRL_FLAG_NEXT_CTRL |
			    V4L2_CTRL_FLAG_NEXT_COMPOUND)) == tg->avoid_ctrl[i])
			return V4L2_CID_BRIGHTNESS;
	return id;
}

/* ---- fillers: structure-aware values over a random base --------------- */

static void fill_pix(struct fz_worker *w, struct v4l2_format *f)
{
	f->type = fz_type(w);
	if (f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;
		unsigned int i;

		mp->width = fz_dim(w);
		mp->height = fz_dim(w);
		mp->pixelformat = FZ_PICK(w, fourccs);
		mp->num_planes = fz_chance(w, 2) ? 1 : (uint8_t)fz_u32(w);
		for (i = 0; i < VIDEO_MAX_PLANES; i++) {
			mp->plane_fmt[i].bytesperline =
				fz_chance(w, 2) ? 0 : fz_u32(w);
			mp->plane_fmt[i].sizeimage =
				fz_chance(w, 2) ? 0 : fz_u32(w);
		}
		return;
	}
	f->fmt.pix.width = fz_dim(w);
	f->fmt.pix.height = fz_dim(w);
	f->fmt.pix.pixelformat = FZ_PICK(w, fourccs);
	f->fmt.pix.field = fz_chance(w, 2) ? V4L2_FIELD_NONE : fz_u32(w);
	f->fmt.pix.bytesperline = fz_chance(w, 2) ? 0 : fz_u32(w);
	f->fmt.pix.sizeimage = fz_chance(w, 2) ? 0 : fz_u32(w);
	f->fmt.pix.colorspace = fz_below(w, 16);
	f->fmt.pix.priv = fz_chance(w, 2) ? 0 : V4L2_PIX_FMT_PRIV_MAGIC;
}

static void fill_format(struct fz_worker *w, void *arg)
{
	fill_pix(w, arg);
}

static void fill_fmtdesc(struct fz_worker *w, void *arg)
{
	struct v4l2_fmtdesc *d = arg;

	d->index = fz_u32(w);
	d->type = fz_type(w);
	d->mbus_code = fz_chance(w, 2) ? 0 : fz_u32(w);
}

static void fill_frmsize(struct fz_worker *w, void *arg)
{
	struct v4l2_frmsizeenum *s = arg;

	s->index = fz_u32(w);
	s->pixel_format = FZ_PICK(w, fourccs);
}

static void fill_frmival(struct fz_worker *w, void *arg)
{
	struct v4l2_frmivalenum *s = arg;

	s->index = fz_u32(w);
	s->pixel_format = FZ_PICK(w, fourccs);
	s->width = fz_dim(w);
	s->height = fz_dim(w);
}

static uint32_t fz_count(struct fz_worker *w, uint32_t sizeimage)
{
	static const uint32_t big[] = { 8, 16, 32, 64, 0x7fffffffu,
					0xffffffffu };
	uint32_t c = fz_below(w, 10) ? fz_below(w, 5) : FZ_PICK(w, big);
	uint32_t most = FZ_ALLOC_BUDGET / (sizeimage ? sizeimage : 1);

	return c > most ? most : c;
}

/* The node's current image size, to keep allocations in the budget. */
static uint32_t fz_sizeimage(struct fz_worker *w, int fd)
{
	struct v4l2_format f = { .type = w->tg->buf_type };

	if (ioctl(fd, VIDIOC_G_FMT, &f))
		return 8u << 20;
	if (f.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE)
		return f.fmt.pix_mp.plane_fmt[0].sizeimage;
	return f.fmt.pix.sizeimage;
}

static void fill_reqbufs(struct fz_worker *w, void *arg)
{
	struct v4l2_requestbuffers *r = arg;

	r->type = fz_type(w);
	r->memory = fz_memory(w);
	r->count = fz_count(w, 36u << 20);	/* the largest frame */
	if (fz_chance(w, 2))
		r->flags = 0;
}

static void fill_planes(struct fz_worker *w, struct v4l2_buffer *b)
{
	struct v4l2_plane *p = (void *)(w->scratch + FZ_SCRATCH / 2);
	unsigned int i;

	if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE &&
	    b->type != V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE)
		return;
	b->length = fz_chance(w, 2) ? 1 : fz_u32(w);
	if (fz_below(w, 4)) {
		fz_fill(w, p, sizeof(*p) * VIDEO_MAX_PLANES);
		for (i = 0; i < VIDEO_MAX_PLANES; i++)
			if (fz_chance(w, 2))
				p[i].m.userptr = fz_userptr(w, &p[i].length);
		b->m.planes = p;
	} else {
		b->m.planes = fz_ptr(w, sizeof(*p));
	}
}

static void fill_buffer(struct fz_worker *w, void *arg)
{
	struct v4l2_buffer *b = arg;

	b->index = fz_below(w, 4) ? fz_below(w, 5) : fz_u32(w);
	b->type = fz_type(w);
	b->memory = fz_memory(w);
	if (fz_chance(w, 2))
		b->flags = 0;
	switch (b->memory) {
	case V4L2_MEMORY_USERPTR:
		b->length = fz_u32(w);
		b->m.userptr = fz_userptr(w, &b->length);
		break;
	case V4L2_MEMORY_DMABUF: {
		struct fz_fd *f = fz_any_fd(w);

		b->m.fd = f && fz_below(w, 4) ? f->fd : (int)fz_u32(w);
		b->length = fz_u32(w);
		break;
	}
	}
	if (fz_chance(w, 2))
		b->request_fd = 0;
	fill_planes(w, b);
}

static void fill_create(struct fz_worker *w, void *arg)
{
	struct v4l2_create_buffers *c = arg;
	uint32_t si;

	c->memory = fz_memory(w);
	fill_pix(w, &c->format);
	/* The requested size is honoured: keep it in the budget. */
	si = c->format.fmt.pix.sizeimage;
	if (c->format.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		c->format.fmt.pix_mp.num_planes = 1;
		si = c->format.fmt.pix_mp.plane_fmt[0].sizeimage;
		if (si > (36u << 20))
			c->format.fmt.pix_mp.plane_fmt[0].sizeimage = si =
				fz_below(w, 36u << 20);
	} else if (si > (36u << 20)) {
		c->format.fmt.pix.sizeimage = si = fz_below(w, 36u << 20);
	}
	c->count = fz_count(w, si > (8u << 20) ? si : (36u << 20));
}

static void fill_expbuf(struct fz_worker *w, void *arg)
{
	struct v4l2_exportbuffer *e = arg;
	static const uint32_t fl[] = { O_CLOEXEC, O_CLOEXEC | O_RDWR,
				       O_RDONLY, 0xffffffffu };

	e->type = fz_type(w);
	e->index = fz_below(w, 4) ? fz_below(w, 5) : fz_u32(w);
	e->plane = fz_below(w, 4) ? 0 : fz_u32(w);
	e->flags = FZ_PICK(w, fl);
}

static void fill_int(struct fz_worker *w, void *arg)
{
	*(uint32_t *)arg = fz_below(w, 2) ? w->tg->buf_type : fz_u32(w);
}

static void fill_parm(struct fz_worker *w, void *arg)
{
	struct v4l2_streamparm *p = arg;

	p->type = fz_type(w);
	p->parm.capture.timeperframe.numerator = fz_u32(w);
	p->parm.capture.timeperframe.denominator = fz_u32(w);
	p->parm.capture.readbuffers = fz_u32(w);
}

static void fill_index(struct fz_worker *w, void *arg)
{
	*(uint32_t *)arg = fz_u32(w);
}

static void fill_ctrl(struct fz_worker *w, void *arg)
{
	struct v4l2_control *c = arg;

	c->id = fz_ctrl_id(w);
	c->value = (int32_t)fz_u32(w);
}

static void fill_queryctrl(struct fz_worker *w, void *arg)
{
	*(uint32_t *)arg = fz_ctrl_id(w);
}

static void fill_querymenu(struct fz_worker *w, void *arg)
{
	struct v4l2_querymenu *m = arg;

	m->id = fz_ctrl_id(w);
	m->index = fz_u32(w);
}

static void fill_ext_ctrls(struct fz_worker *w, void *arg)
{
	static const uint32_t which[] = {
		V4L2_CTRL_WHICH_CUR_VAL, V4L2_CTRL_WHICH_DEF_VAL,
		V4L2_CTRL_WHICH_REQUEST_VAL, V4L2_CTRL_CLASS_USER,
		V4L2_CTRL_CLASS_CAMERA, 0xffffffffu,
	};
	struct v4l2_ext_controls *c = arg;
	struct v4l2_ext_control *ec = (void *)(w->scratch + 4096);
	unsigned int i, n = fz_below(w, 4) ? fz_below(w, 4) : fz_u32(w);

	c->which = FZ_PICK(w, which);
	c->count = n;
	c->request_fd = fz_chance(w, 2) ? -1 : (int32_t)fz_u32(w);
	if (n > 8 || fz_chance(w, 8)) {
		c->controls = fz_ptr(w, sizeof(*ec));
		return;
	}
	for (i = 0; i < n; i++) {
		ec[i].id = fz_ctrl_id(w);
		ec[i].size = fz_chance(w, 2) ? 0 : fz_u32(w);
		if (fz_chance(w, 2))
			ec[i].value64 = (int64_t)fz_u64(w);
		else
			ec[i].ptr = fz_ptr(w, 64);
		ec[i].reserved2[0] = fz_chance(w, 4) ? fz_u32(w) : 0;
	}
	c->controls = ec;
}

static void fill_edid(struct fz_worker *w, void *arg)
{
	struct v4l2_edid *e = arg;

	e->pad = fz_below(w, 2) ? 0 : fz_u32(w);
	e->start_block = fz_below(w, 2) ? 0 : fz_u32(w);
	e->blocks = fz_below(w, 2) ? fz_below(w, 3) : fz_u32(w);
	e->edid = fz_ptr(w, 256);
}

static void fill_selection(struct fz_worker *w, void *arg)
{
	struct v4l2_selection *s = arg;

	s->type = fz_type(w);
	s->target = fz_below(w, 2) ? fz_below(w, 0x104) : fz_u32(w);
	s->flags = fz_below(w, 2) ? 0 : fz_u32(w);
	s->r.left = (int32_t)fz_u32(w);
	s->r.top = (int32_t)fz_u32(w);
	s->r.width = fz_u32(w);
	s->r.height = fz_u32(w);
}

static void fill_event_sub(struct fz_worker *w, void *arg)
{
	static const uint32_t types[] = {
		V4L2_EVENT_ALL, V4L2_EVENT_VSYNC, V4L2_EVENT_EOS,
		V4L2_EVENT_CTRL, V4L2_EVENT_FRAME_SYNC,
		V4L2_EVENT_SOURCE_CHANGE, V4L2_EVENT_MOTION_DET,
		V4L2_EVENT_PRIVATE_START, 0xffffffffu,
	};
	struct v4l2_event_subscription *s = arg;

	s->type = FZ_PICK(w, types);
	s->id = s->type == V4L2_EVENT_CTRL ? fz_ctrl_id(w) : fz_u32(w);
	s->flags = fz_below(w, 4);
}

static void fill_dv_timings(struct fz_worker *w, void *arg)
{
	struct v4l2_dv_timings *t = arg;

	t->type = fz_below(w, 2) ? V4L2_DV_BT_656_1120 : fz_u32(w);
	t->bt.width = fz_dim(w);
	t->bt.height = fz_dim(w);
	t->bt.pixelclock = fz_u64(w);
}

static void fill_std(struct fz_worker *w, void *arg)
{
	*(uint64_t *)arg = fz_chance(w, 2) ? V4L2_STD_PAL : fz_u64(w);
}

/* Never: S_FBUF and OVERLAY point the device at physical memory. */
static const struct fz_ioctl v4l2_ioctls[] = {
#define IOC(c, f) { c, #c, f }
	IOC(VIDIOC_QUERYCAP, NULL),
	IOC(VIDIOC_ENUM_FMT, fill_fmtdesc),
	IOC(VIDIOC_G_FMT, fill_format),
	IOC(VIDIOC_S_FMT, fill_format),
	IOC(VIDIOC_TRY_FMT, fill_format),
	IOC(VIDIOC_REQBUFS, fill_reqbufs),
	IOC(VIDIOC_QUERYBUF, fill_buffer),
	IOC(VIDIOC_G_FBUF, NULL),
	IOC(VIDIOC_QBUF, fill_buffer),
	IOC(VIDIOC_EXPBUF, fill_expbuf),
	IOC(VIDIOC_DQBUF, fill_buffer),
	IOC(VIDIOC_STREAMON, fill_int),
	IOC(VIDIOC_STREAMOFF, fill_int),
	IOC(VIDIOC_G_PARM, fill_parm),
	IOC(VIDIOC_S_PARM, fill_parm),
	IOC(VIDIOC_G_STD, NULL),
	IOC(VIDIOC_S_STD, fill_std),
	IOC(VIDIOC_ENUMSTD, fill_index),
	IOC(VIDIOC_ENUMINPUT, fill_index),
	IOC(VIDIOC_G_CTRL, fill_ctrl),
	IOC(VIDIOC_S_CTRL, fill_ctrl),
	IOC(VIDIOC_G_TUNER, fill_index),
	IOC(VIDIOC_G_AUDIO, NULL),
	IOC(VIDIOC_S_AUDIO, fill_index),
	IOC(VIDIOC_QUERYCTRL, fill_queryctrl),
	IOC(VIDIOC_QUERYMENU, fill_querymenu),
	IOC(VIDIOC_G_INPUT, NULL),
	IOC(VIDIOC_S_INPUT, fill_index),
	IOC(VIDIOC_G_EDID, fill_edid),
	IOC(VIDIOC_S_EDID, fill_edid),
	IOC(VIDIOC_G_OUTPUT, NULL),
	IOC(VIDIOC_ENUMOUTPUT, fill_index),
	IOC(VIDIOC_G_FREQUENCY, fill_index),
	IOC(VIDIOC_CROPCAP, fill_int),
	IOC(VIDIOC_G_CROP, fill_int),
	IOC(VIDIOC_S_CROP, fill_selection),
	IOC(VIDIOC_G_JPEGCOMP, NULL),
	IOC(VIDIOC_QUERYSTD, NULL),
	IOC(VIDIOC_ENUMAUDIO, fill_index),
	IOC(VIDIOC_G_PRIORITY, NULL),
	IOC(VIDIOC_S_PRIORITY, fill_index),
	IOC(VIDIOC_G_SLICED_VBI_CAP, fill_int),
	IOC(VIDIOC_G_EXT_CTRLS, fill_ext_ctrls),
	IOC(VIDIOC_S_EXT_CTRLS, fill_ext_ctrls),
	IOC(VIDIOC_TRY_EXT_CTRLS, fill_ext_ctrls),
	IOC(VIDIOC_ENUM_FRAMESIZES, fill_frmsize),
	IOC(VIDIOC_ENUM_FRAMEINTERVALS, fill_frmival),
	IOC(VIDIOC_ENCODER_CMD, fill_index),
	IOC(VIDIOC_DECODER_CMD, fill_index),
	IOC(VIDIOC_S_DV_TIMINGS, fill_dv_timings),
	IOC(VIDIOC_G_DV_TIMINGS, NULL),
	IOC(VIDIOC_DQEVENT, NULL),
	IOC(VIDIOC_SUBSCRIBE_EVENT, fill_event_sub),
	IOC(VIDIOC_UNSUBSCRIBE_EVENT, fill_event_sub),
	IOC(VIDIOC_CREATE_BUFS, fill_create),
	IOC(VIDIOC_PREPARE_BUF, fill_buffer),
	IOC(VIDIOC_G_SELECTION, fill_selection),
	IOC(VIDIOC_S_SELECTION, fill_selection),
	IOC(VIDIOC_ENUM_DV_TIMINGS, fill_index),
	IOC(VIDIOC_QUERY_DV_TIMINGS, NULL),
	IOC(VIDIOC_DV_TIMINGS_CAP, fill_index),
	IOC(VIDIOC_ENUM_FREQ_BANDS, fill_index),
	IOC(VIDIOC_DBG_G_CHIP_INFO, fill_index),
	IOC(VIDIOC_QUERY_EXT_CTRL, fill_queryctrl),
	IOC(VIDIOC_REMOVE_BUFS, fill_int),
#undef IOC
};

#define NUM_IOCTLS	(sizeof(v4l2_ioctls) / sizeof(v4l2_ioctls[0]))

/* ---- probing the node before the run ---------------------------------- */

void fz_probe_v4l2(struct fz_target *tg, int fd)
{
	struct v4l2_capability cap = { 0 };
	struct v4l2_queryctrl qc = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	struct stat st;
	unsigned int i;

	if (!fstat(fd, &st))
		tg->video_rdev = st.st_rdev;
	tg->buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0 &&
	    ((cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps :
	      cap.capabilities) & V4L2_CAP_VIDEO_CAPTURE_MPLANE))
		tg->buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;

	while (tg->num_ctrls < 128 && ioctl(fd, VIDIOC_QUERYCTRL, &qc) == 0) {
		/* Controls that take the device away would end the run. */
		if (strstr((char *)qc.name, "Disconnect")) {
			if (tg->num_avoid < 8)
				tg->avoid_ctrl[tg->num_avoid++] = qc.id;
		} else if (qc.type != V4L2_CTRL_TYPE_CTRL_CLASS) {
			tg->ctrl_ids[tg->num_ctrls++] = qc.id;
		}
		qc.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}

	/*
	 * V4L2 copies an argument in before it looks at the ioctl: with a
	 * bad pointer every ioctl the node knows that takes an argument
	 * fails with EFAULT, and the others with ENOTTY.
	 */
	for (i = 0; i < NUM_IOCTLS; i++) {
		unsigned long cmd = v4l2_ioctls[i].cmd;

		if (!(_IOC_DIR(cmd) & _IOC_WRITE))
			continue;
		if (ioctl(fd, cmd, NULL) == -1 && errno == EFAULT)
			tg->v4l2_supported[_IOC_NR(cmd)] = 1;
	}
}

/* ---- random ioctls ------------------------------------------------------ */

static void fz_ioctl_after(struct fz_worker *w, unsigned long cmd, void *arg,
			   int ret)
{
	if (ret == 0 && cmd == VIDIOC_EXPBUF && arg == w->scratch) {
		struct v4l2_exportbuffer *e = arg;

		if (e->fd >= 0)
			fz_adopt_fd(w, e->fd, FZ_DMABUF, O_RDWR);
	}
}

/* Leave an ioctl out of the random calls: 0, or -1 if there is none. */
int fz_skip_ioctl(struct fz_target *tg, const char *name)
{
	unsigned int i;

	for (i = 0; i < NUM_IOCTLS; i++)
		if (!strcmp(v4l2_ioctls[i].name, name) && tg->num_skip < 8) {
			tg->skip[tg->num_skip++] = v4l2_ioctls[i].name;
			return 0;
		}
	return -1;
}

static bool fz_skipped(const struct fz_target *tg, const struct fz_ioctl *io)
{
	unsigned int i;

	for (i = 0; i < tg->num_skip; i++)
		if (tg->skip[i] == io->name)
			return true;
	return false;
}

void fz_op_v4l2(struct fz_worker *w)
{
	const struct fz_ioctl *io = &v4l2_ioctls[fz_below(w, NUM_IOCTLS)];
	size_t size = _IOC_SIZE(io->cmd);
	struct fz_fd *f = fz_any_fd(w);
	void *arg = w->scratch;
	int fd, ret;

	w->stats[FZF_V4L2]++;
	if (!f || fz_skipped(w->tg, io))
		return;
	fz_fill(w, arg, size);
	if (io->fill)
		io->fill(w, arg);
	if (fz_chance(w, 16))
		arg = fz_ptr(w, size);
	fd = __atomic_load_n(&f->fd, __ATOMIC_ACQUIRE);
	fz_describe(w, "ioctl(%d, %s, %p)", fd, io->name, arg);
	/*
	 * The calls that block (DQBUF, DQEVENT, a wait for the queue's lock)
	 * mostly wait for what never comes: interrupted soon, as well.
	 */
	fz_arm(w, 10);
	ret = ioctl(fd, io->cmd, arg);
	fz_disarm(w);
	fz_ioctl_after(w, io->cmd, arg, ret);
}

/* ---- well-formed streaming, racing ------------------------------------ */

static const uint32_t sane_sizes[][2] = {
	{ 160, 120 }, { 320, 240 }, { 640, 360 }, { 640, 480 },
};

static void fz_stream_fmt(struct fz_worker *w, int fd)
{
	struct v4l2_format f = { .type = w->tg->buf_type };
	const uint32_t *sz = sane_sizes[fz_below(w, 4)];

	if (ioctl(fd, VIDIOC_G_FMT, &f))
		return;
	if (f.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		f.fmt.pix_mp.width = sz[0];
		f.fmt.pix_mp.height = sz[1];
	} else {
		f.fmt.pix.width = sz[0];
		f.fmt.pix.height = sz[1];
	}
	fz_describe(w, "S_FMT(%d, %ux%u)", fd, sz[0], sz[1]);
	ioctl(fd, VIDIOC_S_FMT, &f);
}

static void fz_stream_qbuf(struct fz_worker *w, int fd, uint32_t memory)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES] = { 0 };
	struct v4l2_buffer b = {
		.type = w->tg->buf_type, .memory = memory,
		.index = fz_below(w, 4),
	};
	struct fz_fd *d;

	if (b.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		b.m.planes = planes;
		b.length = 1;
	}
	if (memory == V4L2_MEMORY_USERPTR) {
		uint32_t len = 4u << 20;
		unsigned long p = fz_userptr(w, &len);

		if (b.m.planes) {
			planes[0].m.userptr = p;
			planes[0].length = len;
		} else {
			b.m.userptr = p;
			b.length = len;
		}
	} else if (memory == V4L2_MEMORY_DMABUF) {
		d = fz_any_fd(w);
		if (b.m.planes)
			planes[0].m.fd = d ? d->fd : -1;
		else
			b.m.fd = d ? d->fd : -1;
	}
	fz_describe(w, "QBUF(%d, %u, mem %u)", fd, b.index, memory);
	ioctl(fd, VIDIOC_QBUF, &b);
}

static void fz_stream_dqbuf(struct fz_worker *w, int fd)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES] = { 0 };
	struct v4l2_buffer b = {
		.type = w->tg->buf_type, .memory = V4L2_MEMORY_MMAP,
	};

	if (b.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		b.m.planes = planes;
		b.length = VIDEO_MAX_PLANES;
	}
	fz_describe(w, "DQBUF(%d)", fd);
	fz_arm(w, 100);
	if (ioctl(fd, VIDIOC_DQBUF, &b) == 0)
		w->hits[FZH_DQBUF]++;
	fz_disarm(w);
}

static void fz_stream_map(struct fz_worker *w, struct fz_fd *f, int fd)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES] = { 0 };
	struct v4l2_buffer b = {
		.type = w->tg->buf_type, .memory = V4L2_MEMORY_MMAP,
		.index = fz_below(w, 4),
	};
	uint32_t off, len;

	if (b.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		b.m.planes = planes;
		b.length = VIDEO_MAX_PLANES;
	}
	fz_describe(w, "QUERYBUF(%d, %u)", fd, b.index);
	if (ioctl(fd, VIDIOC_QUERYBUF, &b))
		return;
	off = b.m.planes ? planes[0].m.mem_offset : b.m.offset;
	len = b.m.planes ? planes[0].length : b.length;
	fz_mmap(w, f, len, off, PROT_READ | (fz_chance(w, 2) ? PROT_WRITE : 0),
		MAP_SHARED);
}

/*
 * A whole capture on one fd, so that frames really flow while the other
 * threads and processes do their worst: REQBUFS, QBUF all, STREAMON, wait
 * for a frame, DQBUF, STREAMOFF.  Any step may fail: another fd may own
 * the queue, or another thread may have freed the buffers meanwhile.
 */
static void fz_stream_whole(struct fz_worker *w, int fd)
{
	struct v4l2_requestbuffers r = {
		.type = w->tg->buf_type, .memory = V4L2_MEMORY_MMAP,
		.count = 2 + fz_below(w, 3),
	};
	uint32_t type = w->tg->buf_type;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	unsigned int i;

	fz_describe(w, "whole capture(%d, %u buffers)", fd, r.count);
	if (ioctl(fd, VIDIOC_REQBUFS, &r) || !r.count)
		return;
	for (i = 0; i < r.count; i++) {
		struct v4l2_plane planes[VIDEO_MAX_PLANES] = { 0 };
		struct v4l2_buffer b = {
			.type = type, .memory = V4L2_MEMORY_MMAP, .index = i,
		};

		if (type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
			b.m.planes = planes;
			b.length = VIDEO_MAX_PLANES;
		}
		ioctl(fd, VIDIOC_QBUF, &b);
	}
	if (ioctl(fd, VIDIOC_STREAMON, &type) == 0)
		w->hits[FZH_STREAMON]++;
	fz_arm(w, 500);
	poll(&pfd, 1, 400);
	fz_disarm(w);
	fz_stream_dqbuf(w, fd);
	if (fz_below(w, 4))
		ioctl(fd, VIDIOC_STREAMOFF, &type);
}

void fz_op_stream(struct fz_worker *w)
{
	struct fz_fd *f = fz_below(w, 4) ? fz_priv_fd(w, FZ_VIDEO) :
					   fz_any_fd(w);
	uint32_t type = w->tg->buf_type;
	int fd;

	w->stats[FZF_STREAM]++;
	if (!f)
		return;
	fd = __atomic_load_n(&f->fd, __ATOMIC_ACQUIRE);
	switch (fz_below(w, 14)) {
	case 12:
		fz_stream_whole(w, fd);
		break;
	case 0: {
		struct v4l2_requestbuffers r = {
			.type = type, .memory = fz_memory(w),
		};

		r.count = fz_count(w, fz_sizeimage(w, fd));
		fz_describe(w, "REQBUFS(%d, %u, mem %u)", fd, r.count,
			    r.memory);
		ioctl(fd, VIDIOC_REQBUFS, &r);
		break;
	}
	case 1: case 2:
		fz_stream_qbuf(w, fd, fz_below(w, 6) ? V4L2_MEMORY_MMAP :
				      fz_memory(w));
		break;
	case 3: case 4:
		fz_stream_dqbuf(w, fd);
		break;
	case 5:
		fz_describe(w, "STREAMON(%d)", fd);
		if (ioctl(fd, VIDIOC_STREAMON, &type) == 0)
			w->hits[FZH_STREAMON]++;
		break;
	case 6:
		fz_describe(w, "STREAMOFF(%d)", fd);
		ioctl(fd, VIDIOC_STREAMOFF, &type);
		break;
	case 7:
		fz_stream_fmt(w, fd);
		break;
	case 8: case 9:
		fz_stream_map(w, f, fd);
		break;
	case 10: {
		struct v4l2_exportbuffer e = {
			.type = type, .index = fz_below(w, 4),
			.flags = O_CLOEXEC | O_RDWR,
		};

		fz_describe(w, "EXPBUF(%d, %u)", fd, e.index);
		if (ioctl(fd, VIDIOC_EXPBUF, &e) == 0) {
			w->hits[FZH_EXPBUF]++;
			fz_adopt_fd(w, e.fd, FZ_DMABUF, O_RDWR);
		}
		break;
	}
	default: {
		struct v4l2_event_subscription s = {
			.type = V4L2_EVENT_SOURCE_CHANGE,
		};
		struct v4l2_event ev;

		fz_describe(w, "SUBSCRIBE/DQEVENT(%d)", fd);
		ioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &s);
		/* no source changes here: a blocking fd waits for the timer */
		fz_arm(w, 10);
		ioctl(fd, VIDIOC_DQEVENT, &ev);
		fz_disarm(w);
	}
	}
}

/* ---- invariants --------------------------------------------------------- */

/* An ioctl number no V4L2 or vcap node knows. */
static unsigned long fz_unknown_cmd(struct fz_worker *w)
{
	static const unsigned int types[] = { 'Q', 'z', 0xe3, 0xfe };
	static const unsigned int dirs[] = {
		_IOC_NONE, _IOC_READ, _IOC_WRITE, _IOC_READ | _IOC_WRITE,
	};
	unsigned int dir = FZ_PICK(w, dirs), size = fz_below(w, 0x4000);

	if (dir == _IOC_NONE)
		size = 0;
	switch (fz_below(w, 3)) {
	case 0:
		return _IOC(dir, 'V', 0xc0 + fz_below(w, 0x40), size);
	case 1:
		return _IOC(dir, VCAP_IOC_MAGIC, 2 + fz_below(w, 254), size);
	default:
		return _IOC(dir, FZ_PICK(w, types), fz_below(w, 256), size);
	}
}

static void *fz_bad_ptr(struct fz_worker *w)
{
	static void *const bad[] = {
		NULL, (void *)0x1000, (void *)0xffff888000000000ull,
		(void *)0x8000000000000000ull, (void *)~0ull,
	};

	return FZ_PICK(w, bad);
}

static void fz_check_unknown(struct fz_worker *w)
{
	struct fz_fd *f = fz_priv_fd(w, FZ_NONE);
	unsigned long cmd = fz_unknown_cmd(w);
	void *arg = fz_chance(w, 2) ? fz_bad_ptr(w) : w->scratch;
	int ret;

	if (!f)
		return;
	fz_fill(w, w->scratch, 4096);
	fz_describe(w, "unknown ioctl(%d kind %d, %#lx, %p)", f->fd, f->kind,
		    cmd, arg);
	ret = ioctl(f->fd, cmd, arg);
	/*
	 * V4L2 copies an argument in before it looks the number up: with a
	 * bad pointer, EFAULT may come first.
	 */
	if (ret == -1 && errno == EFAULT && arg != w->scratch &&
	    (_IOC_DIR(cmd) & _IOC_WRITE))
		return;
	if (ret != -1 || errno != ENOTTY)
		fz_fail(w, "unknown ioctl returned %d errno %d (%s), "
			"expected ENOTTY", ret, errno, strerror(errno));
}

/* Another node's ioctls: V4L2 on the VRAM node, vcap's on the V4L2 node. */
static void fz_check_foreign(struct fz_worker *w)
{
	static const unsigned long vcap_cmds[] = {
		VCAP_IOC_QUERY, VCAP_IOC_WAIT_FRAME,
	};
	struct fz_fd *f = fz_priv_fd(w, fz_chance(w, 2) ? FZ_VRAM : FZ_VIDEO);
	unsigned long cmd;
	int ret;

	if (!f)
		return;
	fz_fill(w, w->scratch, 4096);
	if (f->kind == FZ_VRAM)
		cmd = v4l2_ioctls[fz_below(w, NUM_IOCTLS)].cmd;
	else
		cmd = FZ_PICK(w, vcap_cmds);
	fz_describe(w, "foreign ioctl(%d kind %d, %#lx)", f->fd, f->kind, cmd);
	ret = ioctl(f->fd, cmd, w->scratch);
	if (ret != -1 || errno != ENOTTY)
		fz_fail(w, "another node's ioctl returned %d errno %d (%s), "
			"expected ENOTTY", ret, errno, strerror(errno));
}

static void fz_check_badptr(struct fz_worker *w)
{
	struct fz_fd *f = fz_priv_fd(w, FZ_VIDEO);
	const struct fz_ioctl *io = &v4l2_ioctls[fz_below(w, NUM_IOCTLS)];
	void *arg = fz_bad_ptr(w);
	int ret;

	if (!f || !w->tg->v4l2_supported[_IOC_NR(io->cmd)] ||
	    !(_IOC_DIR(io->cmd) & _IOC_WRITE))
		return;
	fz_describe(w, "ioctl(%d, %s, bad %p)", f->fd, io->name, arg);
	ret = ioctl(f->fd, io->cmd, arg);
	if (ret != -1 || errno != EFAULT)
		fz_fail(w, "bad pointer returned %d errno %d (%s), "
			"expected EFAULT", ret, errno, strerror(errno));
}

/* A mapping past any buffer the node can have, or private: EINVAL. */
static void fz_check_map_video(struct fz_worker *w)
{
	struct fz_fd *f = fz_priv_fd(w, FZ_VIDEO);
	bool priv = fz_chance(w, 2);
	size_t len = priv ? 4096 : (size_t)1 << 30;
	void *p;

	if (!f)
		return;
	fz_describe(w, "mmap(%d, %zu, %s) past the end", f->fd, len,
		    priv ? "MAP_PRIVATE" : "MAP_SHARED");
	p = mmap(NULL, len, PROT_READ, priv ? MAP_PRIVATE : MAP_SHARED,
		 f->fd, 0);
	if (p != MAP_FAILED) {
		munmap(p, len);
		fz_fail(w, "mapping succeeded, expected EINVAL");
	}
	if (errno == EACCES && !f->readable)
		return;
	/* vb2: only the fd that owns the queue may map its buffers */
	if (errno == EBUSY)
		return;
	if (errno != EINVAL)
		fz_fail(w, "mapping failed with errno %d (%s), expected "
			"EINVAL", errno, strerror(errno));
}

void fz_op_invariant(struct fz_worker *w)
{
	w->stats[FZF_INVARIANT]++;
	switch (fz_below(w, 4)) {
	case 0:
		fz_check_unknown(w);
		break;
	case 1:
		fz_check_foreign(w);
		break;
	case 2:
		fz_check_badptr(w);
		break;
	default:
		fz_check_map_video(w);
	}
}
