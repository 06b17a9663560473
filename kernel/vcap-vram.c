// SPDX-License-Identifier: GPL-2.0
/*
 * vcap VRAM node: /dev/vcapN maps the board's BAR2 (control page and
 * frame ring) into user space for zero-copy live preview, and tells its
 * readers when a frame lands.
 *
 * Every open file's f_mapping is one per-device address space, whatever
 * inode the node was opened through, so that removal can zap every user
 * mapping with one unmap_mapping_range().  Pages are mapped by the fault
 * handler only, under the presence guard: once the board is gone a touch
 * faults and the handler answers SIGBUS.  The kernel never touches the
 * BAR for a mapping after remove.
 */
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/poll.h>
#include <linux/pseudo_fs.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <uapi/linux/vcap.h>

#include "compat.h"
#include "vcap.h"
#include "vcap-board.h"
#include "vcap-inject.h"

#define VCAP_FS_MAGIC		0x76636170	/* "vcap" */
#define VCAP_WAIT_MAX_MS	60000

struct vcap_vram_file {
	struct vcap_dev *vdev;
	bool writable;		/* may map PROT_WRITE */
	s64 seen;		/* frame_events at the last wait */
};

static dev_t vcap_devt;
static struct vfsmount *vcap_mnt;
static int vcap_mnt_count;

static struct class vcap_class = {
	.name = "vcap",
};

static int vcap_fs_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, VCAP_FS_MAGIC) ? 0 : -ENOMEM;
}

/*
 * The pseudo file system behind the per-device inodes.  It has no owner:
 * it is pinned from module init to exit, and a module reference held by
 * the mount would keep the module from ever unloading.
 */
static struct file_system_type vcap_fs_type = {
	.name = "vcap",
	.init_fs_context = vcap_fs_init_fs_context,
	.kill_sb = kill_anon_super,
};

static bool vcap_vram_gone(struct vcap_dev *vdev)
{
	return READ_ONCE(vdev->gone);
}

static int vcap_vram_open(struct inode *inode, struct file *file)
{
	struct vcap_dev *vdev = container_of(inode->i_cdev, struct vcap_dev,
					     cdev);
	struct vcap_vram_file *vf;

	if (vcap_vram_gone(vdev))
		return -ENODEV;
	vf = kzalloc_obj(*vf, GFP_KERNEL);
	if (!vf)
		return -ENOMEM;
	vcap_dev_get(vdev);
	vf->vdev = vdev;
	/* Only O_RDWR maps writable: any shared mapping needs FMODE_READ. */
	vf->writable = vcap_vram_writable &&
		       (file->f_mode & (FMODE_READ | FMODE_WRITE)) ==
		       (FMODE_READ | FMODE_WRITE);
	vf->seen = atomic64_read(&vdev->frame_events);
	file->private_data = vf;
	file->f_mapping = vdev->inode->i_mapping;
	atomic_inc(&vdev->vram_files);
	return 0;
}

/*
 * Whether anyone may read the VRAM ring: an open file of the node, or a
 * mapping, which holds one.  A board that writes into the buffers itself
 * renders its ring only then.
 */
bool vcap_vram_has_reader(struct vcap_dev *vdev)
{
	return atomic_read(&vdev->vram_files) > 0;
}

static int vcap_vram_release_file(struct inode *inode, struct file *file)
{
	struct vcap_vram_file *vf = file->private_data;

	atomic_dec(&vf->vdev->vram_files);
	vcap_dev_put(vf->vdev);
	kfree(vf);
	return 0;
}

/*
 * Pages a VRAM fault maps at once, the faulting one first: a frame is read
 * front to back, and 2 MiB fills one page table per fault.
 */
#define VCAP_VRAM_FAULT_AROUND	512

/*
 * Nothing is mapped at mmap() time: every page is mapped here, under the
 * presence guard.  Removal marks the board gone, waits for the faults
 * inside the guard, then zaps every mapping of the device's address
 * space; a fault after that finds the board gone and answers SIGBUS.  So
 * no mapping, not even one racing the removal, reaches the memory after
 * the board driver frees it.
 */
static vm_fault_t vcap_vram_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct vcap_dev *vdev = vma->vm_private_data;
	unsigned long pages = vdev->bar_size >> PAGE_SHIFT;
	unsigned long addr = vmf->address & PAGE_MASK;
	pgoff_t pgoff = vmf->pgoff;
	vm_fault_t ret;
	unsigned int i;
	int idx;

	if (pgoff >= pages)
		return VM_FAULT_SIGBUS;
	if (!vcap_enter(vdev, &idx))
		return VM_FAULT_SIGBUS;
	ret = vmf_insert_pfn(vma, addr,
			     vdev->ops->pfn(vdev, (u64)pgoff << PAGE_SHIFT));
	/* The rest only saves faults: a failure ends the batch. */
	for (i = 1; i < VCAP_VRAM_FAULT_AROUND && !(ret & VM_FAULT_ERROR);
	     i++) {
		addr += PAGE_SIZE;
		pgoff++;
		if (addr >= vma->vm_end || pgoff >= pages)
			break;
		if (vmf_insert_pfn(vma, addr,
				   vdev->ops->pfn(vdev, (u64)pgoff << PAGE_SHIFT)) &
		    VM_FAULT_ERROR)
			break;
	}
	vcap_exit(vdev, idx);
	return ret;
}

static const struct vm_operations_struct vcap_vram_vm_ops = {
	.fault = vcap_vram_fault,
};

static int vcap_vram_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct vcap_vram_file *vf = file->private_data;
	struct vcap_dev *vdev = vf->vdev;
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long pages = vdev->bar_size >> PAGE_SHIFT;
	u64 off;

	/*
	 * VM_MAYSHARE, not VM_SHARED: the core clears VM_SHARED on a shared
	 * mapping of a file opened read-only.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if ((vma->vm_flags & VM_WRITE) && !vf->writable)
		return -EACCES;
	/* As vm_iomap_memory(): the page offset first, then the length. */
	if (vma->vm_pgoff >= pages || !len)
		return -EINVAL;
	off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	if (len > vdev->bar_size - off)
		return -EINVAL;
	if (vcap_vram_gone(vdev))
		return -ENODEV;

	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	if (!vf->writable)
		vm_flags_clear(vma, VM_MAYWRITE);
	vma->vm_ops = &vcap_vram_vm_ops;
	vma->vm_private_data = vdev;
	return 0;
}

static void vcap_vram_query(struct vcap_vram_file *vf, struct vcap_info *in)
{
	struct vcap_dev *vdev = vf->vdev;
	int idx;

	memset(in, 0, sizeof(*in));
	in->abi_version = VCAP_ABI_VERSION;
	in->board_abi_version = vdev->board_abi;
	in->flags = (vdev->soft ? VCAP_INFO_SOFT_BOARD : 0) |
		    (vdev->irq ? VCAP_INFO_IRQ : 0) |
		    (vf->writable ? VCAP_INFO_WRITABLE : 0);
	strscpy(in->name, vdev->name, sizeof(in->name));
	strscpy(in->serial, vdev->serial, sizeof(in->serial));
	in->map_size = vdev->bar_size;
	in->frame_offset = vdev->frame_offset;
	in->frame_size = vdev->frame_size;

	if (!vcap_enter(vdev, &idx))
		return;
	in->fourcc = vdev->ops->read32(vdev, VCAP_OFF_STATUS(fourcc));
	in->width = vdev->ops->read32(vdev, VCAP_OFF_STATUS(width));
	in->height = vdev->ops->read32(vdev, VCAP_OFF_STATUS(height));
	in->bytesperline = vdev->ops->read32(vdev,
					     VCAP_OFF_STATUS(bytesperline));
	in->sizeimage = vdev->ops->read32(vdev, VCAP_OFF_STATUS(sizeimage));
	in->interval_num = vdev->ops->read32(vdev,
					     VCAP_OFF_STATUS(interval_num));
	in->interval_den = vdev->ops->read32(vdev,
					     VCAP_OFF_STATUS(interval_den));
	in->num_slots = vdev->ops->read32(vdev, VCAP_OFF_STATUS(num_slots));
	in->ring_offset = vdev->ops->read32(vdev,
					    VCAP_OFF_STATUS(ring_offset)) |
		(u64)vdev->ops->read32(vdev,
				       VCAP_OFF_STATUS(ring_offset) + 4) << 32;
	in->slot_stride = vdev->ops->read32(vdev,
					    VCAP_OFF_STATUS(slot_stride)) |
		(u64)vdev->ops->read32(vdev,
				       VCAP_OFF_STATUS(slot_stride) + 4) << 32;
	if (vdev->ops->read32(vdev, VCAP_OFF_STATUS(state)) !=
	    VCAP_STATE_STOPPED &&
	    in->num_slots >= 1 && in->num_slots <= VCAP_MAX_SLOTS &&
	    in->sizeimage && in->slot_stride >= in->sizeimage &&
	    in->slot_stride <= vdev->bar_size &&
	    in->ring_offset >= vdev->frame_offset &&
	    in->ring_offset <= vdev->bar_size &&
	    in->slot_stride * in->num_slots <= vdev->bar_size - in->ring_offset)
		in->flags |= VCAP_INFO_STREAMING;
	vcap_exit(vdev, idx);
}

/*
 * Find a frame of the board's running mode newer than after: the oldest
 * such frame while the reader keeps up, the newest when it has fallen
 * behind (the older ones are about to be overwritten).  Each start of
 * the board numbers its frames from 0 under a new mode_gen, so a slot
 * still holding a frame of an earlier one, with its higher sequence, is
 * never the answer.  0, -EAGAIN for none yet, -ENODEV.
 */
static int vcap_vram_find(struct vcap_dev *vdev, u64 after,
			  struct vcap_wait *w)
{
	struct vcap_board_slot hdr, oldest, newest;
	u32 n, i, gen, lock, oldest_slot = 0, newest_slot = 0, count = 0;
	int idx;

	if (!vcap_enter(vdev, &idx))
		return -ENODEV;
	n = vdev->ops->read32(vdev, VCAP_OFF_STATUS(num_slots));
	n = min_t(u32, n, VCAP_MAX_SLOTS);
	gen = vdev->ops->read32(vdev, VCAP_OFF_STATUS(mode_gen));
	for (i = 0; i < n; i++) {
		u64 seq;

		if (!vcap_read_slot(vdev, i, &hdr, &lock))
			continue;
		seq = le64_to_cpu(hdr.sequence);
		if (seq <= after || !gen || le32_to_cpu(hdr.mode_gen) != gen)
			continue;
		if (!count || seq < le64_to_cpu(oldest.sequence)) {
			oldest = hdr;
			oldest_slot = i;
		}
		if (!count || seq > le64_to_cpu(newest.sequence)) {
			newest = hdr;
			newest_slot = i;
		}
		count++;
	}
	vcap_exit(vdev, idx);
	if (!count)
		return -EAGAIN;
	if (count > 2) {
		oldest = newest;
		oldest_slot = newest_slot;
	}
	w->slot = oldest_slot;
	w->sequence = le64_to_cpu(oldest.sequence);
	w->timestamp_ns = le64_to_cpu(oldest.timestamp_ns);
	w->bytesused = le32_to_cpu(oldest.bytesused);
	w->flags = 0;
	if (le32_to_cpu(oldest.flags) & VCAP_SLOT_ERROR)
		w->flags |= VCAP_WAIT_ERROR;
	if (le32_to_cpu(oldest.flags) & VCAP_SLOT_NO_SIGNAL)
		w->flags |= VCAP_WAIT_NO_SIGNAL;
	return 0;
}

/* A frame arrived since ev was read, or the board went away. */
static bool vcap_news(struct vcap_dev *vdev, s64 ev)
{
	return atomic64_read(&vdev->frame_events) != ev ||
	       vcap_vram_gone(vdev);
}

static long vcap_vram_sleep(struct vcap_dev *vdev, s64 ev, long left)
{
	return wait_event_interruptible_timeout(vdev->frame_wq,
						vcap_news(vdev, ev), left);
}

static long vcap_vram_wait(struct vcap_vram_file *vf, struct vcap_wait *w)
{
	struct vcap_dev *vdev = vf->vdev;
	long left = msecs_to_jiffies(min_t(u32, w->timeout_ms,
					   VCAP_WAIT_MAX_MS));
	u64 after = w->after_seq;
	s64 events;
	int ret;

	memset(w, 0, sizeof(*w));
	for (;;) {
		events = atomic64_read(&vdev->frame_events);
		ret = vcap_vram_find(vdev, after, w);
		if (ret != -EAGAIN)
			break;
		if (!left)
			return -ETIMEDOUT;
		left = vcap_vram_sleep(vdev, events, left);
		if (left < 0)
			return left;
		if (!left) {
			/* One last look, then time out. */
			ret = vcap_vram_find(vdev, after, w);
			if (ret == -EAGAIN)
				ret = -ETIMEDOUT;
			break;
		}
	}
	if (!ret)
		WRITE_ONCE(vf->seen, events);
	return ret;
}

static long vcap_vram_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct vcap_vram_file *vf = file->private_data;
	void __user *uarg = (void __user *)arg;
	long ret;

	if (vcap_vram_gone(vf->vdev))
		return -ENODEV;
	switch (cmd) {
	case VCAP_IOC_QUERY: {
		struct vcap_info in;

		vcap_vram_query(vf, &in);
		if (copy_to_user(uarg, &in, sizeof(in)))
			return -EFAULT;
		return 0;
	}
	case VCAP_IOC_WAIT_FRAME: {
		struct vcap_wait w;

		if (copy_from_user(&w, uarg, sizeof(w)))
			return -EFAULT;
		ret = vcap_vram_wait(vf, &w);
		if (ret)
			return ret;
		if (copy_to_user(uarg, &w, sizeof(w)))
			return -EFAULT;
		return 0;
	}
	default:
		return -ENOTTY;
	}
}

static __poll_t vcap_vram_poll(struct file *file, poll_table *wait)
{
	struct vcap_vram_file *vf = file->private_data;
	struct vcap_dev *vdev = vf->vdev;

	s64 events;

	poll_wait(file, &vdev->frame_wq, wait);
	if (vcap_vram_gone(vdev))
		return EPOLLERR | EPOLLHUP;
	/*
	 * Readable once per batch of new frames: the report consumes them,
	 * as VCAP_IOC_WAIT_FRAME does, so that a client that only polls
	 * sleeps until the next frame instead of spinning.
	 */
	events = atomic64_read(&vdev->frame_events);
	if (events != READ_ONCE(vf->seen)) {
		WRITE_ONCE(vf->seen, events);
		return EPOLLIN | EPOLLRDNORM;
	}
	return 0;
}

static const struct file_operations vcap_vram_fops = {
	.owner = THIS_MODULE,
	.open = vcap_vram_open,
	.release = vcap_vram_release_file,
	.mmap = vcap_vram_mmap,
	.poll = vcap_vram_poll,
	.unlocked_ioctl = vcap_vram_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static void vcap_vram_dev_release(struct device *dev)
{
	struct vcap_dev *vdev = container_of(dev, struct vcap_dev, vram_dev);

	vcap_dev_put(vdev);
}

int vcap_vram_register(struct vcap_dev *vdev)
{
	struct inode *inode;
	int ret;

	inode = vcap_inject_fail(VCAP_FAIL_ALLOC) ? ERR_PTR(-ENOMEM) :
		alloc_anon_inode(vcap_mnt->mnt_sb);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	vdev->inode = inode;

	device_initialize(&vdev->vram_dev);
	vdev->vram_dev.class = &vcap_class;
	vdev->vram_dev.devt = MKDEV(MAJOR(vcap_devt), vdev->index);
	vdev->vram_dev.parent = vdev->parent;
	vdev->vram_dev.groups = vcap_stats_groups;
	vdev->vram_dev.release = vcap_vram_dev_release;
	dev_set_drvdata(&vdev->vram_dev, vdev);
	vcap_dev_get(vdev);
	ret = dev_set_name(&vdev->vram_dev, "vcap%u", vdev->index);
	if (ret)
		goto err;
	cdev_init(&vdev->cdev, &vcap_vram_fops);
	vdev->cdev.owner = THIS_MODULE;
	ret = vcap_inject_fail(VCAP_FAIL_REGISTER) ? -ENOMEM :
	      cdev_device_add(&vdev->cdev, &vdev->vram_dev);
	if (ret)
		goto err;
	vdev->vram_registered = true;
	return 0;
err:
	put_device(&vdev->vram_dev);
	return ret;
}

/* After the board is marked gone: no new mapping can appear. */
void vcap_vram_unregister(struct vcap_dev *vdev)
{
	if (!vdev->vram_registered)
		return;
	vdev->vram_registered = false;
	cdev_device_del(&vdev->cdev, &vdev->vram_dev);
	unmap_mapping_range(vdev->inode->i_mapping, 0, 0, 1);
	wake_up_interruptible_all(&vdev->frame_wq);
	put_device(&vdev->vram_dev);
}

/* The last reference to the device is going. */
void vcap_vram_release(struct vcap_dev *vdev)
{
	if (!vdev->inode)
		return;
	iput(vdev->inode);
	vdev->inode = NULL;
}

int vcap_vram_init(void)
{
	int ret;

	ret = simple_pin_fs(&vcap_fs_type, &vcap_mnt, &vcap_mnt_count);
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&vcap_devt, 0, VCAP_MAX_BOARDS, "vcap");
	if (ret)
		goto err_fs;
	ret = class_register(&vcap_class);
	if (ret)
		goto err_region;
	return 0;
err_region:
	unregister_chrdev_region(vcap_devt, VCAP_MAX_BOARDS);
err_fs:
	simple_release_fs(&vcap_mnt, &vcap_mnt_count);
	return ret;
}

void vcap_vram_exit(void)
{
	class_unregister(&vcap_class);
	unregister_chrdev_region(vcap_devt, VCAP_MAX_BOARDS);
	simple_release_fs(&vcap_mnt, &vcap_mnt_count);
}
