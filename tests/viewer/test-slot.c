// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The one-slot latest-frame buffer: newest wins, no blocking, threads. */
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "vtest.h"
#include "vv-slot.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static struct vv_frame *new_frame(void)
{
	struct vv_frame *f = calloc(1, sizeof(*f));

	if (f && vv_frame_reserve(f, 64)) {
		free(f);
		f = NULL;
	}
	return f;
}

static void free_frame(struct vv_frame *f)
{
	vv_frame_release(f);
	free(f);
}

/* The producer's frame carries its sequence in its pixels too. */
static void stamp(struct vv_frame *f, uint64_t seq)
{
	/* The slot's own first frame comes back empty, as in the viewer. */
	if (vv_frame_reserve(f, 64))
		abort();
	f->sequence = seq;
	memset(f->store, (int)(seq & 0xff), 64);
}

static bool stamped(const struct vv_frame *f)
{
	for (int i = 0; i < 64; i++)
		if (f->data[i] != (uint8_t)(f->sequence & 0xff))
			return false;
	return true;
}

TEST(empty_take_does_not_wait)
{
	struct vv_slot s;
	struct vv_frame *mine = new_frame();
	uint64_t t0;

	ASSERT_EQ(vv_slot_init(&s), 0);
	t0 = now_ns();
	ASSERT_FALSE(vv_slot_take(&s, &mine, 0));
	ASSERT_LT(now_ns() - t0, 50000000ull);
	free_frame(mine);
	vv_slot_destroy(&s);
}

TEST(take_times_out)
{
	struct vv_slot s;
	struct vv_frame *mine = new_frame();
	uint64_t t0, dt;

	ASSERT_EQ(vv_slot_init(&s), 0);
	t0 = now_ns();
	ASSERT_FALSE(vv_slot_take(&s, &mine, 100));
	dt = now_ns() - t0;
	ASSERT_GE(dt, 95000000ull);
	ASSERT_LT(dt, 1000000000ull);
	free_frame(mine);
	vv_slot_destroy(&s);
}

TEST(newest_wins)
{
	struct vv_slot s;
	struct vv_frame *prod = new_frame(), *cons = new_frame();

	ASSERT_EQ(vv_slot_init(&s), 0);
	for (uint64_t i = 1; i <= 5; i++) {
		stamp(prod, i);
		/* The first push replaces nothing, the others one frame. */
		ASSERT_EQ(vv_slot_push(&s, &prod), i > 1);
		ASSERT_NE(prod, NULL);
	}
	ASSERT_EQ(vv_slot_replaced(&s), 4u);
	ASSERT_TRUE(vv_slot_take(&s, &cons, 0));
	ASSERT_EQ(cons->sequence, 5u);
	ASSERT_TRUE(stamped(cons));
	/* Taken once: the slot is empty again. */
	ASSERT_FALSE(vv_slot_take(&s, &cons, 0));
	ASSERT_EQ(cons->sequence, 5u);
	stamp(prod, 6);
	ASSERT_FALSE(vv_slot_push(&s, &prod));
	ASSERT_TRUE(vv_slot_take(&s, &cons, 0));
	ASSERT_EQ(cons->sequence, 6u);
	ASSERT_EQ(vv_slot_replaced(&s), 4u);
	/* Three distinct frames circulate: nobody shares a buffer. */
	ASSERT_NE(prod, cons);
	ASSERT_NE(prod, s.frame);
	ASSERT_NE(cons, s.frame);
	free_frame(prod);
	free_frame(cons);
	vv_slot_destroy(&s);
}

static bool woken(struct vv_slot *s)
{
	struct pollfd pfd = { .fd = vv_slot_wake_fd(s), .events = POLLIN };

	return poll(&pfd, 1, 0) == 1;
}

/*
 * A held frame the consumer hands back wakes the producer, which can give
 * its buffer back while no newer frame waits in the slot.
 */
TEST(held_frame_handed_back_wakes_the_producer)
{
	struct vv_slot s;
	struct vv_frame *prod = new_frame(), *cons = new_frame();
	struct vv_frame *back;

	ASSERT_EQ(vv_slot_init(&s), 0);
	ASSERT_FALSE(woken(&s));
	ASSERT_EQ(vv_slot_returned(&s), NULL);

	/* The first take hands back a frame that holds nothing. */
	stamp(prod, 1);
	prod->held = true;
	vv_slot_push(&s, &prod);
	ASSERT_EQ(vv_slot_returned(&s), NULL);	/* a new frame waits */
	ASSERT_TRUE(vv_slot_take(&s, &cons, 0));
	ASSERT_FALSE(woken(&s));
	ASSERT_EQ(vv_slot_returned(&s), NULL);

	/* The second hands back frame 1, still held: a wake. */
	stamp(prod, 2);
	prod->held = true;
	vv_slot_push(&s, &prod);
	ASSERT_TRUE(vv_slot_take(&s, &cons, 0));
	ASSERT_EQ(cons->sequence, 2u);
	ASSERT_TRUE(woken(&s));
	back = vv_slot_returned(&s);
	ASSERT_NE(back, NULL);
	ASSERT_EQ(back->sequence, 1u);
	vv_slot_wake_clear(&s);
	ASSERT_FALSE(woken(&s));
	/* Given back: nothing more to return. */
	back->held = false;
	ASSERT_EQ(vv_slot_returned(&s), NULL);

	/* Back on a push instead, when the producer was quicker. */
	stamp(prod, 3);
	prod->held = true;
	vv_slot_push(&s, &prod);
	ASSERT_TRUE(vv_slot_take(&s, &cons, 0));
	ASSERT_TRUE(woken(&s));
	stamp(prod, 4);
	prod->held = true;
	vv_slot_push(&s, &prod);
	ASSERT_EQ(vv_slot_returned(&s), NULL);	/* frame 4 waits */
	ASSERT_TRUE(prod->held);
	ASSERT_EQ(prod->sequence, 2u);
	free_frame(prod);
	free_frame(cons);
	vv_slot_destroy(&s);
}

struct waiter {
	struct vv_slot *slot;
	struct vv_frame *frame;
	bool got;
	uint64_t waited_ns;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	uint64_t t0 = now_ns();

	w->got = vv_slot_take(w->slot, &w->frame, 10000);
	w->waited_ns = now_ns() - t0;
	return NULL;
}

TEST(close_wakes_the_consumer)
{
	struct vv_slot s;
	struct waiter w = { &s, NULL, true, 0 };
	pthread_t t;

	ASSERT_EQ(vv_slot_init(&s), 0);
	w.frame = new_frame();
	ASSERT_EQ(pthread_create(&t, NULL, wait_thread, &w), 0);
	usleep(50000);
	vv_slot_close(&s);
	pthread_join(t, NULL);
	ASSERT_FALSE(w.got);
	ASSERT_LT(w.waited_ns, 2000000000ull);
	ASSERT_TRUE(vv_slot_closed(&s));
	free_frame(w.frame);
	vv_slot_destroy(&s);
}

TEST(push_wakes_the_consumer)
{
	struct vv_slot s;
	struct waiter w = { &s, NULL, false, 0 };
	struct vv_frame *prod = new_frame();
	pthread_t t;

	ASSERT_EQ(vv_slot_init(&s), 0);
	w.frame = new_frame();
	ASSERT_EQ(pthread_create(&t, NULL, wait_thread, &w), 0);
	usleep(50000);
	stamp(prod, 42);
	vv_slot_push(&s, &prod);
	pthread_join(t, NULL);
	ASSERT_TRUE(w.got);
	ASSERT_EQ(w.frame->sequence, 42u);
	ASSERT_LT(w.waited_ns, 2000000000ull);
	free_frame(w.frame);
	free_frame(prod);
	vv_slot_destroy(&s);
}

#define PUSHES 200000

struct producer {
	struct vv_slot *slot;
	uint64_t worst_push_ns;
	uint64_t replaced;
};

static void *produce(void *arg)
{
	struct producer *p = arg;
	struct vv_frame *f = new_frame();

	for (uint64_t i = 1; i <= PUSHES; i++) {
		uint64_t t0;

		stamp(f, i);
		t0 = now_ns();
		p->replaced += vv_slot_push(p->slot, &f);
		t0 = now_ns() - t0;
		if (t0 > p->worst_push_ns)
			p->worst_push_ns = t0;
	}
	vv_slot_close(p->slot);
	free_frame(f);
	return NULL;
}

/*
 * A producer at full speed against a slow consumer: the consumer sees
 * strictly newer, intact frames, ends with the last one, and every frame
 * was either taken or counted as replaced.
 */
TEST_TIMEOUT(concurrent_producer_and_slow_consumer, 60)
{
	struct vv_slot s;
	struct producer p = { &s, 0, 0 };
	struct vv_frame *cons = new_frame();
	uint64_t taken = 0, last = 0;
	pthread_t t;

	ASSERT_EQ(vv_slot_init(&s), 0);
	ASSERT_EQ(pthread_create(&t, NULL, produce, &p), 0);
	for (;;) {
		if (!vv_slot_take(&s, &cons, 100)) {
			if (vv_slot_closed(&s) && !vv_slot_take(&s, &cons, 0))
				break;
			continue;
		}
		taken++;
		ASSERT_GT(cons->sequence, last);
		ASSERT_TRUE(stamped(cons));
		last = cons->sequence;
		/* A slow UI: it holds its frame while "drawing". */
		if (taken % 64 == 0)
			usleep(1000);
	}
	pthread_join(t, NULL);
	TH_LOG("taken %llu, replaced %llu, worst push %llu ns",
	       (unsigned long long)taken, (unsigned long long)p.replaced,
	       (unsigned long long)p.worst_push_ns);
	ASSERT_EQ(last, (uint64_t)PUSHES);
	ASSERT_EQ(taken + p.replaced, (uint64_t)PUSHES);
	ASSERT_EQ(vv_slot_replaced(&s), p.replaced);
	ASSERT_GT(p.replaced, 0u);
	free_frame(cons);
	vv_slot_destroy(&s);
}

/* A consumer that never takes does not hold the producer back. */
TEST(producer_never_blocks_on_an_absent_consumer)
{
	struct vv_slot s;
	struct vv_frame *prod = new_frame();
	struct vv_frame *cons = new_frame();
	uint64_t t0;

	ASSERT_EQ(vv_slot_init(&s), 0);
	/* The consumer holds its frame: it is busy drawing, forever. */
	t0 = now_ns();
	for (uint64_t i = 1; i <= 100000; i++) {
		stamp(prod, i);
		vv_slot_push(&s, &prod);
	}
	ASSERT_LT(now_ns() - t0, 2000000000ull);
	ASSERT_EQ(vv_slot_replaced(&s), 99999u);
	ASSERT_TRUE(vv_slot_take(&s, &cons, 0));
	ASSERT_EQ(cons->sequence, 100000u);
	free_frame(prod);
	free_frame(cons);
	vv_slot_destroy(&s);
}

VTEST_MAIN()
