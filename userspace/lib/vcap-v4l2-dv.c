// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* A V4L2 input's DV timings: detection, source-change events, locking. */
#include "vcap-priv.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

int vcap_dv_open(struct vcap_dv *dv, int fd, const char *path)
{
	struct v4l2_event_subscription sub;
	struct v4l2_input in;
	int index;

	memset(dv, 0, sizeof(*dv));
	/* A device without inputs to enumerate has no DV timings either. */
	if (vcap_xioctl(fd, VIDIOC_G_INPUT, &index) < 0)
		return 0;
	memset(&in, 0, sizeof(in));
	in.index = (uint32_t)index;
	if (vcap_xioctl(fd, VIDIOC_ENUMINPUT, &in) < 0)
		return 0;
	if (!(in.capabilities & V4L2_IN_CAP_DV_TIMINGS))
		return 0;
	memset(&sub, 0, sizeof(sub));
	sub.type = V4L2_EVENT_SOURCE_CHANGE;
	sub.id = in.index;
	if (vcap_xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub) < 0) {
		/* No events to follow: the device is read as it is. */
		if (errno == EINVAL || errno == ENOTTY)
			return 0;
		return vcap_set_error(errno,
				      "%s: VIDIOC_SUBSCRIBE_EVENT (source change, input %u)",
				      path, in.index);
	}
	dv->enabled = true;
	dv->input = in.index;
	return 0;
}

/* The link states QUERY_DV_TIMINGS reports as errors. */
static bool no_signal_errno(int err)
{
	return err == ENOLINK || err == ENOLCK || err == ERANGE;
}

int vcap_dv_lock(struct vcap_dv *dv, int fd, const char *path)
{
	struct v4l2_dv_timings t, cur;

	memset(&t, 0, sizeof(t));
	if (vcap_xioctl(fd, VIDIOC_QUERY_DV_TIMINGS, &t) < 0) {
		if (no_signal_errno(errno)) {
			dv->signal = false;
			return 0;
		}
		/* A receiver that cannot detect timings keeps those set. */
		if (errno == ENOTTY || errno == ENODATA) {
			dv->signal = true;
			return 0;
		}
		return vcap_set_error(errno, "%s: VIDIOC_QUERY_DV_TIMINGS",
				      path);
	}
	memset(&cur, 0, sizeof(cur));
	/* Setting the timings in force again is skipped, not an error. */
	if (vcap_xioctl(fd, VIDIOC_G_DV_TIMINGS, &cur) < 0 ||
	    memcmp(&cur.bt, &t.bt, sizeof(t.bt)) || cur.type != t.type) {
		if (vcap_xioctl(fd, VIDIOC_S_DV_TIMINGS, &t) < 0)
			return vcap_set_error(errno,
					      "%s: VIDIOC_S_DV_TIMINGS (%ux%u%s)",
					      path, t.bt.width, t.bt.height,
					      t.bt.interlaced ? "i" : "p");
	}
	dv->signal = true;
	dv->width = t.bt.width;
	dv->height = t.bt.height;
	return 0;
}

int vcap_dv_take_event(struct vcap_dv *dv, int fd, const char *path)
{
	struct v4l2_event ev;
	int changed = 0;

	for (;;) {
		memset(&ev, 0, sizeof(ev));
		if (vcap_xioctl(fd, VIDIOC_DQEVENT, &ev) < 0) {
			if (errno == ENOENT)
				return changed;
			return vcap_set_error(errno, "%s: VIDIOC_DQEVENT",
					      path);
		}
		if (ev.type == V4L2_EVENT_SOURCE_CHANGE && ev.id == dv->input &&
		    (ev.u.src_change.changes &
		     V4L2_EVENT_SRC_CH_RESOLUTION))
			changed = 1;
	}
}
