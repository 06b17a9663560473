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

/*
 * How frames reach the V4L2 buffers: copied out of the board's ring by
 * the CPU, or written by the board itself (vcap-dma.c).  One table per
 * transfer mode, chosen at registration; both are always built.  The
 * buffer hooks run under the queue lock, deliver under deliver_lock.
 */
struct vcap_transfer_ops {
	const char *name;		/* sysfs "transfer", the log */
	int (*buf_init)(struct vcap_dev *vdev, struct vcap_buffer *buf);
	void (*buf_cleanup)(struct vcap_dev *vdev, struct vcap_buffer *buf);
	void (*buf_queue)(struct vcap_dev *vdev, struct vcap_buffer *buf);
	void (*deliver)(struct vcap_dev *vdev);
};

extern const struct vcap_transfer_ops vcap_copy_transfer;

/* LOG_STATUS: the transfer mode and what it counted. */
void vcap_deliver_log_status(struct vcap_dev *vdev);

/*
 * For a transfer mode: the time a frame ended, from the board's stamp
 * (checked), and a filled buffer handed to vcap_deliver_complete().
 */
u64 vcap_deliver_time(struct vcap_dev *vdev, u64 board_ns, u64 now);
/*
 * The sequence: frames lost before board frame seq, and seq handled
 * with them.
 */
u32 vcap_deliver_gap(struct vcap_dev *vdev, u64 seq);
void vcap_deliver_advance(struct vcap_dev *vdev, u64 seq, u32 gap);
void vcap_deliver_fill_done(struct vcap_dev *vdev, struct vcap_buffer *buf,
			    u32 sequence, u64 timestamp,
			    enum vb2_buffer_state state);

#endif /* _VCAP_DELIVER_H */
