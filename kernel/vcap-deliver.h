/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap frame delivery: from the board's ring into queued V4L2 buffers.
 * Everything here runs under deliver_lock, taken by the caller.
 */
#ifndef _VCAP_DELIVER_H
#define _VCAP_DELIVER_H

#include "vcap.h"

/* Take a ring the board acknowledged or restarted with. */
void vcap_deliver_set_ring(struct vcap_dev *vdev,
			   const struct vcap_ring *ring);
/* Deliver only frames newer than now; the V4L2 sequence runs on. */
void vcap_deliver_resync(struct vcap_dev *vdev);
/* A new stream: V4L2 sequence 0, and no frame from before it. */
void vcap_deliver_reset(struct vcap_dev *vdev);

/* The delivery work (vcap_dev.deliver_work). */
void vcap_deliver_work(struct work_struct *work);

#endif /* _VCAP_DELIVER_H */
