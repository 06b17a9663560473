// SPDX-License-Identifier: GPL-2.0
/*
 * vcap EDID: what the card's HDMI receiver tells a source it takes.  The
 * driver keeps the EDID, presents a default one built from the timings it
 * offers, and writes it to the board's EDID memory, which drives hotplug:
 * no EDID, hotplug low, no signal.
 */
#include <media/v4l2-dv-timings.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-board.h"
#include "vcap-dv.h"
#include "vcap-edid.h"

#define EDID_BLOCK		VCAP_EDID_BLOCK_SIZE
#define EDID_DESC(n)		(54 + 18 * (n))

/* The 18-byte detailed timing descriptor of bt. */
static void vcap_edid_dtd(u8 *d, const struct v4l2_bt_timings *bt)
{
	u32 hblank = V4L2_DV_BT_BLANKING_WIDTH(bt);
	u32 vblank = V4L2_DV_BT_BLANKING_HEIGHT(bt);
	u32 clk = div_u64(bt->pixelclock, 10000);

	d[0] = clk & 0xff;
	d[1] = clk >> 8;
	d[2] = bt->width & 0xff;
	d[3] = hblank & 0xff;
	d[4] = (bt->width >> 8) << 4 | hblank >> 8;
	d[5] = bt->height & 0xff;
	d[6] = vblank & 0xff;
	d[7] = (bt->height >> 8) << 4 | vblank >> 8;
	d[8] = bt->hfrontporch & 0xff;
	d[9] = bt->hsync & 0xff;
	d[10] = (bt->vfrontporch & 0xf) << 4 | (bt->vsync & 0xf);
	d[11] = (bt->hfrontporch >> 8) << 6 | (bt->hsync >> 8) << 4 |
		(bt->vfrontporch >> 4) << 2 | bt->vsync >> 4;
	/* Digital separate sync, with the timing's polarities. */
	d[17] = 0x18 | (bt->polarities & V4L2_DV_VSYNC_POS_POL ? 0x04 : 0) |
		(bt->polarities & V4L2_DV_HSYNC_POS_POL ? 0x02 : 0);
}

static void vcap_edid_checksum(u8 *block)
{
	u8 sum = 0;
	unsigned int i;

	for (i = 0; i < EDID_BLOCK - 1; i++)
		sum += block[i];
	block[EDID_BLOCK - 1] = -sum;
}

/* Block 0: identity, ranges, name, and the preferred timing first. */
static void vcap_edid_base(struct vcap_dev *vdev, u8 *e)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	/* sRGB primaries and white point. */
	static const u8 chroma[10] = {
		0xee, 0x91, 0xa3, 0x54, 0x4c, 0x99, 0x26, 0x0f, 0x50, 0x54
	};
	static const u8 name[13] = "vcap HDMI\n   ";
	u8 *d;

	memcpy(e, header, sizeof(header));
	/* "VCP", product 1, week 49 of 2026, EDID 1.3, digital input. */
	e[8] = 0x58;
	e[9] = 0x70;
	e[10] = 0x01;
	e[16] = 49;
	e[17] = 2026 - 1990;
	e[18] = 1;
	e[19] = 3;
	e[20] = 0x80;
	e[21] = 53;
	e[22] = 30;
	e[23] = 120;		/* gamma 2.2 */
	e[24] = 0x0a;		/* RGB and YCbCr 4:4:4, preferred timing first */
	memcpy(e + 25, chroma, sizeof(chroma));
	e[35] = 0x20;		/* established: 640x480@60 */
	/* Standard timings: 1280x720@60, 1920x1080@60, the rest unused. */
	e[38] = 0x81;
	e[39] = 0xc0;
	e[40] = 0xd1;
	e[41] = 0xc0;
	memset(e + 42, 0x01, 12);
	vcap_edid_dtd(e + EDID_DESC(0), &vdev->dv_timings.bt);
	/* Range limits: 24-120 Hz, 15-140 kHz, 600 MHz. */
	d = e + EDID_DESC(1);
	d[3] = 0xfd;
	d[5] = 24;
	d[6] = 120;
	d[7] = 15;
	d[8] = 140;
	d[9] = 60;
	d[11] = 0x0a;
	memset(d + 12, 0x20, 6);
	d = e + EDID_DESC(2);
	d[3] = 0xfc;
	memcpy(d + 5, name, sizeof(name));
	d = e + EDID_DESC(3);
	d[3] = 0x10;		/* dummy descriptor */
	e[126] = 1;		/* one extension */
	vcap_edid_checksum(e);
}

/* Block 1, CEA-861: the video codes of every timing offered, and HDMI. */
static void vcap_edid_cea(struct vcap_dev *vdev, u8 *e)
{
	/* HDMI vendor-specific data block: IEEE OUI 00-0C-03, address 1.0.0.0. */
	static const u8 hdmi_vsdb[6] = { 3 << 5 | 5, 0x03, 0x0c, 0x00, 0x10, 0x00 };
	unsigned int i, n = 0;
	u8 *svd = e + 5;

	e[0] = 0x02;
	e[1] = 0x03;
	e[3] = 0x30;		/* YCbCr 4:4:4 and 4:2:2 */
	for (i = 0; i < vdev->num_dv && n < 31; i++) {
		const struct v4l2_bt_timings *bt = &vdev->dv_list[i].bt;

		if (!(bt->flags & V4L2_DV_FL_HAS_CEA861_VIC))
			continue;
		svd[n] = bt->cea861_vic;
		/* The preferred timing is the native one. */
		if (bt->cea861_vic < 65 &&
		    v4l2_match_dv_timings(&vdev->dv_list[i], &vdev->dv_timings,
					  0, false))
			svd[n] |= 0x80;
		n++;
	}
	e[4] = 2 << 5 | n;	/* video data block */
	memcpy(svd + n, hdmi_vsdb, sizeof(hdmi_vsdb));
	e[2] = 5 + n + sizeof(hdmi_vsdb);	/* no detailed timings follow */
	vcap_edid_checksum(e);
}

void vcap_edid_default(struct vcap_dev *vdev)
{
	memset(vdev->edid, 0, sizeof(vdev->edid));
	vcap_edid_base(vdev, vdev->edid);
	vcap_edid_cea(vdev, vdev->edid + EDID_BLOCK);
	vdev->edid_blocks = 2;
}

/*
 * The EDID to the board's memory: data, then the block count, then the
 * generation that tells the receiver to take it.  The caller holds lock,
 * or is probing.
 */
int vcap_edid_write(struct vcap_dev *vdev)
{
	u32 i, len = vdev->edid_blocks * EDID_BLOCK;
	int idx;

	if (!vcap_enter(vdev, &idx))
		return -ENODEV;
	for (i = 0; i < len; i += 4)
		vcap_wr32(vdev, VCAP_OFF_EDID(data) + i,
			  vdev->edid[i] | vdev->edid[i + 1] << 8 |
			  vdev->edid[i + 2] << 16 | (u32)vdev->edid[i + 3] << 24);
	/* Data, count and generation reach the board in that order ... */
	wmb();
	vcap_wr32(vdev, VCAP_OFF_EDID(blocks), vdev->edid_blocks);
	/* The count before the generation. */
	wmb();
	vcap_wr32(vdev, VCAP_OFF_EDID(gen), ++vdev->edid_gen);
	/* ... and all before the doorbell that announces them. */
	wmb();
	vdev->ops->doorbell(vdev);
	vcap_exit(vdev, idx);
	return 0;
}

/* For a video node, pad is the input: only the receiver has an EDID. */
int vcap_g_edid(struct file *file, void *priv, struct v4l2_edid *edid)
{
	struct vcap_dev *vdev = video_drvdata(file);

	if (!vdev->hdmi || edid->pad != VCAP_V4L2_INPUT_HDMI)
		return -EINVAL;
	memset(edid->reserved, 0, sizeof(edid->reserved));
	if (!edid->start_block && !edid->blocks) {
		edid->blocks = vdev->edid_blocks;
		return 0;
	}
	if (!vdev->edid_blocks)
		return -ENODATA;
	if (edid->start_block >= vdev->edid_blocks)
		return -EINVAL;
	edid->blocks = min(edid->blocks,
			   vdev->edid_blocks - edid->start_block);
	memcpy(edid->edid, vdev->edid + edid->start_block * EDID_BLOCK,
	       edid->blocks * EDID_BLOCK);
	return 0;
}

int vcap_s_edid(struct file *file, void *priv, struct v4l2_edid *edid)
{
	struct vcap_dev *vdev = video_drvdata(file);

	if (!vdev->hdmi || edid->pad != VCAP_V4L2_INPUT_HDMI)
		return -EINVAL;
	memset(edid->reserved, 0, sizeof(edid->reserved));
	if (edid->start_block)
		return -EINVAL;
	if (edid->blocks > VCAP_EDID_MAX_BLOCKS) {
		edid->blocks = VCAP_EDID_MAX_BLOCKS;
		return -E2BIG;
	}
	if (edid->blocks && !vcap_edid_valid(edid->edid, edid->blocks))
		return -EINVAL;
	memcpy(vdev->edid, edid->edid, edid->blocks * EDID_BLOCK);
	vdev->edid_blocks = edid->blocks;
	return vcap_edid_write(vdev);
}
