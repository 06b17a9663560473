// SPDX-License-Identifier: GPL-2.0
/*
 * vcap watchdog: the heartbeat and magic of a board, the changes of mode
 * or signal a board makes by itself (the HDMI link's among them), and a
 * delivery kick in case an interrupt was lost.
 */
#include <linux/jiffies.h>
#include <linux/mutex.h>

#include "vcap.h"
#include "vcap-board.h"
#include "vcap-deliver.h"
#include "vcap-dma.h"
#include "vcap-dv.h"
#include "vcap-watchdog.h"

static unsigned int heartbeat_timeout_ms = 2000;
module_param(heartbeat_timeout_ms, uint, 0644);
MODULE_PARM_DESC(heartbeat_timeout_ms,
		 "a streaming board whose heartbeat stops this long is declared dead, ms (200-60000, default 2000)");

/* Called by a board when its mode or signal changed; any context. */
void vcap_status_changed(struct vcap_dev *vdev)
{
	atomic64_inc(&vdev->stats.interrupts);
	if (READ_ONCE(vdev->active))
		mod_delayed_work(vdev->wq, &vdev->watchdog, 0);
}

static void vcap_board_failed(struct vcap_dev *vdev, const char *why)
{
	atomic64_inc(&vdev->stats.errors);
	vcap_board_log(vdev, KERN_ERR, "board fault: %s\n", why);
	mutex_lock(&vdev->lock);
	mutex_lock(&vdev->deliver_lock);
	vdev->board_dead = true;
	mutex_unlock(&vdev->deliver_lock);
	/* What the board holds it may still write: never reuse it. */
	vcap_dma_abandon(vdev, why);
	vcap_v4l2_return_buffers(vdev, VB2_BUF_STATE_ERROR);
	mutex_unlock(&vdev->lock);
}

/*
 * The board runs a mode_gen the driver did not ask for: it restarted and
 * re-applied the request it found in memory (after "die", or a reset),
 * and numbers its frames from 0 again.  Take its ring as an acknowledged
 * request is taken, checked against the mode the stream runs, so that
 * delivery resumes.  A board now in another mode keeps the old ring and
 * is the caller's source change.  The caller holds the presence guard.
 */
static void vcap_follow_mode_gen(struct vcap_dev *vdev, u32 gen)
{
	struct vcap_ring want, ring;

	/* A request in flight sets the ring itself: look again next tick. */
	if (!mutex_trylock(&vdev->req_lock))
		return;
	want = vdev->ring;
	if (want.valid && want.mode_gen != gen &&
	    !vcap_read_ring(vdev, &want, &ring, false)) {
		mutex_lock(&vdev->deliver_lock);
		vcap_deliver_set_ring(vdev, &ring);
		mutex_unlock(&vdev->deliver_lock);
		vcap_board_log(vdev, KERN_INFO,
			       "board restarted its mode (generation %u), delivery resumes\n",
			       ring.mode_gen);
	}
	mutex_unlock(&vdev->req_lock);
}

/*
 * The watchdog: the heartbeat of a streaming board, its magic, a change
 * of mode or signal made by the board itself, and a delivery kick in case
 * an interrupt was lost.
 */
void vcap_watchdog(struct work_struct *work)
{
	struct vcap_dev *vdev = container_of(to_delayed_work(work),
					     struct vcap_dev, watchdog);
	bool streaming = READ_ONCE(vdev->streaming);
	bool change = false, resolution = false, dead, revive = false;
	bool link_change = false;
	u32 magic, gen, state, w, h, fourcc, link_gen = 0;
	unsigned long timeout;
	const char *why = NULL;
	struct vcap_ring ring;
	u64 hb;
	int idx;

	/* Unregistering: the nodes and controls may be gone already. */
	if (!READ_ONCE(vdev->active))
		return;
	if (!vcap_enter(vdev, &idx))
		return;
	magic = vcap_rd32(vdev, VCAP_OFF_INFO(magic));
	hb = vcap_rd64(vdev, VCAP_OFF_STATUS(heartbeat));
	gen = vcap_rd32(vdev, VCAP_OFF_STATUS(mode_gen));
	state = vcap_rd32(vdev, VCAP_OFF_STATUS(state));
	fourcc = vcap_rd32(vdev, VCAP_OFF_STATUS(fourcc));
	w = vcap_rd32(vdev, VCAP_OFF_STATUS(width));
	h = vcap_rd32(vdev, VCAP_OFF_STATUS(height));
	if (vdev->hdmi)
		link_gen = vcap_dv_link_gen(vdev);
	if (streaming && magic == VCAP_BOARD_MAGIC &&
	    state != VCAP_STATE_STOPPED)
		vcap_follow_mode_gen(vdev, gen);
	/* A board that can say what it published says it again. */
	if (magic != VCAP_BOARD_MAGIC && vdev->ops->reset)
		vdev->ops->reset(vdev);
	vcap_exit(vdev, idx);

	mutex_lock(&vdev->deliver_lock);
	dead = vdev->board_dead;
	ring = vdev->ring;
	mutex_unlock(&vdev->deliver_lock);

	timeout = msecs_to_jiffies(clamp(heartbeat_timeout_ms, 200u, 60000u));
	spin_lock(&vdev->wd_lock);
	if (magic != VCAP_BOARD_MAGIC) {
		why = "control page lost its magic";
	} else if (hb != vdev->last_heartbeat) {
		vdev->last_heartbeat = hb;
		vdev->heartbeat_jiffies = jiffies;
		revive = dead;
	} else if (time_after(jiffies, vdev->heartbeat_jiffies + timeout)) {
		why = "heartbeat stopped";
	}

	/*
	 * A stopped board has no mode to compare: one that restarted is
	 * stopped until it re-applies the request in memory.
	 */
	if (streaming && state != VCAP_STATE_STOPPED &&
	    (gen != vdev->last_mode_gen || state != vdev->last_state)) {
		/*
		 * A signal lost while frames flowed; a start that waits for
		 * one (an HDMI input without its source) is no news.
		 */
		if (state == VCAP_STATE_NO_SIGNAL &&
		    vdev->last_state == VCAP_STATE_STREAMING)
			change = true;
		if (ring.valid && (fourcc != ring.fourcc ||
				   w != ring.width || h != ring.height)) {
			change = true;
			resolution = true;
		}
	}
	vdev->last_mode_gen = gen;
	vdev->last_state = state;
	if (vdev->hdmi && magic == VCAP_BOARD_MAGIC &&
	    link_gen != vdev->last_link_gen) {
		link_change = true;
		vdev->last_link_gen = link_gen;
	}
	spin_unlock(&vdev->wd_lock);

	if (streaming && why && !dead) {
		vcap_board_failed(vdev, why);
	} else if (streaming && revive) {
		vcap_board_log(vdev, KERN_INFO, "board is alive again\n");
		mutex_lock(&vdev->deliver_lock);
		vdev->board_dead = false;
		vcap_deliver_resync(vdev);
		mutex_unlock(&vdev->deliver_lock);
	}
	if (change) {
		vcap_board_log(vdev, KERN_INFO,
			       "board changed its mode or signal\n");
		mutex_lock(&vdev->lock);
		vcap_v4l2_source_change(vdev, resolution,
					vcap_find_mode(vdev, fourcc, w, h));
		mutex_unlock(&vdev->lock);
	}
	if (link_change)
		vcap_dv_link_changed(vdev);
	if (streaming)
		queue_work(vdev->wq, &vdev->deliver_work);
	if (READ_ONCE(vdev->active))
		queue_delayed_work(vdev->wq, &vdev->watchdog,
				   msecs_to_jiffies(VCAP_WATCHDOG_MS));
}
