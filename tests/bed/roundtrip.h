/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The byte patterns of the ivshmem round trip, shared by host and guest. */
#ifndef ROUNDTRIP_H
#define ROUNDTRIP_H

#include <stddef.h>
#include <stdint.h>

#define RT_LEN		65536
#define RT_HOST_OFF	0x100000	/* written by the host */
#define RT_GUEST_OFF	0x200000	/* written by the guest */

static inline uint8_t rt_host_byte(size_t i)
{
	return (uint8_t)(i * 7 + 13);
}

static inline uint8_t rt_guest_byte(size_t i)
{
	return (uint8_t)(~(i * 11) + 3);
}

#endif
