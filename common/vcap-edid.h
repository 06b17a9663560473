/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The check every EDID gets before it counts: the board's receiver runs
 * it on what the driver writes to the EDID memory, and the driver on what
 * an application gives VIDIOC_S_EDID.
 */
#ifndef _VCAP_EDID_H
#define _VCAP_EDID_H

#include "vcap-types.h"
#include <vcap/board.h>

/*
 * Whether the first blocks of data (VCAP_EDID_BLOCK_SIZE bytes each) are
 * an EDID: 1..VCAP_EDID_MAX_BLOCKS of them, block 0 opening with the EDID header,
 * every block summing to 0 mod 256.
 */
bool vcap_edid_valid(const u8 *data, u32 blocks);

#endif /* _VCAP_EDID_H */
