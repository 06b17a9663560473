// SPDX-License-Identifier: GPL-2.0
/*
 * vcap core: module entry and parameters, and the life of a device, from
 * a board driver's vcap_dev_alloc() to the last reference's release.
 */
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-board.h"
#include "vcap-deliver.h"
#include "vcap-dma.h"
#include "vcap-inject.h"
#include "vcap-mem.h"
#include "vcap-watchdog.h"

static unsigned int soft_boards;
module_param(soft_boards, uint, 0444);
MODULE_PARM_DESC(soft_boards,
		 "number of software boards to create (0-16, default 0)");

bool vcap_vram_writable;
module_param_named(vram_writable, vcap_vram_writable, bool, 0444);
MODULE_PARM_DESC(vram_writable,
		 "allow PROT_WRITE mappings of /dev/vcapN opened O_RDWR (default N)");

static DEFINE_IDA(vcap_ida);

static void vcap_dev_release(struct kref *kref)
{
	struct vcap_dev *vdev = container_of(kref, struct vcap_dev, kref);

	if (vdev->wq) {
		/* Nothing may be left queued on a workqueue being destroyed. */
		cancel_delayed_work_sync(&vdev->watchdog);
		cancel_work_sync(&vdev->deliver_work);
		destroy_workqueue(vdev->wq);
	}
	vcap_mem_pool_put(vdev->pool);
	vcap_vram_release(vdev);
	cleanup_srcu_struct(&vdev->srcu);
	if (vdev->index < VCAP_MAX_BOARDS)
		ida_free(&vcap_ida, vdev->index);
	kfree(vdev->modes);
	kfree(vdev);
}

void vcap_dev_get(struct vcap_dev *vdev)
{
	kref_get(&vdev->kref);
}

void vcap_dev_put(struct vcap_dev *vdev)
{
	kref_put(&vdev->kref, vcap_dev_release);
}

/*
 * A device for a board whose BAR2 (control page and VRAM) is bar_size
 * bytes.  The board driver owns the returned reference.
 */
struct vcap_dev *vcap_dev_alloc(struct device *parent,
				const struct vcap_board_ops *ops, void *board,
				u64 bar_size)
{
	struct vcap_dev *vdev;
	int ret;

	vdev = vcap_inject_fail(VCAP_FAIL_ALLOC) ? NULL :
	       kzalloc_obj(*vdev, GFP_KERNEL);
	if (!vdev)
		return ERR_PTR(-ENOMEM);
	kref_init(&vdev->kref);
	vdev->index = VCAP_MAX_BOARDS;
	ret = init_srcu_struct(&vdev->srcu);
	if (ret) {
		kfree(vdev);
		return ERR_PTR(ret);
	}
	ret = ida_alloc_max(&vcap_ida, VCAP_MAX_BOARDS - 1, GFP_KERNEL);
	if (ret == -ENOSPC)
		dev_err(parent, "no free board number: vcap serves %d boards, software and PCI together\n",
			VCAP_MAX_BOARDS);
	if (ret < 0)
		goto err;
	vdev->index = ret;
	vdev->parent = parent;
	vdev->ops = ops;
	vdev->board = board;
	vdev->bar_size = bar_size;
	vdev->xfer = &vcap_copy_transfer;
	ratelimit_state_init(&vdev->board_log_rs, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);
	mutex_init(&vdev->req_lock);
	mutex_init(&vdev->deliver_lock);
	mutex_init(&vdev->lock);
	spin_lock_init(&vdev->wd_lock);
	spin_lock_init(&vdev->buf_lock);
	INIT_LIST_HEAD(&vdev->buf_list);
	INIT_LIST_HEAD(&vdev->done_list);
	INIT_WORK(&vdev->deliver_work, vcap_deliver_work);
	INIT_DELAYED_WORK(&vdev->watchdog, vcap_watchdog);
	init_waitqueue_head(&vdev->frame_wq);
	if (!vcap_inject_fail(VCAP_FAIL_ALLOC))
		vdev->wq = alloc_ordered_workqueue("vcap%u", WQ_HIGHPRI,
						   vdev->index);
	if (!vdev->wq) {
		ret = -ENOMEM;
		goto err;
	}
	vdev->pool = vcap_mem_pool_create();
	if (!vdev->pool) {
		ret = -ENOMEM;
		goto err;
	}
	return vdev;
err:
	vcap_dev_put(vdev);
	return ERR_PTR(ret);
}

/*
 * Check the board's control page.  -ENODEV: not a vcap board.  A board
 * driver probes, then sets up what feeds vcap_frame_done() and
 * vcap_status_changed() (interrupts, a poll timer), and registers last.
 */
int vcap_dev_probe(struct vcap_dev *vdev)
{
	return vcap_board_probe(vdev);
}

/*
 * Create the nodes and start the watchdog: the device is live when this
 * returns 0.  On an error nothing is left registered or queued.
 */
int vcap_dev_register(struct vcap_dev *vdev)
{
	int ret;

	ret = vcap_dma_init(vdev);
	if (ret)
		return ret;
	ret = vcap_v4l2_register(vdev);
	if (ret)
		goto err_dma;
	ret = vcap_vram_register(vdev);
	if (ret)
		goto err_v4l2;
	dev_info(vdev->parent,
		 "vcap%u: %s board \"%s\" serial \"%s\", %llu MiB, %u modes, %s, frames by %s\n",
		 vdev->index, vdev->soft ? "software" : "PCI", vdev->name,
		 vdev->serial, vdev->bar_size >> 20, vdev->num_modes,
		 vdev->irq ? "interrupts" : "polled", vdev->xfer->name);
	WRITE_ONCE(vdev->active, true);
	queue_delayed_work(vdev->wq, &vdev->watchdog,
			   msecs_to_jiffies(VCAP_WATCHDOG_MS));
	return 0;
err_v4l2:
	vcap_v4l2_unregister(vdev);
err_dma:
	vcap_dma_fini(vdev);
	return ret;
}

/*
 * Remove the nodes, stop the board, and make sure nothing touches it
 * again: after this returns the board driver may unmap and free it.
 * The reverse of vcap_dev_register().  Unregistering the video node
 * stops a running stream, with the board's acknowledgment when it
 * writes into the buffers, and frees the buffers' DMA state; the rings
 * go last, once no delivery work can read them.
 */
void vcap_dev_unregister(struct vcap_dev *vdev)
{
	/*
	 * The watchdog raises events and sets controls: it stops before
	 * the video node and its controls go.  Once active is false, a run
	 * an interrupt queues after this returns does nothing.
	 */
	WRITE_ONCE(vdev->active, false);
	cancel_delayed_work_sync(&vdev->watchdog);
	vcap_v4l2_unregister(vdev);
	vcap_board_end_dma(vdev);
	WRITE_ONCE(vdev->gone, true);
	synchronize_srcu(&vdev->srcu);
	/* No VRAM fault can map a page now: zap the mappings that exist. */
	vcap_vram_unregister(vdev);
	mutex_lock(&vdev->deliver_lock);
	WRITE_ONCE(vdev->streaming, false);
	mutex_unlock(&vdev->deliver_lock);
	cancel_work_sync(&vdev->deliver_work);
	vcap_dma_fini(vdev);
	wake_up_interruptible_all(&vdev->frame_wq);
}

static int __init vcap_init(void)
{
	int ret;

	if (soft_boards > VCAP_MAX_BOARDS) {
		pr_warn("vcap: soft_boards=%u clamped to %u\n", soft_boards,
			VCAP_MAX_BOARDS);
		soft_boards = VCAP_MAX_BOARDS;
	}
	vcap_inject_init();
	ret = vcap_vram_init();
	if (ret)
		goto err_inject;
	ret = vcap_pci_init();
	if (ret)
		goto err_vram;
	ret = vcap_soft_init(soft_boards);
	if (ret)
		goto err_pci;
	return 0;
err_pci:
	vcap_pci_exit();
err_vram:
	vcap_vram_exit();
err_inject:
	vcap_inject_exit();
	return ret;
}

static void __exit vcap_exit_module(void)
{
	vcap_soft_exit();
	vcap_pci_exit();
	vcap_vram_exit();
	vcap_inject_exit();
	ida_destroy(&vcap_ida);
}

module_init(vcap_init);
module_exit(vcap_exit_module);

MODULE_DESCRIPTION("vcap video capture card");
MODULE_AUTHOR("The vcap authors");
MODULE_LICENSE("GPL");
