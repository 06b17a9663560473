// SPDX-License-Identifier: GPL-2.0
/*
 * vcap fault injection, through debugfs (vcap/ in its root):
 *
 *   fail_nth   write N > 0: the Nth injection point reached from now on
 *              fails, once; write 0 to disarm.  Reads the points left
 *              before it fires (0: disarmed or fired).
 *   fail_hits  injection points reached since fail_nth was last written.
 *   fail_last  the point that failed last: alloc, request, irq, register
 *              or none.
 *
 * Stock distribution kernels have no failslab, and a walk over N = 1, 2,
 * ... of probe or STREAMON reaches every error path of the driver in turn
 * (as the kernel's own fail_nth does for a task).  The knob is global to
 * the module: the walk is meant for one device at a time.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/seq_file.h>

#include "vcap-inject.h"

static const char * const vcap_fail_names[] = {
	[VCAP_FAIL_ALLOC] = "alloc",
	[VCAP_FAIL_REQUEST] = "request",
	[VCAP_FAIL_IRQ] = "irq",
	[VCAP_FAIL_REGISTER] = "register",
};

static atomic_t vcap_fail_nth = ATOMIC_INIT(0);
static atomic_t vcap_fail_hits = ATOMIC_INIT(0);
static int vcap_fail_last = -1;		/* READ_ONCE/WRITE_ONCE */
static struct dentry *vcap_inject_dir;

bool vcap_inject_fail(enum vcap_fail_point point)
{
	if (!atomic_read(&vcap_fail_nth))
		return false;
	atomic_inc(&vcap_fail_hits);
	/* Exactly one caller sees the countdown reach zero. */
	if (atomic_dec_if_positive(&vcap_fail_nth) != 0)
		return false;
	WRITE_ONCE(vcap_fail_last, point);
	pr_info("vcap: injected failure: %s\n", vcap_fail_names[point]);
	return true;
}

static int vcap_fail_nth_get(void *data, u64 *val)
{
	*val = atomic_read(&vcap_fail_nth);
	return 0;
}

static int vcap_fail_nth_set(void *data, u64 val)
{
	if (val > INT_MAX)
		return -EINVAL;
	atomic_set(&vcap_fail_nth, 0);
	atomic_set(&vcap_fail_hits, 0);
	atomic_set(&vcap_fail_nth, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(vcap_fail_nth_fops, vcap_fail_nth_get,
			 vcap_fail_nth_set, "%llu\n");

static int vcap_fail_hits_get(void *data, u64 *val)
{
	*val = atomic_read(&vcap_fail_hits);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(vcap_fail_hits_fops, vcap_fail_hits_get, NULL,
			 "%llu\n");

static int vcap_fail_last_show(struct seq_file *m, void *data)
{
	int last = READ_ONCE(vcap_fail_last);

	seq_printf(m, "%s\n", last < 0 ? "none" : vcap_fail_names[last]);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(vcap_fail_last);

void vcap_inject_init(void)
{
	vcap_inject_dir = debugfs_create_dir("vcap", NULL);
	debugfs_create_file_unsafe("fail_nth", 0600, vcap_inject_dir, NULL,
				   &vcap_fail_nth_fops);
	debugfs_create_file_unsafe("fail_hits", 0400, vcap_inject_dir, NULL,
				   &vcap_fail_hits_fops);
	debugfs_create_file("fail_last", 0400, vcap_inject_dir, NULL,
			    &vcap_fail_last_fops);
}

void vcap_inject_exit(void)
{
	debugfs_remove(vcap_inject_dir);
}
