// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Stream verification: sequence numbers in order with no gaps and, on
 * stamped sources, the board's stamps decoding whole and consecutive.
 */
#include "vcap-priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vcap-stamp.h"

#define NO_STAMP	UINT64_MAX

void vcap_verify_init(struct vcap_verify *v, uint32_t flags)
{
	memset(v, 0, sizeof(*v));
	v->flags = flags;
	v->prev_stamp = NO_STAMP;
}

const char *vcap_verify_status_str(enum vcap_verify_status s)
{
	switch (s) {
	case VCAP_VERIFY_OK:
		return "ok";
	case VCAP_VERIFY_DROP:
		return "dropped frames";
	case VCAP_VERIFY_REORDER:
		return "out of order";
	case VCAP_VERIFY_TORN:
		return "torn frame";
	case VCAP_VERIFY_BAD_STAMP:
		return "bad stamp";
	case VCAP_VERIFY_FLAGGED:
		return "flagged bad by the device";
	case VCAP_VERIFY_SHORT:
		return "short frame";
	}
	return "unknown";
}

__attribute__((format(printf, 4, 5)))
static enum vcap_verify_status fail(struct vcap_verify *v, uint64_t index,
				    enum vcap_verify_status s,
				    const char *fmt, ...)
{
	char why[120];
	va_list ap;

	if (v->status != VCAP_VERIFY_OK)
		return s;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	v->status = s;
	v->bad_frame = index;
	snprintf(v->message, sizeof(v->message), "frame %llu: %s: %s",
		 (unsigned long long)index, vcap_verify_status_str(s), why);
	return s;
}

/* Expected next: prev + 1.  Anything else is a gap or a step back. */
static enum vcap_verify_status check_order(struct vcap_verify *v,
					   uint64_t index, const char *what,
					   uint64_t prev, uint64_t got)
{
	if (got == prev + 1)
		return VCAP_VERIFY_OK;
	if (got > prev + 1)
		return fail(v, index, VCAP_VERIFY_DROP,
			    "%s %llu after %llu (%llu missing)", what,
			    (unsigned long long)got,
			    (unsigned long long)prev,
			    (unsigned long long)(got - prev - 1));
	return fail(v, index, VCAP_VERIFY_REORDER, "%s %llu after %llu", what,
		    (unsigned long long)got, (unsigned long long)prev);
}

static enum vcap_verify_status check_stamp(struct vcap_verify *v,
					   uint64_t index,
					   const struct vcap_frame *f,
					   uint64_t *stamp_seq)
{
	const struct vcap_pixfmt *pf = vcap_pixfmt_find(f->mode.fourcc);
	struct vcap_frame_fmt fmt = {
		.fourcc = f->mode.fourcc,
		.width = f->mode.width,
		.height = f->mode.height,
		.bytesperline = f->mode.bytesperline,
		.sizeimage = f->mode.sizeimage,
	};
	struct vcap_stamp st;
	enum vcap_stamp_result r;

	if (!fmt.bytesperline && pf)
		fmt.bytesperline = f->mode.width * pf->bpp;
	r = vcap_stamp_check(&fmt, f->data, f->bytesused, &st);
	switch (r) {
	case VCAP_STAMP_OK:
		*stamp_seq = st.seq;
		return VCAP_VERIFY_OK;
	case VCAP_STAMP_TORN:
		return fail(v, index, VCAP_VERIFY_TORN,
			    "sequence %llu: top and bottom stamps disagree",
			    (unsigned long long)f->sequence);
	default:
		return fail(v, index, VCAP_VERIFY_BAD_STAMP,
			    "sequence %llu: %s",
			    (unsigned long long)f->sequence,
			    vcap_stamp_result_str(r));
	}
}

enum vcap_verify_status vcap_verify_frame(struct vcap_verify *v,
					  const struct vcap_frame *f)
{
	uint64_t index = v->frames++;
	enum vcap_verify_status s = VCAP_VERIFY_OK, s2;
	size_t need = vcap_mode_frame_size(&f->mode);
	uint64_t stamp = 0;
	bool have_stamp = false;

	if (f->flags & VCAP_FRAME_TORN)
		s = fail(v, index, VCAP_VERIFY_TORN,
			 "sequence %llu: overwritten while read",
			 (unsigned long long)f->sequence);
	else if (f->flags & (VCAP_FRAME_ERROR | VCAP_FRAME_NO_SIGNAL))
		s = fail(v, index, VCAP_VERIFY_FLAGGED, "sequence %llu: %s",
			 (unsigned long long)f->sequence,
			 f->flags & VCAP_FRAME_ERROR ? "error flag" :
						       "no signal");
	else if (need && f->bytesused < need)
		s = fail(v, index, VCAP_VERIFY_SHORT,
			 "sequence %llu: %zu of %zu bytes",
			 (unsigned long long)f->sequence, f->bytesused, need);
	else if (v->flags & VCAP_VERIFY_STAMPS) {
		s = check_stamp(v, index, f, &stamp);
		have_stamp = s == VCAP_VERIFY_OK;
	}

	if (v->have_prev) {
		s2 = check_order(v, index, "sequence", v->prev_sequence,
				 f->sequence);
		if (s == VCAP_VERIFY_OK)
			s = s2;
	}
	/* Capture times never go backwards, whatever the clock. */
	if (v->have_prev && f->timestamp_ns && v->prev_timestamp_ns &&
	    f->timestamp_ns < v->prev_timestamp_ns) {
		s2 = fail(v, index, VCAP_VERIFY_REORDER,
			  "sequence %llu: timestamp went back %llu ns",
			  (unsigned long long)f->sequence,
			  (unsigned long long)(v->prev_timestamp_ns -
					       f->timestamp_ns));
		if (s == VCAP_VERIFY_OK)
			s = s2;
	}
	if (f->timestamp_ns > v->prev_timestamp_ns)
		v->prev_timestamp_ns = f->timestamp_ns;
	if (!v->have_prev || f->sequence > v->prev_sequence)
		v->prev_sequence = f->sequence;
	v->have_prev = true;
	if (have_stamp) {
		if (v->prev_stamp != NO_STAMP) {
			s2 = check_order(v, index, "stamp", v->prev_stamp,
					 stamp);
			if (s == VCAP_VERIFY_OK)
				s = s2;
		}
		if (v->prev_stamp == NO_STAMP || stamp > v->prev_stamp)
			v->prev_stamp = stamp;
	}
	return s;
}
