/* Spike explanations; see latprobe_explain.h. */
#include "latprobe_explain.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* common_flags of a trace record (kernel/trace/trace.h: TRACE_FLAG_*) */
#define TRACE_FLAG_HARDIRQ 0x08
#define TRACE_FLAG_SOFTIRQ 0x10
#define TRACE_FLAG_NMI	   0x40

#define STACK_MAX 8
#define ACC_MAX	  64

const char *const latprobe_holder_names[LATPROBE_NHOLDERS] = {
	"probe", "idle", "task", "irq", "vector", "softirq", "hrtimer", "unknown",
};

const char *const latprobe_cause_names[LATPROBE_NCAUSES] = {
	"none",	  "idle",      "irq_delivery",	  "interrupt", "softirq",
	"timers", "preempted", "not_preemptible", "probe",     "task_prio_untraced",
};

const char *latprobe_cause_class(enum latprobe_cause cause)
{
	switch (cause) {
	case LATPROBE_CAUSE_IDLE:
	case LATPROBE_CAUSE_IRQ_DELIVERY:
		return "hardware";
	case LATPROBE_CAUSE_INTERRUPT:
	case LATPROBE_CAUSE_SOFTIRQ:
	case LATPROBE_CAUSE_TIMERS:
		return "interrupts";
	case LATPROBE_CAUSE_PREEMPTED:
	case LATPROBE_CAUSE_NOT_PREEMPTIBLE:
	case LATPROBE_CAUSE_TASK_PRIO_UNTRACED:
		return "scheduler";
	case LATPROBE_CAUSE_PROBE:
		return "probe";
	default:
		return "unknown";
	}
}

/* A context the CPU is in, innermost last. */
struct frame {
	uint8_t holder;
	bool hard;	/* entered in hard-interrupt context */
	bool timer_irq; /* the timer interrupt (marked by an IRQ_ENTRY) */
	bool probe;	/* the probe's own hrtimer callback */
	uint64_t key;
	uint64_t timer; /* HRTIMER: the timer's address */
};

struct state {
	int32_t task; /* current task, -1: not known yet */
	int16_t task_prio;
	bool prio_seen; /* task_prio is from the switch to the task (else the name table's) */
	struct frame stack[STACK_MAX];
	unsigned depth;
	bool next_is_timer_irq;
};

struct acc_entry {
	uint64_t ns;
	int64_t first;
	uint64_t key;
	int16_t prio;
	bool prio_seen;
	bool prio_away; /* prio is from the switch away from the task (the switch to it untraced) */
	uint8_t stage, holder;
	bool timer_irq;
};

struct acc {
	struct acc_entry e[ACC_MAX];
	unsigned n;
	uint64_t overflow_ns;
};

/* What the walk needs to know about the sample. */
struct sample {
	pid_t tid;
	uint64_t expiry;
	uint64_t bounds[LATPROBE_NSTAGES + 1]; /* E, I, H, W, S, U; */
	bool staged;			       /* bounds are known */
	uint64_t probe_timer;
	const struct latprobe_names *names;
};

static void acc_add(struct acc *a, const struct acc_entry *x)
{
	for (unsigned i = 0; i < a->n; i++) {
		struct acc_entry *e = &a->e[i];

		if (e->stage == x->stage && e->holder == x->holder && e->key == x->key &&
		    e->timer_irq == x->timer_irq) {
			e->ns += x->ns;
			if (x->first < e->first)
				e->first = x->first;
			if (x->prio != INT16_MIN && (x->prio_seen || !e->prio_seen)) {
				e->prio = x->prio;
				e->prio_seen = x->prio_seen;
				e->prio_away = x->prio_away;
			}
			return;
		}
	}
	if (a->n == ACC_MAX) {
		a->overflow_ns += x->ns;
		return;
	}
	a->e[a->n++] = *x;
}

/* Attribute [from, to) to what the state says holds the CPU, split at the stage bounds. */
static void attribute(const struct state *st, const struct sample *s, uint64_t from, uint64_t to,
		      struct acc *a)
{
	struct acc_entry x = { .prio = INT16_MIN };

	if (to <= from)
		return;
	if (st->depth) {
		const struct frame *f = &st->stack[st->depth - 1];

		x.holder = f->probe ? LATPROBE_HELD_PROBE : f->holder;
		x.key = f->probe ? (uint64_t)s->tid : f->key;
		x.timer_irq = f->timer_irq;
	} else if (st->task < 0) {
		x.holder = LATPROBE_HELD_UNKNOWN;
	} else if (st->task == s->tid) {
		x.holder = LATPROBE_HELD_PROBE;
		x.key = (uint64_t)s->tid;
	} else if (st->task == 0) {
		x.holder = LATPROBE_HELD_IDLE;
	} else {
		x.holder = LATPROBE_HELD_TASK;
		x.key = (uint64_t)st->task;
		x.prio = st->task_prio;
		x.prio_seen = st->prio_seen;
	}
	while (from < to) {
		uint64_t end = to;
		unsigned stage = LATPROBE_NSTAGES;

		if (s->staged) {
			/* the stage holding `from`: the last bound at or below it */
			stage = 0;
			while (stage + 1 < LATPROBE_NSTAGES && s->bounds[stage + 1] <= from)
				stage++;
			if (stage + 1 <= LATPROBE_NSTAGES && s->bounds[stage + 1] < end &&
			    s->bounds[stage + 1] > from)
				end = s->bounds[stage + 1];
		}
		x.stage = (uint8_t)stage;
		x.ns = end - from;
		x.first = (int64_t)(from - s->expiry);
		acc_add(a, &x);
		from = end;
	}
}

static void push(struct state *st, const struct frame *f)
{
	if (st->depth == STACK_MAX) {
		memmove(st->stack, st->stack + 1, (STACK_MAX - 1) * sizeof(*st->stack));
		st->depth--;
	}
	st->stack[st->depth++] = *f;
}

/* Leave the innermost frame of this holder and key (and what was entered inside it). */
static void pop(struct state *st, uint8_t holder, uint64_t key, bool by_timer)
{
	for (unsigned i = st->depth; i > 0; i--) {
		const struct frame *f = &st->stack[i - 1];

		if (f->holder == holder && (by_timer ? f->timer == key : f->key == key)) {
			st->depth = i - 1;
			return;
		}
	}
}

/* The context flags of every event re-synchronise the stack: an event recorded outside hard
 * interrupts means no hard frame is open, one outside any interrupt means none at all. */
static void resync(struct state *st, uint8_t flags)
{
	if (!(flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_NMI))) {
		unsigned keep = 0;

		for (unsigned i = 0; i < st->depth; i++) {
			if (st->stack[i].hard)
				break;
			keep = i + 1;
		}
		st->depth = keep;
	}
	if (!(flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ | TRACE_FLAG_NMI)))
		st->depth = 0;
}

static void apply(struct state *st, const struct sample *s, const struct latprobe_trace_event *e)
{
	struct frame f = { .hard = (e->flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_NMI)) != 0 };

	if (e->ctx != st->task) {
		const char *comm;

		st->task = e->ctx;
		st->task_prio = INT16_MIN;
		st->prio_seen = false;
		if (!latprobe_names_find_task(s->names, e->ctx, &comm, &st->task_prio))
			st->task_prio = INT16_MIN;
	}
	switch (e->kind) {
	case LATPROBE_EV_IRQ_ENTRY:
		st->next_is_timer_irq = true;
		return; /* the context comes with the entry event of the same record */
	case LATPROBE_EV_VECTOR_ENTRY:
	case LATPROBE_EV_HARDIRQ_ENTRY:
		resync(st, e->flags);
		f.holder =
		    e->kind == LATPROBE_EV_VECTOR_ENTRY ? LATPROBE_HELD_VECTOR : LATPROBE_HELD_IRQ;
		f.key = (uint64_t)e->id;
		f.hard = true;
		f.timer_irq = st->next_is_timer_irq;
		st->next_is_timer_irq = false;
		push(st, &f);
		return;
	case LATPROBE_EV_VECTOR_EXIT:
		pop(st, LATPROBE_HELD_VECTOR, (uint64_t)e->id, false);
		break;
	case LATPROBE_EV_HARDIRQ_EXIT:
		pop(st, LATPROBE_HELD_IRQ, (uint64_t)e->id, false);
		break;
	case LATPROBE_EV_SOFTIRQ_ENTRY:
		resync(st, e->flags);
		f.holder = LATPROBE_HELD_SOFTIRQ;
		f.key = (uint64_t)e->id;
		f.hard = false;
		push(st, &f);
		return;
	case LATPROBE_EV_SOFTIRQ_EXIT:
		pop(st, LATPROBE_HELD_SOFTIRQ, (uint64_t)e->id, false);
		break;
	case LATPROBE_EV_TIMER_EXPIRE:
		resync(st, e->flags);
		/* a callback whose exit was not traced ends where the next one begins */
		if (st->depth && st->stack[st->depth - 1].holder == LATPROBE_HELD_HRTIMER)
			st->depth--;
		f.holder = LATPROBE_HELD_HRTIMER;
		f.key = e->function;
		f.timer = e->timer;
		f.probe = s->probe_timer && e->timer == s->probe_timer;
		push(st, &f);
		return;
	case LATPROBE_EV_TIMER_EXPIRE_EXIT:
		pop(st, LATPROBE_HELD_HRTIMER, e->timer, true);
		break;
	case LATPROBE_EV_SWITCH:
		st->depth = 0;
		st->task = e->pid;
		st->task_prio = e->prio;
		st->prio_seen = true;
		return;
	default:
		break;
	}
	resync(st, e->flags);
}

/* A task's priority while it held the CPU is the one the switch to it shows; where that switch
 * was not seen, the switch away from it tells (the name table only knows the latest priority,
 * which may have changed since). */
static void note_prio(struct acc *a, int32_t pid, int16_t prio)
{
	for (unsigned i = 0; i < a->n; i++) {
		struct acc_entry *e = &a->e[i];

		if (e->holder == LATPROBE_HELD_TASK && e->key == (uint64_t)pid && !e->prio_seen) {
			e->prio = prio;
			e->prio_seen = true;
			e->prio_away = true;
		}
	}
}

/* The longest stretch of [from, to) without an event so far. */
static void note_silence(struct latprobe_explanation *x, uint64_t expiry, uint64_t from,
			 uint64_t to)
{
	if (to > from && to - from > x->silence_ns) {
		x->silence_ns = to - from;
		x->silence_at = (int64_t)(from - expiry);
	}
}

/* Walk one CPU's events from @p since, attributing what lies in [from, to). */
static void walk(const struct latprobe_window *win, const struct sample *s, int32_t task,
		 uint64_t since, uint64_t from, uint64_t to, struct acc *a,
		 struct latprobe_explanation *x, int32_t *running_at)
{
	struct state st = { .task = task, .task_prio = INT16_MIN };
	uint64_t prev = since;
	bool seen_from = false;
	int32_t idle = -1; /* the idle state the CPU is in (power:cpu_idle), -1: none */

	for (size_t i = latprobe_window_lower(win, since); i < win->end && win->ev[i].ts < to;
	     i++) {
		const struct latprobe_trace_event *e = &win->ev[i];

		if (st.task < 0 && !st.depth)
			st.task = e->ctx; /* the task current at the first event held the CPU */
		if (!seen_from && e->ts >= from) {
			seen_from = true;
			if (running_at)
				*running_at = st.task;
			if (running_at && idle >= 0)
				x->idle_state = idle;
		}
		if (e->kind == LATPROBE_EV_CPU_IDLE) {
			idle = e->id;
			continue; /* not a context: the idle task holds the CPU either way */
		}
		attribute(&st, s, prev > from ? prev : from, e->ts, a);
		if (e->ts >= from) {
			x->nevents++;
			note_silence(x, s->expiry, prev > from ? prev : from, e->ts);
		}
		if (e->kind == LATPROBE_EV_SWITCH && e->id > 0)
			note_prio(a, e->id, e->prev_prio);
		apply(&st, s, e);
		prev = e->ts;
	}
	if (!seen_from && running_at) {
		*running_at = st.task;
		if (idle >= 0)
			x->idle_state = idle;
	}
	attribute(&st, s, prev > from ? prev : from, to, a);
	note_silence(x, s->expiry, prev > from ? prev : from, to);
}

static int by_time_held(const void *pa, const void *pb)
{
	const struct acc_entry *x = pa, *y = pb;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static void name_contribution(struct latprobe_contribution *c, const struct latprobe_names *n,
			      pid_t tid)
{
	const char *comm, *name;
	int16_t prio;

	switch (c->holder) {
	case LATPROBE_HELD_PROBE:
		snprintf(c->name, sizeof(c->name), "latprobe");
		c->key = (uint64_t)tid;
		break;
	case LATPROBE_HELD_IDLE:
		snprintf(c->name, sizeof(c->name), "idle");
		break;
	case LATPROBE_HELD_TASK:
		if (latprobe_names_find_task(n, (int32_t)c->key, &comm, &prio) && *comm) {
			snprintf(c->name, sizeof(c->name), "%s", comm);
			if (c->prio == INT16_MIN)
				c->prio = prio;
		} else {
			snprintf(c->name, sizeof(c->name), "pid %" PRIu64, c->key);
		}
		break;
	case LATPROBE_HELD_IRQ:
		name = latprobe_names_find_irq(n, (int32_t)c->key);
		if (name)
			snprintf(c->name, sizeof(c->name), "irq %" PRIu64 " %s", c->key, name);
		else
			snprintf(c->name, sizeof(c->name), "irq %" PRIu64, c->key);
		break;
	case LATPROBE_HELD_VECTOR:
		if (c->key < n->nvectors)
			snprintf(c->name, sizeof(c->name), "%s", n->vectors[c->key]);
		else
			snprintf(c->name, sizeof(c->name), "vector %" PRIu64, c->key);
		break;
	case LATPROBE_HELD_SOFTIRQ:
		name = latprobe_softirq_name((int32_t)c->key);
		if (name)
			snprintf(c->name, sizeof(c->name), "%s", name);
		else
			snprintf(c->name, sizeof(c->name), "softirq %" PRIu64, c->key);
		break;
	case LATPROBE_HELD_HRTIMER:
		snprintf(c->name, sizeof(c->name), "0x%" PRIx64, c->key);
		break;
	default:
		snprintf(c->name, sizeof(c->name), "unknown");
		break;
	}
}

static enum latprobe_cause cause_of(const struct latprobe_contribution *c, int16_t probe_prio)
{
	switch (c->holder) {
	case LATPROBE_HELD_IDLE:
		return LATPROBE_CAUSE_IDLE;
	case LATPROBE_HELD_TASK:
		if (c->stage == LATPROBE_STAGE_IRQ)
			return LATPROBE_CAUSE_IRQ_DELIVERY;
		/* without the switch to the task, its priority while it held the CPU is not known:
		 * no cause is named from it */
		if (c->prio_from != LATPROBE_PRIO_SWITCH_IN)
			return LATPROBE_CAUSE_TASK_PRIO_UNTRACED;
		/* kernel priorities: lower is more important */
		if (c->prio != INT16_MIN && c->prio > probe_prio)
			return LATPROBE_CAUSE_NOT_PREEMPTIBLE;
		return LATPROBE_CAUSE_PREEMPTED;
	case LATPROBE_HELD_IRQ:
	case LATPROBE_HELD_VECTOR:
		return c->timer_irq ? LATPROBE_CAUSE_TIMERS : LATPROBE_CAUSE_INTERRUPT;
	case LATPROBE_HELD_SOFTIRQ:
		return LATPROBE_CAUSE_SOFTIRQ;
	case LATPROBE_HELD_HRTIMER:
		return LATPROBE_CAUSE_TIMERS;
	case LATPROBE_HELD_PROBE:
		if (c->stage == LATPROBE_STAGE_IRQ)
			return LATPROBE_CAUSE_IRQ_DELIVERY;
		return LATPROBE_CAUSE_PROBE;
	default:
		return LATPROBE_CAUSE_NONE;
	}
}

void latprobe_explain(const struct latprobe_windows *w, const struct latprobe_names *names,
		      pid_t tid, int16_t probe_prio, unsigned cpu, uint64_t expiry, uint64_t user,
		      enum latprobe_stage_result result, const struct latprobe_stage_match *match,
		      struct latprobe_explanation *out)
{
	static struct acc a; /* 2.5 KB; the main thread is the only caller */
	struct sample s = { .tid = tid, .expiry = expiry, .names = names };
	uint64_t since;
	unsigned n;

	memset(out, 0, sizeof(*out));
	memset(&a, 0, sizeof(a));
	out->cpu = cpu;
	out->expiry = expiry;
	out->latency = (int64_t)(user - expiry);
	out->probe_prio = probe_prio;
	out->stage_result = (uint8_t)result;
	out->match = *match;
	out->running_at_expiry = -1;
	out->idle_state = -1;
	if (cpu >= w->ncpus || user <= expiry)
		return;
	s.probe_timer = match->timer;
	if (result == LATPROBE_STAGES_OK) {
		s.staged = true;
		s.bounds[0] = expiry;
		s.bounds[1] = match->irq_ts > expiry ? match->irq_ts : expiry;
		s.bounds[2] = match->expire_ts;
		s.bounds[3] = match->waking_ts;
		s.bounds[4] = match->switch_ts;
		s.bounds[5] = user;
	}
	/* from the arming of the timer, when the probe itself was the CPU's current task */
	since = match->start_ts ? match->start_ts : expiry;
	{
		const struct latprobe_window *win = &w->cpu[cpu];

		out->window_cut =
		    !match->start_ts || (win->start < win->end && win->ev[win->start].ts > since);
	}
	if (s.staged && match->timer_cpu != cpu && match->timer_cpu < w->ncpus) {
		/* the timer expired elsewhere: the path up to the wake-up ran on that CPU */
		walk(&w->cpu[match->timer_cpu], &s, -1, since, expiry, match->waking_ts, &a, out,
		     NULL);
		walk(&w->cpu[cpu], &s, match->start_ts ? tid : -1, since, match->waking_ts, user,
		     &a, out, NULL);
		out->running_at_expiry = -1;
	} else {
		walk(&w->cpu[cpu], &s, match->start_ts ? tid : -1, since, expiry, user, &a, out,
		     &out->running_at_expiry);
	}
	qsort(a.e, a.n, sizeof(a.e[0]), by_time_held);
	n = a.n < LATPROBE_CONTRIB_MAX ? a.n : LATPROBE_CONTRIB_MAX;
	for (unsigned i = 0; i < n; i++) {
		struct latprobe_contribution *c = &out->contrib[i];

		c->ns = a.e[i].ns;
		c->first = a.e[i].first;
		c->key = a.e[i].key;
		c->prio = a.e[i].prio;
		c->prio_from = a.e[i].holder != LATPROBE_HELD_TASK ? LATPROBE_PRIO_NONE
			       : a.e[i].prio_away		   ? LATPROBE_PRIO_SWITCH_AWAY
			       : a.e[i].prio_seen		   ? LATPROBE_PRIO_SWITCH_IN
								   : LATPROBE_PRIO_LATEST;
		c->stage = a.e[i].stage;
		c->holder = a.e[i].holder;
		c->timer_irq = a.e[i].timer_irq;
		name_contribution(c, names, tid);
	}
	out->ncontrib = n;
	out->other_ns = a.overflow_ns;
	for (unsigned i = n; i < a.n; i++)
		out->other_ns += a.e[i].ns;
	out->cause = n ? (uint8_t)cause_of(&out->contrib[0], probe_prio) : LATPROBE_CAUSE_NONE;
}

void latprobe_explain_name_symbols(struct latprobe_explanation *x,
				   const struct latprobe_names *names)
{
	for (unsigned i = 0; i < x->ncontrib; i++) {
		struct latprobe_contribution *c = &x->contrib[i];
		const char *sym;

		if (c->holder != LATPROBE_HELD_HRTIMER)
			continue;
		sym = latprobe_names_symbol(names, c->key);
		if (sym)
			snprintf(c->name, sizeof(c->name), "%s", sym);
	}
}

/* "12.3 us" */
static void us_text(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 ".%" PRIu64 " us", ns / 1000, ns % 1000 / 100);
}

static const char *stage_text(uint8_t stage)
{
	return stage < LATPROBE_NSTAGES ? latprobe_stage_names[stage] : "unstaged";
}

/* "stress-ng (pid 99, nice 0)", "irq 11 virtio0", "idle" */
static void who_text(const struct latprobe_contribution *c, char *buf, size_t len)
{
	char prio[24];

	if (c->holder == LATPROBE_HELD_TASK) {
		latprobe_prio_text(c->prio, prio, sizeof(prio));
		snprintf(buf, len, "%s (pid %" PRIu64 ", %s)", c->name, c->key, prio);
	} else if (c->holder == LATPROBE_HELD_SOFTIRQ) {
		snprintf(buf, len, "softirq %s", c->name);
	} else if (c->holder == LATPROBE_HELD_HRTIMER) {
		snprintf(buf, len, "hrtimer %s", c->name);
	} else if (c->holder == LATPROBE_HELD_VECTOR) {
		snprintf(buf, len, "interrupt %s", c->name);
	} else {
		snprintf(buf, len, "%s", c->name);
	}
}

void latprobe_explain_text(const struct latprobe_explanation *x, char *buf, size_t len)
{
	const struct latprobe_contribution *c = &x->contrib[0];
	char who[96], t[24], late[24];
	size_t used;
	int n;

	us_text((uint64_t)(x->latency > 0 ? x->latency : 0), late, sizeof(late));
	if (!x->ncontrib || x->cause == LATPROBE_CAUSE_NONE) {
		snprintf(buf, len, "%s late: no trace events to explain it with", late);
		return;
	}
	who_text(c, who, sizeof(who));
	us_text(c->ns, t, sizeof(t));
	switch (x->cause) {
	case LATPROBE_CAUSE_IDLE:
		n = snprintf(buf, len,
			     "%s late: the CPU was idle for %s of it (%s stage): leaving the idle "
			     "state and waking up",
			     late, t, stage_text(c->stage));
		break;
	case LATPROBE_CAUSE_IRQ_DELIVERY:
		n = snprintf(buf, len,
			     "%s late: the timer interrupt came %s late while %s ran (irq stage): "
			     "interrupts were disabled, or the hypervisor or hardware delivered it "
			     "late",
			     late, t, c->holder == LATPROBE_HELD_PROBE ? "the probe itself" : who);
		break;
	case LATPROBE_CAUSE_INTERRUPT:
	case LATPROBE_CAUSE_SOFTIRQ:
	case LATPROBE_CAUSE_TIMERS:
		n = snprintf(buf, len, "%s late: %s held the CPU for %s (%s stage)", late, who, t,
			     stage_text(c->stage));
		break;
	case LATPROBE_CAUSE_PREEMPTED:
		n = snprintf(buf, len,
			     "%s late: %s held the CPU for %s (%s stage): a task of higher or "
			     "equal priority than the probe",
			     late, who, t, stage_text(c->stage));
		break;
	case LATPROBE_CAUSE_NOT_PREEMPTIBLE:
		n = snprintf(buf, len,
			     "%s late: %s kept the CPU for %s (%s stage) although the probe has "
			     "the higher priority: preemption was disabled",
			     late, who, t, stage_text(c->stage));
		break;
	case LATPROBE_CAUSE_TASK_PRIO_UNTRACED:
		n = snprintf(buf, len,
			     "%s late: %s held the CPU for %s (%s stage); the kernel did not trace "
			     "the switch to it: %s, so whether it could preempt the probe is not "
			     "known",
			     late, who, t, stage_text(c->stage),
			     c->prio_from == LATPROBE_PRIO_SWITCH_AWAY
				 ? "priority seen only at the switch away"
				 : "its priority is the latest the trace knows");
		break;
	case LATPROBE_CAUSE_PROBE:
		n = snprintf(buf, len,
			     "%s late: the probe's own path took %s (%s stage) with nothing else "
			     "traced on the CPU (in a VM the vCPU may not have run)",
			     late, t, stage_text(c->stage));
		break;
	default:
		n = snprintf(buf, len, "%s late: %s held the CPU for %s", late, who, t);
		break;
	}
	used = n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
	for (unsigned i = 1; i < x->ncontrib && i < 4 && used + 1 < len; i++) {
		const struct latprobe_contribution *o = &x->contrib[i];

		who_text(o, who, sizeof(who));
		us_text(o->ns, t, sizeof(t));
		n = snprintf(buf + used, len - used, "%s %s %s (%s)", i == 1 ? "; then" : ",", who,
			     t, stage_text(o->stage));
		used = n < 0 ? used : used + (size_t)n < len ? used + (size_t)n : len - 1;
	}
	/* an interrupt "running" for long without a single event: more likely the CPU itself
	 * did not run (a vCPU the host had descheduled) */
	if ((c->holder == LATPROBE_HELD_IRQ || c->holder == LATPROBE_HELD_VECTOR ||
	     c->holder == LATPROBE_HELD_SOFTIRQ || c->holder == LATPROBE_HELD_HRTIMER) &&
	    x->silence_ns >= 100000 && 2 * x->silence_ns >= c->ns && used + 1 < len) {
		us_text(x->silence_ns, t, sizeof(t));
		n = snprintf(buf + used, len - used,
			     "; no event was traced on the CPU for %s of it (in a VM the host may "
			     "not have run the vCPU)",
			     t);
		used = n < 0 ? used : used + (size_t)n < len ? used + (size_t)n : len - 1;
	}
	if (x->idle_state >= 0 && used + 1 < len) {
		n = snprintf(buf + used, len - used,
			     "; the CPU woke from idle state %" PRId32 "%s%s%s", x->idle_state,
			     x->idle_name[0] ? " (" : "", x->idle_name, x->idle_name[0] ? ")" : "");
		used = n < 0 ? used : used + (size_t)n < len ? used + (size_t)n : len - 1;
	}
	if (x->steal_window_ns && x->steal_ns && used + 1 < len) {
		char w[24];

		us_text(x->steal_ns, t, sizeof(t));
		us_text(x->steal_window_ns, w, sizeof(w));
		n = snprintf(
		    buf + used, len - used,
		    "; the hypervisor stole %s of this CPU in the %s around it (/proc/stat "
		    "steal)",
		    t, w);
		used = n < 0 ? used : used + (size_t)n < len ? used + (size_t)n : len - 1;
	}
	if (x->stage_result == LATPROBE_STAGES_OK && !x->match.switch_traced && used + 1 < len)
		snprintf(buf + used, len - used,
			 "; the kernel did not trace the switch to the probe: its sched stage ends "
			 "at the return from clock_nanosleep");
}
