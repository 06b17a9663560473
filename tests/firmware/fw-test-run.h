/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Helpers shared by the firmware tests that run the board in process: a
 * board over a temporary VRAM file, run for a while, and told commands
 * through the control socket's own handler.
 */
#ifndef FW_TEST_RUN_H
#define FW_TEST_RUN_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vtest.h"
#include "fw-run.h"
#include "fw-source-live.h"

/*
 * A board over a fresh VRAM file of size bytes, run at real-time
 * priority where allowed (steady timing on a busy host).  NULL on
 * failure, with the reason logged.
 */
static inline struct fw_run *t_run_new(size_t size)
{
	struct sched_param sp = { .sched_priority = 10 };
	char path[] = "/tmp/vcap-fw-test-XXXXXX", err[256];
	struct fw_run *r;
	int fd, ret;

	sched_setscheduler(0, SCHED_FIFO, &sp);
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	fd = mkstemp(path);
	if (fd < 0) {
		vtest_log("mkstemp %s failed", path);
		free(r);
		return NULL;
	}
	close(fd);
	ret = fw_run_init(r, path, size, NULL, NULL, err, sizeof(err));
	unlink(path);
	if (ret) {
		vtest_log("fw_run_init: %s", err);
		free(r);
		return NULL;
	}
	return r;
}

static inline void t_run_free(struct fw_run *r)
{
	if (r)
		fw_run_fini(r);
	free(r);
}

/* Run the board's loop for ms milliseconds. */
static inline void t_run_ms(struct fw_run *r, unsigned int ms)
{
	u64 end = fw_now_ns() + ms * 1000000ull;

	while (fw_now_ns() < end)
		fw_run_once(r);
}

/*
 * A control command line, as the control socket runs it: its answer in
 * out (outlen bytes; out may be NULL), and logged when it fails.
 */
static inline int t_cmd(struct fw_run *r, char *out, size_t outlen,
			const char *line)
{
	char buf[256], *argv[8], *save, *tok;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int argc = 0, ret;

	if (!f)
		return -1;
	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 8;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	ret = fw_run_command(r, argc, argv, f);
	fclose(f);
	if (out)
		snprintf(out, outlen, "%s", text ? text : "");
	if (ret)
		vtest_log("%s: %s", line, text ? text : "");
	free(text);
	return ret;
}

/* The value of key in a live source core's stats, or ~0 if not there. */
static inline u64 t_live_stat(struct fw_live *l, const char *key)
{
	char *text = NULL, k[64], *p;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	u64 v = ~0ull;

	if (!f)
		return v;
	fw_live_stats(l, f);
	fclose(f);
	snprintf(k, sizeof(k), "\n%s=", key);
	p = strstr(text, k);
	if (p)
		v = strtoull(p + strlen(k), NULL, 10);
	free(text);
	return v;
}

#endif /* FW_TEST_RUN_H */
