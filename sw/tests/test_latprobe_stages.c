/*
 * Unit tests of the stage decomposition (sw/probe/latprobe_stages.c): event chains with known
 * stages, an interrupt that began before the expiry, a re-armed sleep, other threads' and
 * other timers' events in between, each missing event, the order and sum checks, several
 * samples in a row, and the stable sort.
 */
#include <stdio.h>
#include <string.h>

#include "../probe/latprobe_stages.h"

#include "check.h"

#define TID   700
#define TIMER 0xffffc90001123ab8ull
#define D     1000000000ull

static struct latprobe_stage_matcher matcher;

static struct latprobe_trace_event ev(uint64_t ts, enum latprobe_trace_kind kind, int32_t pid,
				      uint64_t timer, int64_t expires)
{
	struct latprobe_trace_event e = { .ts = ts,
					  .timer = timer,
					  .expires = expires,
					  .pid = pid,
					  .cpu = 1,
					  .kind = (uint8_t)kind };
	return e;
}

/* One wake-up at d: armed 500 us before, IRQ +3000, handler +1000, waking +500, switch-in
 * +6000, user space at d + 12000: stages 3000, 1000, 500, 6000, 1500. */
static size_t chain(struct latprobe_trace_event *e, uint64_t d)
{
	size_t n = 0;

	e[n++] = ev(d - 500000, LATPROBE_EV_TIMER_START, TID, TIMER, (int64_t)d);
	e[n++] = ev(d + 3000, LATPROBE_EV_IRQ_ENTRY, 0, 0, 0);
	e[n++] = ev(d + 4000, LATPROBE_EV_TIMER_EXPIRE, 0, TIMER, 0);
	e[n++] = ev(d + 4500, LATPROBE_EV_WAKING, TID, 0, 0);
	e[n++] = ev(d + 10500, LATPROBE_EV_SWITCH, TID, 0, 0);
	return n;
}

static enum latprobe_stage_result match(const struct latprobe_trace_event *e, size_t n, uint64_t d,
					uint64_t user, int64_t *s)
{
	latprobe_stage_matcher_init(&matcher);
	return latprobe_stages_match(&matcher, e, n, TID, d, user, (int64_t)(user - d), s);
}

static void test_complete_chain(void)
{
	struct latprobe_trace_event e[16];
	int64_t s[LATPROBE_NSTAGES];
	size_t n = chain(e, D);

	CHECK(match(e, n, D, D + 12000, s) == LATPROBE_STAGES_OK);
	CHECK(s[LATPROBE_STAGE_IRQ] == 3000 && s[LATPROBE_STAGE_HANDLER] == 1000);
	CHECK(s[LATPROBE_STAGE_WAKEUP] == 500 && s[LATPROBE_STAGE_SCHED] == 6000);
	CHECK(s[LATPROBE_STAGE_USER] == 1500);
	/* the measured latency disagrees with the user-space time: the sum check says so */
	latprobe_stage_matcher_init(&matcher);
	CHECK(latprobe_stages_match(&matcher, e, n, TID, D, D + 12000, 11999, s) ==
	      LATPROBE_STAGES_SUM);
}

static void test_foreign_events_and_early_irq(void)
{
	struct latprobe_trace_event e[32];
	int64_t s[LATPROBE_NSTAGES];
	size_t n = 0;

	/* the interrupt began 200 ns before the expiry; it ran another timer first, and another
	 * thread was woken and switched in between */
	e[n++] = ev(D - 500000, LATPROBE_EV_TIMER_START, TID, TIMER, (int64_t)D);
	e[n++] = ev(D - 400000, LATPROBE_EV_TIMER_START, 999, 0x1234, (int64_t)D);
	e[n++] = ev(D - 1000, LATPROBE_EV_IRQ_ENTRY, 0, 0, 0);
	e[n++] = ev(D - 200, LATPROBE_EV_IRQ_ENTRY, 0, 0, 0);
	e[n++] = ev(D + 100, LATPROBE_EV_TIMER_EXPIRE, 0, 0x1234, 0);
	e[n++] = ev(D + 300, LATPROBE_EV_TIMER_EXPIRE, 0, TIMER, 0);
	e[n++] = ev(D + 350, LATPROBE_EV_WAKING, 999, 0, 0);
	e[n++] = ev(D + 400, LATPROBE_EV_WAKING, TID, 0, 0);
	e[n++] = ev(D + 450, LATPROBE_EV_SWITCH, 999, 0, 0);
	e[n++] = ev(D + 2000, LATPROBE_EV_SWITCH, TID, 0, 0);
	CHECK(match(e, n, D, D + 2500, s) == LATPROBE_STAGES_OK);
	CHECK(s[LATPROBE_STAGE_IRQ] == -200 && s[LATPROBE_STAGE_HANDLER] == 500);
	CHECK(s[LATPROBE_STAGE_WAKEUP] == 100 && s[LATPROBE_STAGE_SCHED] == 1600);
	CHECK(s[LATPROBE_STAGE_USER] == 500);
}

static void test_irq_on_the_timer_cpu(void)
{
	struct latprobe_trace_event e[16];
	int64_t s[LATPROBE_NSTAGES];
	size_t n = chain(e, D);

	/* the timer expired on CPU 3 (migrated): CPU 1's interrupt is not the one */
	e[2].cpu = 3;
	CHECK(match(e, n, D, D + 12000, s) == LATPROBE_STAGES_NO_IRQ);
	e[1].cpu = 3;
	CHECK(match(e, n, D, D + 12000, s) == LATPROBE_STAGES_OK);
}

static void test_rearmed_sleep(void)
{
	struct latprobe_trace_event e[16];
	int64_t s[LATPROBE_NSTAGES];
	size_t n = 0;

	/* a signal interrupted the first sleep: the second arming (another timer address on the
	 * stack) is the one that fired */
	e[n++] = ev(D - 500000, LATPROBE_EV_TIMER_START, TID, TIMER, (int64_t)D);
	e[n++] = ev(D - 300000, LATPROBE_EV_TIMER_START, TID, TIMER + 64, (int64_t)D);
	e[n++] = ev(D + 1000, LATPROBE_EV_IRQ_ENTRY, 0, 0, 0);
	e[n++] = ev(D + 1100, LATPROBE_EV_TIMER_EXPIRE, 0, TIMER + 64, 0);
	e[n++] = ev(D + 1200, LATPROBE_EV_WAKING, TID, 0, 0);
	e[n++] = ev(D + 1300, LATPROBE_EV_SWITCH, TID, 0, 0);
	CHECK(match(e, n, D, D + 1400, s) == LATPROBE_STAGES_OK);
	CHECK(s[LATPROBE_STAGE_IRQ] == 1000 && s[LATPROBE_STAGE_USER] == 100);
}

static void test_missing_events(void)
{
	struct latprobe_trace_event e[16], f[16];
	int64_t s[LATPROBE_NSTAGES];
	size_t n = chain(e, D);
	static const enum latprobe_stage_result without[5] = {
		LATPROBE_STAGES_NO_START,  LATPROBE_STAGES_NO_IRQ,    LATPROBE_STAGES_NO_EXPIRE,
		LATPROBE_STAGES_NO_WAKING, LATPROBE_STAGES_NO_SWITCH,
	};

	for (size_t drop = 0; drop < n; drop++) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (i != drop)
				f[m++] = e[i];
		CHECK(match(f, m, D, D + 12000, s) == without[drop]);
	}
	/* an arming for another expiry is not this wake-up's */
	e[0].expires = (int64_t)D + 1;
	CHECK(match(e, n, D, D + 12000, s) == LATPROBE_STAGES_NO_START);
	/* an interrupt entry from before the arming is not the one that ran the handler */
	n = chain(e, D);
	e[1].ts = D - 600000;
	latprobe_trace_sort(e, n);
	CHECK(match(e, n, D, D + 12000, s) == LATPROBE_STAGES_NO_IRQ);
	/* events after the user-space read belong to the next wake-up */
	n = chain(e, D);
	CHECK(match(e, n, D, D + 10000, s) == LATPROBE_STAGES_NO_SWITCH);
}

static void test_samples_in_a_row(void)
{
	struct latprobe_trace_event e[64];
	int64_t s[LATPROBE_NSTAGES];
	size_t n = 0;
	const uint64_t period = 1000000;

	for (unsigned k = 0; k < 5; k++)
		n += chain(e + n, D + k * period);
	latprobe_stage_matcher_init(&matcher);
	for (unsigned k = 0; k < 5; k++) {
		uint64_t d = D + k * period;

		CHECK(latprobe_stages_match(&matcher, e, n, TID, d, d + 12000, 12000, s) ==
		      LATPROBE_STAGES_OK);
		CHECK(s[LATPROBE_STAGE_SCHED] == 6000);
	}
	/* a skipped sample (not kept) does not disturb the next one */
	latprobe_stage_matcher_init(&matcher);
	CHECK(latprobe_stages_match(&matcher, e, n, TID, D + 2 * period, D + 2 * period + 12000,
				    12000, s) == LATPROBE_STAGES_OK);
	CHECK(latprobe_stages_match(&matcher, e, n, TID, D + 4 * period, D + 4 * period + 12000,
				    12000, s) == LATPROBE_STAGES_OK);
}

static void test_sort_is_stable(void)
{
	struct latprobe_trace_event e[200];

	for (unsigned i = 0; i < 200; i++) {
		e[i] = ev((uint64_t)((i * 7919u) % 13u), LATPROBE_EV_IRQ_ENTRY, (int32_t)i, 0, 0);
	}
	latprobe_trace_sort(e, 200);
	for (unsigned i = 1; i < 200; i++) {
		CHECK(e[i - 1].ts <= e[i].ts);
		if (e[i - 1].ts == e[i].ts)
			CHECK(e[i - 1].pid < e[i].pid);
	}
}

int main(void)
{
	test_complete_chain();
	test_foreign_events_and_early_irq();
	test_irq_on_the_timer_cpu();
	test_rearmed_sleep();
	test_missing_events();
	test_samples_in_a_row();
	test_sort_is_stable();
	return check_report("test_latprobe_stages");
}
