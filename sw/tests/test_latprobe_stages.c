/*
 * Unit tests of the stage decomposition (sw/probe/latprobe_stages.c): event chains with known
 * stages in per-CPU windows, an interrupt that began before the expiry, a re-armed sleep, a timer
 * that expired on another CPU, other threads' and other timers' events in between, a switch the
 * kernel did not trace (the syscall exit takes its place, also when a later switch-in follows a
 * preemption), each missing event, the order and sum checks, and several samples in a row.
 */
#include <stdio.h>
#include <string.h>

#include "../probe/latprobe_stages.h"

#include "check.h"

#define TID   700
#define TIMER 0xffffc90001123ab8ull
#define D     1000000000ull

static struct latprobe_trace_event ev(uint64_t ts, enum latprobe_trace_kind kind, int32_t pid,
				      uint64_t timer, int64_t expires)
{
	struct latprobe_trace_event e = { .ts = ts, .timer = timer, .pid = pid, .cpu = 1 };

	e.kind = (uint8_t)kind;
	e.ctx = pid;
	if (kind == LATPROBE_EV_TIMER_START)
		e.expires = expires;
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

static struct latprobe_windows windows;

static void load(const struct latprobe_trace_event *e, size_t n)
{
	latprobe_windows_free(&windows);
	CHECK(latprobe_windows_init(&windows, 4, 1 << 16) == 0);
	for (size_t i = 0; i < n; i++)
		CHECK(latprobe_window_push(&windows, &e[i]) == 0);
}

static enum latprobe_stage_result find(uint64_t d, uint64_t user, int64_t latency,
				       struct latprobe_stage_match *m)
{
	return latprobe_stages_find(&windows, TID, 1, d, user, latency, m);
}

static void test_complete_chain(void)
{
	struct latprobe_trace_event e[16];
	struct latprobe_stage_match m;
	size_t n = chain(e, D);

	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_OK);
	CHECK(m.stages[LATPROBE_STAGE_IRQ] == 3000 && m.stages[LATPROBE_STAGE_HANDLER] == 1000);
	CHECK(m.stages[LATPROBE_STAGE_WAKEUP] == 500 && m.stages[LATPROBE_STAGE_SCHED] == 6000);
	CHECK(m.stages[LATPROBE_STAGE_USER] == 1500);
	CHECK(m.switch_traced && m.timer_cpu == 1 && m.timer == TIMER);
	CHECK(m.start_ts == D - 500000 && m.switch_ts == D + 10500);
	/* the measured latency disagrees with the user-space time: the sum check says so */
	CHECK(find(D, D + 12000, 11999, &m) == LATPROBE_STAGES_SUM);
}

static void test_untraced_switch(void)
{
	struct latprobe_trace_event e[16];
	struct latprobe_stage_match m;
	size_t n = chain(e, D);

	/* the kernel did not record the switch (from idle): the thread's syscall exit is S */
	e[4] = ev(D + 10500, LATPROBE_EV_SYSCALL_EXIT, TID, 0, 0);
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_OK);
	CHECK(!m.switch_traced && m.stages[LATPROBE_STAGE_SCHED] == 6000);
	CHECK(m.stages[LATPROBE_STAGE_USER] == 1500);
	/* the thread was then preempted and switched in again before its clock read: that later
	 * switch-in is not the one of the wake-up */
	e[n++] = ev(D + 11000, LATPROBE_EV_SWITCH, TID, 0, 0);
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_OK);
	CHECK(!m.switch_traced && m.switch_ts == D + 10500);
	/* with the switch traced, the exit after it changes nothing */
	n = chain(e, D);
	e[n++] = ev(D + 10800, LATPROBE_EV_SYSCALL_EXIT, TID, 0, 0);
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_OK);
	CHECK(m.switch_traced && m.switch_ts == D + 10500);
}

static void test_foreign_events_and_early_irq(void)
{
	struct latprobe_trace_event e[32];
	struct latprobe_stage_match m;
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
	load(e, n);
	CHECK(find(D, D + 2500, 2500, &m) == LATPROBE_STAGES_OK);
	CHECK(m.stages[LATPROBE_STAGE_IRQ] == -200 && m.stages[LATPROBE_STAGE_HANDLER] == 500);
	CHECK(m.stages[LATPROBE_STAGE_WAKEUP] == 100 && m.stages[LATPROBE_STAGE_SCHED] == 1600);
	CHECK(m.stages[LATPROBE_STAGE_USER] == 500);
}

static void test_timer_on_another_cpu(void)
{
	struct latprobe_trace_event e[16];
	struct latprobe_stage_match m;
	size_t n = chain(e, D);

	/* the timer expired on CPU 3 (migrated), which also ran the wake-up: CPU 1's interrupt
	 * is not the one */
	e[2].cpu = 3;
	e[3].cpu = 3;
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_NO_IRQ);
	e[1].cpu = 3;
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_OK);
	CHECK(m.timer_cpu == 3 && m.stages[LATPROBE_STAGE_SCHED] == 6000);
}

static void test_rearmed_sleep(void)
{
	struct latprobe_trace_event e[16];
	struct latprobe_stage_match m;
	size_t n = 0;

	/* a signal interrupted the first sleep: the second arming (another timer address on the
	 * stack) is the one that fired */
	e[n++] = ev(D - 500000, LATPROBE_EV_TIMER_START, TID, TIMER, (int64_t)D);
	e[n++] = ev(D - 300000, LATPROBE_EV_TIMER_START, TID, TIMER + 64, (int64_t)D);
	e[n++] = ev(D + 1000, LATPROBE_EV_IRQ_ENTRY, 0, 0, 0);
	e[n++] = ev(D + 1100, LATPROBE_EV_TIMER_EXPIRE, 0, TIMER + 64, 0);
	e[n++] = ev(D + 1200, LATPROBE_EV_WAKING, TID, 0, 0);
	e[n++] = ev(D + 1300, LATPROBE_EV_SWITCH, TID, 0, 0);
	load(e, n);
	CHECK(find(D, D + 1400, 1400, &m) == LATPROBE_STAGES_OK);
	CHECK(m.stages[LATPROBE_STAGE_IRQ] == 1000 && m.stages[LATPROBE_STAGE_USER] == 100);
}

static void test_missing_events(void)
{
	struct latprobe_trace_event e[16], f[16];
	struct latprobe_stage_match m;
	size_t n = chain(e, D);
	static const enum latprobe_stage_result without[5] = {
		LATPROBE_STAGES_NO_START,  LATPROBE_STAGES_NO_IRQ,    LATPROBE_STAGES_NO_EXPIRE,
		LATPROBE_STAGES_NO_WAKING, LATPROBE_STAGES_NO_SWITCH,
	};

	for (size_t drop = 0; drop < n; drop++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (i != drop)
				f[k++] = e[i];
		load(f, k);
		CHECK(find(D, D + 12000, 12000, &m) == without[drop]);
	}
	/* armed only after the expiry (held up before it could sleep): no interrupt path */
	e[0].ts = D + 100;
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_ARMED_LATE);
	e[0].ts = D - 500000;
	/* an arming for another expiry is not this wake-up's */
	e[0].expires = (int64_t)D + 1;
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_NO_START);
	/* an interrupt entry from before the arming is not the one that ran the handler */
	n = chain(e, D);
	e[1].ts = D - 600000;
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_NO_IRQ);
	/* events after the user-space read belong to the next wake-up */
	n = chain(e, D);
	load(e, n);
	CHECK(find(D, D + 10000, 10000, &m) == LATPROBE_STAGES_NO_SWITCH);
	/* a switch-in recorded before the waking (clock disorder) is not taken */
	n = chain(e, D);
	e[4].ts = D + 4400;
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_NO_SWITCH);
	/* another thread's syscall exit does not stand in for the switch */
	n = chain(e, D);
	e[4] = ev(D + 10500, LATPROBE_EV_SYSCALL_EXIT, 999, 0, 0);
	load(e, n);
	CHECK(find(D, D + 12000, 12000, &m) == LATPROBE_STAGES_NO_SWITCH);
}

static void test_samples_in_a_row(void)
{
	struct latprobe_trace_event e[64];
	struct latprobe_stage_match m;
	size_t n = 0;
	const uint64_t period = 1000000;

	for (unsigned k = 0; k < 5; k++)
		n += chain(e + n, D + k * period);
	load(e, n);
	/* in any order, also with samples skipped (not kept) */
	for (unsigned k = 5; k-- > 0;) {
		uint64_t d = D + k * period;

		CHECK(find(d, d + 12000, 12000, &m) == LATPROBE_STAGES_OK);
		CHECK(m.stages[LATPROBE_STAGE_SCHED] == 6000 && m.start_ts == d - 500000);
	}
}

int main(void)
{
	test_complete_chain();
	test_untraced_switch();
	test_foreign_events_and_early_irq();
	test_timer_on_another_cpu();
	test_rearmed_sleep();
	test_missing_events();
	test_samples_in_a_row();
	latprobe_windows_free(&windows);
	return check_report("test_latprobe_stages");
}
