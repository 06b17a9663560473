// SPDX-License-Identifier: GPL-2.0
/* vcap sysfs: the board's serial and its counters, /sys/class/vcap/vcapN/. */
#include <linux/device.h>
#include <linux/sysfs.h>

#include "vcap.h"
#include "vcap-deliver.h"

/*
 * The serial the board published, validated at probe (printable ASCII,
 * NUL-terminated) and constant afterwards: udev names the board's nodes
 * by it.
 */
static ssize_t serial_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct vcap_dev *vdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", vdev->serial);
}
static DEVICE_ATTR_RO(serial);

/*
 * How frames reach the V4L2 buffers: "dma", written by the board, or
 * "copy", copied by the driver.  Chosen at probe, constant afterwards.
 */
static ssize_t transfer_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct vcap_dev *vdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", vdev->xfer->name);
}
static DEVICE_ATTR_RO(transfer);

static struct attribute *vcap_board_attrs[] = {
	&dev_attr_serial.attr,
	&dev_attr_transfer.attr,
	NULL
};

static const struct attribute_group vcap_board_group = {
	.attrs = vcap_board_attrs,
};

/* One counter of struct vcap_stats, found by its offset. */
struct vcap_stat_attr {
	struct device_attribute attr;
	size_t off;
};

static ssize_t vcap_stat_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct vcap_stat_attr *sa = container_of(attr, struct vcap_stat_attr,
						 attr);
	struct vcap_dev *vdev = dev_get_drvdata(dev);
	atomic64_t *v = (void *)&vdev->stats + sa->off;

	return sysfs_emit(buf, "%lld\n", atomic64_read(v));
}

static struct vcap_stat_attr vcap_stat_attrs[] = {
	{ __ATTR(delivered, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, delivered) },
	{ __ATTR(dropped, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, dropped) },
	{ __ATTR(torn, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, torn) },
	{ __ATTR(rejected, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, rejected) },
	{ __ATTR(interrupts, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, interrupts) },
	{ __ATTR(latency_ns, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, latency_ns) },
	{ __ATTR(errors, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, errors) },
	{ __ATTR(dma_refused, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, dma_refused) },
	{ __ATTR(dma_quarantined_pages, 0444, vcap_stat_show, NULL),
	  offsetof(struct vcap_stats, dma_quarantined_pages) },
};

static struct attribute *vcap_stats_attrs[] = {
	&vcap_stat_attrs[0].attr.attr,
	&vcap_stat_attrs[1].attr.attr,
	&vcap_stat_attrs[2].attr.attr,
	&vcap_stat_attrs[3].attr.attr,
	&vcap_stat_attrs[4].attr.attr,
	&vcap_stat_attrs[5].attr.attr,
	&vcap_stat_attrs[6].attr.attr,
	&vcap_stat_attrs[7].attr.attr,
	&vcap_stat_attrs[8].attr.attr,
	NULL
};

static const struct attribute_group vcap_stats_group = {
	.name = "stats",
	.attrs = vcap_stats_attrs,
};

const struct attribute_group *vcap_stats_groups[] = {
	&vcap_board_group,
	&vcap_stats_group,
	NULL
};
