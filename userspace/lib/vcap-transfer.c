// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* How frames reach a node's buffers: the vcap board's sysfs "transfer". */
#include "vcap-priv.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

static const char *const transfer_names[] = {
	[VCAP_TRANSFER_UNKNOWN] = "unknown",
	[VCAP_TRANSFER_COPY] = "copy",
	[VCAP_TRANSFER_DMA] = "dma",
};

const char *vcap_transfer_name(enum vcap_transfer t)
{
	if ((unsigned int)t >= sizeof(transfer_names) / sizeof(transfer_names[0]))
		return "unknown";
	return transfer_names[t];
}

/* realpath() of dir/name, false if it does not resolve. */
static bool resolve(const char *dir, const char *name, char out[PATH_MAX])
{
	char p[PATH_MAX];
	int n = snprintf(p, sizeof(p), "%s/%s", dir, name);

	return n > 0 && (size_t)n < sizeof(p) && realpath(p, out);
}

/*
 * The board's "transfer" attribute, first line, into t.  An attribute
 * that is absent (a driver from before DMA) or says something else
 * leaves UNKNOWN: the caller cannot tell more than that.
 */
static void read_transfer(const char *board, enum vcap_transfer *t)
{
	char p[PATH_MAX], line[32];
	FILE *f;

	if ((size_t)snprintf(p, sizeof(p), "%s/transfer", board) >= sizeof(p))
		return;
	f = fopen(p, "re");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "dma"))
			*t = VCAP_TRANSFER_DMA;
		else if (!strcmp(line, "copy"))
			*t = VCAP_TRANSFER_COPY;
	}
	fclose(f);
}

int vcap_transfer_query(const char *sysfs, const char *path,
			enum vcap_transfer *out)
{
	char node[PATH_MAX], parent[PATH_MAX], other[PATH_MAX];
	char classdir[PATH_MAX], rel[64];
	struct dirent *de;
	struct stat st;
	DIR *dir;

	*out = VCAP_TRANSFER_UNKNOWN;
	if (!sysfs)
		sysfs = "/sys";
	if (stat(path, &st) < 0)
		return vcap_set_error(errno, "%s: stat", path);
	if (!S_ISCHR(st.st_mode))
		return vcap_set_error(ENODEV, "%s: not a device node", path);
	/* The node's own sysfs directory, whatever udev named it. */
	snprintf(rel, sizeof(rel), "dev/char/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	if (!resolve(sysfs, rel, node))
		return vcap_set_error(ENODEV, "%s: no %s/%s", path, sysfs, rel);
	/* A virtual node (v4l2loopback, vivid's own) may have no parent. */
	if (!resolve(node, "device", parent))
		return 0;
	if ((size_t)snprintf(classdir, sizeof(classdir), "%s/class/vcap",
			     sysfs) >= sizeof(classdir))
		return 0;
	dir = opendir(classdir);
	if (!dir)
		return 0;	/* vcap not loaded: not a vcap node */
	while ((de = readdir(dir))) {
		char board[PATH_MAX];

		if (de->d_name[0] == '.')
			continue;
		if (!resolve(classdir, de->d_name, board) ||
		    !resolve(board, "device", other) || strcmp(other, parent))
			continue;
		read_transfer(board, out);
		break;
	}
	closedir(dir);
	return 0;
}
