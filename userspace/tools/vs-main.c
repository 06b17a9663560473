// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/* vcap-stream's main(): pick the subcommand, parse, run. */
#include "vs.h"

#include <string.h>

int main(int argc, char **argv)
{
	const struct vs_cmd *cmd;
	struct vs_opts o;
	char err[256];

	if (argc < 2) {
		vs_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		vs_usage(stdout);
		return 0;
	}
	cmd = vs_find_cmd(argv[1]);
	if (!cmd) {
		fprintf(stderr,
			"vcap-stream: unknown command '%s' (try 'vcap-stream --help')\n",
			argv[1]);
		return 2;
	}
	if (vs_parse(cmd, argc - 1, argv + 1, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "vcap-stream %s: %s (try 'vcap-stream %s --help')\n",
			cmd->name, err, cmd->name);
		return 2;
	}
	if (o.help) {
		cmd->usage(stdout);
		return 0;
	}
	return cmd->run(&o);
}
