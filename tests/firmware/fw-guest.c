// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Guest side of the firmware's VM test, with no driver: maps the board's
 * BAR2 (and BAR0's doorbell) through sysfs, asks for a mode, rings the
 * firmware, and checks the stamps of the frames it publishes.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fw-test.h"
#include "vcap-format.h"
#include "vcap-stamp.h"

#define IVSHMEM_DOORBELL	12	/* BAR0 register */
#define IVSHMEM_IVPOSITION	8

static volatile u32 *regs;
static u8 *bar;
static size_t bar_size;

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

static void *map_resource(const char *dev, int n, size_t *size)
{
	char path[512];
	struct stat st;
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/resource%d", dev, n);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return NULL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		perror(path);
		return NULL;
	}
	*size = (size_t)st.st_size;
	return p;
}

static int find_board(char *out, size_t len)
{
	const char *base = "/sys/bus/pci/devices";
	struct dirent *de;
	DIR *d = opendir(base);

	while (d && (de = readdir(d))) {
		char path[600], id[32] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/vendor", base, de->d_name);
		f = fopen(path, "r");
		if (f && fgets(id, sizeof(id), f) && !strncmp(id, "0x1af4", 6)) {
			fclose(f);
			snprintf(path, sizeof(path), "%s/%s/device", base,
				 de->d_name);
			f = fopen(path, "r");
			if (f && fgets(id, sizeof(id), f) &&
			    !strncmp(id, "0x1110", 6)) {
				fclose(f);
				snprintf(out, len, "%s/%s", base, de->d_name);
				closedir(d);
				return 0;
			}
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return -1;
}

/* Write a request and ring the firmware; the ack is awaited by polling. */
static int request(struct vcap_board_ctrl *c, u32 cmd, u32 fourcc, u32 w,
		   u32 h, u32 fps, u32 *err)
{
	struct vcap_board_request *q = &c->request;
	u32 seq = t_rd32(&c->status.ack_seq) + 1;
	u64 t0 = now_ms();

	q->cmd = htole32(cmd);
	q->fourcc = htole32(fourcc);
	q->width = htole32(w);
	q->height = htole32(h);
	q->bytesperline = 0;
	q->interval_num = htole32(1);
	q->interval_den = htole32(fps);
	q->pattern = htole32(VCAP_PATTERN_MOVING_BOX);
	q->flags = 0;
	q->input = htole32(VCAP_INPUT_TPG);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	t_wr32(&q->seq, seq);
	if (regs)
		regs[IVSHMEM_DOORBELL / 4] =
			(t_rd32(&c->info.fw_peer_id) << 16) | VCAP_FW_VEC_REQUEST;
	while (t_rd32(&c->status.ack_seq) != seq) {
		if (now_ms() - t0 > 10000) {
			fprintf(stderr, "fw-guest: request %u not acknowledged in 10 s\n", seq);
			return -1;
		}
		usleep(1000);
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	*err = t_rd32(&c->status.error);
	printf("request %u acknowledged in %llu ms: %s\n", seq,
	       (unsigned long long)(now_ms() - t0),
	       *err ? "refused" : "accepted");
	return 0;
}

int main(int argc, char **argv)
{
	int frames = argc > 2 ? atoi(argv[2]) : 30;
	bool doorbell = argc > 1 && !strcmp(argv[1], "doorbell");
	struct vcap_board_ctrl *c;
	struct vcap_frame_fmt fmt;
	struct vcap_stamp st;
	u64 last = ~0ull, seq, t0, gaps = 0;
	int ok = 0, bad = 0, torn = 0;
	char dev[512];
	size_t rsize;
	u32 err, slot;
	u8 *copy;

	if (find_board(dev, sizeof(dev))) {
		fprintf(stderr, "fw-guest: no ivshmem device (1af4:1110)\n");
		return 1;
	}
	bar = map_resource(dev, 2, &bar_size);
	if (!bar)
		return 1;
	if (doorbell) {
		regs = map_resource(dev, 0, &rsize);
		if (!regs)
			return 1;
		printf("doorbell board, guest peer id %u\n",
		       regs[IVSHMEM_IVPOSITION / 4]);
	}
	c = (struct vcap_board_ctrl *)bar;
	for (t0 = now_ms(); t_rd32(&c->info.magic) != VCAP_BOARD_MAGIC;
	     usleep(10000))
		if (now_ms() - t0 > 10000) {
			fprintf(stderr, "fw-guest: no vcap magic in BAR2\n");
			return 1;
		}
	printf("board '%.32s' serial '%.32s', ABI %u, BAR2 %zu bytes, %u modes, fw peer %u\n",
	       c->info.name, c->info.serial, t_rd32(&c->info.abi_version),
	       bar_size, t_rd32(&c->info.num_modes),
	       t_rd32(&c->info.fw_peer_id));
	if (t_rd64(&c->info.vram_size) != bar_size) {
		fprintf(stderr, "fw-guest: vram_size %llu != BAR2 size %zu\n",
			(unsigned long long)t_rd64(&c->info.vram_size), bar_size);
		return 1;
	}

	if (request(c, VCAP_CMD_START, VCAP_FMT_YUYV, 641, 480, 30, &err))
		return 1;
	if (err != VCAP_ERR_BAD_SIZE) {
		fprintf(stderr, "fw-guest: 641x480 gave error %u, want %u\n",
			err, VCAP_ERR_BAD_SIZE);
		return 1;
	}
	if (request(c, VCAP_CMD_START, VCAP_FMT_YUYV, 320, 240, 30, &err) ||
	    err) {
		fprintf(stderr, "fw-guest: 320x240 YUYV refused (%u)\n", err);
		return 1;
	}
	fmt.fourcc = VCAP_FMT_YUYV;
	fmt.width = t_rd32(&c->status.width);
	fmt.height = t_rd32(&c->status.height);
	fmt.bytesperline = t_rd32(&c->status.bytesperline);
	fmt.sizeimage = t_rd32(&c->status.sizeimage);
	copy = malloc(fmt.sizeimage);
	if (!copy || t_rd64(&c->status.ring_offset) +
	    t_rd32(&c->status.num_slots) * t_rd64(&c->status.slot_stride) >
	    bar_size || t_rd32(&c->status.num_slots) > VCAP_MAX_SLOTS) {
		fprintf(stderr, "fw-guest: ring outside BAR2\n");
		return 1;
	}

	for (t0 = now_ms(); ok < frames && now_ms() - t0 < 30000;
	     usleep(2000)) {
		slot = t_rd32(&c->status.latest_slot);
		if (slot >= t_rd32(&c->status.num_slots))
			continue;
		switch (t_read_slot(c, slot, bar + t_rd64(&c->status.ring_offset) +
				    slot * t_rd64(&c->status.slot_stride),
				    fmt.sizeimage, copy, &seq)) {
		case T_READ_BUSY:
			continue;
		case T_READ_TORN:
			torn++;
			continue;
		case T_READ_OK:
			break;
		}
		if (seq == last)
			continue;
		if (vcap_stamp_check(&fmt, copy, fmt.sizeimage, &st) !=
		    VCAP_STAMP_OK || st.seq != seq) {
			bad++;
			continue;
		}
		if (last != ~0ull && seq != last + 1)
			gaps++;
		last = seq;
		ok++;
	}
	printf("%d frames with good stamps, %d bad, %d torn and retried, %llu sequence gaps, last %llu, in %llu ms\n",
	       ok, bad, torn, (unsigned long long)gaps,
	       (unsigned long long)last, (unsigned long long)(now_ms() - t0));
	if (request(c, VCAP_CMD_STOP, 0, 0, 0, 0, &err) || err ||
	    t_rd32(&c->status.state) != VCAP_STATE_STOPPED) {
		fprintf(stderr, "fw-guest: stop failed\n");
		return 1;
	}
	free(copy);
	return ok >= frames && !bad ? 0 : 1;
}
