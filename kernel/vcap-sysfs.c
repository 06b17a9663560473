// SPDX-License-Identifier: GPL-2.0
/* vcap statistics: per-board counters under /sys/class/vcap/vcapN/stats/. */
#include <linux/device.h>
#include <linux/sysfs.h>

#include "vcap.h"

#define VCAP_STAT_ATTR(field)						\
static ssize_t field##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct vcap_dev *vdev = dev_get_drvdata(dev);			\
									\
	return sysfs_emit(buf, "%lld\n",				\
			  atomic64_read(&vdev->stats.field));		\
}									\
static DEVICE_ATTR_RO(field)

VCAP_STAT_ATTR(delivered);
VCAP_STAT_ATTR(dropped);
VCAP_STAT_ATTR(torn);
VCAP_STAT_ATTR(rejected);
VCAP_STAT_ATTR(interrupts);
VCAP_STAT_ATTR(latency_ns);
VCAP_STAT_ATTR(errors);

static struct attribute *vcap_stats_attrs[] = {
	&dev_attr_delivered.attr,
	&dev_attr_dropped.attr,
	&dev_attr_torn.attr,
	&dev_attr_rejected.attr,
	&dev_attr_interrupts.attr,
	&dev_attr_latency_ns.attr,
	&dev_attr_errors.attr,
	NULL
};

static const struct attribute_group vcap_stats_group = {
	.name = "stats",
	.attrs = vcap_stats_attrs,
};

const struct attribute_group *vcap_stats_groups[] = {
	&vcap_stats_group,
	NULL
};
