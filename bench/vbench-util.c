/* vbench-util: clocks, CPU accounting, latency percentiles, JSON output. */
#include <errno.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "vbench.h"

double vb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void vb_sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * Non-idle time of all CPUs, in CPU-seconds: the time every online CPU
 * has been up, less the idle and iowait time /proc/stat gives.  The
 * kernel clocks idle time at each idle entry and exit (NO_HZ); the busy
 * columns are sampled at the tick instead, which a source paced at a
 * rate that divides or is divided by HZ hits at the same phase of every
 * frame: over a few seconds that reads anything from none of a frame's
 * work to all of it.
 */
static double vb_sys_busy(void)
{
	unsigned long long v[5] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	char line[256];
	int n, ncpu = 0;

	if (!f)
		return 0;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4]);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9')
			ncpu++;
	fclose(f);
	if (n < 5 || !ncpu)
		return 0;
	/* user nice system idle iowait: the last two are what is not busy. */
	return ncpu * vb_now() - (double)(v[3] + v[4]) / sysconf(_SC_CLK_TCK);
}

void vb_cpu_sample(struct vb_cpu *c)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	c->proc = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
		  ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
	c->sys_busy = vb_sys_busy();
}

void vb_cpu_delta(const struct vb_cpu *a, const struct vb_cpu *b,
		  struct vb_cpu *d)
{
	d->sys_busy = b->sys_busy - a->sys_busy;
	d->proc = b->proc - a->proc;
}

void vb_lat_add(struct vb_lat *l, double seconds)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		double *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = seconds;
}

static int vb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double vb_lat_pct(struct vb_lat *l, double pct)
{
	size_t i;

	if (!l->n)
		return 0;
	qsort(l->v, l->n, sizeof(*l->v), vb_cmp_double);
	/* nearest rank */
	i = (size_t)(pct / 100.0 * l->n + 0.999999);
	if (i < 1)
		i = 1;
	if (i > l->n)
		i = l->n;
	return l->v[i - 1];
}

int vb_lat_save(const struct vb_lat *l, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f) {
		vb_err("%s: %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < l->n; i++)
		fprintf(f, "%.1f\n", l->v[i] * 1e6);
	return fclose(f);
}

void vb_lat_free(struct vb_lat *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static int vb_json_first;

void vb_json_begin(void)
{
	fputc('{', stdout);
	vb_json_first = 1;
}

static void vb_json_key(const char *key)
{
	printf("%s\"%s\":", vb_json_first ? "" : ",", key);
	vb_json_first = 0;
}

void vb_json_str(const char *key, const char *val)
{
	const char *p;

	vb_json_key(key);
	fputc('"', stdout);
	for (p = val; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', stdout);
		if ((unsigned char)*p >= 0x20)
			fputc(*p, stdout);
	}
	fputc('"', stdout);
}

void vb_json_num(const char *key, double val)
{
	vb_json_key(key);
	printf("%.6g", val);
}

void vb_json_int(const char *key, long long val)
{
	vb_json_key(key);
	printf("%lld", val);
}

void vb_json_end(void)
{
	fputs("}\n", stdout);
	fflush(stdout);
}

int vb_parse_size(const char *s, unsigned int *w, unsigned int *h)
{
	char x;

	if (sscanf(s, "%u%c%u", w, &x, h) != 3 || (x != 'x' && x != 'X') ||
	    !*w || !*h)
		return -1;
	return 0;
}

uint32_t vb_parse_fourcc(const char *s)
{
	if (strlen(s) != 4)
		return 0;
	return (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 |
	       (uint32_t)s[3] << 24;
}

const char *vb_fourcc_str(uint32_t fourcc, char buf[5])
{
	int i;

	for (i = 0; i < 4; i++)
		buf[i] = (char)(fourcc >> (8 * i));
	buf[4] = 0;
	return buf;
}

int vb_xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

void vb_err(const char *fmt, ...)
{
	va_list ap;

	fputs("vbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int vb_fastest_interval(int fd, uint32_t fourcc, unsigned int width,
			unsigned int height, struct v4l2_fract *best)
{
	struct v4l2_frmivalenum fi;
	double best_s = 1e9;

	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = fourcc;
	fi.width = width;
	fi.height = height;
	for (fi.index = 0; vb_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) == 0;
	     fi.index++) {
		struct v4l2_fract f;

		if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE)
			f = fi.discrete;
		else
			f = fi.stepwise.min;
		if (f.denominator && (double)f.numerator / f.denominator < best_s) {
			best_s = (double)f.numerator / f.denominator;
			*best = f;
		}
		if (fi.type != V4L2_FRMIVAL_TYPE_DISCRETE)
			break;
	}
	return best_s < 1e9 ? 0 : -1;
}

int vb_interval_at_most(int fd, uint32_t fourcc, unsigned int width,
			unsigned int height, double fps, struct v4l2_fract *out)
{
	struct v4l2_frmivalenum fi;
	double best = 0, slowest = 1e9;
	struct v4l2_fract slow = { 0, 0 };

	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = fourcc;
	fi.width = width;
	fi.height = height;
	for (fi.index = 0; vb_xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) == 0;
	     fi.index++) {
		double r;

		if (fi.type != V4L2_FRMIVAL_TYPE_DISCRETE || !fi.discrete.numerator)
			return -1;
		r = (double)fi.discrete.denominator / fi.discrete.numerator;
		if (r <= fps * 1.0001 && r > best) {
			best = r;
			*out = fi.discrete;
		}
		if (r < slowest) {
			slowest = r;
			slow = fi.discrete;
		}
	}
	if (best > 0)
		return 0;
	if (slow.numerator) {
		*out = slow;
		return 0;
	}
	return -1;
}
