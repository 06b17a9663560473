// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Parsing of the fault commands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fw-fault.h"

const char fw_fault_usage[] =
	"fault drop N | stall MS | hang MS | die MS | signal off|on |\n"
	"      resize WxH | corrupt lock|seq|size|pixels|slot |\n"
	"      hostile on|off | storm N |\n"
	"      comp id|stale|size|replay|reorder|idle|after-stop [N|every N] |\n"
	"      clear";

static const char * const fw_comp_names[FW_COMP_COUNT] = {
	[FW_COMP_ID] = "id", [FW_COMP_STALE] = "stale",
	[FW_COMP_SIZE] = "size", [FW_COMP_REPLAY] = "replay",
	[FW_COMP_REORDER] = "reorder", [FW_COMP_IDLE] = "idle",
	[FW_COMP_AFTER_STOP] = "after-stop",
};

const char *fw_comp_fault_name(enum fw_comp_fault kind)
{
	return kind > FW_COMP_NONE && kind < FW_COMP_COUNT ?
	       fw_comp_names[kind] : "?";
}

void fw_fault_init(struct fw_fault *f)
{
	memset(f, 0, sizeof(*f));
	f->signal = -1;
}

static int parse_u32(const char *s, uint32_t max, uint32_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (end == s || *end || errno || x > max || s[0] == '-')
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* comp KIND: once; comp KIND N: the next N; comp KIND every N: a rate. */
static int fw_fault_parse_comp(struct fw_fault *f, int argc, char **argv,
			       FILE *out)
{
	uint32_t n = 1;
	unsigned int k;

	for (k = FW_COMP_NONE + 1; k < FW_COMP_COUNT; k++)
		if (!strcmp(argv[2], fw_comp_names[k]))
			break;
	if (k == FW_COMP_COUNT)
		goto usage;
	if (argc == 4 && parse_u32(argv[3], 1000000, &n))
		goto usage;
	if (argc == 5 && (strcmp(argv[3], "every") ||
			  parse_u32(argv[4], 1000000, &n) || !n))
		goto usage;
	if (argc == 5)
		f->comp_every[k] = n;
	else
		f->comp[k] += n;
	return 0;

usage:
	fprintf(out, "bad fault command; usage: %s", fw_fault_usage);
	return -1;
}

int fw_fault_parse(struct fw_fault *f, int argc, char **argv,
		   uint64_t now_ns, FILE *out)
{
	static const char * const corrupt[] = {
		[FW_CORRUPT_LOCK] = "lock", [FW_CORRUPT_SEQ] = "seq",
		[FW_CORRUPT_SIZE] = "size", [FW_CORRUPT_PIXELS] = "pixels",
		[FW_CORRUPT_SLOT] = "slot",
	};
	const char *what = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : NULL;
	uint32_t v, w, h;
	unsigned int i;
	char *x;

	if (!strcmp(what, "clear") && argc == 2) {
		uint64_t dropped = f->dropped;

		fw_fault_init(f);
		f->dropped = dropped;
		f->signal = 1;
		return 0;
	}
	if (!strcmp(what, "comp") && argc >= 3 && argc <= 5)
		return fw_fault_parse_comp(f, argc, argv, out);
	if (argc != 3)
		goto usage;
	if (!strcmp(what, "drop") && !parse_u32(arg, 1000000, &v)) {
		f->drop += v;
	} else if (!strcmp(what, "storm") && !parse_u32(arg, 1000000, &v)) {
		f->storm += v;
	} else if ((!strcmp(what, "stall") || !strcmp(what, "hang") ||
		    !strcmp(what, "die")) && !parse_u32(arg, 600000, &v)) {
		uint64_t until = now_ns + (uint64_t)v * 1000000;

		if (what[0] == 's')
			f->stall_until = until;
		else if (what[0] == 'h')
			f->hang_until = until;
		else {
			f->die_until = until;
			f->dead = true;
		}
	} else if (!strcmp(what, "signal") && !strcmp(arg, "off")) {
		f->signal = 0;
	} else if (!strcmp(what, "signal") && !strcmp(arg, "on")) {
		f->signal = 1;
	} else if (!strcmp(what, "hostile") && !strcmp(arg, "on")) {
		f->hostile = true;
	} else if (!strcmp(what, "hostile") && !strcmp(arg, "off")) {
		f->hostile = false;
	} else if (!strcmp(what, "resize")) {
		w = (uint32_t)strtoul(arg, &x, 10);
		if (*x != 'x' || parse_u32(x + 1, 65535, &h) || !w || !h)
			goto usage;
		f->resize_w = w;
		f->resize_h = h;
	} else if (!strcmp(what, "corrupt")) {
		for (i = 1; i < sizeof(corrupt) / sizeof(corrupt[0]); i++)
			if (!strcmp(arg, corrupt[i]))
				break;
		if (i == sizeof(corrupt) / sizeof(corrupt[0]))
			goto usage;
		f->corrupt = (enum fw_corrupt)i;
	} else {
		goto usage;
	}
	return 0;

usage:
	fprintf(out, "bad fault command; usage: %s", fw_fault_usage);
	return -1;
}
