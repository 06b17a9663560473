// SPDX-License-Identifier: GPL-2.0
/*
 * vcap controls: what the board can do (test pattern, flips), through the
 * control framework, forwarded to the board as a new mode request while
 * streaming; and the HDMI receiver's +5V detect and RGB range.
 */
#include "vcap.h"
#include "vcap-board.h"

static const char * const vcap_pattern_names[VCAP_PATTERN_COUNT + 1] = {
	[VCAP_PATTERN_BARS] = "Colour Bars",
	[VCAP_PATTERN_MOVING_BOX] = "Moving Box",
	[VCAP_PATTERN_GRADIENT] = "Gradient",
	[VCAP_PATTERN_CHECKERBOARD] = "Checkerboard",
	[VCAP_PATTERN_SOLID_WHITE] = "Solid White",
	[VCAP_PATTERN_SOLID_BLACK] = "Solid Black",
	[VCAP_PATTERN_SOLID_RED] = "Solid Red",
	[VCAP_PATTERN_SOLID_GREEN] = "Solid Green",
	[VCAP_PATTERN_SOLID_BLUE] = "Solid Blue",
	[VCAP_PATTERN_NOISE] = "Noise",
};

/*
 * The values go to the board first and are kept only if it takes them: a
 * control that fails keeps its old value, in the framework and here.
 */
static int vcap_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vcap_dev *vdev = container_of(ctrl->handler, struct vcap_dev,
					     ctrl_hdl);
	u32 pattern = vcap_ctrls_pattern(vdev);
	u32 flags = vcap_ctrls_flags(vdev);
	u32 bit;
	int ret;

	switch (ctrl->id) {
	case V4L2_CID_DV_RX_RGB_RANGE:
		/* The driver's to keep: the board sends what it gets. */
		return 0;
	case V4L2_CID_TEST_PATTERN:
		pattern = ctrl->val;
		break;
	case V4L2_CID_HFLIP:
	case V4L2_CID_VFLIP:
		bit = ctrl->id == V4L2_CID_HFLIP ? VCAP_REQ_HFLIP :
						   VCAP_REQ_VFLIP;
		flags = ctrl->val ? flags | bit : flags & ~bit;
		break;
	default:
		return -EINVAL;
	}
	ret = vcap_board_update(vdev, pattern, flags);
	if (ret)
		return ret;
	WRITE_ONCE(vdev->ctrl_pattern_val, pattern);
	WRITE_ONCE(vdev->ctrl_flags_val, flags);
	return 0;
}

static const struct v4l2_ctrl_ops vcap_ctrl_ops = {
	.s_ctrl = vcap_s_ctrl,
};

u32 vcap_ctrls_pattern(struct vcap_dev *vdev)
{
	return READ_ONCE(vdev->ctrl_pattern_val);
}

u32 vcap_ctrls_flags(struct vcap_dev *vdev)
{
	return READ_ONCE(vdev->ctrl_flags_val);
}

int vcap_ctrls_init(struct vcap_dev *vdev)
{
	struct v4l2_ctrl_handler *hdl = &vdev->ctrl_hdl;

	v4l2_ctrl_handler_init(hdl, 5);
	vdev->ctrl_pattern_val = VCAP_PATTERN_MOVING_BOX;
	if (vdev->caps & VCAP_CAP_PATTERNS)
		vdev->ctrl_pattern =
			v4l2_ctrl_new_std_menu_items(hdl, &vcap_ctrl_ops,
						     V4L2_CID_TEST_PATTERN,
						     VCAP_PATTERN_COUNT - 1, 0,
						     VCAP_PATTERN_MOVING_BOX,
						     vcap_pattern_names);
	if (vdev->caps & VCAP_CAP_HFLIP)
		vdev->ctrl_hflip = v4l2_ctrl_new_std(hdl, &vcap_ctrl_ops,
						     V4L2_CID_HFLIP, 0, 1, 1,
						     0);
	if (vdev->caps & VCAP_CAP_VFLIP)
		vdev->ctrl_vflip = v4l2_ctrl_new_std(hdl, &vcap_ctrl_ops,
						     V4L2_CID_VFLIP, 0, 1, 1,
						     0);
	if (vdev->hdmi) {
		/* Bit 0: the source drives +5V into input 0, the receiver. */
		vdev->ctrl_rx_power =
			v4l2_ctrl_new_std(hdl, NULL,
					  V4L2_CID_DV_RX_POWER_PRESENT, 0, 1,
					  0, 0);
		vdev->ctrl_rgb_range =
			v4l2_ctrl_new_std_menu(hdl, &vcap_ctrl_ops,
					       V4L2_CID_DV_RX_RGB_RANGE,
					       V4L2_DV_RGB_RANGE_FULL, 0,
					       V4L2_DV_RGB_RANGE_AUTO);
	}
	if (hdl->error) {
		int ret = hdl->error;

		v4l2_ctrl_handler_free(hdl);
		return ret;
	}
	return 0;
}

void vcap_ctrls_free(struct vcap_dev *vdev)
{
	v4l2_ctrl_handler_free(&vdev->ctrl_hdl);
}
