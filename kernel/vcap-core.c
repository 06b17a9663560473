// SPDX-License-Identifier: GPL-2.0
/* vcap module entry points. */
#include <linux/module.h>

static int __init vcap_init(void)
{
	return 0;
}

static void __exit vcap_exit(void)
{
}

module_init(vcap_init);
module_exit(vcap_exit);

MODULE_DESCRIPTION("vcap video capture card");
MODULE_LICENSE("GPL");
