/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap fault injection: fail the Nth allocation, board request, IRQ setup
 * or node registration on purpose, so that every error path of probe and
 * streaming can be walked from user space.
 */
#ifndef _VCAP_INJECT_H
#define _VCAP_INJECT_H

#include <linux/types.h>

enum vcap_fail_point {
	VCAP_FAIL_ALLOC,	/* a memory or workqueue allocation */
	VCAP_FAIL_REQUEST,	/* a mode request to the board */
	VCAP_FAIL_IRQ,		/* interrupt setup of a PCI board */
	VCAP_FAIL_REGISTER,	/* registration of a device node */
};

/*
 * Called at each point that can fail; true when this one is to fail.
 * Cheap when nothing is armed.
 */
bool vcap_inject_fail(enum vcap_fail_point point);

void vcap_inject_init(void);
void vcap_inject_exit(void);

#endif /* _VCAP_INJECT_H */
