// SPDX-License-Identifier: GPL-2.0
/*
 * vcap inputs: the board's HDMI receiver through the V4L2 DV timings API
 * (the timings offered and chosen, the receiver's measurement, the input
 * status and the link's changes), and the test pattern generator, whose
 * mode the application chooses freely.
 *
 * The timings offered are those of the board's timing table that the
 * board captures: a mode at their size, at their frame rate.  What the
 * receiver measured is read from the board, checked, and matched against
 * them; it is never taken as one of them on the board's word.
 *
 * A board with a scaler (VCAP_CAP_SCALER) gives the HDMI input any
 * picture size from VCAP_SCALE_MIN_WIDTH x VCAP_SCALE_MIN_HEIGHT up to the
 * timings' own: S_FMT chooses one, and the board scales the source into
 * it.  The timings stay the source's.  A size chosen is kept across new
 * timings, bounded by each; S_FMT with the timings' size goes back to
 * following them.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/v4l2-dv-timings.h>
#include <media/v4l2-common.h>
#include <media/v4l2-dv-timings.h>
#include <media/v4l2-event.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-board.h"
#include "vcap-deliver.h"
#include "vcap-dv.h"
#include "vcap-format.h"
#include "vcap-timings.h"

static const struct v4l2_dv_timings_cap vcap_dv_cap = {
	.type = V4L2_DV_BT_656_1120,
	V4L2_INIT_BT_TIMINGS(640, 3840, 480, 2160, 25000000, 600000000,
			     V4L2_DV_BT_STD_CEA861 | V4L2_DV_BT_STD_DMT,
			     V4L2_DV_BT_CAP_PROGRESSIVE)
};

/* What the receiver says, as read from the board. */
struct vcap_link {
	u32 state;			/* VCAP_LINK_* */
	u32 flags;
	bool timing_ok;			/* timing is checked and usable */
	struct vcap_timing timing;
};

static const char * const vcap_link_names[] = {
	[VCAP_LINK_NO_SIGNAL] = "no signal",
	[VCAP_LINK_UNSTABLE] = "unstable",
	[VCAP_LINK_LOCKED] = "locked",
	[VCAP_LINK_OUT_OF_RANGE] = "out of range",
};

bool vcap_dv_is_hdmi(struct vcap_dev *vdev)
{
	return vdev->hdmi && vdev->input == VCAP_V4L2_INPUT_HDMI;
}

u32 vcap_dv_board_input(struct vcap_dev *vdev)
{
	return vcap_dv_is_hdmi(vdev) ? VCAP_INPUT_HDMI : VCAP_INPUT_TPG;
}

static void vcap_dv_to_timing(const struct v4l2_dv_timings *dv,
			      struct vcap_timing *t)
{
	const struct v4l2_bt_timings *bt = &dv->bt;

	memset(t, 0, sizeof(*t));
	t->width = bt->width;
	t->height = bt->height;
	t->pixelclock = bt->pixelclock;
	t->hfrontporch = bt->hfrontporch;
	t->hsync = bt->hsync;
	t->hbackporch = bt->hbackporch;
	t->vfrontporch = bt->vfrontporch;
	t->vsync = bt->vsync;
	t->vbackporch = bt->vbackporch;
	t->polarities = bt->polarities;
	t->interlaced = bt->interlaced;
}

/* A table timing as V4L2 says it: the kernel's own entry where it has one. */
static void vcap_dv_from_def(const struct vcap_timing_def *d,
			     struct v4l2_dv_timings *dv)
{
	struct v4l2_bt_timings *bt = &dv->bt;
	unsigned int i;

	memset(dv, 0, sizeof(*dv));
	dv->type = V4L2_DV_BT_656_1120;
	bt->width = d->t.width;
	bt->height = d->t.height;
	bt->pixelclock = d->t.pixelclock;
	bt->hfrontporch = d->t.hfrontporch;
	bt->hsync = d->t.hsync;
	bt->hbackporch = d->t.hbackporch;
	bt->vfrontporch = d->t.vfrontporch;
	bt->vsync = d->t.vsync;
	bt->vbackporch = d->t.vbackporch;
	bt->polarities = d->t.polarities;
	bt->standards = d->cea861 ? V4L2_DV_BT_STD_CEA861 : V4L2_DV_BT_STD_DMT;
	for (i = 0; v4l2_dv_timings_presets[i].bt.width; i++) {
		if (v4l2_match_dv_timings(dv, &v4l2_dv_timings_presets[i], 0,
					  false)) {
			*dv = v4l2_dv_timings_presets[i];
			return;
		}
	}
}

/* Index into vdev->intervals of the board's interval for t, or -1. */
static int vcap_dv_interval_index(struct vcap_dev *vdev,
				  const struct vcap_timing *t)
{
	unsigned int i;

	for (i = 0; i < vdev->num_intervals; i++)
		if (vcap_timing_rate_is(t, vdev->intervals[i].numerator,
					vdev->intervals[i].denominator))
			return i;
	return -1;
}

/* The board's mode of fourcc (0: any) at t's size and rate, or NULL. */
static const struct vcap_mode *vcap_dv_find_mode(struct vcap_dev *vdev,
						 const struct vcap_timing *t,
						 u32 fourcc)
{
	int iv = vcap_dv_interval_index(vdev, t);
	unsigned int i;

	if (iv < 0)
		return NULL;
	for (i = 0; i < vdev->num_modes; i++) {
		const struct vcap_mode *m = &vdev->modes[i];

		if ((!fourcc || m->fourcc == fourcc) && m->width == t->width &&
		    m->height == t->height && (m->interval_mask & BIT(iv)))
			return m;
	}
	return NULL;
}

const struct vcap_mode *vcap_dv_mode(struct vcap_dev *vdev, u32 fourcc)
{
	const struct vcap_mode *m;
	struct vcap_timing t;

	vcap_dv_to_timing(&vdev->dv_timings, &t);
	m = vcap_dv_find_mode(vdev, &t, fourcc);
	return m ? m : vcap_dv_find_mode(vdev, &t, 0);
}

struct vcap_interval vcap_dv_interval(struct vcap_dev *vdev)
{
	struct vcap_timing t;
	int i;

	vcap_dv_to_timing(&vdev->dv_timings, &t);
	i = vcap_dv_interval_index(vdev, &t);
	return i < 0 ? (struct vcap_interval){ 1, 30 } : vdev->intervals[i];
}

void vcap_dv_source_size(struct vcap_dev *vdev, u32 *width, u32 *height)
{
	*width = vdev->dv_timings.bt.width;
	*height = vdev->dv_timings.bt.height;
}

/* The scaler's steps in fourcc: the format's subsampling. */
void vcap_dv_scale_steps(u32 fourcc, u32 *hstep, u32 *vstep)
{
	const struct vcap_format_info *fi = vcap_format_find(fourcc);

	*hstep = fi ? fi->hsub : 2;
	*vstep = fi ? fi->vsub : 2;
}

/*
 * Bound a picture size to what the receiver gives in the format of m, its
 * mode at the timings: the timings' size without a scaler; with one, the
 * scaler's range, in its steps.
 */
void vcap_dv_fit(struct vcap_dev *vdev, const struct vcap_mode *m,
		 u32 *width, u32 *height)
{
	u32 hstep, vstep;

	if (!vdev->scaler) {
		*width = m->width;
		*height = m->height;
		return;
	}
	vcap_dv_scale_steps(m->fourcc, &hstep, &vstep);
	v4l_bound_align_image(width, VCAP_SCALE_MIN_WIDTH, m->width,
			      ilog2(hstep), height, VCAP_SCALE_MIN_HEIGHT,
			      m->height, ilog2(vstep), 0);
}

bool vcap_dv_size_ok(struct vcap_dev *vdev, const struct vcap_mode *m,
		     u32 width, u32 height)
{
	u32 w = width, h = height;

	vcap_dv_fit(vdev, m, &w, &h);
	return w == width && h == height;
}

/*
 * The picture follows the timings, or the size chosen bounded by them;
 * the pixel format stays if it can.
 */
static void vcap_dv_apply(struct vcap_dev *vdev)
{
	const struct vcap_mode *m = vcap_dv_mode(vdev, vdev->fmt.pixelformat);
	u32 w = m->width, h = m->height;

	if (vdev->scaler && vdev->hdmi_width) {
		w = vdev->hdmi_width;
		h = vdev->hdmi_height;
		vcap_dv_fit(vdev, m, &w, &h);
	}
	vcap_v4l2_set_fmt(vdev, m->fourcc, w, h, vcap_dv_interval(vdev));
}

void vcap_dv_choose_size(struct vcap_dev *vdev, u32 width, u32 height)
{
	u32 sw, sh;

	vcap_dv_source_size(vdev, &sw, &sh);
	if (!vdev->scaler || (width == sw && height == sh)) {
		width = 0;
		height = 0;
	}
	vdev->hdmi_width = width;
	vdev->hdmi_height = height;
}

int vcap_dv_init(struct vcap_dev *vdev)
{
	const struct vcap_timing_def *def;
	unsigned int i, preferred = 0;

	vdev->input = 0;
	if (!(vdev->caps & VCAP_CAP_HDMI))
		return 0;
	vdev->dv_list = kzalloc_objs(*vdev->dv_list, vcap_timings_count(),
				     GFP_KERNEL);
	if (!vdev->dv_list)
		return -ENOMEM;
	for (i = 0; (def = vcap_timings_get(i)); i++) {
		if (!vcap_dv_find_mode(vdev, &def->t, 0))
			continue;
		if (def->t.width == 1920 && def->t.height == 1080 &&
		    vcap_timing_rate_is(&def->t, 1, 60))
			preferred = vdev->num_dv;
		vcap_dv_from_def(def, &vdev->dv_list[vdev->num_dv++]);
	}
	if (!vdev->num_dv) {
		dev_info(vdev->parent,
			 "board has an HDMI receiver but no mode at any of its timings: no HDMI input\n");
		return 0;
	}
	vdev->hdmi = true;
	/* ABI 1 and 2 have no request.src_width: no scaling there. */
	vdev->scaler = vdev->board_abi >= 3 && (vdev->caps & VCAP_CAP_SCALER);
	vdev->dv_timings = vdev->dv_list[preferred];
	/*
	 * The card comes up on its test pattern generator, which captures
	 * whatever mode is asked of it; v4l2-ctl -i 0 selects the receiver.
	 */
	vdev->input = VCAP_V4L2_INPUT_TPG;
	vcap_edid_default(vdev);
	return vcap_edid_write(vdev);
}

void vcap_dv_free(struct vcap_dev *vdev)
{
	kfree(vdev->dv_list);
	vdev->dv_list = NULL;
}

/*
 * Read the receiver's link: state, flags and timing between two reads of
 * its generation, so that a link the board rewrites meanwhile is seen as
 * the unstable link it is.  The caller holds the presence guard.
 */
static void vcap_dv_read_link(struct vcap_dev *vdev, struct vcap_link *l)
{
	struct vcap_board_timing bt;
	unsigned int tries;
	u32 gen, gen2 = 0;

	for (tries = 0; tries < 3; tries++) {
		gen = vcap_rd32(vdev, VCAP_OFF_LINK(gen));
		/* The fields after the generation that vouches for them. */
		rmb();
		l->state = vcap_rd32(vdev, VCAP_OFF_LINK(state));
		l->flags = vcap_rd32(vdev, VCAP_OFF_LINK(flags));
		vdev->ops->copy_from(vdev, &bt, VCAP_OFF_LINK(timing),
				     sizeof(bt));
		/* ... and before the generation read again. */
		rmb();
		gen2 = vcap_rd32(vdev, VCAP_OFF_LINK(gen));
		if (gen == gen2)
			break;
	}
	if (gen != gen2) {
		l->state = VCAP_LINK_UNSTABLE;
		return;
	}
	l->timing_ok = false;
	if (l->state == VCAP_LINK_LOCKED &&
	    !vcap_timing_from_board(&bt, &l->timing))
		l->timing_ok = true;
	if (l->state >= ARRAY_SIZE(vcap_link_names)) {
		vcap_board_log(vdev, KERN_WARNING,
			       "receiver reports link state %u: taken as no signal\n",
			       l->state);
		l->state = VCAP_LINK_NO_SIGNAL;
	}
}

/* The link, or no signal for a board that is gone. */
static void vcap_dv_link(struct vcap_dev *vdev, struct vcap_link *l)
{
	int idx;

	memset(l, 0, sizeof(*l));
	if (!vcap_enter(vdev, &idx))
		return;
	vcap_dv_read_link(vdev, l);
	vcap_exit(vdev, idx);
}

u32 vcap_dv_link_gen(struct vcap_dev *vdev)
{
	return vcap_rd32(vdev, VCAP_OFF_LINK(gen));
}

/* The offered timings that t matches, or NULL. */
static const struct v4l2_dv_timings *vcap_dv_find(struct vcap_dev *vdev,
						  const struct v4l2_dv_timings *t)
{
	unsigned int i;

	for (i = 0; i < vdev->num_dv; i++)
		if (v4l2_match_dv_timings(t, &vdev->dv_list[i], 0, false))
			return &vdev->dv_list[i];
	return NULL;
}

/*
 * The source changed its timings under a picture the application chose:
 * the scaler goes on making that picture from the new timings, so that
 * clients that never look at DV timings (PipeWire, OBS) keep streaming in
 * the size they negotiated.  The timings follow the source, the format
 * stays; the event still tells those who look.  A picture the new
 * timings cannot hold, or a board that refuses, is left to the
 * application, as without a scaler.
 */
static void vcap_dv_follow(struct vcap_dev *vdev, const struct vcap_link *l)
{
	const struct v4l2_dv_timings *found = NULL;
	struct v4l2_dv_timings dv, old = vdev->dv_timings;
	const struct vcap_timing_def *def;
	const struct vcap_mode *m;
	struct vcap_interval iv;
	u32 w, h, sw, sh;

	lockdep_assert_held(&vdev->lock);
	if (!vdev->scaler || !vdev->hdmi_width ||
	    !vb2_is_streaming(&vdev->queue) ||
	    l->state != VCAP_LINK_LOCKED || !l->timing_ok)
		return;
	def = vcap_timings_match(&l->timing);
	if (def) {
		vcap_dv_from_def(def, &dv);
		found = vcap_dv_find(vdev, &dv);
	}
	if (!found || v4l2_match_dv_timings(found, &old, 0, false))
		return;
	vdev->dv_timings = *found;
	m = vcap_dv_mode(vdev, vdev->fmt.pixelformat);
	w = vdev->hdmi_width;
	h = vdev->hdmi_height;
	if (m)
		vcap_dv_fit(vdev, m, &w, &h);
	if (!m || m->fourcc != vdev->fmt.pixelformat ||
	    w != vdev->fmt.width || h != vdev->fmt.height)
		goto keep_old;
	iv = vcap_dv_interval(vdev);
	vcap_dv_source_size(vdev, &sw, &sh);
	if (vcap_board_rescale(vdev, sw, sh, &iv))
		goto keep_old;
	vdev->interval = iv;
	vcap_board_log(vdev, KERN_INFO,
		       "HDMI picture %ux%u kept, now scaled from %ux%u\n",
		       w, h, sw, sh);
	return;

keep_old:
	vdev->dv_timings = old;
}

void vcap_dv_link_changed(struct vcap_dev *vdev)
{
	static const struct v4l2_event ev = {
		.type = V4L2_EVENT_SOURCE_CHANGE,
		.u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION,
	};
	struct vcap_link l;

	if (!vdev->hdmi)
		return;
	vcap_dv_link(vdev, &l);
	v4l2_ctrl_s_ctrl(vdev->ctrl_rx_power,
			 l.flags & VCAP_LINK_POWER_5V ? 1 : 0);
	/*
	 * The format stays what the application set until it queries the
	 * new timings and sets them; the event tells it to.
	 */
	mutex_lock(&vdev->lock);
	if (vcap_dv_is_hdmi(vdev)) {
		v4l2_event_queue(&vdev->vdev, &ev);
		vcap_dv_follow(vdev, &l);
	}
	mutex_unlock(&vdev->lock);
}

/* ioctls */

int vcap_enum_input(struct file *file, void *priv, struct v4l2_input *inp)
{
	struct vcap_dev *vdev = video_drvdata(file);
	struct vcap_link l;
	int idx;

	if (inp->index >= (vdev->hdmi ? 2 : 1))
		return -EINVAL;
	inp->type = V4L2_INPUT_TYPE_CAMERA;
	if (vdev->hdmi && inp->index == VCAP_V4L2_INPUT_HDMI) {
		strscpy(inp->name, "HDMI", sizeof(inp->name));
		inp->capabilities = V4L2_IN_CAP_DV_TIMINGS;
		vcap_dv_link(vdev, &l);
		if (l.state == VCAP_LINK_NO_SIGNAL)
			inp->status = V4L2_IN_ST_NO_SIGNAL;
		else if (l.state != VCAP_LINK_LOCKED)
			inp->status = V4L2_IN_ST_NO_H_LOCK;
		return 0;
	}
	strscpy(inp->name, "Test pattern generator", sizeof(inp->name));
	if (!vcap_enter(vdev, &idx))
		return -ENODEV;
	/* The receiver's signal is not the generator's. */
	if (!vdev->hdmi && vcap_rd32(vdev, VCAP_OFF_STATUS(state)) ==
	    VCAP_STATE_NO_SIGNAL)
		inp->status = V4L2_IN_ST_NO_SIGNAL;
	vcap_exit(vdev, idx);
	return 0;
}

int vcap_g_input(struct file *file, void *priv, unsigned int *i)
{
	struct vcap_dev *vdev = video_drvdata(file);

	*i = vdev->input;
	return 0;
}

int vcap_s_input(struct file *file, void *priv, unsigned int i)
{
	struct vcap_dev *vdev = video_drvdata(file);

	if (i >= (vdev->hdmi ? 2 : 1))
		return -EINVAL;
	if (i == vdev->input)
		return 0;
	if (vb2_is_busy(&vdev->queue))
		return -EBUSY;
	/* Each input keeps its format: the generator's, the timings'. */
	if (vcap_dv_is_hdmi(vdev)) {
		vdev->fmt = vdev->tpg_fmt;
		vdev->interval = vdev->tpg_interval;
	} else {
		vdev->tpg_fmt = vdev->fmt;
		vdev->tpg_interval = vdev->interval;
	}
	vdev->input = i;
	if (vcap_dv_is_hdmi(vdev))
		vcap_dv_apply(vdev);
	return 0;
}

int vcap_s_dv_timings(struct file *file, void *priv,
		      struct v4l2_dv_timings *t)
{
	struct vcap_dev *vdev = video_drvdata(file);
	const struct v4l2_dv_timings *found;

	if (!vcap_dv_is_hdmi(vdev))
		return -ENODATA;
	found = vcap_dv_find(vdev, t);
	if (!found)
		return -EINVAL;
	if (v4l2_match_dv_timings(found, &vdev->dv_timings, 0, false)) {
		*t = *found;
		return 0;
	}
	if (vb2_is_busy(&vdev->queue))
		return -EBUSY;
	vdev->dv_timings = *found;
	*t = *found;
	vcap_dv_apply(vdev);
	return 0;
}

int vcap_g_dv_timings(struct file *file, void *priv,
		      struct v4l2_dv_timings *t)
{
	struct vcap_dev *vdev = video_drvdata(file);

	if (!vcap_dv_is_hdmi(vdev))
		return -ENODATA;
	*t = vdev->dv_timings;
	return 0;
}

int vcap_query_dv_timings(struct file *file, void *priv,
			  struct v4l2_dv_timings *t)
{
	struct vcap_dev *vdev = video_drvdata(file);
	const struct v4l2_dv_timings *found = NULL;
	const struct vcap_timing_def *def;
	struct v4l2_dv_timings dv;
	struct vcap_link l;

	if (!vcap_dv_is_hdmi(vdev))
		return -ENODATA;
	vcap_dv_link(vdev, &l);
	switch (l.state) {
	case VCAP_LINK_NO_SIGNAL:
		return -ENOLINK;
	case VCAP_LINK_UNSTABLE:
		return -ENOLCK;
	case VCAP_LINK_LOCKED:
		break;
	default:
		return -ERANGE;
	}
	def = l.timing_ok ? vcap_timings_match(&l.timing) : NULL;
	if (def) {
		vcap_dv_from_def(def, &dv);
		found = vcap_dv_find(vdev, &dv);
	}
	/* Locked to something the card does not capture. */
	if (!found)
		return -ERANGE;
	*t = *found;
	return 0;
}

int vcap_enum_dv_timings(struct file *file, void *priv,
			 struct v4l2_enum_dv_timings *t)
{
	struct vcap_dev *vdev = video_drvdata(file);

	if (!vcap_dv_is_hdmi(vdev))
		return -ENODATA;
	if (t->pad || t->index >= vdev->num_dv)
		return -EINVAL;
	memset(t->reserved, 0, sizeof(t->reserved));
	t->timings = vdev->dv_list[t->index];
	return 0;
}

int vcap_dv_timings_cap(struct file *file, void *priv,
			struct v4l2_dv_timings_cap *cap)
{
	struct vcap_dev *vdev = video_drvdata(file);

	if (!vcap_dv_is_hdmi(vdev))
		return -ENODATA;
	if (cap->pad)
		return -EINVAL;
	*cap = vcap_dv_cap;
	return 0;
}

/* LOG_STATUS: the HDMI picture, and whether it follows the timings. */
static void vcap_dv_log_picture(struct vcap_dev *vdev)
{
	const struct vcap_mode *m;
	u32 w, h;

	if (!vdev->scaler) {
		v4l2_info(&vdev->v4l2_dev,
			  "HDMI picture: the timings' size (no scaler)\n");
		return;
	}
	m = vcap_dv_mode(vdev, vcap_dv_is_hdmi(vdev) ?
			 vdev->fmt.pixelformat : 0);
	if (!vdev->hdmi_width) {
		v4l2_info(&vdev->v4l2_dev,
			  "HDMI picture: %ux%u, follows the timings (scaler idle)\n",
			  m->width, m->height);
		return;
	}
	w = vdev->hdmi_width;
	h = vdev->hdmi_height;
	vcap_dv_fit(vdev, m, &w, &h);
	v4l2_info(&vdev->v4l2_dev,
		  "HDMI picture: %ux%u scaled from %ux%u (%ux%u chosen, kept across timings)\n",
		  w, h, m->width, m->height, vdev->hdmi_width,
		  vdev->hdmi_height);
}

int vcap_log_status(struct file *file, void *priv)
{
	struct vcap_dev *vdev = video_drvdata(file);
	const char *name = vdev->v4l2_dev.name;
	const struct vcap_timing_def *def;
	struct v4l2_dv_timings dv;
	struct vcap_link l;

	v4l2_info(&vdev->v4l2_dev, "input: %s\n",
		  vcap_dv_is_hdmi(vdev) ? "HDMI" : "test pattern generator");
	if (vdev->hdmi) {
		vcap_dv_link(vdev, &l);
		v4l2_info(&vdev->v4l2_dev, "HDMI link: %s, +5V %s\n",
			  vcap_link_names[l.state],
			  l.flags & VCAP_LINK_POWER_5V ? "present" : "absent");
		def = l.timing_ok ? vcap_timings_match(&l.timing) : NULL;
		if (def) {
			vcap_dv_from_def(def, &dv);
			v4l2_print_dv_timings(name, "HDMI measured: ", &dv,
					      false);
		} else if (l.state == VCAP_LINK_LOCKED) {
			v4l2_info(&vdev->v4l2_dev,
				  "HDMI measured: %ux%u, not a timing the card knows\n",
				  l.timing.width, l.timing.height);
		}
		v4l2_print_dv_timings(name, "HDMI configured: ",
				      &vdev->dv_timings, true);
		vcap_dv_log_picture(vdev);
		v4l2_info(&vdev->v4l2_dev, "EDID: %u blocks%s\n",
			  vdev->edid_blocks,
			  vdev->edid_blocks ? "" : " (hotplug low)");
	}
	vcap_deliver_log_status(vdev);
	return v4l2_ctrl_log_status(file, priv);
}
