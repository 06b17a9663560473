// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vcap-fw: the command line of the board's firmware. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include "fw-log.h"
#include "fw-run.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: vcap-fw serve [OPTIONS]     run the board\n"
"       vcap-fw ctl SOCKET COMMAND  talk to a running board\n"
"       vcap-fw modes [--size N]    print the modes a board publishes\n"
"       vcap-fw --list-sources      the host's cameras and their modes, and\n"
"                                   every kind of source\n"
"\n"
"serve options:\n"
"  --shm NAME|PATH     board memory: a file (PATH with '/') or /dev/shm/NAME;\n"
"                      alone, the board runs for ivshmem-plain (polling)\n"
"  --socket PATH       serve QEMU's ivshmem-doorbell on this unix socket\n"
"                      (board memory: --shm, or an anonymous memory file)\n"
"  --size N            board memory size, a power of two (K/M/G suffix);\n"
"                      default 64M: three 3840x2160 YUYV frames\n"
"  --ctl PATH          control socket (default: SOCKET.ctl with --socket)\n"
"  --pidfile FILE      write the process id once ready\n"
"  --source SPEC       frames from pattern (default), y4m:FILE,\n"
"                      raw:FILE:FOURCC:WxH; live Y4M from pipe:PATH (a FIFO\n"
"                      or any stream) or - (standard input), or a camera,\n"
"                      v4l2:DEVICE[:WxH][@FPS][:FOURCC], which are also\n"
"                      the HDMI input's signal; or the source on the HDMI\n"
"                      input: a timing (" FW_HDMI_DEFAULT_SOURCE " by default, 720p60, ...),\n"
"                      none, unstable or out-of-range; repeatable\n"
"  --pattern NAME      force a pattern: bars box gradient checkerboard white\n"
"                      black red green blue noise\n"
"  --start FOURCC:WxH@FPS  stream from the start, without a driver request\n"
"  --serial STR        board serial number\n"
"  --guest-ram PATH    DMA: write frames into the guest's buffers through\n"
"                      this file, the guest's RAM (QEMU -object\n"
"                      memory-backend-file,mem-path=PATH,share=on); it must\n"
"                      exist and have the guest's RAM size\n"
"  --guest-machine pc|q35  QEMU machine of the guest, for its RAM layout\n"
"                      (default pc, QEMU's default machine)\n"
"  --realtime          SCHED_FIFO priority, for steady pacing on a busy host\n"
"  -v, --verbose       log peers and faults\n"
"\n"
"ctl commands: stats | pattern NAME|request | source SPEC | stop |\n"
"              source pipe:PATH (swap the live source while streaming) |\n"
"              guest-ram PATH [pc|q35] | guest-ram none |\n"
"              source TIMING|none|unstable|out-of-range |\n"
"              start FOURCC WxH FPS [PATTERN] |\n"
"              %s\n", fw_fault_usage);
}

static int parse_size(const char *s, u64 *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (end == s || errno || s[0] == '-')
		return -1;
	switch (*end) {
	case 'G': case 'g':
		v <<= 10;
		/* fallthrough */
	case 'M': case 'm':
		v <<= 10;
		/* fallthrough */
	case 'K': case 'k':
		v <<= 10;
		end++;
		break;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int cmd_modes(int argc, char **argv)
{
	struct vcap_board_info *info = calloc(1, sizeof(*info));
	u64 size = FW_BOARD_DEFAULT_SIZE;
	u32 i, j;

	if (!info)
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--size")) {
		if (parse_size(argv[2], &size) || size <= VCAP_CTRL_SIZE) {
			fprintf(stderr, "vcap-fw: bad --size '%s'\n", argv[2]);
			free(info);
			return 2;
		}
	} else if (argc != 1) {
		usage(stderr);
		free(info);
		return 2;
	}
	vcap_modes_fill(info, size - VCAP_CTRL_SIZE);
	for (i = 0; i < le32_to_cpu(info->num_modes); i++) {
		const struct vcap_board_mode *m = &info->modes[i];
		u32 fcc = le32_to_cpu(m->fourcc);

		printf("%.4s %5ux%-5u fps:", (const char *)&fcc,
		       le32_to_cpu(m->width), le32_to_cpu(m->height));
		for (j = 0; j < le32_to_cpu(info->num_intervals); j++)
			if (le32_to_cpu(m->interval_mask) & (1u << j))
				printf(" %u", le32_to_cpu(info->intervals[j].denominator));
		printf("\n");
	}
	free(info);
	return 0;
}

static int parse_start(const char *s, u32 *fourcc, u32 *w, u32 *h, u32 *fps)
{
	char fcc[5], c;

	if (sscanf(s, "%4[^:]:%ux%u@%u%c", fcc, w, h, fps, &c) != 4 ||
	    strlen(fcc) != 4)
		return -1;
	*fourcc = VCAP_FOURCC(fcc[0], fcc[1], fcc[2], fcc[3]);
	return 0;
}

static int cmd_serve(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "shm", required_argument, NULL, 'm' },
		{ "socket", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, 'z' },
		{ "ctl", required_argument, NULL, 'c' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "source", required_argument, NULL, 'o' },
		{ "pattern", required_argument, NULL, 't' },
		{ "start", required_argument, NULL, 'S' },
		{ "serial", required_argument, NULL, 'n' },
		{ "guest-ram", required_argument, NULL, 'g' },
		{ "guest-machine", required_argument, NULL, 'M' },
		{ "realtime", no_argument, NULL, 'R' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *shm = NULL, *sock = NULL, *ctl = NULL, *pidfile = NULL;
	const char *sources[8], *start = NULL, *serial = NULL;
	const char *guest_ram = NULL, *guest_machine = NULL;
	enum fw_guest_machine machine = FW_GUEST_PC;
	char shm_path[4096], ctl_path[4096], err[1024];
	u32 fourcc = 0, w = 0, h = 0, fps = 0;
	u64 size = FW_BOARD_DEFAULT_SIZE;
	int pattern = -1, opt, ret, nsources = 0, i;
	bool realtime = false;
	struct fw_run *r;
	sigset_t mask;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			shm = optarg;
			break;
		case 's':
			sock = optarg;
			break;
		case 'z':
			if (parse_size(optarg, &size)) {
				fprintf(stderr, "vcap-fw: bad --size '%s': expected a number with an optional K, M or G suffix\n", optarg);
				return 2;
			}
			break;
		case 'c':
			ctl = optarg;
			break;
		case 'p':
			pidfile = optarg;
			break;
		case 'o':
			if (nsources == (int)(sizeof(sources) / sizeof(sources[0]))) {
				fprintf(stderr, "vcap-fw: too many --source options\n");
				return 2;
			}
			sources[nsources++] = optarg;
			break;
		case 't':
			pattern = fw_pattern_by_name(optarg);
			if (pattern < 0) {
				fprintf(stderr, "vcap-fw: unknown --pattern '%s'\n", optarg);
				return 2;
			}
			break;
		case 'S':
			start = optarg;
			if (parse_start(start, &fourcc, &w, &h, &fps)) {
				fprintf(stderr, "vcap-fw: bad --start '%s': expected FOURCC:WxH@FPS, e.g. YUYV:640x480@30\n", start);
				return 2;
			}
			break;
		case 'n':
			serial = optarg;
			break;
		case 'g':
			guest_ram = optarg;
			break;
		case 'M':
			guest_machine = optarg;
			if (fw_guest_machine_by_name(optarg, &machine)) {
				fprintf(stderr, "vcap-fw: bad --guest-machine '%s': pc or q35\n", optarg);
				return 2;
			}
			break;
		case 'R':
			realtime = true;
			break;
		case 'v':
			fw_verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "vcap-fw: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (guest_machine && !guest_ram) {
		fprintf(stderr, "vcap-fw: --guest-machine without --guest-ram\n");
		return 2;
	}
	if (shm) {
		snprintf(shm_path, sizeof(shm_path), "%s%s",
			 strchr(shm, '/') ? "" : "/dev/shm/", shm);
		shm = shm_path;
	}
	if (!ctl && sock) {
		snprintf(ctl_path, sizeof(ctl_path), "%s.ctl", sock);
		ctl = ctl_path;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return 1;
	if (fw_run_init(r, shm, size, sock, ctl, err, sizeof(err))) {
		fprintf(stderr, "vcap-fw: %s\n", err);
		free(r);
		return 1;
	}
	for (i = 0; i < nsources; i++) {
		if (fw_run_set_source_spec(r, sources[i], err, sizeof(err))) {
			fprintf(stderr, "vcap-fw: %s\n", err);
			fw_run_fini(r);
			free(r);
			return 1;
		}
	}
	if (serial)
		r->id.serial = serial;
	if (serial)
		fw_board_reset(&r->board, &r->id);
	if (guest_ram &&
	    fw_run_enable_dma(r, guest_ram, machine, err, sizeof(err))) {
		fprintf(stderr, "vcap-fw: %s\n", err);
		fw_run_fini(r);
		free(r);
		return 1;
	}
	r->pattern_override = pattern;
	if (start) {
		ret = fw_run_start(r, fourcc, w, h, fps,
				   pattern >= 0 ? (u32)pattern : 0);
		if (ret) {
			fprintf(stderr, "vcap-fw: --start %s refused: %s\n",
				start, vcap_modes_err_str((u32)ret));
			fw_run_fini(r);
			free(r);
			return 1;
		}
	}

	if (realtime) {
		struct sched_param sp = { .sched_priority = 10 };

		/* Frames on time even on a busy host; best effort. */
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			fprintf(stderr, "vcap-fw: --realtime: %s; running without\n",
				strerror(errno));
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	r->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

	if (pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f)) {
			fprintf(stderr, "vcap-fw: cannot write pidfile %s: %s\n",
				pidfile, strerror(errno));
			fw_run_fini(r);
			free(r);
			return 1;
		}
	}
	printf("vcap-fw: ready: memory %s (%llu bytes)%s%s%s%s%s%s%s\n",
	       shm ? shm : "(anonymous)", (unsigned long long)size,
	       sock ? ", ivshmem server " : ", polling (ivshmem-plain)",
	       sock ? sock : "", ctl ? ", control " : "", ctl ? ctl : "",
	       guest_ram ? ", DMA into guest RAM " : "",
	       guest_ram ? guest_ram : "",
	       guest_ram ? (machine == FW_GUEST_Q35 ? " (q35)" : " (pc)") : "");
	fflush(stdout);

	ret = fw_run_loop(r);
	fw_info("exiting: %llu frames produced\n",
		(unsigned long long)r->board.frames_produced);
	if (r->signal_fd >= 0)
		close(r->signal_fd);
	fw_run_fini(r);
	free(r);
	if (pidfile)
		unlink(pidfile);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "serve"))
		return cmd_serve(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ctl")) {
		if (argc < 4) {
			fprintf(stderr, "usage: vcap-fw ctl SOCKET COMMAND...\n");
			return 2;
		}
		return fw_ctl_client(argv[2], argc - 3, argv + 3);
	}
	if (!strcmp(argv[1], "modes"))
		return cmd_modes(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--list-sources")) {
		if (argc != 2) {
			usage(stderr);
			return 2;
		}
		fw_source_list(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "vcap-fw: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
