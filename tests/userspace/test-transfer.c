// SPDX-License-Identifier: GPL-2.0-or-later OR MIT
/*
 * libvcap's transfer query against a made-up sysfs: which vcap board a
 * node belongs to, and what its "transfer" attribute says.  /dev/null
 * (character device 1:3) stands for the V4L2 node.
 */
#include <errno.h>
#include <fcntl.h>
#include <libvcap.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ut.h"

static char root[64];
static char node_rdev[32];

static void path_of(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s", root, rel);
}

/* mkdir -p root/rel */
static void mkdirs(const char *rel)
{
	char p[512];

	path_of(p, sizeof(p), rel);
	for (char *s = p + strlen(root) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		CHECK(mkdir(p, 0755) == 0 || errno == EEXIST);
		*s = '/';
	}
	CHECK(mkdir(p, 0755) == 0 || errno == EEXIST);
}

/* root/rel -> root/target, replacing an older link. */
static void link_to(const char *rel, const char *target)
{
	char p[512], t[512];

	path_of(p, sizeof(p), rel);
	path_of(t, sizeof(t), target);
	unlink(p);
	CHECK(symlink(t, p) == 0);
}

static void write_attr(const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	path_of(p, sizeof(p), rel);
	f = fopen(p, "w");
	if (!f)
		fprintf(stderr, "%s: %s\n", p, strerror(errno));
	CHECK(f);
	fputs(text, f);
	CHECK(fclose(f) == 0);
}

static enum vcap_transfer query(void)
{
	enum vcap_transfer t = (enum vcap_transfer)-1;

	CHECK_EQ(vcap_transfer_query(root, "/dev/null", &t), 0);
	return t;
}

#define PCI4	"devices/pci0000:00/0000:00:04.0"
#define PCI5	"devices/pci0000:00/0000:00:05.0"

static void test_lookup(void)
{
	enum vcap_transfer t = VCAP_TRANSFER_DMA;
	char rel[512];

	/* sysfs does not know the node. */
	CHECK_EQ(vcap_transfer_query(root, "/dev/null", &t), -1);
	CHECK_EQ(t, VCAP_TRANSFER_UNKNOWN);
	CHECK_EQ(vcap_last_errno(), ENODEV);
	CHECK_STR(vcap_last_error(), "/dev/null");

	/* A node whose parent no vcap board shares: another driver's. */
	mkdirs("dev/char");
	mkdirs(PCI4 "/video4linux/video3");
	mkdirs(PCI5 "/vcap/vcap1");
	snprintf(rel, sizeof(rel), "dev/char/%s", node_rdev);
	link_to(rel, PCI4 "/video4linux/video3");
	link_to(PCI4 "/video4linux/video3/device", PCI4);
	CHECK_EQ(query(), VCAP_TRANSFER_UNKNOWN);	/* no vcap class */
	mkdirs("class/vcap");
	link_to("class/vcap/vcap1", PCI5 "/vcap/vcap1");
	link_to(PCI5 "/vcap/vcap1/device", PCI5);
	write_attr(PCI5 "/vcap/vcap1/transfer", "dma\n");
	CHECK_EQ(query(), VCAP_TRANSFER_UNKNOWN);

	/* The node's own board, from before the attribute existed. */
	mkdirs(PCI4 "/vcap/vcap0");
	link_to("class/vcap/vcap0", PCI4 "/vcap/vcap0");
	link_to(PCI4 "/vcap/vcap0/device", PCI4);
	CHECK_EQ(query(), VCAP_TRANSFER_UNKNOWN);

	/* Its own board's answer, not the other board's. */
	write_attr(PCI4 "/vcap/vcap0/transfer", "copy\n");
	CHECK_EQ(query(), VCAP_TRANSFER_COPY);
	write_attr(PCI4 "/vcap/vcap0/transfer", "dma\n");
	CHECK_EQ(query(), VCAP_TRANSFER_DMA);
	write_attr(PCI4 "/vcap/vcap0/transfer", "dma");	/* no newline */
	CHECK_EQ(query(), VCAP_TRANSFER_DMA);
	write_attr(PCI5 "/vcap/vcap1/transfer", "copy\n");
	CHECK_EQ(query(), VCAP_TRANSFER_DMA);
	/* A word it does not know is not taken for either. */
	write_attr(PCI4 "/vcap/vcap0/transfer", "dmacopy\n");
	CHECK_EQ(query(), VCAP_TRANSFER_UNKNOWN);
	write_attr(PCI4 "/vcap/vcap0/transfer", "");
	CHECK_EQ(query(), VCAP_TRANSFER_UNKNOWN);

	/* A node without a parent device (a virtual driver's). */
	write_attr(PCI4 "/vcap/vcap0/transfer", "copy\n");
	CHECK_EQ(query(), VCAP_TRANSFER_COPY);
	path_of(rel, sizeof(rel), PCI4 "/video4linux/video3/device");
	CHECK(unlink(rel) == 0);
	CHECK_EQ(query(), VCAP_TRANSFER_UNKNOWN);
}

static void test_not_a_node(void)
{
	enum vcap_transfer t = VCAP_TRANSFER_COPY;
	char p[512];

	path_of(p, sizeof(p), "plain-file");
	write_attr("plain-file", "x");
	CHECK_EQ(vcap_transfer_query(root, p, &t), -1);
	CHECK_EQ(t, VCAP_TRANSFER_UNKNOWN);
	CHECK_EQ(vcap_last_errno(), ENODEV);
	CHECK_STR(vcap_last_error(), "not a device node");
	path_of(p, sizeof(p), "missing");
	CHECK_EQ(vcap_transfer_query(root, p, &t), -1);
	CHECK_EQ(vcap_last_errno(), ENOENT);
	CHECK_STR(vcap_last_error(), "missing");
}

static void test_names(void)
{
	CHECK(!strcmp(vcap_transfer_name(VCAP_TRANSFER_DMA), "dma"));
	CHECK(!strcmp(vcap_transfer_name(VCAP_TRANSFER_COPY), "copy"));
	CHECK(!strcmp(vcap_transfer_name(VCAP_TRANSFER_UNKNOWN), "unknown"));
	CHECK(!strcmp(vcap_transfer_name((enum vcap_transfer)42), "unknown"));
}

/* rm -r of what the test made: only the directory it created. */
static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}

int main(void)
{
	struct stat st;

	if (stat("/dev/null", &st) < 0 || !S_ISCHR(st.st_mode)) {
		printf("skip: no /dev/null character device\n");
		return 77;
	}
	snprintf(node_rdev, sizeof(node_rdev), "%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	snprintf(root, sizeof(root), "/tmp/vcap-sysfs.XXXXXX");
	CHECK(mkdtemp(root));
	atexit(cleanup);
	test_names();
	test_not_a_node();
	test_lookup();
	UT_DONE();
}
