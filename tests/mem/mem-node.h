/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * mem-node: finding vcap's V4L2 capture node and handling its buffers, for
 * the buffer tests and the first-touch benchmark.
 */
#ifndef MEM_NODE_H
#define MEM_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/videodev2.h>

/*
 * Opens the first /dev/videoN whose driver is "vcap" and that captures
 * with streaming I/O; fills *fmt with its current format.  Returns the fd,
 * or -1 with errno ENODEV when there is none.
 */
int mem_node_open(char *path, size_t path_size, struct v4l2_format *fmt);

/* REQBUFS; returns the count granted or -1.  caps may be NULL. */
int mem_reqbufs(int fd, unsigned int memory, unsigned int count,
		unsigned int *caps);

/* QUERYBUF of an MMAP buffer; returns 0 or -1. */
int mem_querybuf(int fd, unsigned int index, struct v4l2_buffer *buf);

/* Maps MMAP buffer index whole, read/write; MAP_FAILED on error. */
void *mem_map(int fd, unsigned int index, size_t *length);

/* Writes a pattern that depends on seed and on every page's offset. */
void mem_fill(void *p, size_t length, unsigned int seed);

/* Returns the byte offset of the first mismatch, or -1 if it all matches. */
long mem_check(const void *p, size_t length, unsigned int seed);

/* Returns the offset of the first non-zero byte, or -1. */
long mem_find_nonzero(const void *p, size_t length);

/*
 * Reads one byte at p; returns 0 when it could, else the signal the read
 * raised (SIGSEGV, SIGBUS).
 */
int mem_probe_read(const void *p);

/*
 * Buffers of the vcap allocator alive now, from /proc/vmallocinfo, or -1
 * when it cannot be read.
 */
int mem_vcap_buffers(void);

/* Waits up to timeout_ms for a frame and dequeues it; returns 0 or -1. */
int mem_dqbuf(int fd, unsigned int memory, struct v4l2_buffer *buf,
	      int timeout_ms);

#endif /* MEM_NODE_H */
