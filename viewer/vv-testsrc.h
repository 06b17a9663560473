/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A built-in synthetic source, a libvcap source like V4L2 and VRAM: eight
 * 75% colour bars (white, yellow, cyan, green, magenta, red, blue, black)
 * in any format the viewer shows, paced at the requested rate.
 *
 * Paths: "test:bars", or with options after commas: "stall=N" stops
 * delivering after N frames (a stalled source); "lose=N" loses the
 * signal after N frames (0: none at start), as an HDMI input reports it,
 * "back=MS" brings it back MS milliseconds later, and "back_size=WxH"
 * in that size.
 */
#ifndef VV_TESTSRC_H
#define VV_TESTSRC_H

#include <libvcap.h>
#include <stdbool.h>
#include <stdint.h>

#define VV_TESTSRC_PREFIX	"test:"
#define VV_TESTSRC_BARS		8

extern const struct vcap_source_ops vv_testsrc_ops;

bool vv_testsrc_path(const char *path);

/* The RGB colour of bar i (0..7) as 0x00RRGGBB. */
uint32_t vv_testsrc_bar_rgb(unsigned int i);

/*
 * Fill buf (vcap_mode_frame_size(mode) bytes) with the bars in mode's
 * format; 0, or -1 for a format it cannot draw.
 */
int vv_testsrc_draw(const struct vcap_mode *mode, uint8_t *buf);

#endif /* VV_TESTSRC_H */
