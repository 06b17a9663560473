/*
 * vbench vram: frames read through the /dev/vcapN mapping.
 *
 * The board only produces while a mode is set, and a mode is set through
 * V4L2; with -V the program starts a V4L2 stream at the fastest listed rate
 * and never dequeues from it, so the driver copies nothing once its few
 * buffers are full and the board runs at its own pace.  Each frame is
 * waited for with VCAP_IOC_WAIT_FRAME and checked with the slot's sequence
 * lock; with -r its pixels are also read once (what a viewer's upload
 * costs), otherwise nothing is copied or read.  A wake-up returns the
 * newest frame; with -a the frames published since the last one are taken
 * from the ring's other slots too, while they are still there, as a
 * recorder that must not miss one would.  The board's own counter of
 * frames produced gives the rate to compare against.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/videodev2.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/vcap.h>
#include <vcap/board.h>

#include "vbench.h"

static void vb_vram_usage(void)
{
	puts("usage: vbench vram -d /dev/vcapN [-V /dev/videoN -f FOURCC -s WxH]\n"
	     "  -V DEV      start the board through this V4L2 node first\n"
	     "  -r          read every frame's pixels once\n"
	     "  -a          take every frame the ring still holds, not only the newest\n"
	     "  -t SECONDS  measured time (3)\n"
	     "  -w SECONDS  warm-up (0.5)");
}

/* Puts the board in a mode at its fastest rate without consuming frames. */
static int vb_vram_start(const char *dev, uint32_t fourcc, unsigned int w,
			 unsigned int h)
{
	struct v4l2_format fmt;
	struct v4l2_streamparm parm;
	struct v4l2_requestbuffers req;
	int fd, type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		vb_err("%s: %s", dev, strerror(errno));
		return -1;
	}
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fmt.fmt.pix.pixelformat = fourcc;
	fmt.fmt.pix.width = w;
	fmt.fmt.pix.height = h;
	if (vb_xioctl(fd, VIDIOC_S_FMT, &fmt)) {
		vb_err("%s: VIDIOC_S_FMT: %s", dev, strerror(errno));
		goto err;
	}
	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (!vb_fastest_interval(fd, fourcc, w, h,
				 &parm.parm.capture.timeperframe))
		vb_xioctl(fd, VIDIOC_S_PARM, &parm);
	memset(&req, 0, sizeof(req));
	req.count = 3;
	req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	req.memory = V4L2_MEMORY_MMAP;
	if (vb_xioctl(fd, VIDIOC_REQBUFS, &req) || !req.count) {
		vb_err("%s: VIDIOC_REQBUFS: %s", dev, strerror(errno));
		goto err;
	}
	for (i = 0; i < req.count; i++) {
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (vb_xioctl(fd, VIDIOC_QBUF, &b)) {
			vb_err("%s: VIDIOC_QBUF: %s", dev, strerror(errno));
			goto err;
		}
	}
	if (vb_xioctl(fd, VIDIOC_STREAMON, &type)) {
		vb_err("%s: VIDIOC_STREAMON: %s", dev, strerror(errno));
		goto err;
	}
	return fd;
err:
	close(fd);
	return -1;
}

static uint64_t vb_vram_sum(const volatile uint64_t *p, size_t words)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < words; i++)
		s += p[i];
	return s;
}

/*
 * Read slot i between two reads of its lock, its pixels summed once with
 * readpix: 1 if it held frame seq whole throughout, 0 if it was torn,
 * being written or another frame.
 */
static int vb_vram_read(const volatile struct vcap_board_ctrl *ctrl,
			const unsigned char *map, const struct vcap_info *info,
			uint32_t i, uint64_t seq, int readpix,
			volatile uint64_t *sum)
{
	const volatile struct vcap_board_slot *sl = &ctrl->slots[i];
	uint32_t l1, l2;

	l1 = sl->lock;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (readpix)
		*sum += vb_vram_sum((const volatile uint64_t *)
				    (map + info->ring_offset +
				     i * info->slot_stride),
				    info->sizeimage / 8);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	l2 = sl->lock;
	return l1 == l2 && !(l1 & 1) && sl->sequence == seq;
}

/* Take frame seq from whichever slot still holds it: 1 if it was whole. */
static int vb_vram_take(const volatile struct vcap_board_ctrl *ctrl,
			const unsigned char *map, const struct vcap_info *info,
			uint64_t seq, int readpix, volatile uint64_t *sum)
{
	uint32_t i;

	for (i = 0; i < info->num_slots && i < VCAP_MAX_SLOTS; i++)
		if (ctrl->slots[i].sequence == seq)
			return vb_vram_read(ctrl, map, info, i, seq, readpix,
					    sum);
	return 0;
}

int vb_vram_main(int argc, char **argv)
{
	const char *dev = NULL, *vdev = NULL;
	uint32_t fourcc = vb_parse_fourcc("YUYV");
	unsigned int w = 640, h = 480;
	double seconds = 3, warmup = 0.5, t, t0 = 0, t_end, t_last = 0;
	int opt, fd, vfd = -1, readpix = 0, measuring = 0, ret = 1;
	long long frames = 0, missed = 0, torn = 0, flagged = 0, stalls = 0;
	long long from_ring = 0;
	int all = 0;
	uint64_t prod0 = 0, prod1 = 0, last_seq = 0;
	volatile uint64_t sum = 0;
	int have_seq = 0, rdwr = 0;
	struct vcap_info info;
	struct vb_cpu cpu0, cpu1, d;
	const volatile struct vcap_board_ctrl *ctrl;
	const unsigned char *map;

	while ((opt = getopt(argc, argv, "d:V:f:s:rat:w:h")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'V': vdev = optarg; break;
		case 'f': fourcc = vb_parse_fourcc(optarg); break;
		case 's':
			if (vb_parse_size(optarg, &w, &h)) {
				vb_err("vram: bad size '%s'", optarg);
				return 2;
			}
			break;
		case 'r': readpix = 1; break;
		case 'a': all = 1; break;
		case 't': seconds = atof(optarg); break;
		case 'w': warmup = atof(optarg); break;
		case 'h': vb_vram_usage(); return 0;
		default: vb_vram_usage(); return 2;
		}
	}
	if (!dev || !fourcc) {
		vb_err("vram: needs -d /dev/vcapN");
		return 2;
	}
	if (vdev) {
		vfd = vb_vram_start(vdev, fourcc, w, h);
		if (vfd < 0)
			return 1;
	}
	fd = open(dev, O_RDONLY);
	if (fd < 0) {
		vb_err("%s: %s", dev, strerror(errno));
		goto out_v;
	}
	t = vb_now();
	do {
		if (vb_xioctl(fd, VCAP_IOC_QUERY, &info)) {
			vb_err("%s: VCAP_IOC_QUERY: %s", dev, strerror(errno));
			goto out_fd;
		}
		if (info.flags & VCAP_INFO_STREAMING)
			break;
		usleep(50000);
	} while (vb_now() - t < 5);
	if (!(info.flags & VCAP_INFO_STREAMING)) {
		vb_err("%s: the board is not streaming", dev);
		goto out_fd;
	}
	if (info.map_size < sizeof(struct vcap_board_ctrl) ||
	    info.ring_offset + (uint64_t)info.num_slots * info.slot_stride >
	    info.map_size || info.sizeimage > info.slot_stride) {
		vb_err("%s: ring does not fit the mapping", dev);
		goto out_fd;
	}
	map = mmap(NULL, info.map_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED && errno == EINVAL) {
		/*
		 * A read-only mapping of a read-only open must work; where the
		 * driver refuses it, say so and measure through a read-write
		 * open (still mapped PROT_READ).
		 */
		int rw = open(dev, O_RDWR);

		vb_err("%s: read-only mmap refused (EINVAL); mapping through an O_RDWR open",
		       dev);
		if (rw >= 0) {
			close(fd);
			fd = rw;
			rdwr = 1;
			map = mmap(NULL, info.map_size, PROT_READ, MAP_SHARED,
				   fd, 0);
		}
	}
	if (map == MAP_FAILED) {
		vb_err("%s: mmap: %s", dev, strerror(errno));
		goto out_fd;
	}
	ctrl = (const volatile struct vcap_board_ctrl *)map;

	t_end = vb_now() + warmup;
	for (;;) {
		struct vcap_wait wt;
		uint64_t s;
		int whole;

		memset(&wt, 0, sizeof(wt));
		wt.after_seq = have_seq ? last_seq : 0;
		wt.timeout_ms = 2000;
		if (vb_xioctl(fd, VCAP_IOC_WAIT_FRAME, &wt)) {
			if (errno == ETIMEDOUT || errno == EAGAIN) {
				if (++stalls > 2)
					break;
				continue;
			}
			vb_err("%s: VCAP_IOC_WAIT_FRAME: %s", dev,
			       strerror(errno));
			break;
		}
		t = vb_now();
		if (wt.slot >= info.num_slots || wt.slot >= VCAP_MAX_SLOTS) {
			vb_err("%s: slot %u out of range", dev, wt.slot);
			break;
		}
		whole = vb_vram_read(ctrl, map, &info, wt.slot, wt.sequence,
				     readpix, &sum);

		if (!measuring && t >= t_end) {
			measuring = 1;
			t0 = t;
			t_end = t0 + seconds;
			prod0 = ctrl->status.frames_produced;
			vb_cpu_sample(&cpu0);
		} else if (measuring) {
			frames++;
			t_last = t;
			for (s = last_seq + 1; all && have_seq && s < wt.sequence;
			     s++) {
				if (vb_vram_take(ctrl, map, &info, s, readpix,
						 &sum)) {
					frames++;
					from_ring++;
				} else {
					missed++;
				}
			}
			if (!all && have_seq && wt.sequence > last_seq + 1)
				missed += wt.sequence - last_seq - 1;
			if (!whole)
				torn++;
			if (wt.flags)
				flagged++;
		}
		last_seq = wt.sequence;
		have_seq = 1;
		if (measuring && t >= t_end)
			break;
	}
	prod1 = ctrl->status.frames_produced;
	vb_cpu_sample(&cpu1);
	vb_cpu_delta(&cpu0, &cpu1, &d);
	if (!frames) {
		vb_err("%s: no frame measured", dev);
		goto out_map;
	}

	vb_json_begin();
	vb_json_str("tool", "vram");
	vb_json_str("device", dev);
	{
		char s[5];

		vb_json_str("fourcc", vb_fourcc_str(info.fourcc, s));
	}
	vb_json_int("width", info.width);
	vb_json_int("height", info.height);
	vb_json_int("sizeimage", info.sizeimage);
	vb_json_int("read_pixels", readpix);
	vb_json_int("opened_rdwr", rdwr);
	vb_json_num("set_fps", info.interval_num ?
		    (double)info.interval_den / info.interval_num : 0);
	vb_json_int("frames", frames);
	vb_json_num("seconds", t_last - t0);
	vb_json_num("fps", frames / (t_last - t0));
	vb_json_num("produced_fps", (double)(prod1 - prod0) / (t_last - t0));
	vb_json_int("every_frame", all);
	vb_json_int("from_ring", from_ring);
	vb_json_int("missed", missed);
	vb_json_int("torn", torn);
	vb_json_int("flagged", flagged);
	vb_json_num("cpu_ms_per_frame", d.sys_busy / frames * 1e3);
	vb_json_num("proc_cpu_ms_per_frame", d.proc / frames * 1e3);
	vb_json_num("cpu_ms_per_produced",
		    prod1 > prod0 ? d.sys_busy / (prod1 - prod0) * 1e3 : 0);
	/* What the board and driver cost, without this reader's own time. */
	vb_json_num("board_cpu_ms_per_produced",
		    prod1 > prod0 ? (d.sys_busy - d.proc) / (prod1 - prod0) * 1e3 : 0);
	vb_json_end();
	ret = 0;
out_map:
	munmap((void *)map, info.map_size);
out_fd:
	close(fd);
out_v:
	if (vfd >= 0)
		close(vfd);
	return ret;
}
