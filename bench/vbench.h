/* vbench: the guest-side measuring programs of the benchmarks. */
#ifndef VBENCH_H
#define VBENCH_H

#include <stddef.h>
#include <stdint.h>

/* One subcommand: its name, a one-line summary and its entry point. */
struct vb_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int vb_memcpy_main(int argc, char **argv);
int vb_capture_main(int argc, char **argv);
int vb_feed_main(int argc, char **argv);
int vb_touch_main(int argc, char **argv);
int vb_vram_main(int argc, char **argv);

/* Clocks, in seconds. */
double vb_now(void);			/* CLOCK_MONOTONIC */
void vb_sleep_until(double t);		/* absolute CLOCK_MONOTONIC */

/*
 * CPU time over an interval: the whole guest (every CPU, every thread,
 * interrupts included, from /proc/stat) and this process (getrusage).
 */
struct vb_cpu {
	double sys_busy;	/* seconds of non-idle time, all CPUs */
	double proc;		/* user + system of this process */
};
void vb_cpu_sample(struct vb_cpu *c);
void vb_cpu_delta(const struct vb_cpu *a, const struct vb_cpu *b,
		  struct vb_cpu *d);

/* Latency samples with percentiles. */
struct vb_lat {
	double *v;
	size_t n, cap;
};
void vb_lat_add(struct vb_lat *l, double seconds);
double vb_lat_pct(struct vb_lat *l, double pct);	/* sorts; 0 if empty */
int vb_lat_save(const struct vb_lat *l, const char *path);
void vb_lat_free(struct vb_lat *l);

/* One flat JSON object on one line of stdout. */
void vb_json_begin(void);
void vb_json_str(const char *key, const char *val);
void vb_json_num(const char *key, double val);
void vb_json_int(const char *key, long long val);
void vb_json_end(void);

/* Helpers for option parsing and V4L2. */
int vb_parse_size(const char *s, unsigned int *w, unsigned int *h);
uint32_t vb_parse_fourcc(const char *s);	/* "YUYV", "NV12"; 0 if bad */
const char *vb_fourcc_str(uint32_t fourcc, char buf[5]);
int vb_xioctl(int fd, unsigned long req, void *arg);
struct v4l2_fract;
/* The shortest frame interval a capture device lists for a mode. */
int vb_fastest_interval(int fd, uint32_t fourcc, unsigned int width,
			unsigned int height, struct v4l2_fract *best);
/*
 * Where the rates are a discrete list: the fastest not above fps (else the
 * slowest); -1 for stepwise or continuous intervals.
 */
int vb_interval_at_most(int fd, uint32_t fourcc, unsigned int width,
			unsigned int height, double fps, struct v4l2_fract *out);
void vb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
