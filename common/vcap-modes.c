// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The mode table the board publishes and the check of a mode request. */
#include "vcap-modes.h"
#include "vcap-format.h"
#include "vcap-pattern.h"

struct vcap_size {
	u16 width;
	u16 height;
};

/* By area, smallest first. */
static const struct vcap_size vcap_sizes[] = {
	{ 160, 120 },	{ 320, 240 },	{ 640, 480 },
	{ 800, 600 },	{ 1024, 768 },	{ 1280, 720 },
	{ 1920, 1080 },	{ 2560, 1440 },	{ 3840, 2160 },
};

/* Frames per second offered, highest first (shortest interval first). */
static const u16 vcap_fps[] = {
	1000, 720, 480, 360, 300, 240, 180, 120, 60, 50, 30, 25, 15, 10, 5, 1
};

#define VCAP_NUM_SIZES	ARRAY_SIZE(vcap_sizes)
#define VCAP_NUM_FPS	ARRAY_SIZE(vcap_fps)

/* Slots of stride bytes that fit in frame_size, at most VCAP_MAX_SLOTS. */
static u32 vcap_modes_slots(u64 stride, u64 frame_size)
{
	u32 n = 0;

	if (!stride)
		return 0;
	while (n < VCAP_MAX_SLOTS && stride * (n + 1) <= frame_size)
		n++;
	return n;
}

/* Whether sizeimage bytes every num/den seconds stays within the rate. */
static bool vcap_modes_rate_ok(u64 sizeimage, u32 num, u32 den)
{
	/* sizeimage < 2^27 and den < 2^32: the product fits in 64 bits. */
	return sizeimage * den <= VCAP_MODES_MAX_RATE * num;
}

void vcap_modes_fill(struct vcap_board_info *info, u64 frame_size)
{
	unsigned int f, s, i, n = 0;

	for (i = 0; i < VCAP_NUM_FPS; i++) {
		info->intervals[i].numerator = cpu_to_le32(1);
		info->intervals[i].denominator = cpu_to_le32(vcap_fps[i]);
	}
	for (; i < VCAP_MAX_INTERVALS; i++) {
		info->intervals[i].numerator = 0;
		info->intervals[i].denominator = 0;
	}
	info->num_intervals = cpu_to_le32(VCAP_NUM_FPS);

	for (f = 0; f < vcap_format_count(); f++) {
		const struct vcap_format_info *fi = vcap_format_by_index(f);

		for (s = 0; s < VCAP_NUM_SIZES; s++) {
			const struct vcap_size *sz = &vcap_sizes[s];
			u64 size = vcap_format_sizeimage(fi,
				vcap_format_min_bpl(fi, sz->width), sz->height);
			u32 mask = 0;

			if (!size || n >= VCAP_MAX_MODES ||
			    vcap_modes_slots(VCAP_ALIGN_PAGE(size), frame_size) <
			    VCAP_MIN_SLOTS)
				continue;
			for (i = 0; i < VCAP_NUM_FPS; i++)
				if (vcap_modes_rate_ok(size, 1, vcap_fps[i]))
					mask |= 1u << i;
			if (!mask)
				continue;
			info->modes[n].fourcc = cpu_to_le32(fi->fourcc);
			info->modes[n].width = cpu_to_le32(sz->width);
			info->modes[n].height = cpu_to_le32(sz->height);
			info->modes[n].interval_mask = cpu_to_le32(mask);
			n++;
		}
	}
	info->num_modes = cpu_to_le32(n);
	for (i = n; i < VCAP_MAX_MODES; i++) {
		info->modes[i].fourcc = 0;
		info->modes[i].width = 0;
		info->modes[i].height = 0;
		info->modes[i].interval_mask = 0;
	}
}

static int vcap_modes_find(const struct vcap_board_info *info, u32 fourcc,
			   u32 width, u32 height, u32 *mask)
{
	u32 n = le32_to_cpu(info->num_modes);
	bool fmt_seen = false;
	u32 i;

	if (n > VCAP_MAX_MODES)
		n = VCAP_MAX_MODES;
	for (i = 0; i < n; i++) {
		const struct vcap_board_mode *m = &info->modes[i];

		if (le32_to_cpu(m->fourcc) != fourcc)
			continue;
		fmt_seen = true;
		if (le32_to_cpu(m->width) == width &&
		    le32_to_cpu(m->height) == height) {
			*mask = le32_to_cpu(m->interval_mask);
			return VCAP_ERR_NONE;
		}
	}
	return fmt_seen ? VCAP_ERR_BAD_SIZE : VCAP_ERR_BAD_FORMAT;
}

static int vcap_modes_interval(const struct vcap_board_info *info, u32 mask,
			       u32 num, u32 den, u32 *index)
{
	u32 n = le32_to_cpu(info->num_intervals);
	u32 i;

	if (!num || !den)
		return VCAP_ERR_BAD_INTERVAL;
	if (n > VCAP_MAX_INTERVALS)
		n = VCAP_MAX_INTERVALS;
	for (i = 0; i < n; i++) {
		u64 inum = le32_to_cpu(info->intervals[i].numerator);
		u64 iden = le32_to_cpu(info->intervals[i].denominator);

		if (!(mask & (1u << i)) || !inum || !iden)
			continue;
		/* Equal fractions, in 64 bits: 1/30 matches 2/60. */
		if ((u64)num * iden == inum * den) {
			*index = i;
			return VCAP_ERR_NONE;
		}
	}
	return VCAP_ERR_BAD_INTERVAL;
}

/*
 * A scaled START (VCAP_REQ_SCALE): the HDMI input of a board with the
 * scaler, a picture from VCAP_SCALE_MIN_* up to the source's size.
 */
static int vcap_modes_check_scale(const struct vcap_board_info *info,
				  const struct vcap_board_request *req)
{
	u32 caps = le32_to_cpu(info->caps);
	u32 width = le32_to_cpu(req->width);
	u32 height = le32_to_cpu(req->height);

	if (!(caps & VCAP_CAP_SCALER) || !(caps & VCAP_CAP_HDMI) ||
	    le32_to_cpu(req->input) != VCAP_INPUT_HDMI)
		return VCAP_ERR_BAD_SIZE;
	if (width < VCAP_SCALE_MIN_WIDTH || height < VCAP_SCALE_MIN_HEIGHT ||
	    width > le32_to_cpu(req->src_width) ||
	    height > le32_to_cpu(req->src_height))
		return VCAP_ERR_BAD_SIZE;
	return VCAP_ERR_NONE;
}

int vcap_modes_check(const struct vcap_board_info *info, u64 frame_size,
		     const struct vcap_board_request *req,
		     struct vcap_ring_layout *out)
{
	const struct vcap_format_info *fi;
	u32 cmd = le32_to_cpu(req->cmd);
	u32 fourcc = le32_to_cpu(req->fourcc);
	u32 width = le32_to_cpu(req->width);
	u32 height = le32_to_cpu(req->height);
	u32 bpl = le32_to_cpu(req->bytesperline);
	u32 flags = le32_to_cpu(req->flags);
	u32 src_w = width, src_h = height;
	u64 size, stride, offset, vram;
	u32 mask, slots;
	int err;

	vcap_memset(out, 0, sizeof(*out));
	if (cmd == VCAP_CMD_STOP)
		return VCAP_ERR_NONE;
	if (cmd != VCAP_CMD_START ||
	    (flags & ~(VCAP_REQ_HFLIP | VCAP_REQ_VFLIP | VCAP_REQ_SCALE)))
		return VCAP_ERR_BAD_CMD;
	if (le32_to_cpu(req->pattern) >= VCAP_PATTERN_COUNT)
		return VCAP_ERR_BAD_PATTERN;
	/* A board without a receiver has the test pattern generator alone. */
	if ((le32_to_cpu(info->caps) & VCAP_CAP_HDMI) &&
	    le32_to_cpu(req->input) >= VCAP_NUM_INPUTS)
		return VCAP_ERR_BAD_INPUT;

	fi = vcap_format_find(fourcc);
	if (!fi)
		return VCAP_ERR_BAD_FORMAT;
	if (flags & VCAP_REQ_SCALE) {
		err = vcap_modes_check_scale(info, req);
		if (err)
			return err;
		src_w = le32_to_cpu(req->src_width);
		src_h = le32_to_cpu(req->src_height);
	}
	/* The source's mode: the picture's size, unless it is scaled. */
	err = vcap_modes_find(info, fourcc, src_w, src_h, &mask);
	if (err)
		return (flags & VCAP_REQ_SCALE) ? VCAP_ERR_BAD_SIZE : err;
	if (width < VCAP_MIN_WIDTH || width > VCAP_MAX_WIDTH ||
	    height < VCAP_MIN_HEIGHT || height > VCAP_MAX_HEIGHT ||
	    width % fi->hsub || height % fi->vsub)
		return VCAP_ERR_BAD_SIZE;
	err = vcap_modes_interval(info, mask, le32_to_cpu(req->interval_num),
				  le32_to_cpu(req->interval_den),
				  &out->interval_index);
	if (err)
		return err;

	if (!bpl)
		bpl = vcap_format_min_bpl(fi, width);
	if (bpl < vcap_format_min_bpl(fi, width))
		return VCAP_ERR_BAD_STRIDE;
	size = vcap_format_sizeimage(fi, bpl, height);
	if (!size)
		return VCAP_ERR_BAD_STRIDE;

	stride = VCAP_ALIGN_PAGE(size);
	slots = vcap_modes_slots(stride, frame_size);
	if (slots < VCAP_MIN_SLOTS)
		return VCAP_ERR_NO_SPACE;

	/* The ring must also lie inside BAR2 as the board describes it. */
	offset = le64_to_cpu(info->frame_offset);
	vram = le64_to_cpu(info->vram_size);
	if (offset > vram || stride * slots > vram - offset)
		return VCAP_ERR_NO_SPACE;

	out->bytesperline = bpl;
	out->sizeimage = (u32)size;
	out->num_slots = slots;
	out->slot_stride = stride;
	out->ring_offset = offset;
	return VCAP_ERR_NONE;
}

const char *vcap_modes_err_str(u32 err)
{
	static const char * const names[] = {
		[VCAP_ERR_NONE] = "ok",
		[VCAP_ERR_BAD_CMD] = "bad command",
		[VCAP_ERR_BAD_FORMAT] = "format not offered",
		[VCAP_ERR_BAD_SIZE] = "size not offered",
		[VCAP_ERR_BAD_INTERVAL] = "interval not offered",
		[VCAP_ERR_BAD_STRIDE] = "bad bytesperline",
		[VCAP_ERR_NO_SPACE] = "ring does not fit VRAM",
		[VCAP_ERR_BUSY] = "busy",
		[VCAP_ERR_BAD_PATTERN] = "unknown pattern",
		[VCAP_ERR_BAD_INPUT] = "unknown input",
		[VCAP_ERR_NO_LINK] = "no link",
		[VCAP_ERR_TIMINGS] = "not the source's timings",
		[VCAP_ERR_BAD_DMA] = "DMA rings unusable, or no DMA",
	};

	if (err < ARRAY_SIZE(names) && names[err])
		return names[err];
	return "unknown error";
}
