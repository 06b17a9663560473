/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vtest: the guest-side test harness.  Tests, fixtures and assertions in
 * the manner of kselftest_harness.h, with TAP output.
 *
 *	FIXTURE(dev) { int fd; };
 *	FIXTURE_SETUP(dev) { self->fd = open(...); ASSERT_GE(self->fd, 0); }
 *	FIXTURE_TEARDOWN(dev) { close(self->fd); }
 *	TEST_F(dev, query) { ASSERT_EQ(ioctl(self->fd, ...), 0); }
 *	TEST(plain) { ... }
 *	VTEST_MAIN()
 *
 * Each test runs in a forked child with a time limit (VTEST_TIMEOUT
 * seconds, default 120), so a crash, a signal or a hang fails that test
 * only.  A test that skips makes the program exit 77 unless another test
 * failed (exit 1): a skip is never reported as a pass.
 */
#ifndef VTEST_H
#define VTEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vtest_meta {
	const char *name;
	void (*fn)(struct vtest_meta *t);
	int timeout;			/* seconds; 0 for the default */
	struct vtest_meta *next;
	/* Filled in by the child, read by the parent via exit status. */
	bool failed;
	bool skipped;
	char skip_reason[256];
};

void vtest_register(struct vtest_meta *t);
void vtest_fail(struct vtest_meta *t, const char *file, int line,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void vtest_skip(struct vtest_meta *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vtest_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vtest_main(int argc, char **argv);

#define VTEST_CAT(a, b)		a##b
#define VTEST_NAME(a, b)	VTEST_CAT(a, b)

#define VTEST_DEFINE(id, str, tmo)					\
	static void id(struct vtest_meta *_vtest __attribute__((unused)));			\
	static struct vtest_meta VTEST_NAME(id, _meta) = {		\
		.name = str, .fn = id, .timeout = tmo,			\
	};								\
	__attribute__((constructor)) static void			\
	VTEST_NAME(id, _register)(void)					\
	{								\
		vtest_register(&VTEST_NAME(id, _meta));			\
	}								\
	static void id(struct vtest_meta *_vtest __attribute__((unused)))

#define TEST(name)		VTEST_DEFINE(vtest_##name, #name, 0)
#define TEST_TIMEOUT(name, s)	VTEST_DEFINE(vtest_##name, #name, s)

#define FIXTURE(f)		struct vtest_fixture_##f
#define FIXTURE_SETUP(f)						\
	static void vtest_setup_##f(struct vtest_meta *_vtest __attribute__((unused)),		\
				    struct vtest_fixture_##f *self)
#define FIXTURE_TEARDOWN(f)						\
	static void vtest_teardown_##f(struct vtest_meta *_vtest __attribute__((unused)),	\
				       struct vtest_fixture_##f *self)

#define TEST_F_TIMEOUT(f, name, s)					\
	static void vtest_body_##f##_##name(struct vtest_meta *_vtest __attribute__((unused)),	\
					   struct vtest_fixture_##f *self); \
	VTEST_DEFINE(vtest_##f##_##name, #f "." #name, s)		\
	{								\
		struct vtest_fixture_##f self;				\
		memset(&self, 0, sizeof(self));				\
		vtest_setup_##f(_vtest, &self);				\
		if (!_vtest->failed && !_vtest->skipped)		\
			vtest_body_##f##_##name(_vtest, &self);		\
		vtest_teardown_##f(_vtest, &self);			\
	}								\
	static void vtest_body_##f##_##name(struct vtest_meta *_vtest __attribute__((unused)),	\
					   struct vtest_fixture_##f *self)
#define TEST_F(f, name)		TEST_F_TIMEOUT(f, name, 0)

/* The current test, for helpers that take it: vtest_current(). */
#define vtest_current()		(_vtest)

#define TH_LOG(...)		vtest_log(__VA_ARGS__)

#define SKIP(statement, ...)						\
	do {								\
		vtest_skip(_vtest, __VA_ARGS__);			\
		statement;						\
	} while (0)

#define VTEST_CMP(a, b, op, fatal)					\
	do {								\
		__typeof__(a) _a = (a);					\
		__typeof__(b) _b = (b);					\
		bool _ok;						\
		/* a literal and an unsigned value compare as values */ \
		_Pragma("GCC diagnostic push")				\
		_Pragma("GCC diagnostic ignored \"-Wsign-compare\"")	\
		_ok = _a op _b;						\
		_Pragma("GCC diagnostic pop")				\
		if (!_ok) {						\
			vtest_fail(_vtest, __FILE__, __LINE__,		\
				   "%s %s %s: %lld vs %lld (errno %d: %s)", \
				   #a, #op, #b, (long long)_a,		\
				   (long long)_b, errno, strerror(errno)); \
			if (fatal)					\
				return;					\
		}							\
	} while (0)

#define ASSERT_EQ(a, b)		VTEST_CMP(a, b, ==, 1)
#define ASSERT_NE(a, b)		VTEST_CMP(a, b, !=, 1)
#define ASSERT_LT(a, b)		VTEST_CMP(a, b, <, 1)
#define ASSERT_LE(a, b)		VTEST_CMP(a, b, <=, 1)
#define ASSERT_GT(a, b)		VTEST_CMP(a, b, >, 1)
#define ASSERT_GE(a, b)		VTEST_CMP(a, b, >=, 1)
#define ASSERT_TRUE(a)		VTEST_CMP(!!(a), 1, ==, 1)
#define ASSERT_FALSE(a)		VTEST_CMP(!!(a), 0, ==, 1)
#define EXPECT_EQ(a, b)		VTEST_CMP(a, b, ==, 0)
#define EXPECT_NE(a, b)		VTEST_CMP(a, b, !=, 0)
#define EXPECT_LT(a, b)		VTEST_CMP(a, b, <, 0)
#define EXPECT_LE(a, b)		VTEST_CMP(a, b, <=, 0)
#define EXPECT_GT(a, b)		VTEST_CMP(a, b, >, 0)
#define EXPECT_GE(a, b)		VTEST_CMP(a, b, >=, 0)
#define EXPECT_TRUE(a)		VTEST_CMP(!!(a), 1, ==, 0)
#define EXPECT_FALSE(a)		VTEST_CMP(!!(a), 0, ==, 0)

/* expr must fail with -1 and errno e. */
#define VTEST_ERRNO(expr, e, fatal)					\
	do {								\
		long _r;						\
		errno = 0;						\
		_r = (long)(expr);					\
		if (_r != -1 || errno != (e)) {				\
			int _err = errno;				\
			vtest_fail(_vtest, __FILE__, __LINE__,		\
				   "%s: returned %ld errno %d (%s), "	\
				   "expected -1 errno %d (%s)", #expr,	\
				   _r, _err, strerror(_err), (int)(e),	\
				   strerror(e));			\
			if (fatal)					\
				return;					\
		}							\
	} while (0)
#define ASSERT_ERRNO(expr, e)	VTEST_ERRNO(expr, e, 1)
#define EXPECT_ERRNO(expr, e)	VTEST_ERRNO(expr, e, 0)

#define VTEST_MAIN()							\
	int main(int argc, char **argv)					\
	{								\
		return vtest_main(argc, argv);				\
	}

#endif /* VTEST_H */
