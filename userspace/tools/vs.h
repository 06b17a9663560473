/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/* vcap-stream: the subcommand table, options and shared helpers. */
#ifndef VS_H
#define VS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libvcap.h>

/* Which options a subcommand takes (vs_opts fields). */
#define VS_OPT_DEVICE	(1u << 0)	/* -d DEV, --vram DEV */
#define VS_OPT_MODE	(1u << 1)	/* --fmt, --size, --fps */
#define VS_OPT_LENGTH	(1u << 2)	/* -n N, -t SECONDS */
#define VS_OPT_OUTPUT	(1u << 3)	/* -o FILE, --y4m, --raw, --snapshot */
#define VS_OPT_STAMPS	(1u << 4)	/* --stamps, --no-stamps */
#define VS_OPT_JSON	(1u << 5)	/* --json */
#define VS_OPT_STREAM	(1u << 6)	/* --buffers, --timeout, --dmabuf */
#define VS_OPT_COPY	(1u << 7)	/* --copy */
#define VS_OPT_LATENCY	(1u << 8)	/* --latency */
#define VS_OPT_VERBOSE	(1u << 9)	/* -v: the device before streaming */

enum vs_stamps {
	VS_STAMPS_AUTO,		/* on for vcap devices in stamped formats */
	VS_STAMPS_ON,
	VS_STAMPS_OFF,
};

struct vs_opts {
	const char *device;		/* V4L2 node */
	const char *vram;		/* VRAM node */
	struct vcap_mode mode;		/* requested; zero fields: keep */
	uint64_t count;			/* frames; 0: not given */
	double seconds;			/* 0: not given */
	const char *output;		/* "-" is stdout */
	const char *snapshot;		/* PNG of the last frame */
	bool y4m, raw;
	enum vs_stamps stamps;
	bool json;
	bool copy;			/* bench: copy every frame out */
	bool latency;			/* report frame-to-dequeue latency */
	bool dmabuf;
	unsigned int buffers;
	int timeout_ms;			/* per frame */
	bool quiet;			/* -q: no progress line */
	bool verbose;			/* -v: say what streams, and how */
	bool help;
};

struct vs_cmd {
	const char *name;
	const char *summary;
	uint32_t opts;			/* VS_OPT_* accepted */
	void (*usage)(FILE *f);
	/* Check the combination after parsing: 0, or -1 with a message. */
	int (*check)(struct vs_opts *o, char *err, size_t size);
	int (*run)(const struct vs_opts *o);
};

extern const struct vs_cmd vs_cmd_list, vs_cmd_formats, vs_cmd_capture,
	vs_cmd_verify, vs_cmd_bench;

/* The command table, NULL-terminated. */
extern const struct vs_cmd *const vs_cmds[];
const struct vs_cmd *vs_find_cmd(const char *name);
void vs_usage(FILE *f);

/*
 * Parse argv (argv[0] is the subcommand) for cmd into o.  Returns 0, or
 * -1 with a one-line reason in err.  --help sets o->help.
 */
int vs_parse(const struct vs_cmd *cmd, int argc, char **argv,
	     struct vs_opts *o, char *err, size_t size);

/* Value parsers, 0 or -1: "640x480", "30" / "30000/1001" / "29.97". */
int vs_parse_size(const char *s, uint32_t *w, uint32_t *h);
int vs_parse_fps(const char *s, uint32_t *num, uint32_t *den);
int vs_parse_count(const char *s, uint64_t *n);
int vs_parse_seconds(const char *s, double *t);

/* Usage text of the options shared between subcommands. */
void vs_usage_options(FILE *f, uint32_t opts);

/* Runtime helpers */

/* Set by SIGINT/SIGTERM: stop at the next frame boundary. */
extern volatile int vs_stop;
void vs_install_signals(void);

/*
 * Open and start the source o names; prints the error on failure.  An
 * input without a signal is waited for, up to o->timeout_ms.
 */
struct vcap_source *vs_open_source(const struct vs_opts *o,
				   const char *cmd);
/*
 * A run following its source's changes.  vs_next() waits for the next
 * frame; source changes are reported on stderr and counted here.
 */
struct vs_follow {
	const char *cmd;
	const struct vs_opts *o;
	struct vcap_source *src;
	uint64_t start_ns;		/* the run's, for -t */
	uint64_t changes;		/* source changes seen */
	uint64_t no_signal_ns;		/* time without a signal, ended losses */
	uint64_t lost_ns;		/* start of the current loss, 0: none */
	int status;			/* after VS_NEXT_STOP: the exit status */
};

/*
 * vs_next()'s result beside 0, VCAP_TIMEOUT, VCAP_SOURCE_CHANGED and -1:
 * the run ends without a signal, with exit status fw->status (0: stopped
 * or out of time, 1: no signal for --timeout, already reported).
 */
#define VS_NEXT_STOP		4

void vs_follow_init(struct vs_follow *fw, const char *cmd,
		    const struct vs_opts *o, struct vcap_source *src);
/*
 * The next frame (0), or VCAP_SOURCE_CHANGED after a change was reported
 * (src->mode is the new mode; no frame), VCAP_TIMEOUT for a stall with a
 * signal, VS_NEXT_STOP, or -1 (vcap_last_error()).
 */
int vs_next(struct vs_follow *fw, struct vcap_frame *f);
/* Time without a signal so far, the current loss included. */
uint64_t vs_follow_no_signal_ns(const struct vs_follow *fw);

/*
 * How frames reach the buffers of o's V4L2 device (libvcap's
 * vcap_transfer_query()); VCAP_TRANSFER_UNKNOWN for a VRAM node, which
 * is read in place, and for a device sysfs does not know.
 */
enum vcap_transfer vs_transfer(const struct vs_opts *o);
/*
 * "CMD: node: ...", "driver: ", "card: " and, for vcap's V4L2 nodes,
 * "transfer: " lines on stderr: what -v prints before streaming.
 */
void vs_print_device(const struct vs_opts *o, const char *cmd);
/* "dma (the board writes into the buffers)" and the like. */
const char *vs_transfer_text(enum vcap_transfer t);

/* The V4L2 driver name of o's device, or "vcap" for VRAM. */
void vs_driver_name(const struct vs_opts *o, char *buf, size_t size);
/* Whether a run of o is over after frames frames since start_ns. */
bool vs_done(const struct vs_opts *o, uint64_t frames, uint64_t start_ns);

/* Exit status of a capture that ended its file at a source change. */
#define VS_EXIT_SOURCE_CHANGED	3

/* "cmd: message" on stderr. */
void vs_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A progress line on stderr, only when stderr is a terminal. */
struct vs_progress {
	bool enabled;
	uint64_t last_ns;
	bool shown;
};

void vs_progress_init(struct vs_progress *p, const struct vs_opts *o);
void vs_progress_update(struct vs_progress *p, const struct vcap_stats *st,
			uint64_t frames);
void vs_progress_done(struct vs_progress *p);

/*
 * "CMD: latency ..." on stderr: the board's frame time to the frame in
 * hand, p50/p99/max, or why there is no figure.
 */
void vs_print_latency(const char *cmd, const struct vcap_source *src,
		      const struct vcap_stats_summary *s);

#endif /* VS_H */
