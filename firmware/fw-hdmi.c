// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The board's HDMI receiver: source, EDID and hotplug, the published link. */
#include <stdio.h>
#include <string.h>
#include "fw-hdmi.h"
#include "fw-mem.h"
#include "vcap-edid.h"

static const struct vcap_timing fw_hdmi_no_timing;

int fw_hdmi_source_by_name(const char *name, struct fw_hdmi_source *out)
{
	const struct vcap_timing_def *d = vcap_timings_by_name(name);

	memset(out, 0, sizeof(*out));
	if (d) {
		out->name = d->name;
		out->state = VCAP_LINK_LOCKED;
		out->timing = d->t;
	} else if (!strcmp(name, "none")) {
		out->name = "none";
		out->state = VCAP_LINK_NO_SIGNAL;
	} else if (!strcmp(name, "unstable")) {
		out->name = "unstable";
		out->state = VCAP_LINK_UNSTABLE;
	} else if (!strcmp(name, "out-of-range")) {
		/*
		 * As on the software board: 1080p60's timing, interlaced.
		 * The receiver locks to it; the board captures progressive
		 * signals only.
		 */
		out->name = "out-of-range";
		out->state = VCAP_LINK_OUT_OF_RANGE;
		out->timing = vcap_timings_by_name("1080p60")->t;
		out->timing.interlaced = 1;
	} else {
		return -EINVAL;
	}
	return 0;
}

void fw_hdmi_source_names(char *buf, size_t len)
{
	const struct vcap_timing_def *d;
	size_t n = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; (d = vcap_timings_get(i)) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s ", d->name);
	if (n < len)
		snprintf(buf + n, len - n, "none unstable out-of-range");
}

void fw_hdmi_init(struct fw_hdmi *h)
{
	memset(h, 0, sizeof(*h));
	fw_hdmi_source_by_name(FW_HDMI_DEFAULT_SOURCE, &h->source);
}

void fw_hdmi_reset(struct fw_hdmi *h, u32 old_gen)
{
	h->hotplug = false;
	h->edid_gen = 0;
	h->edid_blocks = 0;
	if (old_gen > h->link_gen)
		h->link_gen = old_gen;
	/* Nothing is taken as published: the next publish writes it all. */
	memset(&h->link, 0xff, sizeof(h->link));
}

void fw_hdmi_set_source(struct fw_hdmi *h, const struct fw_hdmi_source *s)
{
	h->source = *s;
}

bool fw_hdmi_poll_edid(struct fw_hdmi *h, const struct vcap_board_edid *e)
{
	u8 data[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];
	u32 gen = rd32(&e->gen), blocks;
	bool was = h->hotplug;

	if (gen == h->edid_gen)
		return false;
	rmb();
	/* One snapshot, checked and kept: the driver may write on. */
	blocks = rd32(&e->blocks);
	memcpy(data, (const void *)e->data, sizeof(data));
	h->edid_gen = gen;
	h->hotplug = vcap_edid_valid(data, blocks);
	h->edid_blocks = h->hotplug ? blocks : 0;
	return h->hotplug != was;
}

u32 fw_hdmi_link_state(const struct fw_hdmi *h)
{
	return h->hotplug ? h->source.state : VCAP_LINK_NO_SIGNAL;
}

const struct vcap_timing *fw_hdmi_timing(const struct fw_hdmi *h)
{
	u32 state = fw_hdmi_link_state(h);

	if (state == VCAP_LINK_LOCKED || state == VCAP_LINK_OUT_OF_RANGE)
		return &h->source.timing;
	return &fw_hdmi_no_timing;
}

bool fw_hdmi_feeds(const struct fw_hdmi *h, u32 width, u32 height, u32 num,
		   u32 den)
{
	return vcap_timings_link_feeds(fw_hdmi_link_state(h), fw_hdmi_timing(h),
				       width, height, num, den);
}

/* The link the receiver shows now, gen left 0. */
static void fw_hdmi_want(const struct fw_hdmi *h, struct vcap_board_link *l)
{
	memset(l, 0, sizeof(*l));
	l->state = cpu_to_le32(fw_hdmi_link_state(h));
	/* +5V comes from the source, whatever the hotplug line says. */
	if (h->source.state != VCAP_LINK_NO_SIGNAL)
		l->flags = cpu_to_le32(VCAP_LINK_POWER_5V);
	vcap_timing_to_board(fw_hdmi_timing(h), &l->timing);
}

bool fw_hdmi_publish(struct fw_hdmi *h, struct vcap_board_link *page)
{
	struct vcap_board_link want, shown;
	const size_t body = sizeof(want) - offsetof(struct vcap_board_link,
						   state);

	fw_hdmi_want(h, &want);
	memcpy(&shown, (const void *)page, sizeof(shown));
	if (!memcmp(&want.state, &h->link.state, body) &&
	    !memcmp(&shown, &h->link, sizeof(shown)))
		return false;
	/* A change, or a page scribbled over: either way a new generation. */
	want.gen = cpu_to_le32(++h->link_gen);
	h->link = want;
	memcpy((void *)&page->state, &want.state, body);
	wmb();
	wr32(&page->gen, h->link_gen);
	wmb();
	return true;
}

const char *fw_hdmi_link_name(u32 state)
{
	static const char * const names[] = {
		[VCAP_LINK_NO_SIGNAL] = "no-signal",
		[VCAP_LINK_UNSTABLE] = "unstable",
		[VCAP_LINK_LOCKED] = "locked",
		[VCAP_LINK_OUT_OF_RANGE] = "out-of-range",
	};

	return state < ARRAY_SIZE(names) ? names[state] : "?";
}
