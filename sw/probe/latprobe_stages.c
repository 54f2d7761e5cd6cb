/* Stage decomposition; see latprobe_stages.h. */
#include "latprobe_stages.h"

#include <string.h>

const char *const latprobe_stage_names[LATPROBE_NSTAGES] = {
	"irq", "handler", "wakeup", "sched", "user",
};

const char *const latprobe_stage_result_names[LATPROBE_STAGES_NRESULTS] = {
	"ok",	     "no_start", "no_expire", "no_irq",	    "no_waking",
	"no_switch", "disorder", "sum",	      "armed_late",
};

/* The thread's latest arming of a timer for this expiry, at or before the expiry and the read. */
static const struct latprobe_trace_event *find_start(const struct latprobe_window *win, pid_t tid,
						     uint64_t expiry, uint64_t until)
{
	size_t i = latprobe_window_lower(win, (expiry < until ? expiry : until) + 1);

	while (i > win->start) {
		const struct latprobe_trace_event *e = &win->ev[--i];

		if (e->kind == LATPROBE_EV_TIMER_START && e->pid == tid &&
		    e->expires == (int64_t)expiry)
			return e;
	}
	return NULL;
}

/* The first expiry of @p timer in (after, until] on one CPU. */
static const struct latprobe_trace_event *
find_expire(const struct latprobe_window *win, uint64_t timer, uint64_t after, uint64_t until)
{
	for (size_t i = latprobe_window_lower(win, after); i < win->end && win->ev[i].ts <= until;
	     i++) {
		const struct latprobe_trace_event *e = &win->ev[i];

		if (e->kind == LATPROBE_EV_TIMER_EXPIRE && e->timer == timer && e->ts >= after)
			return e;
	}
	return NULL;
}

/* The latest timer interrupt entry in [since, e] on the CPU of @p e (e is in @p win). */
static const struct latprobe_trace_event *
find_irq(const struct latprobe_window *win, const struct latprobe_trace_event *e, uint64_t since)
{
	for (size_t i = (size_t)(e - win->ev); i > win->start && win->ev[i - 1].ts >= since;) {
		const struct latprobe_trace_event *x = &win->ev[--i];

		if (x->kind == LATPROBE_EV_IRQ_ENTRY)
			return x;
	}
	return NULL;
}

/* The first event of @p kind about @p tid in [after, until] on one CPU. */
static const struct latprobe_trace_event *find_first(const struct latprobe_window *win,
						     enum latprobe_trace_kind kind, pid_t tid,
						     uint64_t after, uint64_t until)
{
	for (size_t i = latprobe_window_lower(win, after); i < win->end && win->ev[i].ts <= until;
	     i++) {
		const struct latprobe_trace_event *e = &win->ev[i];

		if (e->kind == kind && e->pid == tid)
			return e;
	}
	return NULL;
}

enum latprobe_stage_result latprobe_stages_find(const struct latprobe_windows *w, pid_t tid,
						unsigned cpu, uint64_t expiry, uint64_t user,
						int64_t latency, struct latprobe_stage_match *m)
{
	const struct latprobe_trace_event *start, *expire = NULL, *irq, *waking, *sw, *exit_ev;
	const struct latprobe_window *win, *twin;
	int64_t sum = 0;

	memset(m, 0, sizeof(*m));
	if (cpu >= w->ncpus)
		return LATPROBE_STAGES_NO_START;
	win = &w->cpu[cpu];
	start = find_start(win, tid, expiry, user);
	if (!start) {
		/* armed after the expiry, before the clock read? */
		for (size_t i = latprobe_window_lower(win, expiry + 1);
		     i < win->end && win->ev[i].ts <= user; i++) {
			const struct latprobe_trace_event *e = &win->ev[i];

			if (e->kind == LATPROBE_EV_TIMER_START && e->pid == tid &&
			    e->expires == (int64_t)expiry)
				return LATPROBE_STAGES_ARMED_LATE;
		}
		return LATPROBE_STAGES_NO_START;
	}
	m->start_ts = start->ts;
	m->timer = start->timer;
	/* the timer usually expires on the thread's CPU; a migrated one on another */
	twin = win;
	expire = find_expire(win, start->timer, start->ts, user);
	for (unsigned c = 0; !expire && c < w->ncpus; c++) {
		if (c == cpu)
			continue;
		twin = &w->cpu[c];
		expire = find_expire(twin, start->timer, start->ts, user);
	}
	if (!expire)
		return LATPROBE_STAGES_NO_EXPIRE;
	m->expire_ts = expire->ts;
	m->timer_cpu = expire->cpu;
	m->timer_function = expire->function;
	/* the interrupt must be the one that ran the handler: after the timer was armed */
	irq = find_irq(twin, expire, start->ts);
	if (!irq)
		return LATPROBE_STAGES_NO_IRQ;
	m->irq_ts = irq->ts;
	/* sched_waking is recorded by the CPU that runs the wake-up: the timer's */
	waking = find_first(twin, LATPROBE_EV_WAKING, tid, expire->ts, user);
	if (!waking)
		return LATPROBE_STAGES_NO_WAKING;
	m->waking_ts = waking->ts;
	sw = find_first(win, LATPROBE_EV_SWITCH, tid, waking->ts, user);
	exit_ev = find_first(win, LATPROBE_EV_SYSCALL_EXIT, tid, waking->ts, user);
	if (exit_ev && (!sw || exit_ev->ts < sw->ts)) {
		/* the thread ran before any switch to it was recorded: the kernel did not trace
		 * that switch (a later switch-in is a return after a preemption) */
		sw = exit_ev;
		m->switch_traced = false;
	} else if (sw) {
		m->switch_traced = true;
	} else {
		return LATPROBE_STAGES_NO_SWITCH;
	}
	m->switch_ts = sw->ts;
	m->stages[LATPROBE_STAGE_IRQ] = (int64_t)(irq->ts - expiry);
	m->stages[LATPROBE_STAGE_HANDLER] = (int64_t)(expire->ts - irq->ts);
	m->stages[LATPROBE_STAGE_WAKEUP] = (int64_t)(waking->ts - expire->ts);
	m->stages[LATPROBE_STAGE_SCHED] = (int64_t)(sw->ts - waking->ts);
	m->stages[LATPROBE_STAGE_USER] = (int64_t)(user - sw->ts);
	for (int s = 0; s < LATPROBE_NSTAGES; s++) {
		if (s > LATPROBE_STAGE_IRQ && m->stages[s] < 0)
			return LATPROBE_STAGES_DISORDER;
		sum += m->stages[s];
	}
	if (sum != latency)
		return LATPROBE_STAGES_SUM;
	return LATPROBE_STAGES_OK;
}
