/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Test pattern generator shared by the firmware and the software board.
 *
 * Plain C with no libc: the kernel builds this very source.  No floating
 * point, no allocation, small stack.
 */
#ifndef _VCAP_PATTERN_H
#define _VCAP_PATTERN_H

#include "vcap-types.h"
#include "vcap-format.h"

#define VCAP_GEN_NONE		((u64)-1)

/* Geometry of one frame in memory. */
struct vcap_frame_fmt {
	u32 fourcc;
	u32 width;
	u32 height;
	u32 bytesperline;	/* plane 0; chroma planes derive from it */
	u32 sizeimage;
};

/* A rectangle in memory coordinates (flips applied), x1/y1 exclusive. */
struct vcap_rect {
	u32 x0, y0, x1, y1;
};

struct vcap_gen {
	struct vcap_frame_fmt fmt;
	const struct vcap_format_info *fi;
	u32 pattern;		/* enum vcap_pattern from <vcap/board.h> */
	u32 flags;		/* VCAP_REQ_HFLIP | VCAP_REQ_VFLIP */
	/*
	 * The source whose picture the frame shows, and where that picture
	 * lies in the frame (all of it unless the source is scaled); the
	 * pattern and its flips are drawn inside pic, black around it.
	 */
	u32 src_w, src_h;
	struct vcap_rect pic;
	u32 checker;		/* checkerboard square, in frame pixels */
};

/* An 8-bit RGB colour. */
struct vcap_rgb {
	u8 r, g, b;
};

/* The colour bars, left to right before any flip: white to black. */
#define VCAP_NUM_BARS		8
extern const struct vcap_rgb vcap_bar_colours[VCAP_NUM_BARS];
/* The moving box's colour. */
extern const struct vcap_rgb vcap_box_colour;

/* Where the moving box of frame seq lies. */
void vcap_gen_box(const struct vcap_gen *g, u64 seq, struct vcap_rect *r);

/* 0, or -EINVAL-style negative value if fmt or pattern is invalid. */
int vcap_gen_init(struct vcap_gen *g, const struct vcap_frame_fmt *fmt,
		  u32 pattern, u32 flags);

/*
 * The picture of a src_w x src_h source scaled into fmt: its aspect
 * kept, centred, edges on the format's subsampling grid (and even).
 */
void vcap_letterbox(const struct vcap_frame_fmt *fmt, u32 src_w, u32 src_h,
		    struct vcap_rect *pic);

/*
 * As vcap_gen_init(), drawing the pattern as a src_w x src_h source
 * shows it, scaled into vcap_letterbox()'s picture; black around it.
 * src_w x src_h == fmt's size is vcap_gen_init().
 */
int vcap_gen_init_scaled(struct vcap_gen *g, const struct vcap_frame_fmt *fmt,
			 u32 pattern, u32 flags, u32 src_w, u32 src_h);

/*
 * Render frame number seq into dst (fmt.sizeimage bytes), stamps included.
 * prev is the frame number dst already holds from this same generator, or
 * VCAP_GEN_NONE: with it the generator redraws only what changed.
 */
void vcap_gen_render(const struct vcap_gen *g, void *dst, u64 seq, u64 prev);

#endif /* _VCAP_PATTERN_H */
