// SPDX-License-Identifier: GPL-2.0
/*
 * Every vcap ioctl a client uses, on both nodes, as a transcript that must
 * not depend on the word size of the program that runs it.
 *
 * Built as an x86-64 program and as an i386 one: on a 64-bit kernel the
 * second goes through the compat ioctl paths (videodev's
 * v4l2-compat-ioctl32 conversions on /dev/videoN, compat_ptr_ioctl on
 * /dev/vcapN).  Each step prints one line of results on stdout: values,
 * or the errno of a call that must fail.  Values that differ from run to
 * run (sequence numbers, timestamps, buffer cookies, file descriptors)
 * are checked here and left out of the transcript.  Any unexpected result
 * is printed as UNEXPECTED and makes the program exit 1; a node that is
 * missing exits 2.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include <vcap/board.h>
#include <linux/vcap.h>

#define NBUFS_ASKED	4
#define NBUFS_MAX	32
#define NFRAMES		8
#define PAGE		4096

static int failed;
/* A page that is mapped PROT_NONE for the whole run: a bad user pointer. */
static void *bad_ptr;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PRINTF_LIKE	__attribute__((format(printf, 1, 2)))

static void PRINTF_LIKE out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void PRINTF_LIKE unexpected(const char *fmt, ...)
{
	va_list ap;

	failed = 1;
	fputs("UNEXPECTED ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void __attribute__((noreturn)) die(const char *what)
{
	printf("FATAL %s: %s\n", what, strerror(errno));
	exit(2);
}

static const char *errname(int e)
{
	const char *s = strerrorname_np(e);

	return s ? s : "unknown-errno";
}

static const char *fourcc(uint32_t f, char buf[5])
{
	int i;

	for (i = 0; i < 4; i++) {
		char c = (f >> (8 * i)) & 0xff;

		buf[i] = c >= 0x20 && c < 0x7f ? c : '.';
	}
	buf[4] = 0;
	return buf;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

/* An ioctl that must succeed: 0, or -1 after an UNEXPECTED line. */
static int ok(int fd, unsigned long req, void *arg, const char *name)
{
	if (xioctl(fd, req, arg) == 0)
		return 0;
	unexpected("%s: %s", name, errname(errno));
	return -1;
}

/* An ioctl that must fail with errno want. */
static void fails(int fd, unsigned long req, void *arg, const char *name,
		  int want)
{
	if (xioctl(fd, req, arg) == 0)
		unexpected("%s: succeeded, want %s", name, errname(want));
	else if (errno != want)
		unexpected("%s: %s, want %s", name, errname(errno),
			   errname(want));
	else
		out("%s: %s", name, errname(errno));
}

static int all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* VRAM node */

static int open_vram(void)
{
	char path[300];
	struct dirent *de;
	DIR *d = opendir("/sys/class/vcap");
	int fd = -1;

	if (!d)
		die("/sys/class/vcap");
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "vcap", 4)) {
			snprintf(path, sizeof(path), "/dev/%s", de->d_name);
			fd = open(path, O_RDONLY);
			break;
		}
	closedir(d);
	if (fd < 0)
		die("no VRAM node");
	return fd;
}

static void vram_query(int fd, const char *step, struct vcap_info *in)
{
	memset(in, 0xa5, sizeof(*in));
	if (ok(fd, VCAP_IOC_QUERY, in, step))
		return;
	out("%s: abi=%u board_abi=%u flags=%#x name=\"%.32s\" serial=\"%.32s\"",
	    step, in->abi_version, in->board_abi_version, in->flags, in->name,
	    in->serial);
	out("%s: map_size=%llu frame_offset=%llu frame_size=%llu", step,
	    (unsigned long long)in->map_size,
	    (unsigned long long)in->frame_offset,
	    (unsigned long long)in->frame_size);
	out("%s: fourcc=%#x %ux%u bytesperline=%u sizeimage=%u interval=%u/%u",
	    step, in->fourcc, in->width, in->height, in->bytesperline,
	    in->sizeimage, in->interval_num, in->interval_den);
	out("%s: num_slots=%u ring_offset=%llu slot_stride=%llu", step,
	    in->num_slots, (unsigned long long)in->ring_offset,
	    (unsigned long long)in->slot_stride);
	if (in->reserved0 || !all_zero(in->reserved, sizeof(in->reserved)))
		unexpected("%s: reserved fields not zero", step);
}

static void vram_control_page(int fd, const struct vcap_info *in)
{
	const volatile struct vcap_board_info *bi;
	void *p;

	p = mmap(NULL, VCAP_CTRL_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		unexpected("vram mmap control page: %s", errname(errno));
		return;
	}
	bi = p;
	out("vram mmap control page: magic=%#x abi=%u ctrl_size=%#x caps=%#x",
	    bi->magic, bi->abi_version, bi->ctrl_size, bi->caps);
	out("vram mmap control page: name=\"%.32s\" serial=\"%.32s\"",
	    (const char *)bi->name, (const char *)bi->serial);
	out("vram mmap control page: vram_size=%llu num_modes=%u num_intervals=%u",
	    (unsigned long long)bi->vram_size, bi->num_modes,
	    bi->num_intervals);
	if (bi->magic != VCAP_BOARD_MAGIC)
		unexpected("vram mmap control page: magic %#x", bi->magic);
	if (bi->vram_size != in->map_size)
		unexpected("vram mmap control page: vram_size != map_size");
	munmap(p, VCAP_CTRL_SIZE);
}

static void vram_bad_calls(int fd)
{
	struct vcap_wait w;

	fails(fd, _IO(VCAP_IOC_MAGIC, 99), NULL, "vram unknown ioctl", ENOTTY);
	/* QUERY's number with WAIT_FRAME's size and direction. */
	fails(fd, _IOWR(VCAP_IOC_MAGIC, 0, struct vcap_wait), &w,
	      "vram QUERY with a wrong size", ENOTTY);
	fails(fd, VCAP_IOC_QUERY, NULL, "vram QUERY NULL", EFAULT);
	fails(fd, VCAP_IOC_QUERY, bad_ptr, "vram QUERY bad pointer", EFAULT);
	fails(fd, VCAP_IOC_WAIT_FRAME, NULL, "vram WAIT_FRAME NULL", EFAULT);
	fails(fd, VCAP_IOC_WAIT_FRAME, bad_ptr, "vram WAIT_FRAME bad pointer",
	      EFAULT);
}

static void vram_wait_none(int fd, const char *step)
{
	struct vcap_wait w;

	memset(&w, 0, sizeof(w));
	w.after_seq = ~0ull;
	w.timeout_ms = 100;
	fails(fd, VCAP_IOC_WAIT_FRAME, &w, step, ETIMEDOUT);
}

static void vram_wait_frame(int fd, const struct vcap_info *in)
{
	struct vcap_wait w;

	memset(&w, 0, sizeof(w));
	w.timeout_ms = 10000;
	if (ok(fd, VCAP_IOC_WAIT_FRAME, &w, "vram WAIT_FRAME streaming"))
		return;
	out("vram WAIT_FRAME streaming: ok bytesused=%u slot_in_ring=%d",
	    w.bytesused, w.slot < in->num_slots);
	if (w.slot >= in->num_slots || !w.sequence || !w.timestamp_ns)
		unexpected("vram WAIT_FRAME streaming: slot %u seq %llu ts %llu",
			   w.slot, (unsigned long long)w.sequence,
			   (unsigned long long)w.timestamp_ns);
}

/* V4L2 node */

static int open_video(void)
{
	struct v4l2_capability cap;
	char path[32];
	int i, fd;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "/dev/video%d", i);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		memset(&cap, 0, sizeof(cap));
		if (!ioctl(fd, VIDIOC_QUERYCAP, &cap) &&
		    !strcmp((char *)cap.driver, "vcap"))
			return fd;
		close(fd);
	}
	errno = ENODEV;
	die("no vcap video node");
}

static void print_pix(const char *step, const struct v4l2_format *f)
{
	const struct v4l2_pix_format *p = &f->fmt.pix;
	char fc[5];

	out("%s: type=%u %ux%u %s field=%u bytesperline=%u sizeimage=%u",
	    step, f->type, p->width, p->height, fourcc(p->pixelformat, fc),
	    p->field, p->bytesperline, p->sizeimage);
	out("%s: colorspace=%u priv=%#x flags=%#x ycbcr_enc=%u quantization=%u xfer_func=%u",
	    step, p->colorspace, p->priv, p->flags, p->ycbcr_enc,
	    p->quantization, p->xfer_func);
}

static void v4l2_caps(int fd)
{
	struct v4l2_capability cap;

	memset(&cap, 0, sizeof(cap));
	if (ok(fd, VIDIOC_QUERYCAP, &cap, "QUERYCAP"))
		return;
	out("QUERYCAP: driver=\"%.16s\" card=\"%.32s\" bus_info=\"%.32s\"",
	    (char *)cap.driver, (char *)cap.card, (char *)cap.bus_info);
	out("QUERYCAP: version=%u.%u.%u capabilities=%#x device_caps=%#x",
	    cap.version >> 16, (cap.version >> 8) & 0xff, cap.version & 0xff,
	    cap.capabilities, cap.device_caps);
}

static void v4l2_formats(int fd)
{
	struct v4l2_frmsizeenum fs;
	struct v4l2_frmivalenum fi;
	struct v4l2_fmtdesc d;
	char fc[5];
	unsigned int i;

	for (i = 0;; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (xioctl(fd, VIDIOC_ENUM_FMT, &d))
			break;
		out("ENUM_FMT %u: %s flags=%#x description=\"%.32s\"", i,
		    fourcc(d.pixelformat, fc), d.flags, (char *)d.description);
	}
	if (errno != EINVAL || !i)
		unexpected("ENUM_FMT %u: %s", i, errname(errno));
	else
		out("ENUM_FMT %u: %s", i, errname(errno));

	for (i = 0;; i++) {
		memset(&fs, 0, sizeof(fs));
		fs.index = i;
		fs.pixel_format = V4L2_PIX_FMT_YUYV;
		if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs))
			break;
		out("ENUM_FRAMESIZES YUYV %u: type=%u %ux%u", i, fs.type,
		    fs.discrete.width, fs.discrete.height);
	}
	out("ENUM_FRAMESIZES YUYV %u: %s", i, errname(errno));

	for (i = 0;; i++) {
		memset(&fi, 0, sizeof(fi));
		fi.index = i;
		fi.pixel_format = V4L2_PIX_FMT_YUYV;
		fi.width = 640;
		fi.height = 480;
		if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi))
			break;
		out("ENUM_FRAMEINTERVALS YUYV 640x480 %u: type=%u %u/%u", i,
		    fi.type, fi.discrete.numerator, fi.discrete.denominator);
	}
	out("ENUM_FRAMEINTERVALS YUYV 640x480 %u: %s", i, errname(errno));
}

static void v4l2_set_format(int fd, struct v4l2_format *cur)
{
	struct v4l2_format f;

	memset(cur, 0, sizeof(*cur));
	cur->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (!ok(fd, VIDIOC_G_FMT, cur, "G_FMT"))
		print_pix("G_FMT", cur);

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.width = 330;
	f.fmt.pix.height = 250;
	if (!ok(fd, VIDIOC_TRY_FMT, &f, "TRY_FMT YUYV 330x250"))
		print_pix("TRY_FMT YUYV 330x250", &f);

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = v4l2_fourcc('Z', 'Z', 'Z', 'Z');
	f.fmt.pix.width = 100000;
	f.fmt.pix.height = 100000;
	if (!ok(fd, VIDIOC_TRY_FMT, &f, "TRY_FMT ZZZZ 100000x100000"))
		print_pix("TRY_FMT ZZZZ 100000x100000", &f);

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	fails(fd, VIDIOC_TRY_FMT, &f, "TRY_FMT output type", EINVAL);

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.width = 640;
	f.fmt.pix.height = 480;
	if (!ok(fd, VIDIOC_S_FMT, &f, "S_FMT YUYV 640x480"))
		print_pix("S_FMT YUYV 640x480", &f);

	memset(cur, 0, sizeof(*cur));
	cur->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (!ok(fd, VIDIOC_G_FMT, cur, "G_FMT after S_FMT"))
		print_pix("G_FMT after S_FMT", cur);
}

static void print_parm(const char *step, const struct v4l2_streamparm *p)
{
	const struct v4l2_captureparm *c = &p->parm.capture;

	out("%s: type=%u capability=%#x capturemode=%#x timeperframe=%u/%u",
	    step, p->type, c->capability, c->capturemode,
	    c->timeperframe.numerator, c->timeperframe.denominator);
	out("%s: extendedmode=%u readbuffers=%u", step, c->extendedmode,
	    c->readbuffers);
}

static void v4l2_parm(int fd)
{
	struct v4l2_streamparm p;

	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (!ok(fd, VIDIOC_G_PARM, &p, "G_PARM"))
		print_parm("G_PARM", &p);

	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	p.parm.capture.timeperframe.numerator = 1;
	p.parm.capture.timeperframe.denominator = 15;
	if (!ok(fd, VIDIOC_S_PARM, &p, "S_PARM 1/15"))
		print_parm("S_PARM 1/15", &p);

	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (!ok(fd, VIDIOC_G_PARM, &p, "G_PARM after S_PARM"))
		print_parm("G_PARM after S_PARM", &p);

	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	fails(fd, VIDIOC_G_PARM, &p, "G_PARM output type", EINVAL);
}

static void v4l2_inputs(int fd)
{
	struct v4l2_input in;
	unsigned int n;
	int i;

	for (n = 0; n < 2; n++) {
		memset(&in, 0, sizeof(in));
		in.index = n;
		if (ok(fd, VIDIOC_ENUMINPUT, &in, "ENUMINPUT"))
			continue;
		out("ENUMINPUT %u: name=\"%.32s\" type=%u audioset=%#x tuner=%u",
		    n, (char *)in.name, in.type, in.audioset, in.tuner);
		out("ENUMINPUT %u: std=%#llx status=%#x capabilities=%#x", n,
		    (unsigned long long)in.std, in.status, in.capabilities);
	}
	memset(&in, 0, sizeof(in));
	in.index = 2;
	fails(fd, VIDIOC_ENUMINPUT, &in, "ENUMINPUT 2", EINVAL);

	i = -1;
	if (!ok(fd, VIDIOC_G_INPUT, &i, "G_INPUT"))
		out("G_INPUT: %d", i);
	i = 0;
	if (!ok(fd, VIDIOC_S_INPUT, &i, "S_INPUT 0"))
		out("S_INPUT 0: ok");
	i = 2;
	fails(fd, VIDIOC_S_INPUT, &i, "S_INPUT 2", EINVAL);
}

/* The HDMI input: timings (a packed struct) and the EDID (a pointer). */
static void v4l2_dv(int fd)
{
	struct v4l2_dv_timings t;
	unsigned char edid[2 * 128];
	struct v4l2_edid e;
	unsigned int sum = 0, k;
	int i = 0;

	if (ok(fd, VIDIOC_S_INPUT, &i, "S_INPUT 0 (HDMI)"))
		return;
	memset(&t, 0, sizeof(t));
	if (!ok(fd, VIDIOC_QUERY_DV_TIMINGS, &t, "QUERY_DV_TIMINGS"))
		out("QUERY_DV_TIMINGS: %ux%u pixelclock=%llu vic=%u",
		    t.bt.width, t.bt.height,
		    (unsigned long long)t.bt.pixelclock, t.bt.cea861_vic);
	memset(&e, 0, sizeof(e));
	if (!ok(fd, VIDIOC_G_EDID, &e, "G_EDID count"))
		out("G_EDID count: blocks=%u", e.blocks);
	memset(&e, 0, sizeof(e));
	e.blocks = 2;
	e.edid = edid;
	if (!ok(fd, VIDIOC_G_EDID, &e, "G_EDID")) {
		for (k = 0; k < sizeof(edid); k++)
			sum = sum * 31 + edid[k];
		out("G_EDID: blocks=%u hash=%#x", e.blocks, sum);
	}
	e.blocks = 2;
	e.edid = edid;
	if (!ok(fd, VIDIOC_S_EDID, &e, "S_EDID"))
		out("S_EDID: ok");
	i = 1;
	if (!ok(fd, VIDIOC_S_INPUT, &i, "S_INPUT 1 (generator)"))
		out("S_INPUT 1: ok");
}

static void g_ctrl(int fd, const char *step)
{
	struct v4l2_control c = { .id = V4L2_CID_TEST_PATTERN };

	if (!ok(fd, VIDIOC_G_CTRL, &c, step))
		out("%s: value=%d", step, c.value);
}

static void v4l2_ctrl(int fd)
{
	struct v4l2_query_ext_ctrl qe;
	struct v4l2_queryctrl q;
	struct v4l2_querymenu m;
	struct v4l2_control c;
	int i;

	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_TEST_PATTERN;
	if (ok(fd, VIDIOC_QUERYCTRL, &q, "QUERYCTRL TEST_PATTERN"))
		return;
	out("QUERYCTRL TEST_PATTERN: type=%u name=\"%.32s\" flags=%#x", q.type,
	    (char *)q.name, q.flags);
	out("QUERYCTRL TEST_PATTERN: min=%d max=%d step=%d default=%d",
	    q.minimum, q.maximum, q.step, q.default_value);

	memset(&qe, 0, sizeof(qe));
	qe.id = V4L2_CID_TEST_PATTERN;
	if (!ok(fd, VIDIOC_QUERY_EXT_CTRL, &qe, "QUERY_EXT_CTRL TEST_PATTERN")) {
		out("QUERY_EXT_CTRL TEST_PATTERN: type=%u min=%lld max=%lld step=%llu default=%lld",
		    qe.type, (long long)qe.minimum, (long long)qe.maximum,
		    (unsigned long long)qe.step, (long long)qe.default_value);
		out("QUERY_EXT_CTRL TEST_PATTERN: elem_size=%u elems=%u nr_of_dims=%u",
		    qe.elem_size, qe.elems, qe.nr_of_dims);
	}

	for (i = q.minimum; i <= q.maximum && i < 64; i++) {
		memset(&m, 0, sizeof(m));
		m.id = V4L2_CID_TEST_PATTERN;
		m.index = i;
		if (!ok(fd, VIDIOC_QUERYMENU, &m, "QUERYMENU TEST_PATTERN"))
			out("QUERYMENU TEST_PATTERN %d: \"%.32s\"", i,
			    (char *)m.name);
	}

	g_ctrl(fd, "G_CTRL TEST_PATTERN");
	c.id = V4L2_CID_TEST_PATTERN;
	c.value = 2;
	if (!ok(fd, VIDIOC_S_CTRL, &c, "S_CTRL TEST_PATTERN 2"))
		out("S_CTRL TEST_PATTERN 2: value=%d", c.value);
	g_ctrl(fd, "G_CTRL TEST_PATTERN after S_CTRL");
	c.id = V4L2_CID_TEST_PATTERN;
	c.value = q.maximum + 1;
	fails(fd, VIDIOC_S_CTRL, &c, "S_CTRL TEST_PATTERN max+1", ERANGE);
	c.id = V4L2_CID_TEST_PATTERN;
	c.value = q.default_value;
	if (!ok(fd, VIDIOC_S_CTRL, &c, "S_CTRL TEST_PATTERN default"))
		out("S_CTRL TEST_PATTERN default: value=%d", c.value);
	fails(fd, VIDIOC_G_CTRL, NULL, "G_CTRL NULL", EFAULT);
}

static const __u32 ext_ids[] = {
	V4L2_CID_TEST_PATTERN, V4L2_CID_HFLIP, V4L2_CID_VFLIP,
};

#define NEXT	ARRAY_SIZE(ext_ids)

static void ext_init(struct v4l2_ext_controls *cs, struct v4l2_ext_control *c,
		     __u32 which)
{
	unsigned int i;

	memset(cs, 0, sizeof(*cs));
	memset(c, 0, NEXT * sizeof(*c));
	for (i = 0; i < NEXT; i++)
		c[i].id = ext_ids[i];
	cs->which = which;
	cs->count = NEXT;
	cs->controls = c;
}

static void ext_print(const char *step, const struct v4l2_ext_controls *cs,
		      const struct v4l2_ext_control *c)
{
	out("%s: which=%#x count=%u error_idx=%u values=%d,%d,%d", step,
	    cs->which, cs->count, cs->error_idx, c[0].value, c[1].value,
	    c[2].value);
}

/* The ext control calls: the compat path converts the controls array. */
static void v4l2_ext_ctrls(int fd)
{
	struct v4l2_ext_control c[NEXT];
	struct v4l2_ext_controls cs;

	ext_init(&cs, c, V4L2_CTRL_WHICH_CUR_VAL);
	if (!ok(fd, VIDIOC_G_EXT_CTRLS, &cs, "G_EXT_CTRLS"))
		ext_print("G_EXT_CTRLS", &cs, c);
	ext_init(&cs, c, V4L2_CTRL_WHICH_DEF_VAL);
	if (!ok(fd, VIDIOC_G_EXT_CTRLS, &cs, "G_EXT_CTRLS default"))
		ext_print("G_EXT_CTRLS default", &cs, c);

	ext_init(&cs, c, V4L2_CTRL_WHICH_CUR_VAL);
	c[0].value = 3;
	c[1].value = 1;
	if (!ok(fd, VIDIOC_S_EXT_CTRLS, &cs, "S_EXT_CTRLS 3,1,0"))
		ext_print("S_EXT_CTRLS 3,1,0", &cs, c);
	ext_init(&cs, c, V4L2_CTRL_WHICH_CUR_VAL);
	if (!ok(fd, VIDIOC_G_EXT_CTRLS, &cs, "G_EXT_CTRLS after S_EXT_CTRLS"))
		ext_print("G_EXT_CTRLS after S_EXT_CTRLS", &cs, c);

	/* A bad value in the second control: error_idx must say so. */
	ext_init(&cs, c, V4L2_CTRL_WHICH_CUR_VAL);
	c[0].id = V4L2_CID_HFLIP;
	c[1].id = V4L2_CID_TEST_PATTERN;
	c[1].value = 99;
	fails(fd, VIDIOC_TRY_EXT_CTRLS, &cs, "TRY_EXT_CTRLS pattern=99",
	      ERANGE);
	out("TRY_EXT_CTRLS pattern=99: error_idx=%u", cs.error_idx);

	ext_init(&cs, c, V4L2_CTRL_WHICH_CUR_VAL);
	c[0].value = 1;
	if (!ok(fd, VIDIOC_S_EXT_CTRLS, &cs, "S_EXT_CTRLS 1,0,0"))
		ext_print("S_EXT_CTRLS 1,0,0", &cs, c);

	ext_init(&cs, c, V4L2_CTRL_WHICH_CUR_VAL);
	cs.controls = bad_ptr;
	fails(fd, VIDIOC_G_EXT_CTRLS, &cs, "G_EXT_CTRLS bad controls pointer",
	      EFAULT);
	fails(fd, VIDIOC_G_EXT_CTRLS, bad_ptr, "G_EXT_CTRLS bad pointer",
	      EFAULT);
}

/* Waits up to 5 s for an event: 0, or -1 after an UNEXPECTED line. */
static int wait_event(int fd, const char *step)
{
	struct pollfd pfd = { .fd = fd, .events = POLLPRI };

	if (poll(&pfd, 1, 5000) == 1 && (pfd.revents & POLLPRI))
		return 0;
	unexpected("%s: no event within 5 s", step);
	return -1;
}

static void dqevent(int fd, const char *step)
{
	struct v4l2_event_ctrl *c;
	struct v4l2_event ev;
	long long ts, now;

	if (wait_event(fd, step))
		return;
	memset(&ev, 0, sizeof(ev));
	if (ok(fd, VIDIOC_DQEVENT, &ev, step))
		return;
	now = now_ns();
	c = &ev.u.ctrl;
	out("%s: type=%u id=%#x pending=%u sequence=%u", step, ev.type, ev.id,
	    ev.pending, ev.sequence);
	out("%s: changes=%#x type=%u value=%d flags=%#x", step, c->changes,
	    c->type, c->value, c->flags);
	out("%s: min=%d max=%d step=%d default=%d", step, c->minimum,
	    c->maximum, c->step, c->default_value);
	ts = ev.timestamp.tv_sec * 1000000000ll + ev.timestamp.tv_nsec;
	if (!ts || ts > now || ts < now - 60 * 1000000000ll)
		unexpected("%s: timestamp %lld, now %lld", step, ts, now);
}

static void set_pattern(int fd, int value, const char *step)
{
	struct v4l2_control c = { .id = V4L2_CID_TEST_PATTERN, .value = value };

	ok(fd, VIDIOC_S_CTRL, &c, step);
}

/*
 * Control events: the compat path converts struct v4l2_event.  One event
 * is queued per control (later changes merge into it), so each change is
 * dequeued before the next.
 */
static void v4l2_events(int fd)
{
	struct v4l2_event_subscription sub;
	struct v4l2_event ev;
	int fl;

	memset(&sub, 0, sizeof(sub));
	sub.type = V4L2_EVENT_CTRL;
	sub.id = V4L2_CID_TEST_PATTERN;
	/* The changes are made on this same file handle. */
	sub.flags = V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK;
	if (ok(fd, VIDIOC_SUBSCRIBE_EVENT, &sub, "SUBSCRIBE_EVENT ctrl"))
		return;
	out("SUBSCRIBE_EVENT ctrl: ok");
	set_pattern(fd, 4, "S_CTRL TEST_PATTERN 4");
	dqevent(fd, "DQEVENT after S_CTRL 4");
	set_pattern(fd, 1, "S_CTRL TEST_PATTERN 1");
	dqevent(fd, "DQEVENT after S_CTRL 1");

	/* Non-blocking from here: DQEVENT copies out only after it waited. */
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	memset(&ev, 0, sizeof(ev));
	fails(fd, VIDIOC_DQEVENT, &ev, "DQEVENT none pending", ENOENT);
	set_pattern(fd, 4, "S_CTRL TEST_PATTERN 4");
	if (!wait_event(fd, "DQEVENT bad pointer"))
		fails(fd, VIDIOC_DQEVENT, bad_ptr, "DQEVENT bad pointer",
		      EFAULT);
	set_pattern(fd, 1, "S_CTRL TEST_PATTERN 1");
	if (!wait_event(fd, "DQEVENT after a bad pointer") &&
	    !ok(fd, VIDIOC_DQEVENT, &ev, "DQEVENT after a bad pointer"))
		out("DQEVENT after a bad pointer: value=%d", ev.u.ctrl.value);
	fcntl(fd, F_SETFL, fl);

	if (!ok(fd, VIDIOC_UNSUBSCRIBE_EVENT, &sub, "UNSUBSCRIBE_EVENT ctrl"))
		out("UNSUBSCRIBE_EVENT ctrl: ok");
	memset(&sub, 0, sizeof(sub));
	sub.type = V4L2_EVENT_SOURCE_CHANGE;
	if (!ok(fd, VIDIOC_SUBSCRIBE_EVENT, &sub,
		"SUBSCRIBE_EVENT source change"))
		out("SUBSCRIBE_EVENT source change: ok");
	if (!ok(fd, VIDIOC_UNSUBSCRIBE_EVENT, &sub,
		"UNSUBSCRIBE_EVENT source change"))
		out("UNSUBSCRIBE_EVENT source change: ok");
	fails(fd, VIDIOC_SUBSCRIBE_EVENT, bad_ptr,
	      "SUBSCRIBE_EVENT bad pointer", EFAULT);
}

static void print_buf(const char *step, const struct v4l2_buffer *b)
{
	out("%s: index=%u type=%u memory=%u flags=%#x field=%u bytesused=%u length=%u",
	    step, b->index, b->type, b->memory,
	    b->flags & ~V4L2_BUF_FLAG_ERROR, b->field, b->bytesused,
	    b->length);
}

static void buf_init(struct v4l2_buffer *b, unsigned int index)
{
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	b->index = index;
}

static int reqbufs(int fd, unsigned int count, const char *step)
{
	struct v4l2_requestbuffers rb;

	memset(&rb, 0, sizeof(rb));
	rb.count = count;
	rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb.memory = V4L2_MEMORY_MMAP;
	if (ok(fd, VIDIOC_REQBUFS, &rb, step))
		return -1;
	out("%s: count=%u capabilities=%#x", step, rb.count,
	    rb.capabilities);
	return rb.count;
}

static void dqbuf_frames(int fd, unsigned int nbufs)
{
	long long last_ts = 0, ts, now;
	unsigned int i, last_seq = 0;
	struct v4l2_buffer b;
	char step[32];

	for (i = 0; i < NFRAMES; i++) {
		snprintf(step, sizeof(step), "DQBUF %u", i);
		buf_init(&b, 0);
		if (ok(fd, VIDIOC_DQBUF, &b, step))
			return;
		now = now_ns();
		print_buf(step, &b);
		ts = b.timestamp.tv_sec * 1000000000ll +
		     b.timestamp.tv_usec * 1000ll;
		if (!ts || ts <= last_ts || ts > now ||
		    ts < now - 60 * 1000000000ll)
			unexpected("%s: timestamp %lld, previous %lld, now %lld",
				   step, ts, last_ts, now);
		if (i && b.sequence <= last_seq)
			unexpected("%s: sequence %u after %u", step,
				   b.sequence, last_seq);
		if (b.index >= nbufs)
			unexpected("%s: index %u of %u", step, b.index, nbufs);
		last_ts = ts;
		last_seq = b.sequence;
		snprintf(step, sizeof(step), "QBUF again %u", i);
		if (ok(fd, VIDIOC_QBUF, &b, step))
			return;
	}
}

static void v4l2_stream(int fd, int vfd)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	void *map[NBUFS_MAX] = { NULL };
	size_t len[NBUFS_MAX] = { 0 };
	struct vcap_info in;
	struct v4l2_buffer b;
	char step[32];
	int n, i;

	n = reqbufs(fd, NBUFS_ASKED, "REQBUFS 4");
	if (n <= 0 || n > NBUFS_MAX) {
		unexpected("REQBUFS 4: %d buffers", n);
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(step, sizeof(step), "QUERYBUF %d", i);
		buf_init(&b, i);
		if (ok(fd, VIDIOC_QUERYBUF, &b, step))
			return;
		print_buf(step, &b);
		map[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd,
			      b.m.offset);
		if (map[i] == MAP_FAILED) {
			unexpected("%s: mmap of its offset: %s", step,
				   errname(errno));
			map[i] = NULL;
			return;
		}
		len[i] = b.length;
		/* A fault here would kill the program: the page is there. */
		(void)((volatile unsigned char *)map[i])[b.length - 1];
		out("%s: its offset maps and reads", step);
	}
	buf_init(&b, n);
	fails(fd, VIDIOC_QUERYBUF, &b, "QUERYBUF past the last", EINVAL);
	for (i = 0; i < n; i++) {
		snprintf(step, sizeof(step), "QBUF %d", i);
		buf_init(&b, i);
		if (ok(fd, VIDIOC_QBUF, &b, step))
			return;
		print_buf(step, &b);
	}
	if (ok(fd, VIDIOC_STREAMON, &type, "STREAMON"))
		return;
	out("STREAMON: ok");

	vram_query(vfd, "vram QUERY streaming", &in);
	vram_wait_frame(vfd, &in);

	dqbuf_frames(fd, n);
	fails(fd, VIDIOC_DQBUF, bad_ptr, "DQBUF bad pointer", EFAULT);

	if (!ok(fd, VIDIOC_STREAMOFF, &type, "STREAMOFF"))
		out("STREAMOFF: ok");
	buf_init(&b, 0);
	if (!ok(fd, VIDIOC_QUERYBUF, &b, "QUERYBUF 0 after STREAMOFF"))
		print_buf("QUERYBUF 0 after STREAMOFF", &b);
	for (i = 0; i < n; i++)
		if (map[i])
			munmap(map[i], len[i]);
	reqbufs(fd, 0, "REQBUFS 0");
	vram_wait_none(vfd, "vram WAIT_FRAME after STREAMOFF");
}

/*
 * USERPTR streaming: the compat path widens m.userptr, and DQBUF must hand
 * back the very pointer that was queued.
 */
static void v4l2_userptr(int fd, const struct v4l2_format *cur)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	size_t size = (cur->fmt.pix.sizeimage + PAGE - 1) & ~(size_t)(PAGE - 1);
	void *mem[NBUFS_MAX] = { NULL };
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	char step[40];
	unsigned int i, n;

	memset(&rb, 0, sizeof(rb));
	rb.count = 2;
	rb.type = type;
	rb.memory = V4L2_MEMORY_USERPTR;
	if (ok(fd, VIDIOC_REQBUFS, &rb, "REQBUFS USERPTR 2"))
		return;
	out("REQBUFS USERPTR 2: count=%u capabilities=%#x", rb.count,
	    rb.capabilities);
	n = rb.count;
	if (!n || n > NBUFS_MAX) {
		unexpected("REQBUFS USERPTR 2: %u buffers", n);
		goto out;
	}

	buf_init(&b, 0);
	b.memory = V4L2_MEMORY_USERPTR;
	b.m.userptr = (unsigned long)bad_ptr;
	b.length = size;
	fails(fd, VIDIOC_QBUF, &b, "QBUF USERPTR bad pointer", EFAULT);

	for (i = 0; i < n; i++) {
		mem[i] = aligned_alloc(PAGE, size);
		if (!mem[i])
			die("aligned_alloc");
		memset(mem[i], 0, size);
		snprintf(step, sizeof(step), "QBUF USERPTR %u", i);
		buf_init(&b, i);
		b.memory = V4L2_MEMORY_USERPTR;
		b.m.userptr = (unsigned long)mem[i];
		b.length = size;
		if (ok(fd, VIDIOC_QBUF, &b, step))
			goto out;
		print_buf(step, &b);
	}
	if (ok(fd, VIDIOC_STREAMON, &type, "STREAMON USERPTR"))
		goto out;
	out("STREAMON USERPTR: ok");
	for (i = 0; i < 4; i++) {
		snprintf(step, sizeof(step), "DQBUF USERPTR %u", i);
		buf_init(&b, 0);
		b.memory = V4L2_MEMORY_USERPTR;
		if (ok(fd, VIDIOC_DQBUF, &b, step))
			break;
		print_buf(step, &b);
		if (b.index >= n || b.m.userptr != (unsigned long)mem[b.index])
			unexpected("%s: index %u userptr %#lx", step, b.index,
				   b.m.userptr);
		else if (!b.timestamp.tv_sec && !b.timestamp.tv_usec)
			unexpected("%s: no timestamp", step);
		else if (((unsigned char *)mem[b.index])[0] == 0 &&
			 !memcmp(mem[b.index], (char *)mem[b.index] + 1,
				 b.bytesused - 1))
			unexpected("%s: the frame was not written", step);
		if (ok(fd, VIDIOC_QBUF, &b, "QBUF USERPTR again"))
			break;
	}
	if (!ok(fd, VIDIOC_STREAMOFF, &type, "STREAMOFF USERPTR"))
		out("STREAMOFF USERPTR: ok");
out:
	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_USERPTR;
	if (!ok(fd, VIDIOC_REQBUFS, &rb, "REQBUFS USERPTR 0"))
		out("REQBUFS USERPTR 0: count=%u", rb.count);
	for (i = 0; i < NBUFS_MAX; i++)
		free(mem[i]);
}

static void v4l2_create_expbuf(int fd, const struct v4l2_format *cur)
{
	struct v4l2_exportbuffer e;
	struct v4l2_create_buffers cb;
	struct v4l2_buffer b;
	off_t size;

	memset(&cb, 0, sizeof(cb));
	cb.count = 2;
	cb.memory = V4L2_MEMORY_MMAP;
	cb.format = *cur;
	if (ok(fd, VIDIOC_CREATE_BUFS, &cb, "CREATE_BUFS 2"))
		return;
	out("CREATE_BUFS 2: index=%u count=%u capabilities=%#x", cb.index,
	    cb.count, cb.capabilities);
	print_pix("CREATE_BUFS 2 format", &cb.format);

	memset(&cb, 0, sizeof(cb));
	cb.count = 0;
	cb.memory = V4L2_MEMORY_MMAP;
	cb.format = *cur;
	if (!ok(fd, VIDIOC_CREATE_BUFS, &cb, "CREATE_BUFS 0"))
		out("CREATE_BUFS 0: index=%u count=%u", cb.index, cb.count);

	buf_init(&b, 0);
	if (!ok(fd, VIDIOC_QUERYBUF, &b, "QUERYBUF created 0"))
		print_buf("QUERYBUF created 0", &b);
	buf_init(&b, 1);
	if (!ok(fd, VIDIOC_PREPARE_BUF, &b, "PREPARE_BUF created 1"))
		print_buf("PREPARE_BUF created 1", &b);

	memset(&e, 0, sizeof(e));
	e.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	e.index = 0;
	e.flags = O_RDONLY | O_CLOEXEC;
	if (ok(fd, VIDIOC_EXPBUF, &e, "EXPBUF 0"))
		goto out;
	size = lseek(e.fd, 0, SEEK_END);
	out("EXPBUF 0: fd valid %d, size is the buffer's length %d",
	    fcntl(e.fd, F_GETFD) >= 0, size == (off_t)b.length);
	if (fcntl(e.fd, F_GETFD) < 0 || size != (off_t)b.length)
		unexpected("EXPBUF 0: fd %d size %lld", e.fd, (long long)size);
	close(e.fd);
	memset(&e, 0, sizeof(e));
	e.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	e.index = 99;
	fails(fd, VIDIOC_EXPBUF, &e, "EXPBUF 99", EINVAL);
out:
	reqbufs(fd, 0, "REQBUFS 0 after CREATE_BUFS");
}

static void v4l2_bad_calls(int fd)
{
	fails(fd, _IOWR('V', 200, int), &failed, "video unknown ioctl",
	      ENOTTY);
	fails(fd, VIDIOC_QUERYCAP, NULL, "QUERYCAP NULL", EFAULT);
	fails(fd, VIDIOC_QUERYCAP, bad_ptr, "QUERYCAP bad pointer", EFAULT);
	fails(fd, VIDIOC_G_FMT, bad_ptr, "G_FMT bad pointer", EFAULT);
	fails(fd, VIDIOC_ENUM_FMT, bad_ptr, "ENUM_FMT bad pointer", EFAULT);
	fails(fd, VIDIOC_QUERYBUF, bad_ptr, "QUERYBUF bad pointer", EFAULT);
	fails(fd, VIDIOC_REQBUFS, bad_ptr, "REQBUFS bad pointer", EFAULT);
}

int main(void)
{
	struct v4l2_format cur;
	struct vcap_info in;
	int vfd, fd;

	fprintf(stderr, "compat-ioctls: %zu-bit program\n",
		sizeof(long) * 8);
	/* A call that blocks for good ends the run, by SIGALRM. */
	alarm(120);
	bad_ptr = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	if (bad_ptr == MAP_FAILED)
		die("mmap");

	vfd = open_vram();
	vram_query(vfd, "vram QUERY", &in);
	vram_control_page(vfd, &in);
	vram_bad_calls(vfd);
	vram_wait_none(vfd, "vram WAIT_FRAME stopped");

	fd = open_video();
	v4l2_caps(fd);
	v4l2_formats(fd);
	v4l2_set_format(fd, &cur);
	v4l2_parm(fd);
	v4l2_inputs(fd);
	v4l2_dv(fd);
	v4l2_ctrl(fd);
	v4l2_ext_ctrls(fd);
	v4l2_events(fd);
	v4l2_stream(fd, vfd);
	v4l2_userptr(fd, &cur);
	v4l2_create_expbuf(fd, &cur);
	v4l2_bad_calls(fd);

	close(fd);
	close(vfd);
	out("result: %s", failed ? "FAIL" : "PASS");
	return failed;
}
