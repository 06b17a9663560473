// SPDX-License-Identifier: GPL-2.0
/*
 * vcap V4L2 node: /dev/videoN, its formats (exactly the board's published
 * modes; on the HDMI input, those at the timings, at the timings' size or,
 * with a scaler, any size up to it), its videobuf2 queue over the
 * driver's own memory ops, frame intervals and events.
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <media/v4l2-event.h>
#include <media/v4l2-fh.h>
#include <media/v4l2-ioctl.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-board.h"
#include "vcap-deliver.h"
#include "vcap-dv.h"
#include "vcap-inject.h"
#include "vcap-format.h"
#include "vcap-mem.h"

#define VCAP_MIN_BUFFERS	6

static struct vcap_buffer *to_vcap_buffer(struct vb2_buffer *vb)
{
	return container_of(to_vb2_v4l2_buffer(vb), struct vcap_buffer, vb);
}

/* The mode of fourcc nearest to width x height; the first format if none. */
static const struct vcap_mode *vcap_nearest_mode(struct vcap_dev *vdev,
						 u32 fourcc, u32 width,
						 u32 height)
{
	const struct vcap_mode *best = NULL;
	u64 best_d = U64_MAX;
	unsigned int i;

	if (!vcap_find_mode(vdev, fourcc, vdev->modes[0].width,
			    vdev->modes[0].height)) {
		for (i = 0; i < vdev->num_modes; i++)
			if (vdev->modes[i].fourcc == fourcc)
				break;
		if (i == vdev->num_modes)
			fourcc = vdev->fourccs[0];
	}
	for (i = 0; i < vdev->num_modes; i++) {
		const struct vcap_mode *m = &vdev->modes[i];
		u64 d;

		if (m->fourcc != fourcc)
			continue;
		d = abs((s64)m->width - width) + abs((s64)m->height - height);
		if (d < best_d) {
			best = m;
			best_d = d;
		}
	}
	return best;
}

static void vcap_size_to_pix(u32 fourcc, u32 width, u32 height,
			     struct v4l2_pix_format *pix)
{
	const struct vcap_format_info *fi = vcap_format_find(fourcc);

	memset(pix, 0, sizeof(*pix));
	pix->pixelformat = fourcc;
	pix->width = width;
	pix->height = height;
	pix->field = V4L2_FIELD_NONE;
	pix->bytesperline = vcap_format_min_bpl(fi, width);
	pix->sizeimage = vcap_format_sizeimage(fi, pix->bytesperline, height);
	pix->colorspace = fi->is_rgb ? V4L2_COLORSPACE_SRGB :
				       V4L2_COLORSPACE_REC709;
	pix->xfer_func = V4L2_XFER_FUNC_DEFAULT;
	pix->ycbcr_enc = V4L2_YCBCR_ENC_DEFAULT;
	pix->quantization = V4L2_QUANTIZATION_DEFAULT;
}

static void vcap_mode_to_pix(const struct vcap_mode *m,
			     struct v4l2_pix_format *pix)
{
	vcap_size_to_pix(m->fourcc, m->width, m->height, pix);
}

/* The interval the mode offers that is nearest to want. */
static struct vcap_interval vcap_nearest_interval(struct vcap_dev *vdev,
						  const struct vcap_mode *m,
						  struct vcap_interval want)
{
	struct vcap_interval best = {};
	u64 best_d = U64_MAX;
	unsigned int i;

	if (!want.numerator || !want.denominator)
		want = (struct vcap_interval){ 1, 30 };
	for (i = 0; i < vdev->num_intervals; i++) {
		const struct vcap_interval *iv = &vdev->intervals[i];
		u64 a, b, d;

		if (!(m->interval_mask & BIT(i)))
			continue;
		/* Compare num/den in microseconds. */
		a = div_u64((u64)iv->numerator * USEC_PER_SEC, iv->denominator);
		b = div_u64((u64)want.numerator * USEC_PER_SEC,
			    want.denominator);
		d = a > b ? a - b : b - a;
		if (d < best_d) {
			best = *iv;
			best_d = d;
		}
	}
	return best;
}

void vcap_v4l2_set_fmt(struct vcap_dev *vdev, u32 fourcc, u32 width,
		       u32 height, struct vcap_interval interval)
{
	vcap_size_to_pix(fourcc, width, height, &vdev->fmt);
	vdev->interval = interval;
}

/* Queue */

static int vcap_queue_setup(struct vb2_queue *q, unsigned int *nbuffers,
			    unsigned int *nplanes, unsigned int sizes[],
			    struct device *alloc_devs[])
{
	struct vcap_dev *vdev = vb2_get_drv_priv(q);
	unsigned int size = vdev->fmt.sizeimage;

	if (*nplanes)
		return sizes[0] < size ? -EINVAL : 0;
	/*
	 * REQBUFS: enough buffers that an application can hold a few frames
	 * while the board keeps producing, without sequence gaps.
	 */
	*nbuffers = max_t(unsigned int, *nbuffers, VCAP_MIN_BUFFERS);
	*nplanes = 1;
	sizes[0] = size;
	return 0;
}

static int vcap_buf_prepare(struct vb2_buffer *vb)
{
	struct vcap_dev *vdev = vb2_get_drv_priv(vb->vb2_queue);

	if (vb2_plane_size(vb, 0) < vdev->fmt.sizeimage)
		return -EINVAL;
	vb2_set_plane_payload(vb, 0, vdev->fmt.sizeimage);
	return 0;
}

/*
 * Once per memory videobuf2 gives a buffer (allocation, or a USERPTR or
 * DMABUF plane that changed), and before it takes the memory back: what
 * the transfer mode keeps per buffer.
 */
static int vcap_buf_init(struct vb2_buffer *vb)
{
	struct vcap_dev *vdev = vb2_get_drv_priv(vb->vb2_queue);

	if (!vdev->xfer->buf_init)
		return 0;
	return vdev->xfer->buf_init(vdev, to_vcap_buffer(vb));
}

static void vcap_buf_cleanup(struct vb2_buffer *vb)
{
	struct vcap_dev *vdev = vb2_get_drv_priv(vb->vb2_queue);

	if (vdev->xfer->buf_cleanup)
		vdev->xfer->buf_cleanup(vdev, to_vcap_buffer(vb));
}

static void vcap_buf_queue(struct vb2_buffer *vb)
{
	struct vcap_dev *vdev = vb2_get_drv_priv(vb->vb2_queue);

	vdev->xfer->buf_queue(vdev, to_vcap_buffer(vb));
}

void vcap_v4l2_return_buffers(struct vcap_dev *vdev,
			      enum vb2_buffer_state state)
{
	struct vcap_buffer *buf, *tmp;
	unsigned long flags;
	LIST_HEAD(list);

	/* Filled buffers waiting to complete, then the queued ones. */
	spin_lock_irqsave(&vdev->buf_lock, flags);
	list_splice_init(&vdev->done_list, &list);
	list_splice_tail_init(&vdev->buf_list, &list);
	spin_unlock_irqrestore(&vdev->buf_lock, flags);
	list_for_each_entry_safe(buf, tmp, &list, list) {
		list_del(&buf->list);
		vb2_buffer_done(&buf->vb.vb2_buf, state);
	}
}

static int vcap_start_streaming(struct vb2_queue *q, unsigned int count)
{
	struct vcap_dev *vdev = vb2_get_drv_priv(q);
	int ret;

	ret = vcap_board_start(vdev);
	if (ret)
		vcap_v4l2_return_buffers(vdev, VB2_BUF_STATE_QUEUED);
	return ret;
}

static void vcap_stop_streaming(struct vb2_queue *q)
{
	struct vcap_dev *vdev = vb2_get_drv_priv(q);

	vcap_board_stop(vdev);
	vcap_v4l2_return_buffers(vdev, VB2_BUF_STATE_ERROR);
}

static const struct vb2_ops vcap_vb2_ops = {
	.queue_setup = vcap_queue_setup,
	.buf_init = vcap_buf_init,
	.buf_cleanup = vcap_buf_cleanup,
	.buf_prepare = vcap_buf_prepare,
	.buf_queue = vcap_buf_queue,
	.start_streaming = vcap_start_streaming,
	.stop_streaming = vcap_stop_streaming,
	VCAP_VB2_WAIT_OPS
};

/* Events */

/*
 * The board changed its mode or its signal by itself.  A change of
 * resolution errors the queue, and the format follows the board's new
 * mode when it is one the board published (now), so that G_FMT after the
 * event says what to allocate for; the caller holds the queue lock.
 */
void vcap_v4l2_source_change(struct vcap_dev *vdev, bool resolution,
			     const struct vcap_mode *now)
{
	static const struct v4l2_event ev = {
		.type = V4L2_EVENT_SOURCE_CHANGE,
		.u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION,
	};

	lockdep_assert_held(&vdev->lock);
	v4l2_event_queue(&vdev->vdev, &ev);
	if (!resolution)
		return;
	if (vb2_is_streaming(&vdev->queue))
		vb2_queue_error(&vdev->queue);
	if (now) {
		vcap_mode_to_pix(now, &vdev->fmt);
		vdev->interval = vcap_nearest_interval(vdev, now,
						       vdev->interval);
	}
}

static int vcap_subscribe_event(struct v4l2_fh *fh,
				const struct v4l2_event_subscription *sub)
{
	switch (sub->type) {
	case V4L2_EVENT_SOURCE_CHANGE:
		return v4l2_src_change_event_subscribe(fh, sub);
	default:
		return v4l2_ctrl_subscribe_event(fh, sub);
	}
}

/* ioctls */

static int vcap_querycap(struct file *file, void *priv,
			 struct v4l2_capability *cap)
{
	struct vcap_dev *vdev = video_drvdata(file);

	strscpy(cap->driver, VCAP_DRV_NAME, sizeof(cap->driver));
	strscpy(cap->card, vdev->name[0] ? vdev->name : "vcap",
		sizeof(cap->card));
	snprintf(cap->bus_info, sizeof(cap->bus_info), "%s:%s",
		 vdev->soft ? "platform" : "PCI", dev_name(vdev->parent));
	return 0;
}

static int vcap_enum_fmt(struct file *file, void *priv,
			 struct v4l2_fmtdesc *f)
{
	struct vcap_dev *vdev = video_drvdata(file);
	unsigned int i, n = 0;

	if (!vcap_dv_is_hdmi(vdev)) {
		if (f->index >= vdev->num_fourccs)
			return -EINVAL;
		f->pixelformat = vdev->fourccs[f->index];
		return 0;
	}
	/* The receiver's formats: those the board has at the timings. */
	for (i = 0; i < vdev->num_fourccs; i++) {
		if (vcap_dv_mode(vdev, vdev->fourccs[i])->fourcc !=
		    vdev->fourccs[i])
			continue;
		if (n++ == f->index) {
			f->pixelformat = vdev->fourccs[i];
			return 0;
		}
	}
	return -EINVAL;
}

static int vcap_enum_framesizes(struct file *file, void *priv,
				struct v4l2_frmsizeenum *fs)
{
	struct vcap_dev *vdev = video_drvdata(file);
	const struct vcap_mode *m;
	unsigned int i, n = 0;

	if (vcap_dv_is_hdmi(vdev)) {
		m = vcap_dv_mode(vdev, fs->pixel_format);
		if (fs->index || m->fourcc != fs->pixel_format)
			return -EINVAL;
		if (!vdev->scaler) {
			/* One size: the timings'. */
			fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
			fs->discrete.width = m->width;
			fs->discrete.height = m->height;
			return 0;
		}
		/* The scaler's range, up to the timings' size. */
		fs->type = V4L2_FRMSIZE_TYPE_STEPWISE;
		vcap_dv_scale_steps(m->fourcc, &fs->stepwise.step_width,
				    &fs->stepwise.step_height);
		fs->stepwise.min_width = VCAP_SCALE_MIN_WIDTH;
		fs->stepwise.max_width = m->width;
		fs->stepwise.min_height = VCAP_SCALE_MIN_HEIGHT;
		fs->stepwise.max_height = m->height;
		return 0;
	}
	for (i = 0; i < vdev->num_modes; i++) {
		if (vdev->modes[i].fourcc != fs->pixel_format)
			continue;
		if (n++ == fs->index) {
			fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
			fs->discrete.width = vdev->modes[i].width;
			fs->discrete.height = vdev->modes[i].height;
			return 0;
		}
	}
	return -EINVAL;
}

static int vcap_enum_frameintervals(struct file *file, void *priv,
				    struct v4l2_frmivalenum *fi)
{
	struct vcap_dev *vdev = video_drvdata(file);
	const struct vcap_mode *m;
	unsigned int i, n = 0;

	if (vcap_dv_is_hdmi(vdev)) {
		/* One interval, the timings', at every size the input gives. */
		struct vcap_interval iv = vcap_dv_interval(vdev);

		m = vcap_dv_mode(vdev, fi->pixel_format);
		if (fi->index || m->fourcc != fi->pixel_format ||
		    !vcap_dv_size_ok(vdev, m, fi->width, fi->height))
			return -EINVAL;
		fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
		fi->discrete.numerator = iv.numerator;
		fi->discrete.denominator = iv.denominator;
		return 0;
	}
	m = vcap_find_mode(vdev, fi->pixel_format, fi->width, fi->height);
	if (!m)
		return -EINVAL;
	for (i = 0; i < vdev->num_intervals; i++) {
		if (!(m->interval_mask & BIT(i)))
			continue;
		if (n++ == fi->index) {
			fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
			fi->discrete.numerator = vdev->intervals[i].numerator;
			fi->discrete.denominator =
				vdev->intervals[i].denominator;
			return 0;
		}
	}
	return -EINVAL;
}

static int vcap_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vcap_dev *vdev = video_drvdata(file);

	f->fmt.pix = vdev->fmt;
	return 0;
}

static int vcap_try_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vcap_dev *vdev = video_drvdata(file);
	const struct vcap_mode *m;
	u32 w = f->fmt.pix.width, h = f->fmt.pix.height;

	if (!vcap_dv_is_hdmi(vdev)) {
		m = vcap_nearest_mode(vdev, f->fmt.pix.pixelformat, w, h);
		vcap_mode_to_pix(m, &f->fmt.pix);
		return 0;
	}
	/*
	 * On the HDMI input the timings bound the size: they are the size
	 * itself without a scaler, its largest with one.
	 */
	m = vcap_dv_mode(vdev, f->fmt.pix.pixelformat);
	vcap_dv_fit(vdev, m, &w, &h);
	vcap_size_to_pix(m->fourcc, w, h, &f->fmt.pix);
	return 0;
}

static int vcap_s_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vcap_dev *vdev = video_drvdata(file);
	const struct vcap_mode *m;

	if (vb2_is_busy(&vdev->queue))
		return -EBUSY;
	vcap_try_fmt(file, priv, f);
	vdev->fmt = f->fmt.pix;
	if (vcap_dv_is_hdmi(vdev)) {
		vcap_dv_choose_size(vdev, vdev->fmt.width, vdev->fmt.height);
		vdev->interval = vcap_dv_interval(vdev);
		return 0;
	}
	m = vcap_find_mode(vdev, vdev->fmt.pixelformat, vdev->fmt.width,
			   vdev->fmt.height);
	vdev->interval = vcap_nearest_interval(vdev, m, vdev->interval);
	return 0;
}

static int vcap_g_parm(struct file *file, void *priv,
		       struct v4l2_streamparm *parm)
{
	struct vcap_dev *vdev = video_drvdata(file);

	if (parm->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL;
	memset(&parm->parm.capture, 0, sizeof(parm->parm.capture));
	parm->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
	parm->parm.capture.timeperframe.numerator = vdev->interval.numerator;
	parm->parm.capture.timeperframe.denominator =
		vdev->interval.denominator;
	parm->parm.capture.readbuffers = 2;
	return 0;
}

static int vcap_s_parm(struct file *file, void *priv,
		       struct v4l2_streamparm *parm)
{
	struct vcap_dev *vdev = video_drvdata(file);
	struct v4l2_fract *tpf = &parm->parm.capture.timeperframe;
	struct vcap_interval want = { tpf->numerator, tpf->denominator };
	const struct vcap_mode *m;

	if (parm->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -EINVAL;
	/* The source sets the HDMI input's rate: say what it is. */
	if (vcap_dv_is_hdmi(vdev))
		return vcap_g_parm(file, priv, parm);
	if (vb2_is_streaming(&vdev->queue))
		return -EBUSY;
	m = vcap_find_mode(vdev, vdev->fmt.pixelformat, vdev->fmt.width,
			   vdev->fmt.height);
	if (!want.numerator || !want.denominator)
		want = vdev->interval;
	vdev->interval = vcap_nearest_interval(vdev, m, want);
	return vcap_g_parm(file, priv, parm);
}

/*
 * A DQBUF blocked while the board goes away (unbind, unplug) wakes when
 * the queue is released, and videobuf2 says EINVAL: streaming stopped.
 * Say ENODEV, as every later call on the node does.
 */
static int vcap_dqbuf(struct file *file, void *priv, struct v4l2_buffer *b)
{
	int ret = vb2_ioctl_dqbuf(file, priv, b);

	if (ret && !video_is_registered(video_devdata(file)))
		return -ENODEV;
	return ret;
}

static const struct v4l2_ioctl_ops vcap_ioctl_ops = {
	.vidioc_querycap = vcap_querycap,
	.vidioc_enum_fmt_vid_cap = vcap_enum_fmt,
	.vidioc_enum_framesizes = vcap_enum_framesizes,
	.vidioc_enum_frameintervals = vcap_enum_frameintervals,
	.vidioc_g_fmt_vid_cap = vcap_g_fmt,
	.vidioc_try_fmt_vid_cap = vcap_try_fmt,
	.vidioc_s_fmt_vid_cap = vcap_s_fmt,
	.vidioc_g_parm = vcap_g_parm,
	.vidioc_s_parm = vcap_s_parm,
	.vidioc_enum_input = vcap_enum_input,
	.vidioc_g_input = vcap_g_input,
	.vidioc_s_input = vcap_s_input,
	.vidioc_reqbufs = vb2_ioctl_reqbufs,
	.vidioc_create_bufs = vb2_ioctl_create_bufs,
	.vidioc_prepare_buf = vb2_ioctl_prepare_buf,
	.vidioc_querybuf = vb2_ioctl_querybuf,
	.vidioc_qbuf = vb2_ioctl_qbuf,
	.vidioc_dqbuf = vcap_dqbuf,
	.vidioc_expbuf = vb2_ioctl_expbuf,
	.vidioc_streamon = vb2_ioctl_streamon,
	.vidioc_streamoff = vb2_ioctl_streamoff,
	.vidioc_s_dv_timings = vcap_s_dv_timings,
	.vidioc_g_dv_timings = vcap_g_dv_timings,
	.vidioc_query_dv_timings = vcap_query_dv_timings,
	.vidioc_enum_dv_timings = vcap_enum_dv_timings,
	.vidioc_dv_timings_cap = vcap_dv_timings_cap,
	.vidioc_g_edid = vcap_g_edid,
	.vidioc_s_edid = vcap_s_edid,
	.vidioc_log_status = vcap_log_status,
	.vidioc_subscribe_event = vcap_subscribe_event,
	.vidioc_unsubscribe_event = v4l2_event_unsubscribe,
};

static const struct v4l2_file_operations vcap_v4l2_fops = {
	.owner = THIS_MODULE,
	.open = v4l2_fh_open,
	.release = vb2_fop_release,
	.read = vb2_fop_read,
	.poll = vb2_fop_poll,
	.unlocked_ioctl = video_ioctl2,
	.mmap = vcap_mem_fop_mmap,
};

static void vcap_v4l2_release(struct v4l2_device *v4l2_dev)
{
	struct vcap_dev *vdev = container_of(v4l2_dev, struct vcap_dev,
					     v4l2_dev);

	vcap_ctrls_free(vdev);
	vcap_dv_free(vdev);
	vcap_dev_put(vdev);
}

/* The default mode: 640x480 YUYV at 30 fps where the board offers it. */
static void vcap_default_format(struct vcap_dev *vdev)
{
	const struct vcap_mode *m;

	m = vcap_nearest_mode(vdev, V4L2_PIX_FMT_YUYV, 640, 480);
	vcap_mode_to_pix(m, &vdev->fmt);
	vdev->interval = vcap_nearest_interval(vdev, m,
					       (struct vcap_interval){ 1, 30 });
}

int vcap_v4l2_register(struct vcap_dev *vdev)
{
	struct video_device *vfd = &vdev->vdev;
	struct vb2_queue *q = &vdev->queue;
	int ret;

	snprintf(vdev->v4l2_dev.name, sizeof(vdev->v4l2_dev.name), "vcap-%u",
		 vdev->index);
	ret = v4l2_device_register(vdev->parent, &vdev->v4l2_dev);
	if (ret)
		return ret;
	vcap_dev_get(vdev);
	vdev->v4l2_dev.release = vcap_v4l2_release;

	ret = vcap_dv_init(vdev);
	if (ret)
		goto err;
	ret = vcap_ctrls_init(vdev);
	if (ret)
		goto err;
	vdev->v4l2_dev.ctrl_handler = &vdev->ctrl_hdl;
	vcap_default_format(vdev);

	q->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	q->io_modes = VB2_MMAP | VB2_USERPTR | VB2_DMABUF | VB2_READ;
	q->drv_priv = vdev;
	q->buf_struct_size = sizeof(struct vcap_buffer);
	q->ops = &vcap_vb2_ops;
	q->mem_ops = &vcap_vb2_mem_ops;
	q->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
	q->lock = &vdev->lock;
	/* The board's device: the one its DMA maps buffers for. */
	q->dev = vdev->parent;
	/* A buffer's index is its DMA id: no more than the rings hold. */
	vcap_vb2_set_max_buffers(q, VB2_MAX_FRAME);
	ret = vb2_queue_init(q);
	if (ret)
		goto err;

	strscpy(vfd->name, vdev->v4l2_dev.name, sizeof(vfd->name));
	vfd->fops = &vcap_v4l2_fops;
	vfd->ioctl_ops = &vcap_ioctl_ops;
	vfd->release = video_device_release_empty;
	vfd->v4l2_dev = &vdev->v4l2_dev;
	vfd->queue = q;
	vfd->lock = &vdev->lock;
	vfd->vfl_dir = VFL_DIR_RX;
	vfd->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING |
			   V4L2_CAP_READWRITE;
	video_set_drvdata(vfd, vdev);
	ret = vcap_inject_fail(VCAP_FAIL_REGISTER) ? -ENOMEM :
	      video_register_device(vfd, VFL_TYPE_VIDEO, -1);
	if (ret)
		goto err;
	vdev->v4l2_registered = true;
	v4l2_info(&vdev->v4l2_dev, "capture node %s\n",
		  video_device_node_name(vfd));
	return 0;
err:
	v4l2_device_unregister(&vdev->v4l2_dev);
	v4l2_device_put(&vdev->v4l2_dev);
	return ret;
}

/* Stops a running stream (the board is still there) and drops the node. */
void vcap_v4l2_unregister(struct vcap_dev *vdev)
{
	if (!vdev->v4l2_registered)
		return;
	vdev->v4l2_registered = false;
	vb2_video_unregister_device(&vdev->vdev);
	v4l2_device_unregister(&vdev->v4l2_dev);
	v4l2_device_put(&vdev->v4l2_dev);
}
