/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap watchdog: board liveness, changes the board makes by itself, and
 * the fallback delivery kick.
 */
#ifndef _VCAP_WATCHDOG_H
#define _VCAP_WATCHDOG_H

#include "vcap.h"

/* Watchdog period; also the fallback poll when interrupts are lost. */
#define VCAP_WATCHDOG_MS	100

/* The watchdog work (vcap_dev.watchdog). */
void vcap_watchdog(struct work_struct *work);

#endif /* _VCAP_WATCHDOG_H */
