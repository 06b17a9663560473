// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Frame pacing on an absolute monotonic schedule. */
#include <time.h>
#include "fw-pace.h"

uint64_t fw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t fw_pace_at(const struct fw_pace *p, uint64_t n)
{
	unsigned __int128 t = (unsigned __int128)n * p->num * 1000000000u;

	return p->start_ns + (uint64_t)(t / p->den);
}

void fw_pace_start(struct fw_pace *p, uint32_t num, uint32_t den,
		   uint64_t now_ns)
{
	p->start_ns = now_ns;
	p->num = num ? num : 1;
	p->den = den ? den : 30;
	p->n = 0;
	p->late = 0;
}

uint64_t fw_pace_deadline(const struct fw_pace *p)
{
	return fw_pace_at(p, p->n);
}

void fw_pace_advance(struct fw_pace *p, uint64_t now_ns)
{
	unsigned __int128 elapsed;
	uint64_t behind;

	p->n++;
	if (now_ns <= fw_pace_at(p, p->n))
		return;
	/* Already past the next deadline: skip to the one still ahead. */
	elapsed = (unsigned __int128)(now_ns - p->start_ns) * p->den;
	behind = (uint64_t)(elapsed / ((unsigned __int128)p->num * 1000000000u)) + 1;
	if (behind > p->n) {
		p->late += behind - p->n;
		p->n = behind;
	}
}

void fw_pace_hold(struct fw_pace *p, uint64_t now_ns)
{
	uint64_t due = fw_pace_deadline(p);

	if (now_ns > due)
		p->start_ns += now_ns - due;
}

void fw_pace_skip_to(struct fw_pace *p, uint64_t now_ns)
{
	uint64_t late = p->late;

	if (now_ns < fw_pace_deadline(p))
		return;
	fw_pace_advance(p, now_ns);
	p->late = late;
}

void fw_pace_retime(struct fw_pace *p, uint32_t num, uint32_t den,
		    uint64_t now_ns)
{
	uint64_t n = p->n, late = p->late, since;

	fw_pace_start(p, num, den, 0);
	since = fw_pace_at(p, n);
	p->start_ns = now_ns > since ? now_ns - since : 0;
	p->n = n;
	p->late = late;
}
