// SPDX-License-Identifier: GPL-2.0
/*
 * vcap PCI board: QEMU's ivshmem device (1af4:1110) played by the vcap-fw
 * firmware.  BAR2 is the board memory, BAR0 the ivshmem registers.  With
 * ivshmem-doorbell (BAR1 holds an MSI-X table) frame-done and status
 * changes are interrupts; with ivshmem-plain an hrtimer polls the status.
 *
 * BAR2 is mapped write-back: on ivshmem it is host RAM shared with the
 * firmware, and any other attribute would only slow every access down.  A
 * real card's frame memory would be mapped write-combining for user space
 * (uncached for its registers).  A board with VCAP_CAP_DMA writes frames
 * into the guest's RAM itself, through the PCI device's bus addresses
 * (the guest-physical ones: ivshmem sits behind no IOMMU).
 */
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-copy.h"
#include "vcap-inject.h"

static unsigned int poll_us = 1000;
module_param(poll_us, uint, 0444);
MODULE_PARM_DESC(poll_us,
		 "status poll period of boards without interrupts, us (100-100000, default 1000)");

/* ivshmem BAR0 registers (QEMU docs/specs/ivshmem-spec.rst). */
#define IVSHMEM_INTRMASK	0
#define IVSHMEM_INTRSTATUS	4
#define IVSHMEM_IVPOSITION	8
#define IVSHMEM_DOORBELL	12
#define IVSHMEM_REGS_SIZE	16

struct vcap_pci {
	struct pci_dev *pdev;
	struct vcap_dev *vdev;
	void __iomem *regs;		/* BAR0 */
	void __iomem *mem;		/* BAR2 */
	resource_size_t mem_start;
	resource_size_t mem_len;
	u32 peer_id;
	int nvec;			/* MSI-X vectors, 0 when polled */
	bool registered;

	/* Polling, without interrupts; touched by the timer only. */
	struct hrtimer poll;
	ktime_t poll_period;
	u32 last_seq;
	u32 last_comp;
	u32 last_gen;
	u32 last_state;
};

static u32 vcap_pci_read32(struct vcap_dev *vdev, u32 off)
{
	struct vcap_pci *vp = vdev->board;

	return readl(vp->mem + off);
}

static void vcap_pci_write32(struct vcap_dev *vdev, u32 off, u32 val)
{
	struct vcap_pci *vp = vdev->board;

	writel(val, vp->mem + off);
}

static void vcap_pci_copy_from(struct vcap_dev *vdev, void *dst, u64 off,
			       size_t len)
{
	struct vcap_pci *vp = vdev->board;

	vcap_copy_frame_fromio(dst, vp->mem + off, len);
}

static void vcap_pci_doorbell(struct vcap_dev *vdev)
{
	struct vcap_pci *vp = vdev->board;

	writel((vdev->fw_peer_id & 0xffff) << 16 | VCAP_FW_VEC_REQUEST,
	       vp->regs + IVSHMEM_DOORBELL);
}

static unsigned long vcap_pci_pfn(struct vcap_dev *vdev, u64 off)
{
	struct vcap_pci *vp = vdev->board;

	return (vp->mem_start + off) >> PAGE_SHIFT;
}

static const struct vcap_board_ops vcap_pci_ops = {
	.read32 = vcap_pci_read32,
	.write32 = vcap_pci_write32,
	.copy_from = vcap_pci_copy_from,
	.doorbell = vcap_pci_doorbell,
	.pfn = vcap_pci_pfn,
	.dma = true,
};

static irqreturn_t vcap_pci_frame_irq(int irq, void *data)
{
	struct vcap_pci *vp = data;

	vcap_frame_done(vp->vdev);
	return IRQ_HANDLED;
}

static irqreturn_t vcap_pci_status_irq(int irq, void *data)
{
	struct vcap_pci *vp = data;

	vcap_status_changed(vp->vdev);
	return IRQ_HANDLED;
}

static enum hrtimer_restart vcap_pci_poll(struct hrtimer *timer)
{
	struct vcap_pci *vp = container_of(timer, struct vcap_pci, poll);
	struct vcap_dev *vdev = vp->vdev;
	u32 seq, comp = 0, gen, state;
	int idx;

	if (!vcap_enter(vdev, &idx))
		return HRTIMER_NORESTART;
	seq = readl(vp->mem + VCAP_OFF_STATUS(latest_seq));
	/* Frames written into host memory count from ABI 2 on. */
	if (vdev->board_abi >= 2)
		comp = readl(vp->mem + VCAP_OFF_DMA(comp_head));
	gen = readl(vp->mem + VCAP_OFF_STATUS(mode_gen));
	state = readl(vp->mem + VCAP_OFF_STATUS(state));
	vcap_exit(vdev, idx);
	if (seq != vp->last_seq || comp != vp->last_comp) {
		vp->last_seq = seq;
		vp->last_comp = comp;
		vcap_frame_done(vdev);
	}
	if (gen != vp->last_gen || state != vp->last_state) {
		vp->last_gen = gen;
		vp->last_state = state;
		vcap_status_changed(vdev);
	}
	hrtimer_forward_now(timer, vp->poll_period);
	return HRTIMER_RESTART;
}

static int vcap_pci_setup_irqs(struct vcap_pci *vp)
{
	struct pci_dev *pdev = vp->pdev;
	int ret;

	if (vcap_inject_fail(VCAP_FAIL_IRQ))
		return -ENOSPC;
	/* Without bus mastering QEMU drops the MSI-X writes. */
	pci_set_master(pdev);
	ret = pci_alloc_irq_vectors(pdev, VCAP_NUM_VECTORS, VCAP_NUM_VECTORS,
				    PCI_IRQ_MSIX);
	if (ret < 0)
		return ret;
	vp->nvec = ret;
	ret = request_irq(pci_irq_vector(pdev, VCAP_VEC_FRAME),
			  vcap_pci_frame_irq, 0, "vcap-frame", vp);
	if (ret)
		goto err_vectors;
	ret = request_irq(pci_irq_vector(pdev, VCAP_VEC_STATUS),
			  vcap_pci_status_irq, 0, "vcap-status", vp);
	if (ret)
		goto err_frame;
	return 0;
err_frame:
	free_irq(pci_irq_vector(pdev, VCAP_VEC_FRAME), vp);
err_vectors:
	pci_free_irq_vectors(pdev);
	vp->nvec = 0;
	return ret;
}

static void vcap_pci_teardown_irqs(struct vcap_pci *vp)
{
	if (!vp->nvec)
		return;
	free_irq(pci_irq_vector(vp->pdev, VCAP_VEC_STATUS), vp);
	free_irq(pci_irq_vector(vp->pdev, VCAP_VEC_FRAME), vp);
	pci_free_irq_vectors(vp->pdev);
	vp->nvec = 0;
}

/* Probe's reverse, from whatever point probe reached. */
static void vcap_pci_destroy(struct vcap_pci *vp)
{
	if (vp->registered)
		vcap_dev_unregister(vp->vdev);
	hrtimer_cancel(&vp->poll);
	if (vp->nvec)
		writel(0, vp->regs + IVSHMEM_INTRMASK);
	vcap_pci_teardown_irqs(vp);
	if (!IS_ERR_OR_NULL(vp->vdev))
		vcap_dev_put(vp->vdev);
	if (vp->mem)
		iounmap(vp->mem);
	kfree(vp);
}

static int vcap_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct vcap_pci *vp;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	if (!(pci_resource_flags(pdev, 2) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, 2) < VCAP_CTRL_SIZE ||
	    !(pci_resource_flags(pdev, 0) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, 0) < IVSHMEM_REGS_SIZE)
		return -ENODEV;

	vp = vcap_inject_fail(VCAP_FAIL_ALLOC) ? NULL :
	     kzalloc_obj(*vp, GFP_KERNEL);
	if (!vp)
		return -ENOMEM;
	vp->pdev = pdev;
	hrtimer_setup(&vp->poll, vcap_pci_poll, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	vp->regs = pcim_iomap(pdev, 0, IVSHMEM_REGS_SIZE);
	if (!vp->regs) {
		ret = -ENOMEM;
		goto err;
	}
	vp->mem_start = pci_resource_start(pdev, 2);
	vp->mem_len = pci_resource_len(pdev, 2);
	vp->mem = ioremap_cache(vp->mem_start, vp->mem_len);
	if (!vp->mem) {
		ret = -ENOMEM;
		goto err;
	}
	/* Other ivshmem devices are not ours: leave them alone. */
	if (readl(vp->mem + VCAP_OFF_INFO(magic)) != VCAP_BOARD_MAGIC) {
		dev_info(dev, "ivshmem device without a vcap board\n");
		ret = -ENODEV;
		goto err;
	}
	vp->peer_id = readl(vp->regs + IVSHMEM_IVPOSITION);

	vp->vdev = vcap_dev_alloc(dev, &vcap_pci_ops, vp, vp->mem_len);
	if (IS_ERR(vp->vdev)) {
		ret = PTR_ERR(vp->vdev);
		goto err;
	}
	ret = vcap_dev_probe(vp->vdev);
	if (ret)
		goto err;

	/* What feeds the core's notifications, before the nodes appear. */
	if (pci_resource_len(pdev, 1)) {
		ret = vcap_pci_setup_irqs(vp);
		if (ret)
			dev_warn(dev, "no MSI-X (%d): polling instead\n", ret);
	}
	vp->vdev->irq = vp->nvec > 0;
	if (vp->nvec) {
		/* Interrupts are enabled through the mask on ivshmem. */
		writel(~0u, vp->regs + IVSHMEM_INTRMASK);
	} else {
		vp->poll_period = ns_to_ktime((u64)clamp(poll_us, 100u,
							 100000u) *
					      NSEC_PER_USEC);
		hrtimer_start(&vp->poll, vp->poll_period, HRTIMER_MODE_REL);
	}

	/* Last: once registered, user space can reach the board. */
	ret = vcap_dev_register(vp->vdev);
	if (ret)
		goto err;
	vp->registered = true;
	pci_set_drvdata(pdev, vp);
	dev_info(dev, "ivshmem peer %u, BAR2 %pa bytes\n", vp->peer_id,
		 &vp->mem_len);
	return 0;
err:
	vcap_pci_destroy(vp);
	return ret;
}

static void vcap_pci_remove(struct pci_dev *pdev)
{
	struct vcap_pci *vp = pci_get_drvdata(pdev);

	vcap_pci_destroy(vp);
}

static const struct pci_device_id vcap_pci_ids[] = {
	{ PCI_DEVICE(VCAP_PCI_VENDOR_ID, VCAP_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, vcap_pci_ids);

static struct pci_driver vcap_pci_driver = {
	.name = VCAP_DRV_NAME,
	.id_table = vcap_pci_ids,
	.probe = vcap_pci_probe,
	.remove = vcap_pci_remove,
};

int vcap_pci_init(void)
{
	return pci_register_driver(&vcap_pci_driver);
}

void vcap_pci_exit(void)
{
	pci_unregister_driver(&vcap_pci_driver);
}
