/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap inputs: the HDMI receiver, through the V4L2 DV timings and EDID
 * ioctls, and the test pattern generator.
 */
#ifndef _VCAP_DV_H
#define _VCAP_DV_H

#include <media/v4l2-ioctl.h>

#include "vcap.h"

/* V4L2 input indexes of a board with a receiver; without, 0 is the TPG. */
#define VCAP_V4L2_INPUT_HDMI	0
#define VCAP_V4L2_INPUT_TPG	1

/* Probe: the timings the board offers, the defaults, the board's EDID. */
int vcap_dv_init(struct vcap_dev *vdev);
void vcap_dv_free(struct vcap_dev *vdev);

/* Whether the current input is the receiver; the caller holds lock. */
bool vcap_dv_is_hdmi(struct vcap_dev *vdev);
u32 vcap_dv_board_input(struct vcap_dev *vdev);
/* The board's mode for fourcc at the timings, or its first at them. */
const struct vcap_mode *vcap_dv_mode(struct vcap_dev *vdev, u32 fourcc);
/* The board's frame interval for the timings. */
struct vcap_interval vcap_dv_interval(struct vcap_dev *vdev);
/* The timings' size: the source's picture. */
void vcap_dv_source_size(struct vcap_dev *vdev, u32 *width, u32 *height);
/*
 * Picture sizes on the receiver, for its mode m at the timings: bound a
 * size to those it gives, or say whether it is one.  The caller holds lock.
 */
void vcap_dv_scale_steps(u32 fourcc, u32 *hstep, u32 *vstep);
void vcap_dv_fit(struct vcap_dev *vdev, const struct vcap_mode *m,
		 u32 *width, u32 *height);
bool vcap_dv_size_ok(struct vcap_dev *vdev, const struct vcap_mode *m,
		     u32 width, u32 height);
/* S_FMT chose the HDMI picture size; the timings' size follows them. */
void vcap_dv_choose_size(struct vcap_dev *vdev, u32 width, u32 height);

/* The watchdog saw the link change; takes lock. */
void vcap_dv_link_changed(struct vcap_dev *vdev);
/* The link's generation, for the watchdog; the caller holds the guard. */
u32 vcap_dv_link_gen(struct vcap_dev *vdev);

/* Default EDID and the EDID ioctls: vcap-edid.c */
void vcap_edid_default(struct vcap_dev *vdev);
int vcap_edid_write(struct vcap_dev *vdev);
int vcap_g_edid(struct file *file, void *priv, struct v4l2_edid *edid);
int vcap_s_edid(struct file *file, void *priv, struct v4l2_edid *edid);

int vcap_enum_input(struct file *file, void *priv, struct v4l2_input *inp);
int vcap_g_input(struct file *file, void *priv, unsigned int *i);
int vcap_s_input(struct file *file, void *priv, unsigned int i);
int vcap_s_dv_timings(struct file *file, void *priv,
		      struct v4l2_dv_timings *t);
int vcap_g_dv_timings(struct file *file, void *priv,
		      struct v4l2_dv_timings *t);
int vcap_query_dv_timings(struct file *file, void *priv,
			  struct v4l2_dv_timings *t);
int vcap_enum_dv_timings(struct file *file, void *priv,
			 struct v4l2_enum_dv_timings *t);
int vcap_dv_timings_cap(struct file *file, void *priv,
			struct v4l2_dv_timings_cap *cap);
int vcap_log_status(struct file *file, void *priv);

/* vcap-v4l2.c: the format of the current input. */
void vcap_v4l2_set_fmt(struct vcap_dev *vdev, u32 fourcc, u32 width,
		       u32 height, struct vcap_interval interval);

#endif /* _VCAP_DV_H */
