// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* vcap-stream's subcommand table and top-level help. */
#include "vs.h"

#include <string.h>

const struct vs_cmd *const vs_cmds[] = {
	&vs_cmd_list,
	&vs_cmd_formats,
	&vs_cmd_capture,
	&vs_cmd_verify,
	&vs_cmd_bench,
	NULL,
};

const struct vs_cmd *vs_find_cmd(const char *name)
{
	for (int i = 0; vs_cmds[i]; i++)
		if (!strcmp(vs_cmds[i]->name, name))
			return vs_cmds[i];
	return NULL;
}

void vs_usage(FILE *f)
{
	fputs("Usage: vcap-stream COMMAND [OPTIONS]\n"
	      "Capture, verify and benchmark V4L2 capture devices and vcap VRAM nodes.\n\n"
	      "Commands:\n", f);
	for (int i = 0; vs_cmds[i]; i++)
		fprintf(f, "  %-10s %s\n", vs_cmds[i]->name,
			vs_cmds[i]->summary);
	fputs("\n'vcap-stream COMMAND --help' describes a command's options.\n"
	      "Exit status: 0 success, 1 the run failed, 2 bad usage, 3 a capture\n"
	      "ended its file at a source change (new size or format).\n", f);
}
