/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vcap: the device structure and the internal API between the driver's
 * parts.  The core (vcap-core.c) talks to a board through struct
 * vcap_board_ops, so the PCI board and the software board share every line
 * above the register accessors.
 */
#ifndef _VCAP_H
#define _VCAP_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-dev.h>
#include <media/v4l2-device.h>
#include <media/videobuf2-v4l2.h>

#include <vcap/board.h>
#include "vcap-clock.h"

#define VCAP_DRV_NAME		"vcap"
#define VCAP_MAX_BOARDS		16

struct vcap_dev;
struct vcap_dma;
struct vcap_mem_pool;
struct vcap_transfer_ops;

/*
 * Access to one board.  Offsets are BAR2 byte offsets; the core has
 * checked them against the board's size before it calls.  The ops never
 * sleep and may be called from any context.
 */
struct vcap_board_ops {
	u32 (*read32)(struct vcap_dev *vdev, u32 off);
	void (*write32)(struct vcap_dev *vdev, u32 off, u32 val);
	/*
	 * Copy len bytes of BAR2 at off into dst: how frames reach the
	 * buffers on the copy path.
	 */
	void (*copy_from)(struct vcap_dev *vdev, void *dst, u64 off,
			  size_t len);
	/* Tell the board a request is waiting. */
	void (*doorbell)(struct vcap_dev *vdev);
	/*
	 * The page frame of BAR2 byte off (page aligned, inside the BAR),
	 * for the VRAM node's fault handler to map.
	 */
	unsigned long (*pfn)(struct vcap_dev *vdev, u64 off);
	/*
	 * Optional: bring the board back to the state it published at
	 * probe, after the driver found its control page in disorder.
	 */
	void (*reset)(struct vcap_dev *vdev);
	/*
	 * Optional: user space queued a buffer.  A board that makes frames
	 * on demand may make one now.  Called under the queue lock.
	 */
	void (*buffer_queued)(struct vcap_dev *vdev);
	/*
	 * The board can write into host memory (VCAP_CAP_DMA) through the
	 * parent device: bus addresses of the parent are the board's.
	 */
	bool dma;
};

/* The mode the board runs, as validated when it acknowledged it. */
struct vcap_ring {
	bool valid;
	u32 fourcc;
	u32 width;
	u32 height;
	u32 bytesperline;
	u32 sizeimage;
	u32 interval_num;
	u32 interval_den;
	u32 input;		/* VCAP_INPUT_* */
	/* The source's size when the board scales (VCAP_REQ_SCALE); or 0. */
	u32 src_width;
	u32 src_height;
	u32 num_slots;
	u32 mode_gen;
	u64 ring_offset;
	u64 slot_stride;
};

/* One published mode, from the board's table, sanitised. */
struct vcap_mode {
	u32 fourcc;
	u32 width;
	u32 height;
	u32 interval_mask;
};

struct vcap_interval {
	u32 numerator;
	u32 denominator;
};

/* Counters exported through sysfs; each updated with atomic64 ops. */
struct vcap_stats {
	atomic64_t delivered;	/* buffers completed with a good frame */
	atomic64_t dropped;	/* frames with no buffer queued, or missed */
	atomic64_t torn;	/* slot rewritten while copied */
	atomic64_t rejected;	/* slots flagged or failing a check */
	atomic64_t interrupts;	/* frame-done and status notifications */
	atomic64_t latency_ns;	/* board timestamp to buffer completion */
	atomic64_t errors;	/* board faults: heartbeat, nonsense */
	atomic64_t dma_refused;	/* DMA completions failing a check */
	atomic64_t dma_quarantined_pages; /* kept from a board that never stopped */
};

/* A buffer queued by user space, waiting for a frame or to complete. */
struct vcap_buffer {
	struct vb2_v4l2_buffer vb;
	struct list_head list;
	enum vb2_buffer_state state;	/* on done_list: how it completes */
	/*
	 * DMA (vcap-dma.c): the board's scatter list for this buffer, in
	 * coherent memory, set up by buf_init and freed by buf_cleanup,
	 * both under the queue lock.  posted is protected by buf_lock.
	 */
	struct vcap_dma_sg *sg;
	dma_addr_t sg_addr;
	size_t sg_size;			/* bytes of coherent memory at sg */
	u32 nents;
	u64 length;			/* bytes the entries cover */
	bool posted;			/* the board holds its descriptor */
	bool quarantined;		/* the board may write it, forever */
};

/*
 * One board.  Each field that more than one context touches says what
 * protects it; "const" fields are set before vcap_dev_register() and
 * only read after it.
 */
struct vcap_dev {
	/* Identity: const. */
	struct device *parent;
	const struct vcap_board_ops *ops;
	void *board;			/* the board driver's private data */
	unsigned int index;		/* N of /dev/vcapN */
	bool soft;
	bool irq;			/* frame-done is an interrupt */
	struct kref kref;		/* nodes, files, mappings, buffers */

	/*
	 * Presence: every board access is inside vcap_enter()/vcap_exit();
	 * vcap_dev_unregister() sets gone and waits for them to finish.
	 * active is set when registration is complete and cleared first on
	 * unregister: the board's notifications queue work only while it is
	 * set.  Both READ_ONCE/WRITE_ONCE.
	 */
	struct srcu_struct srcu;
	bool gone;
	bool active;

	/* What the board published, validated once at probe: const. */
	u64 bar_size;
	u32 board_abi;
	u32 caps;
	u32 fw_peer_id;
	u64 frame_offset;
	u64 frame_size;
	char name[VCAP_NAME_LEN + 1];
	char serial[VCAP_NAME_LEN + 1];
	struct vcap_mode *modes;
	unsigned int num_modes;
	u32 fourccs[VCAP_MAX_MODES];	/* distinct formats, in table order */
	unsigned int num_fourccs;
	struct vcap_interval intervals[VCAP_MAX_INTERVALS];
	unsigned int num_intervals;

	/*
	 * Board requests, and the ring they set up (or the board restarted
	 * with): protected by req_lock.  The ring is written under
	 * deliver_lock as well, so delivery reads it under that alone.
	 */
	struct mutex req_lock;
	u32 req_seq;
	struct vcap_ring ring;

	/*
	 * Frame delivery to the V4L2 queue: protected by deliver_lock.
	 * streaming is also read locklessly (READ_ONCE) by the notifiers;
	 * board_dead by the watchdog, which is its only other writer;
	 * have_seq and last_board_seq by a board that makes frames on
	 * demand (vcap_deliver_caught_up()).
	 */
	struct mutex deliver_lock;
	bool streaming;
	bool board_dead;
	bool have_seq;
	u64 last_board_seq;		/* newest board frame handled */
	u32 sequence;			/* next V4L2 sequence number */
	u64 last_timestamp;		/* of the last buffer, ns */
	struct vcap_clock board_clock;	/* a PCI board's stamps, here */
	u32 stale_lock[VCAP_MAX_SLOTS];	/* slot locks of frames handled */
	struct work_struct deliver_work;
	struct workqueue_struct *wq;	/* const; ordered: one item at a time */

	/*
	 * Buffers queued by user space, and buffers filled and waiting to
	 * complete under the queue lock: protected by buf_lock.
	 */
	spinlock_t buf_lock;
	struct list_head buf_list;
	struct list_head done_list;

	/*
	 * Watchdog state: protected by wd_lock.  The watchdog work updates
	 * it each tick; a mode request that starts the board resets it.
	 */
	spinlock_t wd_lock;		/* the fields below */
	struct delayed_work watchdog;
	u64 last_heartbeat;
	unsigned long heartbeat_jiffies;
	u32 last_mode_gen;
	u32 last_state;
	u32 last_link_gen;

	/* Frame notifications for the VRAM node: atomics and a waitqueue. */
	wait_queue_head_t frame_wq;
	atomic64_t frame_events;
	atomic64_t notify_ns;		/* time of the last frame-done */

	struct vcap_stats stats;
	struct ratelimit_state board_log_rs;	/* what the board makes us say */

	/*
	 * How frames reach the buffers (vcap-deliver.h), and the DMA
	 * engine (vcap-dma.c) or NULL on the copy path: const while
	 * registered.
	 */
	const struct vcap_transfer_ops *xfer;
	struct vcap_dma *dma;

	/* Buffer memory of this device's queue, capped: vcap-mem.c. */
	struct vcap_mem_pool *pool;

	/*
	 * V4L2: the format, interval and queue are protected by lock, the
	 * queue's lock.  The control values are written by s_ctrl under the
	 * control handler's lock and read by mode requests: READ_ONCE.
	 */
	struct mutex lock;
	struct v4l2_device v4l2_dev;
	struct video_device vdev;
	struct vb2_queue queue;
	struct v4l2_ctrl_handler ctrl_hdl;
	struct v4l2_ctrl *ctrl_pattern;
	struct v4l2_ctrl *ctrl_hflip;
	struct v4l2_ctrl *ctrl_vflip;
	u32 ctrl_pattern_val;		/* last values set, for requests */
	u32 ctrl_flags_val;
	struct v4l2_pix_format fmt;
	struct vcap_interval interval;
	bool v4l2_registered;

	/*
	 * Inputs (vcap-dv.c): the HDMI receiver of a board with one, and
	 * the test pattern generator.  input, the DV timings, the picture
	 * size chosen on the receiver and the EDID are protected by lock;
	 * the list of timings offered and scaler are const.
	 */
	bool hdmi;
	bool scaler;			/* the receiver scales (VCAP_CAP_SCALER) */
	/* The HDMI picture size S_FMT chose; 0 x 0: the timings'. */
	u32 hdmi_width;
	u32 hdmi_height;
	unsigned int input;		/* V4L2 input index */
	struct v4l2_pix_format tpg_fmt;	/* the generator's, while on HDMI */
	struct vcap_interval tpg_interval;
	struct v4l2_dv_timings dv_timings;
	struct v4l2_dv_timings *dv_list;
	unsigned int num_dv;
	u8 edid[VCAP_EDID_MAX_BLOCKS * VCAP_EDID_BLOCK_SIZE];
	u32 edid_blocks;
	u32 edid_gen;
	struct v4l2_ctrl *ctrl_rx_power;
	struct v4l2_ctrl *ctrl_rgb_range;

	/* The VRAM node: const while registered. */
	struct cdev cdev;
	struct device vram_dev;
	/* Its i_mapping is every open file's f_mapping. */
	struct inode *inode;
	bool vram_registered;
	/* Open files of the VRAM node (a mapping holds its file). */
	atomic_t vram_files;
};

/* Presence guard around board accesses; false once the board is gone. */
static inline bool vcap_enter(struct vcap_dev *vdev, int *idx)
{
	*idx = srcu_read_lock(&vdev->srcu);
	if (READ_ONCE(vdev->gone)) {
		srcu_read_unlock(&vdev->srcu, *idx);
		return false;
	}
	return true;
}

static inline void vcap_exit(struct vcap_dev *vdev, int idx)
{
	srcu_read_unlock(&vdev->srcu, idx);
}

/* Core: vcap-core.c */
extern bool vcap_vram_writable;
struct vcap_dev *vcap_dev_alloc(struct device *parent,
				const struct vcap_board_ops *ops, void *board,
				u64 bar_size);
int vcap_dev_probe(struct vcap_dev *vdev);
int vcap_dev_register(struct vcap_dev *vdev);
void vcap_dev_unregister(struct vcap_dev *vdev);
void vcap_dev_get(struct vcap_dev *vdev);
void vcap_dev_put(struct vcap_dev *vdev);

/* What a board driver calls, from any context ... */
void vcap_frame_done(struct vcap_dev *vdev);		/* vcap-deliver.c */
/* ... or, publishing from process context, to deliver there and then. */
void vcap_frame_done_sync(struct vcap_dev *vdev);	/* vcap-deliver.c */
/* ... and, making frames on demand, whether the driver would take one. */
bool vcap_deliver_has_buffer(struct vcap_dev *vdev);	/* vcap-deliver.c */
bool vcap_deliver_caught_up(struct vcap_dev *vdev, u64 seq);
void vcap_status_changed(struct vcap_dev *vdev);	/* vcap-watchdog.c */

/* V4L2 node: vcap-v4l2.c */
int vcap_v4l2_register(struct vcap_dev *vdev);
void vcap_v4l2_unregister(struct vcap_dev *vdev);
void vcap_v4l2_source_change(struct vcap_dev *vdev, bool resolution,
			     const struct vcap_mode *now);
void vcap_v4l2_return_buffers(struct vcap_dev *vdev,
			      enum vb2_buffer_state state);

/* Controls: vcap-ctrls.c */
int vcap_ctrls_init(struct vcap_dev *vdev);
void vcap_ctrls_free(struct vcap_dev *vdev);
u32 vcap_ctrls_pattern(struct vcap_dev *vdev);
u32 vcap_ctrls_flags(struct vcap_dev *vdev);

/* VRAM node: vcap-vram.c */
int vcap_vram_init(void);
void vcap_vram_exit(void);
int vcap_vram_register(struct vcap_dev *vdev);
void vcap_vram_unregister(struct vcap_dev *vdev);
void vcap_vram_release(struct vcap_dev *vdev);
bool vcap_vram_has_reader(struct vcap_dev *vdev);

/* Statistics: vcap-sysfs.c */
extern const struct attribute_group *vcap_stats_groups[];

/* PCI board: vcap-pci.c */
int vcap_pci_init(void);
void vcap_pci_exit(void);

/* Software board: vcap-soft.c */
int vcap_soft_init(unsigned int count);
void vcap_soft_exit(void);

#endif /* _VCAP_H */
