// SPDX-License-Identifier: GPL-2.0
/*
 * A module that leaks one allocation when it loads: the VM runner's own
 * test that kmemleak's reports on the debug kernel fail a run.
 */
#include <linux/module.h>
#include <linux/slab.h>

static void *vcap_leak;

static int __init vcap_leak_init(void)
{
	vcap_leak = kmalloc(512, GFP_KERNEL);
	if (!vcap_leak)
		return -ENOMEM;
	/* Forget it: nothing refers to the allocation any more. */
	vcap_leak = NULL;
	return 0;
}

static void __exit vcap_leak_exit(void)
{
}

module_init(vcap_leak_init);
module_exit(vcap_leak_exit);
MODULE_DESCRIPTION("A deliberate leak, for the VM runner's kmemleak check");
MODULE_LICENSE("GPL");
