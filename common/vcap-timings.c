// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The HDMI timings the board's receiver knows, and their checks. */
#include "vcap-timings.h"

#define POS	(VCAP_TIMING_VSYNC_POS | VCAP_TIMING_HSYNC_POS)

/* Geometry of the 1080p and 2160p families of CEA-861. */
#define T1080(clk, hfp)	{ 1920, 1080, clk, hfp, 44, 148, 4, 5, 36, POS, 0 }
#define T2160(clk)	{ 3840, 2160, clk, 176, 88, 296, 8, 10, 72, POS, 0 }

static const struct vcap_timing_def vcap_timing_defs[] = {
	{ "640x480p60", false,
	  { 640, 480, 25175000, 16, 96, 48, 10, 2, 33, 0, 0 } },
	{ "720p50", true,
	  { 1280, 720, 74250000, 440, 40, 220, 5, 5, 20, POS, 0 } },
	{ "720p60", true,
	  { 1280, 720, 74250000, 110, 40, 220, 5, 5, 20, POS, 0 } },
	{ "1080p25", true, T1080(74250000, 528) },
	{ "1080p30", true, T1080(74250000, 88) },
	{ "1080p50", true, T1080(148500000, 528) },
	{ "1080p60", true, T1080(148500000, 88) },
	/* CEA-861 VIC 63: the high-rate mode benchmarks stream. */
	{ "1080p120", true, T1080(297000000, 88) },
	{ "2160p30", true, T2160(297000000) },
	{ "2160p60", true, T2160(594000000) },
};

/* What a receiver measures; anything outside is a broken source. */
#define VCAP_TIMING_MAX_ACTIVE	8192
#define VCAP_TIMING_MAX_BLANK	8192
#define VCAP_TIMING_MAX_CLOCK	1200000000ull

unsigned int vcap_timings_count(void)
{
	return ARRAY_SIZE(vcap_timing_defs);
}

const struct vcap_timing_def *vcap_timings_get(unsigned int i)
{
	return i < ARRAY_SIZE(vcap_timing_defs) ? &vcap_timing_defs[i] : NULL;
}

static bool vcap_timings_same_name(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct vcap_timing_def *vcap_timings_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vcap_timing_defs); i++)
		if (vcap_timings_same_name(vcap_timing_defs[i].name, name))
			return &vcap_timing_defs[i];
	return NULL;
}

/* |a - b| <= b / 200, for a, b below 2^56. */
static bool vcap_timings_near(u64 a, u64 b)
{
	u64 d = a > b ? a - b : b - a;

	return d * 200 <= b;
}

const struct vcap_timing_def *vcap_timings_match(const struct vcap_timing *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vcap_timing_defs); i++) {
		const struct vcap_timing *d = &vcap_timing_defs[i].t;

		if (t->width == d->width && t->height == d->height &&
		    t->hfrontporch == d->hfrontporch && t->hsync == d->hsync &&
		    t->hbackporch == d->hbackporch &&
		    t->vfrontporch == d->vfrontporch && t->vsync == d->vsync &&
		    t->vbackporch == d->vbackporch &&
		    t->polarities == d->polarities &&
		    t->interlaced == d->interlaced &&
		    t->pixelclock <= VCAP_TIMING_MAX_CLOCK &&
		    vcap_timings_near(t->pixelclock, d->pixelclock))
			return &vcap_timing_defs[i];
	}
	return NULL;
}

static u64 vcap_timing_htotal(const struct vcap_timing *t)
{
	return (u64)t->width + t->hfrontporch + t->hsync + t->hbackporch;
}

static u64 vcap_timing_vtotal(const struct vcap_timing *t)
{
	return (u64)t->height + t->vfrontporch + t->vsync + t->vbackporch;
}

void vcap_timing_interval(const struct vcap_timing *t, u64 *num, u64 *den)
{
	*num = vcap_timing_htotal(t) * vcap_timing_vtotal(t);
	*den = t->pixelclock;
}

bool vcap_timing_rate_is(const struct vcap_timing *t, u32 num, u32 den)
{
	u64 frame = vcap_timing_htotal(t) * vcap_timing_vtotal(t);

	/* num/den == frame/pixelclock: num * clock against frame * den. */
	if (!num || !den || !t->pixelclock || num > 1000 || den > 100000 ||
	    t->pixelclock > VCAP_TIMING_MAX_CLOCK ||
	    frame > 4ull * VCAP_TIMING_MAX_ACTIVE * VCAP_TIMING_MAX_ACTIVE)
		return false;
	return vcap_timings_near((u64)num * t->pixelclock, frame * den);
}

void vcap_timing_to_board(const struct vcap_timing *t,
			  struct vcap_board_timing *bt)
{
	bt->width = cpu_to_le32(t->width);
	bt->height = cpu_to_le32(t->height);
	bt->pixelclock = cpu_to_le64(t->pixelclock);
	bt->hfrontporch = cpu_to_le32(t->hfrontporch);
	bt->hsync = cpu_to_le32(t->hsync);
	bt->hbackporch = cpu_to_le32(t->hbackporch);
	bt->vfrontporch = cpu_to_le32(t->vfrontporch);
	bt->vsync = cpu_to_le32(t->vsync);
	bt->vbackporch = cpu_to_le32(t->vbackporch);
	bt->polarities = cpu_to_le32(t->polarities);
	bt->interlaced = cpu_to_le32(t->interlaced);
}

int vcap_timing_from_board(const struct vcap_board_timing *bt,
			   struct vcap_timing *t)
{
	t->width = le32_to_cpu(bt->width);
	t->height = le32_to_cpu(bt->height);
	t->pixelclock = le64_to_cpu(bt->pixelclock);
	t->hfrontporch = le32_to_cpu(bt->hfrontporch);
	t->hsync = le32_to_cpu(bt->hsync);
	t->hbackporch = le32_to_cpu(bt->hbackporch);
	t->vfrontporch = le32_to_cpu(bt->vfrontporch);
	t->vsync = le32_to_cpu(bt->vsync);
	t->vbackporch = le32_to_cpu(bt->vbackporch);
	t->polarities = le32_to_cpu(bt->polarities);
	t->interlaced = le32_to_cpu(bt->interlaced);

	if (!t->width || t->width > VCAP_TIMING_MAX_ACTIVE ||
	    !t->height || t->height > VCAP_TIMING_MAX_ACTIVE ||
	    !t->pixelclock || t->pixelclock > VCAP_TIMING_MAX_CLOCK ||
	    t->hfrontporch > VCAP_TIMING_MAX_BLANK ||
	    t->hsync > VCAP_TIMING_MAX_BLANK ||
	    t->hbackporch > VCAP_TIMING_MAX_BLANK ||
	    t->vfrontporch > VCAP_TIMING_MAX_BLANK ||
	    t->vsync > VCAP_TIMING_MAX_BLANK ||
	    t->vbackporch > VCAP_TIMING_MAX_BLANK ||
	    (t->polarities & ~(VCAP_TIMING_VSYNC_POS |
			       VCAP_TIMING_HSYNC_POS)) ||
	    t->interlaced)
		return -EINVAL;
	return 0;
}

bool vcap_timings_link_feeds(u32 link_state, const struct vcap_timing *src,
			     u32 width, u32 height, u32 num, u32 den)
{
	return link_state == VCAP_LINK_LOCKED && src->width == width &&
	       src->height == height && vcap_timing_rate_is(src, num, den);
}
