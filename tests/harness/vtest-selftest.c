// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tests of the vtest harness itself: each case below must come out as its
 * name says; vtest-selftest.sh runs them one by one and checks.
 */
#include <signal.h>
#include <unistd.h>

#include "vtest.h"

TEST(pass_simple)
{
	ASSERT_EQ(1 + 1, 2);
	EXPECT_ERRNO(close(-1), EBADF);
}

TEST(pass_mixed_sign)
{
	unsigned int u = 3;
	size_t z = 5;

	ASSERT_EQ(u, 3);
	ASSERT_GT(z, 0);
	ASSERT_LT(-1, 0);
}

TEST(fail_assert)
{
	ASSERT_EQ(1, 2);
}

TEST(fail_expect_continues)
{
	EXPECT_EQ(1, 2);
	TH_LOG("still running after a failed EXPECT");
}

TEST(fail_errno)
{
	ASSERT_ERRNO(close(-1), ENOENT);
}

TEST(fail_signal)
{
	raise(SIGSEGV);
}

TEST_TIMEOUT(fail_timeout, 1)
{
	sleep(30);
}

TEST(skip_reason)
{
	SKIP(return, "needs nothing, skips on purpose");
}

FIXTURE(counter) {
	int value;
};

FIXTURE_SETUP(counter)
{
	self->value = 41;
}

FIXTURE_TEARDOWN(counter)
{
	ASSERT_EQ(self->value, 42);
}

TEST_F(counter, pass_fixture)
{
	self->value++;
}

TEST_F(counter, fail_teardown)
{
	self->value = 0;
}

VTEST_MAIN()
