/*
 * Unit tests of the spike explanations (sw/probe/latprobe_explain.c) on synthetic traces whose
 * composition is known to the nanosecond: a real-time busy loop that held the CPU (preempted),
 * a normal task that kept it (not preemptible), an idle CPU with the switch from idle not
 * traced, a device interrupt and a softirq, another hrtimer's callback, a timer that expired on
 * another CPU, interrupts whose exits were not traced (the context flags end them), no trace at
 * all, and the one-line text. Every explanation's contributions add up to the latency.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "../probe/latprobe_explain.h"

#include "check.h"

#define TID	   700
#define BUSY	   900
#define PROBE_PRIO 4 /* rt 95 */
#define TIMER	   0xffffc90001123ab8ull
#define TICK_TIMER 0xffff88807dc1e3c0ull
#define TICK_FN	   0xffffffff81160000ull
#define D	   1000000000ull
#define HARD	   0x08
#define SOFT	   0x10

static struct latprobe_windows windows;
static struct latprobe_names names;
static struct latprobe_trace_event evs[64];
static size_t nev;
static int local_timer;

static struct latprobe_trace_event *add(uint64_t ts, enum latprobe_trace_kind kind, int32_t ctx,
					uint8_t flags)
{
	struct latprobe_trace_event *e = &evs[nev++];

	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->kind = (uint8_t)kind;
	e->ctx = ctx;
	e->flags = flags;
	e->cpu = 1;
	e->prio = INT16_MIN;
	return e;
}

static void add_switch(uint64_t ts, int32_t prev, int16_t prev_prio, int32_t next,
		       int16_t next_prio)
{
	struct latprobe_trace_event *e = add(ts, LATPROBE_EV_SWITCH, prev, 0);

	e->id = prev;
	e->prev_prio = prev_prio;
	e->pid = next;
	e->prio = next_prio;
}

/* The probe's timer interrupt at @p irq, interrupting @p ctx: callback +1000, waking +1500,
 * callback exit +1600, interrupt exit +2000. */
static void add_timer_irq(uint64_t irq, int32_t ctx)
{
	struct latprobe_trace_event *e;

	add(irq, LATPROBE_EV_IRQ_ENTRY, ctx, HARD);
	add(irq, LATPROBE_EV_VECTOR_ENTRY, ctx, HARD)->id = local_timer;
	e = add(irq + 1000, LATPROBE_EV_TIMER_EXPIRE, ctx, HARD);
	e->timer = TIMER;
	e->function = 0xffffffff81170000ull;
	add(irq + 1500, LATPROBE_EV_WAKING, ctx, HARD)->pid = TID;
	add(irq + 1600, LATPROBE_EV_TIMER_EXPIRE_EXIT, ctx, HARD)->timer = TIMER;
	add(irq + 2000, LATPROBE_EV_VECTOR_EXIT, ctx, HARD)->id = local_timer;
}

/* The probe arms its timer for D and goes to sleep, switching to @p next. */
static void begin(int32_t next, int16_t next_prio)
{
	struct latprobe_trace_event *e;

	nev = 0;
	e = add(D - 500000, LATPROBE_EV_TIMER_START, TID, 0);
	e->pid = TID;
	e->timer = TIMER;
	e->expires = (int64_t)D;
	add_switch(D - 499000, TID, PROBE_PRIO, next, next_prio);
}

static void explain(uint64_t user, struct latprobe_explanation *x)
{
	struct latprobe_stage_match m;
	enum latprobe_stage_result r;

	latprobe_windows_free(&windows);
	CHECK(latprobe_windows_init(&windows, 4, 4096) == 0);
	for (size_t i = 0; i < nev; i++)
		CHECK(latprobe_window_push(&windows, &evs[i]) == 0);
	r = latprobe_stages_find(&windows, TID, 1, D, user, (int64_t)(user - D), &m);
	latprobe_explain(&windows, &names, TID, PROBE_PRIO, 1, D, user, r, &m, x);
}

static uint64_t total(const struct latprobe_explanation *x)
{
	uint64_t sum = x->other_ns;

	for (unsigned i = 0; i < x->ncontrib; i++)
		sum += x->contrib[i].ns;
	return sum;
}

/* The contribution of this holder and key in this stage (NULL if none). */
static const struct latprobe_contribution *held(const struct latprobe_explanation *x,
						enum latprobe_holder holder, uint64_t key,
						enum latprobe_stage stage)
{
	for (unsigned i = 0; i < x->ncontrib; i++) {
		const struct latprobe_contribution *c = &x->contrib[i];

		if (c->holder == holder && c->stage == stage &&
		    (holder == LATPROBE_HELD_IDLE || c->key == key))
			return c;
	}
	return NULL;
}

static void test_preempted_by_a_busy_loop(void)
{
	struct latprobe_explanation x;
	const struct latprobe_contribution *c;
	char text[512];

	/* "busy" (rt 99) runs from before the expiry until it switches to the probe 800 us on */
	begin(BUSY, 0);
	add_timer_irq(D + 2000, BUSY);
	add_switch(D + 800000, BUSY, 0, TID, PROBE_PRIO);
	explain(D + 802000, &x);
	CHECK(x.stage_result == LATPROBE_STAGES_OK && x.match.switch_traced);
	CHECK(total(&x) == 802000 && x.latency == 802000);
	CHECK(x.cause == LATPROBE_CAUSE_PREEMPTED && x.running_at_expiry == BUSY);
	c = &x.contrib[0];
	CHECK(c->holder == LATPROBE_HELD_TASK && c->key == BUSY &&
	      c->stage == LATPROBE_STAGE_SCHED);
	/* from the end of the interrupt (D + 4000) to the switch */
	CHECK(c->ns == 796000 && c->first == 4000 && c->prio == 0);
	CHECK(!strcmp(c->name, "busy"));
	/* the rest: the interrupt came 2 us late while busy ran; its entry, the probe's own
	 * callback, the interrupt's exit, the return to user space */
	c = held(&x, LATPROBE_HELD_TASK, BUSY, LATPROBE_STAGE_IRQ);
	CHECK(c && c->ns == 2000);
	c = held(&x, LATPROBE_HELD_VECTOR, (uint64_t)local_timer, LATPROBE_STAGE_HANDLER);
	CHECK(c && c->ns == 1000 && c->timer_irq && !strcmp(c->name, "local_timer"));
	c = held(&x, LATPROBE_HELD_PROBE, TID, LATPROBE_STAGE_WAKEUP);
	CHECK(c && c->ns == 500);
	c = held(&x, LATPROBE_HELD_PROBE, TID, LATPROBE_STAGE_SCHED);
	CHECK(c && c->ns == 100);
	c = held(&x, LATPROBE_HELD_VECTOR, (uint64_t)local_timer, LATPROBE_STAGE_SCHED);
	CHECK(c && c->ns == 400);
	c = held(&x, LATPROBE_HELD_PROBE, TID, LATPROBE_STAGE_USER);
	CHECK(c && c->ns == 2000);
	latprobe_explain_text(&x, text, sizeof(text));
	CHECK(strstr(text, "802.0 us late: busy (pid 900, rt 99) held the CPU for 796.0 us (sched "
			   "stage): a task of higher or equal priority") == text);
	/* a task running in user space leaves no events: that is not said to be the VM */
	CHECK(x.silence_ns == 796000 && strstr(text, "vCPU") == NULL);
}

static void test_not_preemptible(void)
{
	struct latprobe_explanation x;
	char text[512];

	/* the same, by a normal task: the probe should have preempted it */
	begin(BUSY, 120);
	add_timer_irq(D + 2000, BUSY);
	add_switch(D + 300000, BUSY, 120, TID, PROBE_PRIO);
	explain(D + 301000, &x);
	CHECK(total(&x) == 301000);
	CHECK(x.cause == LATPROBE_CAUSE_NOT_PREEMPTIBLE);
	CHECK(x.contrib[0].prio == 120 && x.contrib[0].ns == 296000);
	latprobe_explain_text(&x, text, sizeof(text));
	CHECK(strstr(text,
		     "busy (pid 900, nice 0) kept the CPU for 296.0 us (sched stage) although "
		     "the probe has the higher priority") != NULL);
	CHECK(!strcmp(latprobe_cause_class((enum latprobe_cause)x.cause), "scheduler"));
}

static void test_priority_at_the_time(void)
{
	struct latprobe_explanation x;
	char text[512];

	/* the name table knows busy's latest priority (it became a normal task after the
	 * spike); the switch away from it in the spike says it was rt 99 then */
	latprobe_names_task(&names, BUSY, "busy", 120);
	nev = 0;
	add(D - 500000, LATPROBE_EV_TIMER_START, TID, 0)->pid = TID;
	evs[0].timer = TIMER;
	evs[0].expires = (int64_t)D;
	add(D - 400000, LATPROBE_EV_WAKING, BUSY, 0)->pid = 4242; /* busy is current */
	add_timer_irq(D + 2000, BUSY);
	add_switch(D + 800000, BUSY, 0, TID, PROBE_PRIO);
	explain(D + 802000, &x);
	CHECK(x.contrib[0].key == BUSY && x.contrib[0].prio == 0);
	/* but the switch to it was not traced: its priority while it held the CPU is only what
	 * the switch away says, so no cause is named from it */
	CHECK(x.contrib[0].prio_from == LATPROBE_PRIO_SWITCH_AWAY);
	CHECK(x.cause == LATPROBE_CAUSE_TASK_PRIO_UNTRACED);
	latprobe_explain_text(&x, text, sizeof(text));
	CHECK(strstr(text, "busy (pid 900, rt 99) held the CPU for") != NULL);
	CHECK(strstr(text, "the kernel did not trace the switch to it: priority seen only at the "
			   "switch away") != NULL);
	CHECK(strstr(text, "higher or equal priority") == NULL);
	CHECK(!strcmp(latprobe_cause_names[x.cause], "task_prio_untraced") &&
	      !strcmp(latprobe_cause_class((enum latprobe_cause)x.cause), "scheduler"));
	/* the switch to busy is seen (rt 99); it became a normal task before it switched away:
	 * while it held the CPU it was rt 99 */
	begin(BUSY, 0);
	add_timer_irq(D + 2000, BUSY);
	add_switch(D + 800000, BUSY, 120, TID, PROBE_PRIO);
	explain(D + 802000, &x);
	CHECK(x.contrib[0].key == BUSY && x.contrib[0].prio == 0);
	CHECK(x.contrib[0].prio_from == LATPROBE_PRIO_SWITCH_IN &&
	      x.cause == LATPROBE_CAUSE_PREEMPTED);
	latprobe_names_task(&names, BUSY, "busy", 0);
}

static void test_idle_with_untraced_switch(void)
{
	struct latprobe_explanation x;
	const struct latprobe_contribution *c;
	char text[512];

	/* the CPU is idle; the timer interrupt comes 25 us late (idle-state exit); the kernel
	 * does not trace the switch from idle: the probe's syscall exit marks its first
	 * instruction */
	begin(0, 120);
	add_timer_irq(D + 25000, 0);
	add(D + 30000, LATPROBE_EV_SYSCALL_EXIT, TID, 0)->pid = TID;
	explain(D + 31000, &x);
	CHECK(x.stage_result == LATPROBE_STAGES_OK && !x.match.switch_traced);
	CHECK(total(&x) == 31000 && x.running_at_expiry == 0);
	CHECK(x.cause == LATPROBE_CAUSE_IDLE);
	c = held(&x, LATPROBE_HELD_IDLE, 0, LATPROBE_STAGE_IRQ);
	CHECK(c && c->ns == 25000 && c == &x.contrib[0] && !strcmp(c->name, "idle"));
	/* after the interrupt, until the probe ran: still the idle task (its switch untraced) */
	c = held(&x, LATPROBE_HELD_IDLE, 0, LATPROBE_STAGE_SCHED);
	CHECK(c && c->ns == 3000);
	latprobe_explain_text(&x, text, sizeof(text));
	CHECK(strstr(text, "the CPU was idle for 25.0 us of it (irq stage)") != NULL);
	CHECK(strstr(text, "the kernel did not trace the switch to the probe") != NULL);
	CHECK(!strcmp(latprobe_cause_class((enum latprobe_cause)x.cause), "hardware"));
	CHECK(x.idle_state == -1); /* no power:cpu_idle events: not known */

	/* with power:cpu_idle: the CPU entered state 2 before the expiry and left it at the
	 * interrupt; the explanation names the state it woke from */
	begin(0, 120);
	add(D - 400000, LATPROBE_EV_CPU_IDLE, 0, 0)->id = 2;
	add(D + 24000, LATPROBE_EV_CPU_IDLE, 0, 0)->id = -1;
	add_timer_irq(D + 25000, 0);
	add(D + 30000, LATPROBE_EV_SYSCALL_EXIT, TID, 0)->pid = TID;
	explain(D + 31000, &x);
	CHECK(x.idle_state == 2 && x.cause == LATPROBE_CAUSE_IDLE && total(&x) == 31000);
	snprintf(x.idle_name, sizeof(x.idle_name), "C6");
	latprobe_explain_text(&x, text, sizeof(text));
	CHECK(strstr(text, "; the CPU woke from idle state 2 (C6)") != NULL);
	/* it had left the idle state before the expiry: not idle then */
	begin(0, 120);
	add(D - 400000, LATPROBE_EV_CPU_IDLE, 0, 0)->id = 1;
	add(D - 1000, LATPROBE_EV_CPU_IDLE, 0, 0)->id = -1;
	add_timer_irq(D + 25000, 0);
	add(D + 30000, LATPROBE_EV_SYSCALL_EXIT, TID, 0)->pid = TID;
	explain(D + 31000, &x);
	CHECK(x.idle_state == -1);
}

static void test_device_irq_and_softirq(void)
{
	struct latprobe_explanation x;
	const struct latprobe_contribution *c;
	char text[512];

	/* irq 11 runs (interrupts off) from before the expiry to D + 50000; then the timer
	 * interrupt; on its exit the NET_RX softirq runs 100 us before the probe gets the CPU */
	begin(BUSY, 120);
	add(D - 1000, LATPROBE_EV_HARDIRQ_ENTRY, BUSY, HARD)->id = 11;
	add(D + 50000, LATPROBE_EV_HARDIRQ_EXIT, BUSY, HARD)->id = 11;
	add_timer_irq(D + 50100, BUSY);
	add(D + 52200, LATPROBE_EV_SOFTIRQ_ENTRY, BUSY, SOFT)->id = 3;
	add(D + 152200, LATPROBE_EV_SOFTIRQ_EXIT, BUSY, SOFT)->id = 3;
	add_switch(D + 153000, BUSY, 120, TID, PROBE_PRIO);
	explain(D + 154000, &x);
	CHECK(total(&x) == 154000);
	c = &x.contrib[0];
	CHECK(c->holder == LATPROBE_HELD_SOFTIRQ && c->key == 3 && c->ns == 100000);
	CHECK(!strcmp(c->name, "NET_RX") && x.cause == LATPROBE_CAUSE_SOFTIRQ);
	c = held(&x, LATPROBE_HELD_IRQ, 11, LATPROBE_STAGE_IRQ);
	CHECK(c && c->ns == 50000 && !strcmp(c->name, "irq 11 virtio0-input.0"));
	latprobe_explain_text(&x, text, sizeof(text));
	CHECK(strstr(text, "softirq NET_RX held the CPU for 100.0 us (sched stage)") != NULL);
	CHECK(strstr(text, "; then irq 11 virtio0-input.0 50.0 us (irq)") != NULL);
}

static void test_exits_not_traced(void)
{
	struct latprobe_explanation x;
	const struct latprobe_contribution *c;
	struct latprobe_trace_event *e;

	/* a callback of another timer runs first in the interrupt; no exit events at all: the
	 * next callback and the next event outside interrupts end the contexts */
	begin(BUSY, 120);
	add(D + 1000, LATPROBE_EV_IRQ_ENTRY, BUSY, HARD);
	add(D + 1000, LATPROBE_EV_VECTOR_ENTRY, BUSY, HARD)->id = local_timer;
	e = add(D + 1500, LATPROBE_EV_TIMER_EXPIRE, BUSY, HARD);
	e->timer = TICK_TIMER;
	e->function = TICK_FN + 0x40;
	e = add(D + 41500, LATPROBE_EV_TIMER_EXPIRE, BUSY, HARD);
	e->timer = TIMER;
	add(D + 42000, LATPROBE_EV_WAKING, BUSY, HARD)->pid = TID;
	add_switch(D + 45000, BUSY, 120, TID, PROBE_PRIO);
	explain(D + 46000, &x);
	CHECK(x.stage_result == LATPROBE_STAGES_OK && total(&x) == 46000);
	c = &x.contrib[0];
	CHECK(c->holder == LATPROBE_HELD_HRTIMER && c->ns == 40000 && c->key == TICK_FN + 0x40);
	CHECK(c->stage == LATPROBE_STAGE_HANDLER && x.cause == LATPROBE_CAUSE_TIMERS);
	/* the probe's callback lasts until the switch (no exit event, no event outside) */
	c = held(&x, LATPROBE_HELD_PROBE, TID, LATPROBE_STAGE_SCHED);
	CHECK(c && c->ns == 3000);
	latprobe_explain_name_symbols(&x, &names);
	CHECK(!strcmp(x.contrib[0].name, "tick_nohz_handler"));
	/* 40 us without any event, all of it the callback's: said, with the VM in mind */
	CHECK(x.silence_ns == 40000 && x.silence_at == 1500);
	{
		char text[512];

		x.contrib[0].ns = 400000; /* as if 400 us: long enough to mention */
		x.silence_ns = 399000;
		latprobe_explain_text(&x, text, sizeof(text));
		CHECK(strstr(text, "no event was traced on the CPU for 399.0 us of it (in a VM the "
				   "host may not have run the vCPU)") != NULL);
	}
}

static void test_timer_on_another_cpu(void)
{
	struct latprobe_explanation x;
	const struct latprobe_contribution *c;

	/* the timer fired on CPU 2, interrupting "other" there; CPU 1 is busy with "busy" until
	 * the switch */
	size_t first;

	begin(BUSY, 0);
	first = nev;
	add_timer_irq(D + 7000, 4242);
	for (size_t i = first; i < nev; i++)
		evs[i].cpu = 2;
	add_switch(D + 20000, BUSY, 0, TID, PROBE_PRIO);
	explain(D + 21000, &x);
	CHECK(x.stage_result == LATPROBE_STAGES_OK && x.match.timer_cpu == 2);
	CHECK(total(&x) == 21000);
	c = held(&x, LATPROBE_HELD_TASK, 4242, LATPROBE_STAGE_IRQ);
	CHECK(c && c->ns == 7000);
	/* from the waking on: CPU 1's busy */
	c = held(&x, LATPROBE_HELD_TASK, BUSY, LATPROBE_STAGE_SCHED);
	CHECK(c && c->ns == 20000 - 8500);
}

static void test_no_trace(void)
{
	struct latprobe_explanation x;
	char text[256];

	nev = 0;
	explain(D + 5000, &x);
	CHECK(x.stage_result == LATPROBE_STAGES_NO_START && x.window_cut);
	CHECK(x.cause == LATPROBE_CAUSE_NONE);
	latprobe_explain_text(&x, text, sizeof(text));
	CHECK(!strcmp(text, "5.0 us late: no trace events to explain it with"));
}

static void test_many_contributors(void)
{
	struct latprobe_explanation x;

	/* 30 interrupt lines in turn: the 12 largest are kept, the rest summed */
	begin(BUSY, 0);
	for (int i = 0; i < 30; i++) {
		add(D + 1000 * (uint64_t)i, LATPROBE_EV_HARDIRQ_ENTRY, BUSY, HARD)->id = 100 + i;
		add(D + 1000 * (uint64_t)i + 10 * (uint64_t)(i + 1), LATPROBE_EV_HARDIRQ_EXIT, BUSY,
		    HARD)
		    ->id = 100 + i;
	}
	add_timer_irq(D + 40000, BUSY);
	add_switch(D + 50000, BUSY, 0, TID, PROBE_PRIO);
	explain(D + 51000, &x);
	CHECK(x.ncontrib == LATPROBE_CONTRIB_MAX && total(&x) == 51000 && x.other_ns > 0);
	for (unsigned i = 1; i < x.ncontrib; i++)
		CHECK(x.contrib[i - 1].ns >= x.contrib[i].ns);
}

int main(void)
{
	FILE *f = tmpfile();

	latprobe_names_init(&names);
	latprobe_names_task(&names, BUSY, "busy", 0);
	latprobe_names_irq(&names, 11, "virtio0-input.0");
	local_timer = latprobe_names_vector(&names, "local_timer");
	/* a kallsyms file: callbacks are named by the symbol that contains them */
	if (f) {
		char path[64];

		fprintf(f, "ffffffff81150000 T hrtimer_wakeup_xxx\n"
			   "ffffffff81160000 t tick_nohz_handler\n"
			   "ffffffff81170000 T hrtimer_wakeup\n"
			   "ffffffff81180000 D some_data\n");
		fflush(f);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(f));
		CHECK(latprobe_names_kallsyms(&names, path) == 0);
	}
	test_preempted_by_a_busy_loop();
	test_not_preemptible();
	test_priority_at_the_time();
	test_idle_with_untraced_switch();
	test_device_irq_and_softirq();
	test_exits_not_traced();
	test_timer_on_another_cpu();
	test_no_trace();
	test_many_contributors();
	latprobe_windows_free(&windows);
	latprobe_names_free(&names);
	if (f)
		fclose(f);
	return check_report("test_latprobe_explain");
}
