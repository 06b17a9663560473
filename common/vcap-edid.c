// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The check of an EDID: size, header and every block's checksum. */
#include "vcap-edid.h"

static const u8 vcap_edid_header[8] = {
	0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00
};

bool vcap_edid_valid(const u8 *data, u32 blocks)
{
	u32 b, i;

	if (!blocks || blocks > VCAP_EDID_MAX_BLOCKS)
		return false;
	for (i = 0; i < sizeof(vcap_edid_header); i++)
		if (data[i] != vcap_edid_header[i])
			return false;
	for (b = 0; b < blocks; b++) {
		u8 sum = 0;

		for (i = 0; i < VCAP_EDID_BLOCK_SIZE; i++)
			sum += data[b * VCAP_EDID_BLOCK_SIZE + i];
		if (sum)
			return false;
	}
	return true;
}
