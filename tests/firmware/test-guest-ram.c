// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The guest's RAM as the board reaches it: QEMU's layout of pc and q35
 * RAM around the holes, ranges refused across a boundary, and the file
 * checks of --guest-ram.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "vtest.h"
#include "fw-guest-ram.h"

#define G4	0x100000000ull
#define MiB	(1ull << 20)
#define GiB	(1ull << 30)

struct layout_case {
	enum fw_guest_machine m;
	u64 size;
	u64 below;
};

TEST(layout_follows_qemu)
{
	static const struct layout_case cases[] = {
		{ FW_GUEST_PC, 64 * MiB, 64 * MiB },
		{ FW_GUEST_PC, 3 * GiB, 3 * GiB },
		{ FW_GUEST_PC, 0xe0000000ull - 4096, 0xe0000000ull - 4096 },
		{ FW_GUEST_PC, 0xe0000000ull, 0xc0000000ull },
		{ FW_GUEST_PC, 8 * GiB, 0xc0000000ull },
		{ FW_GUEST_Q35, 2 * GiB, 2 * GiB },
		{ FW_GUEST_Q35, 0xb0000000ull - 4096, 0xb0000000ull - 4096 },
		{ FW_GUEST_Q35, 0xb0000000ull, 0x80000000ull },
		{ FW_GUEST_Q35, 4 * GiB, 0x80000000ull },
	};
	struct fw_guest_ram g;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fw_guest_ram_layout(&g, cases[i].size, cases[i].m);
		EXPECT_EQ(g.below, cases[i].below);
	}
}

struct xlate_case {
	u64 addr, len;
	int ret;
	u64 off;
};

static void check_cases(struct vtest_meta *_vtest, const struct fw_guest_ram *g,
			const struct xlate_case *c, unsigned int n)
{
	unsigned int i;
	u64 off;
	int ret;

	for (i = 0; i < n; i++) {
		off = ~0ull;
		ret = fw_guest_ram_translate(g, c[i].addr, c[i].len, &off);
		if (ret != c[i].ret || (!ret && off != c[i].off))
			TH_LOG("case %u: 0x%llx+0x%llx: ret %d off 0x%llx",
			       i, (unsigned long long)c[i].addr,
			       (unsigned long long)c[i].len, ret,
			       (unsigned long long)off);
		EXPECT_EQ(ret, c[i].ret);
		if (!ret)
			EXPECT_EQ(off, c[i].off);
	}
}

TEST(translate_pc_4g)
{
	/* pc, 4 GiB: 3 GiB below, 1 GiB at 4 GiB, file offset 3 GiB. */
	static const struct xlate_case c[] = {
		{ 0, 1, 0, 0 },
		{ 0x9f000, 0x1000, 0, 0x9f000 },
		{ 0x9f000, 0x1001, -ERANGE, 0 },	/* into the VGA hole */
		{ 0xa0000, 1, -ERANGE, 0 },
		{ 0xfffff, 1, -ERANGE, 0 },
		{ 0xfffff, 2, -ERANGE, 0 },		/* out of the hole */
		{ 0x100000, 4096, 0, 0x100000 },
		{ 0xbffff000, 0x1000, 0, 0xbffff000 },
		{ 0xbffff000, 0x1001, -ERANGE, 0 },	/* into the PCI hole */
		{ 0xc0000000, 1, -ERANGE, 0 },
		{ 0xfffff000, 0x2000, -ERANGE, 0 },	/* across 4 GiB */
		{ G4, 4096, 0, 0xc0000000 },
		{ G4 + GiB - 4096, 4096, 0, 0xc0000000 + GiB - 4096 },
		{ G4 + GiB - 4096, 4097, -ERANGE, 0 },	/* past the end */
		{ G4 + GiB, 1, -ERANGE, 0 },
		{ 0x1000, 0, -EINVAL, 0 },
		{ ~0ull - 10, 20, -EINVAL, 0 },		/* wraps */
		{ 0, 4 * GiB, -ERANGE, 0 },
	};
	struct fw_guest_ram g;

	fw_guest_ram_layout(&g, 4 * GiB, FW_GUEST_PC);
	check_cases(_vtest, &g, c, sizeof(c) / sizeof(c[0]));
}

TEST(translate_q35_and_small)
{
	static const struct xlate_case q35[] = {
		{ 0x7ffff000, 0x1000, 0, 0x7ffff000 },
		{ 0x80000000, 1, -ERANGE, 0 },
		{ G4, 4096, 0, 0x80000000 },
		{ G4 + 2 * GiB, 1, -ERANGE, 0 },
	};
	static const struct xlate_case small[] = {
		{ 0x3fff000, 0x1000, 0, 0x3fff000 },
		{ 0x3fff000, 0x1001, -ERANGE, 0 },
		{ 0x4000000, 1, -ERANGE, 0 },
		{ G4, 1, -ERANGE, 0 },		/* nothing above 4 GiB */
		{ 0xa0000, 0x1000, -ERANGE, 0 },
	};
	struct fw_guest_ram g;

	fw_guest_ram_layout(&g, 4 * GiB, FW_GUEST_Q35);
	check_cases(_vtest, &g, q35, sizeof(q35) / sizeof(q35[0]));
	fw_guest_ram_layout(&g, 64 * MiB, FW_GUEST_PC);
	check_cases(_vtest, &g, small, sizeof(small) / sizeof(small[0]));
}

TEST(machine_names)
{
	enum fw_guest_machine m;

	ASSERT_EQ(fw_guest_machine_by_name("q35", &m), 0);
	EXPECT_EQ(m, FW_GUEST_Q35);
	ASSERT_EQ(fw_guest_machine_by_name("pc", &m), 0);
	EXPECT_EQ(m, FW_GUEST_PC);
	EXPECT_NE(fw_guest_machine_by_name("i440fx-9.2", &m), 0);
}

TEST(open_checks_the_file)
{
	char path[] = "/tmp/vcap-guest-ram-XXXXXX", err[512];
	struct fw_guest_ram g;
	int fd = mkstemp(path);

	ASSERT_GE(fd, 0);
	/* Missing, too small, not whole pages: refused with the reason. */
	EXPECT_NE(fw_guest_ram_open(&g, "/nonexistent/ram", FW_GUEST_PC, err,
				    sizeof(err)), 0);
	EXPECT_TRUE(strstr(err, "must exist"));
	EXPECT_NE(fw_guest_ram_open(&g, path, FW_GUEST_PC, err, sizeof(err)),
		  0);
	EXPECT_TRUE(strstr(err, "RAM size"));
	ASSERT_EQ(ftruncate(fd, 64 * MiB + 100), 0);
	EXPECT_NE(fw_guest_ram_open(&g, path, FW_GUEST_PC, err, sizeof(err)),
		  0);
	ASSERT_EQ(ftruncate(fd, 64 * MiB), 0);
	ASSERT_EQ(fw_guest_ram_open(&g, path, FW_GUEST_Q35, err, sizeof(err)),
		  0);
	EXPECT_EQ(g.size, 64 * MiB);
	EXPECT_EQ(g.below, 64 * MiB);
	EXPECT_EQ(g.machine, FW_GUEST_Q35);
	g.mem[0x100000] = 0x5a;
	fw_guest_ram_close(&g);
	close(fd);
	unlink(path);
}

VTEST_MAIN()
