// SPDX-License-Identifier: GPL-2.0 OR MIT
/* A board's clock in this machine's: the offset's estimate (vcap-clock.h). */
#include "vcap-clock.h"

void vcap_clock_reset(struct vcap_clock *c)
{
	vcap_memset(c, 0, sizeof(*c));
}

/* a - b as a signed distance; both are u64 so wrapping is defined. */
static s64 vcap_clock_diff(u64 a, u64 b)
{
	return (s64)(a - b);
}

static void vcap_clock_set(struct vcap_clock *c, u64 offset, u64 now)
{
	c->valid = true;
	c->offset = offset;
	c->at = now;
	c->outliers = 0;
}

void vcap_clock_sample(struct vcap_clock *c, u64 board_ns, u64 now)
{
	u64 d = now - board_ns;
	s64 from_est;
	u64 drift;

	if (!c->valid) {
		vcap_clock_set(c, d, now);
		return;
	}
	from_est = vcap_clock_diff(d, c->offset);
	if (from_est >= (s64)VCAP_CLOCK_JUMP_NS ||
	    from_est <= -(s64)VCAP_CLOCK_JUMP_NS) {
		c->refused++;
		if (++c->outliers >= VCAP_CLOCK_RESEED)
			vcap_clock_set(c, d, now);
		return;
	}
	c->outliers = 0;
	/* A later sample may lift the estimate as far as drift allows. */
	drift = now > c->at ?
		vcap_div_u64(now - c->at, 1000000 / VCAP_CLOCK_DRIFT_PPM) : 0;
	if (from_est <= 0 || (u64)from_est <= drift)
		vcap_clock_set(c, d, now);
}

u64 vcap_clock_map(const struct vcap_clock *c, u64 board_ns)
{
	return c->valid ? board_ns + c->offset : 0;
}
