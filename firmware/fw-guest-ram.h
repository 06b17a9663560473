/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The guest's RAM, as the board's DMA engine reaches it: the file QEMU
 * backs guest RAM with, mapped shared, and the translation of bus
 * addresses (guest-physical: there is no virtual IOMMU) to offsets in it,
 * following QEMU's layout of RAM around the PCI hole.
 */
#ifndef FW_GUEST_RAM_H
#define FW_GUEST_RAM_H

#include <stdbool.h>
#include <stddef.h>
#include "vcap-types.h"

enum fw_guest_machine {
	FW_GUEST_PC,		/* i440fx, QEMU's default machine */
	FW_GUEST_Q35,
};

/* Guest-physical holes in RAM (QEMU hw/i386/pc.c, pc_piix.c, pc_q35.c). */
#define FW_GUEST_LOW_END	0xa0000ull	/* legacy VGA/BIOS window ... */
#define FW_GUEST_HIGH_START	0x100000ull	/* ... up to 1 MiB */
#define FW_GUEST_4G		0x100000000ull
#define FW_GUEST_PC_MAX_BELOW	0xe0000000ull	/* all of RAM below this */
#define FW_GUEST_PC_BELOW	0xc0000000ull	/* ... else this much */
#define FW_GUEST_Q35_MAX_BELOW	0xb0000000ull
#define FW_GUEST_Q35_BELOW	0x80000000ull

/* The smallest guest RAM taken: the first MiB and some. */
#define FW_GUEST_MIN_SIZE	(2ull << 20)

struct fw_guest_ram {
	int fd;
	u8 *mem;		/* the whole file, MAP_SHARED */
	u64 size;		/* bytes of guest RAM: the file's size */
	u64 below;		/* bytes of RAM below 4 GiB */
	enum fw_guest_machine machine;
};

/* The machine by name ("pc", "q35"): 0, or -EINVAL. */
int fw_guest_machine_by_name(const char *name, enum fw_guest_machine *m);
const char *fw_guest_machine_name(enum fw_guest_machine m);

/* Lay out size bytes of RAM as machine m does, with no file (tests). */
void fw_guest_ram_layout(struct fw_guest_ram *g, u64 size,
			 enum fw_guest_machine m);

/*
 * Map the guest RAM file at path, which must exist and have the guest's
 * RAM size.  err names the problem on failure.
 */
int fw_guest_ram_open(struct fw_guest_ram *g, const char *path,
		      enum fw_guest_machine m, char *err, size_t errlen);
void fw_guest_ram_close(struct fw_guest_ram *g);

/*
 * The file offset of len bytes of bus addresses from addr: 0 and *off
 * when all of them are in one run of RAM, -ERANGE when any is not RAM or
 * the range crosses a hole, -EINVAL for len 0 or a range that wraps.
 */
int fw_guest_ram_translate(const struct fw_guest_ram *g, u64 addr, u64 len,
			   u64 *off);

/* The host address of a translated range. */
static inline u8 *fw_guest_ram_ptr(const struct fw_guest_ram *g, u64 off)
{
	return g->mem + off;
}

#endif /* FW_GUEST_RAM_H */
