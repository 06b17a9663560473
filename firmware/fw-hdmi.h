/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The board's HDMI receiver: the source plugged into it, the hotplug line
 * the driver's EDID drives, and the link the firmware publishes.
 */
#ifndef FW_HDMI_H
#define FW_HDMI_H

#include <stdbool.h>
#include <stddef.h>
#include <vcap/board.h>
#include "vcap-timings.h"

/* What a source sends while the receiver's hotplug line is high. */
struct fw_hdmi_source {
	const char *name;	/* "1080p60", "none", "unstable", "out-of-range" */
	u32 state;		/* VCAP_LINK_*; NO_SIGNAL: nothing plugged in */
	struct vcap_timing timing;	/* LOCKED and OUT_OF_RANGE; else 0 */
};

/*
 * The firmware's own view of the receiver.  Nothing here is read back
 * from the control page: the page only shows it.
 */
struct fw_hdmi {
	struct fw_hdmi_source source;
	bool hotplug;		/* the last EDID taken was good */
	u32 edid_gen;		/* edid.gen taken last */
	u32 edid_blocks;	/* blocks of that EDID; 0 when hotplug is low */
	u32 link_gen;		/* link.gen published last */
	struct vcap_board_link link;	/* the link as published */
};

/* The source a board comes up with. */
#define FW_HDMI_DEFAULT_SOURCE	"1080p60"

/* Source by name: a timing of vcap-timings, none, unstable, out-of-range. */
int fw_hdmi_source_by_name(const char *name, struct fw_hdmi_source *out);
/* Every source name, blank-separated, into buf. */
void fw_hdmi_source_names(char *buf, size_t len);

/* Default source, hotplug low, nothing published yet. */
void fw_hdmi_init(struct fw_hdmi *h);

/*
 * A fresh control page: take the EDID again, and publish the link anew
 * with a link.gen above both old_gen and the last one published.
 */
void fw_hdmi_reset(struct fw_hdmi *h, u32 old_gen);

void fw_hdmi_set_source(struct fw_hdmi *h, const struct fw_hdmi_source *s);

/* Take a new EDID if edid.gen moved: true if hotplug changed. */
bool fw_hdmi_poll_edid(struct fw_hdmi *h, const struct vcap_board_edid *e);

/*
 * Write the link if it changed, or if the page no longer shows what was
 * published: fields, write barrier, then link.gen.  True when written
 * (the caller raises VCAP_VEC_STATUS).
 */
bool fw_hdmi_publish(struct fw_hdmi *h, struct vcap_board_link *page);

/* The link as the receiver sees it: VCAP_LINK_*. */
u32 fw_hdmi_link_state(const struct fw_hdmi *h);
/* The source's timing; all zeros for a source without one. */
const struct vcap_timing *fw_hdmi_timing(const struct fw_hdmi *h);
/* Whether the link feeds a capture of that size and rate: LOCKED to it. */
bool fw_hdmi_feeds(const struct fw_hdmi *h, u32 width, u32 height, u32 num,
		   u32 den);

/* "no-signal", "unstable", "locked", "out-of-range". */
const char *fw_hdmi_link_name(u32 state);

#endif /* FW_HDMI_H */
