/* Following the samples while the probe runs; see latprobe_tracker.h. */
#include "latprobe_tracker.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How far before a wake-up's expiry its events may begin: the thread arms the timer at most one
 * interval before the expiry; this much more is kept for safety. */
#define HORIZON_MARGIN_NS 2000000ull
/* The first sample's timer is armed when the thread starts, before the run's start. */
#define START_MARGIN_NS 100000000ull

struct latprobe_tracker_cpu {
	uint64_t done;			    /**< samples processed */
	struct latprobe_explanation *worst; /**< min-heap by latency, explain_worst entries */
	unsigned nworst;
	struct latprobe_explanation *over; /**< above --explain, in time order */
	unsigned nover;
};

int latprobe_tracker_init(struct latprobe_tracker *tk, const struct latprobe_params *params,
			  struct latprobe_thread *threads, unsigned nthreads,
			  struct latprobe_trace *trace)
{
	memset(tk, 0, sizeof(*tk));
	tk->params = params;
	tk->threads = threads;
	tk->nthreads = nthreads;
	tk->trace = trace;
	tk->probe_prio =
	    (int16_t)(params->policy == LATPROBE_POLICY_OTHER	   ? 120
		      : params->policy == LATPROBE_POLICY_DEADLINE ? -1 /* the kernel's prio */
								   : 99 - params->priority);
	tk->cpu = calloc(nthreads ? nthreads : 1, sizeof(*tk->cpu));
	tk->steal_ns =
	    calloc((nthreads ? nthreads : 1) * (size_t)LATPROBE_STEAL_RING, sizeof(*tk->steal_ns));
	if (!tk->cpu || !tk->steal_ns)
		return ENOMEM;
	for (unsigned i = 0; i < nthreads; i++) {
		struct latprobe_thread *th = &threads[i];
		size_t n = th->capacity ? (size_t)th->capacity : 1;

		th->stages = calloc(n, LATPROBE_NSTAGES * sizeof(*th->stages));
		th->stage_result = calloc(n, 1);
		th->switch_traced = calloc(n, 1);
		tk->cpu[i].worst = calloc(params->explain_worst ? params->explain_worst : 1,
					  sizeof(*tk->cpu[i].worst));
		tk->cpu[i].over = params->explain_ns
				      ? calloc(params->explain_max, sizeof(*tk->cpu[i].over))
				      : NULL;
		if (!th->stages || !th->stage_result || !th->switch_traced || !tk->cpu[i].worst ||
		    (params->explain_ns && !tk->cpu[i].over))
			return ENOMEM;
	}
	return 0;
}

/* Sift the heap's root down (min-heap by latency). */
static void heap_down(struct latprobe_explanation *h, unsigned n, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, m = i;
		struct latprobe_explanation tmp;

		if (l < n && h[l].latency < h[m].latency)
			m = l;
		if (r < n && h[r].latency < h[m].latency)
			m = r;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

static void heap_up(struct latprobe_explanation *h, unsigned i)
{
	while (i > 0) {
		unsigned p = (i - 1) / 2;
		struct latprobe_explanation tmp;

		if (h[p].latency <= h[i].latency)
			return;
		tmp = h[i];
		h[i] = h[p];
		h[p] = tmp;
		i = p;
	}
}

enum slot_kind { SLOT_NONE, SLOT_OVER, SLOT_HEAP_APPEND, SLOT_HEAP_ROOT };

/* Where an explanation of this sample goes, if it is a spike to explain. */
static enum slot_kind spike_slot(struct latprobe_tracker *tk, unsigned i, int64_t latency,
				 struct latprobe_explanation **x)
{
	const struct latprobe_params *p = tk->params;
	struct latprobe_tracker_cpu *c = &tk->cpu[i];

	if (p->explain_ns && latency > (int64_t)p->explain_ns) {
		tk->threads[i].spikes_above++;
		if (c->nover < p->explain_max) {
			*x = &c->over[c->nover++];
			return SLOT_OVER;
		}
	}
	if (!p->explain_worst)
		return SLOT_NONE;
	if (c->nworst < p->explain_worst) {
		*x = &c->worst[c->nworst++];
		return SLOT_HEAP_APPEND;
	}
	if (latency > c->worst[0].latency) {
		*x = &c->worst[0];
		return SLOT_HEAP_ROOT;
	}
	return SLOT_NONE;
}

static void steal_around(const struct latprobe_tracker *tk, unsigned i, uint64_t from, uint64_t to,
			 struct latprobe_explanation *x);

/* The cpuidle name of the state the spike's CPU woke from ("" when sysfs has none). */
static void name_idle_state(struct latprobe_explanation *x)
{
	char path[128];
	FILE *f;

	if (x->idle_state < 0)
		return;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpuidle/state%" PRId32 "/name",
		 x->cpu, x->idle_state);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(x->idle_name, sizeof(x->idle_name), f))
		x->idle_name[strcspn(x->idle_name, "\n")] = '\0';
	else
		x->idle_name[0] = '\0';
	fclose(f);
}

static void process(struct latprobe_tracker *tk, unsigned i, uint64_t k)
{
	struct latprobe_thread *th = &tk->threads[i];
	struct latprobe_tracker_cpu *c = &tk->cpu[i];
	const struct latprobe_windows *w = &tk->trace->windows;
	uint64_t expiry = th->start_ns + (uint64_t)th->t[k];
	uint64_t user = expiry + (uint64_t)th->latency[k];
	pid_t tid = atomic_load(&th->tid);
	struct latprobe_stage_match m;
	enum latprobe_stage_result r;
	struct latprobe_explanation *x = NULL;
	enum slot_kind slot;

	r = latprobe_stages_find(w, tid, th->cpu, expiry, user, th->latency[k], &m);
	th->stage_result[k] = (uint8_t)r;
	th->stage_counts[r]++;
	if (r == LATPROBE_STAGES_OK) {
		memcpy(&th->stages[k * LATPROBE_NSTAGES], m.stages, sizeof(m.stages));
		th->switch_traced[k] = m.switch_traced;
		if (!m.switch_traced) {
			/* was the CPU idle before the probe ran? the last event before the
			 * thread's own ones says who was current */
			const struct latprobe_window *win = &w->cpu[th->cpu];
			size_t at = latprobe_window_lower(win, m.switch_ts);

			th->switch_untraced++;
			while (at > win->start && win->ev[at - 1].ts >= m.waking_ts &&
			       win->ev[at - 1].ctx == tid)
				at--;
			if (at > win->start && win->ev[at - 1].ctx == 0)
				th->switch_untraced_idle++;
		}
	}
	slot = spike_slot(tk, i, th->latency[k], &x);
	if (slot == SLOT_NONE)
		return;
	latprobe_explain(w, &tk->trace->names, tid, tk->probe_prio, th->cpu, expiry, user, r, &m,
			 x);
	steal_around(tk, i, expiry, user, x);
	x->t = th->t[k];
	if (slot == SLOT_HEAP_APPEND)
		heap_up(c->worst, c->nworst - 1);
	else if (slot == SLOT_HEAP_ROOT)
		heap_down(c->worst, c->nworst, 0);
}

void latprobe_tracker_step(struct latprobe_tracker *tk, uint64_t upto)
{
	for (unsigned i = 0; i < tk->nthreads; i++) {
		struct latprobe_thread *th = &tk->threads[i];
		struct latprobe_tracker_cpu *c = &tk->cpu[i];
		uint64_t published = atomic_load_explicit(&th->published, memory_order_acquire);

		if (!atomic_load(&th->tid))
			continue;
		while (c->done < published) {
			uint64_t k = c->done;
			uint64_t user =
			    th->start_ns + (uint64_t)th->t[k] + (uint64_t)th->latency[k];

			if (user >= upto)
				break;
			process(tk, i, k);
			c->done++;
		}
	}
}

uint64_t latprobe_tracker_horizon(const struct latprobe_tracker *tk)
{
	uint64_t oldest = UINT64_MAX;

	for (unsigned i = 0; i < tk->nthreads; i++) {
		const struct latprobe_thread *th = &tk->threads[i];
		const struct latprobe_tracker_cpu *c = &tk->cpu[i];
		uint64_t interval = tk->params->interval_ns, need;

		if (atomic_load(&th->finished) &&
		    c->done == atomic_load_explicit(&th->published, memory_order_acquire))
			continue; /* it stopped, all of it processed: it needs nothing more */
		if (c->done == 0) {
			need = th->start_ns > START_MARGIN_NS ? th->start_ns - START_MARGIN_NS : 0;
		} else {
			/* the next wake-up was armed after the last processed one's expiry */
			uint64_t last = th->start_ns + (uint64_t)th->t[c->done - 1];

			need = last + interval;
			need = need > interval + HORIZON_MARGIN_NS
				   ? need - interval - HORIZON_MARGIN_NS
				   : 0;
		}
		if (need < oldest)
			oldest = need;
	}
	return oldest == UINT64_MAX ? 0 : oldest;
}

static int by_latency_desc(const void *a, const void *b)
{
	const struct latprobe_explanation *x = a, *y = b;

	if (x->latency != y->latency)
		return x->latency < y->latency ? 1 : -1;
	return x->t < y->t ? -1 : x->t > y->t;
}

int latprobe_tracker_finish(struct latprobe_tracker *tk)
{
	bool symbols = false, loaded = false;

	for (unsigned i = 0; i < tk->nthreads; i++) {
		struct latprobe_thread *th = &tk->threads[i];
		struct latprobe_tracker_cpu *c = &tk->cpu[i];
		unsigned n = 0;

		free(th->spikes);
		th->spikes = calloc(c->nworst + c->nover + 1, sizeof(*th->spikes));
		if (!th->spikes)
			return ENOMEM;
		/* the sets do not overlap: a sample goes to one of them */
		for (unsigned k = 0; k < c->nover; k++)
			th->spikes[n++] = c->over[k];
		for (unsigned k = 0; k < c->nworst; k++)
			th->spikes[n++] = c->worst[k];
		qsort(th->spikes, n, sizeof(*th->spikes), by_latency_desc);
		th->nspikes = n;
		for (unsigned k = 0; k < n; k++) {
			name_idle_state(&th->spikes[k]);
			for (unsigned j = 0; j < th->spikes[k].ncontrib; j++)
				symbols |= th->spikes[k].contrib[j].holder == LATPROBE_HELD_HRTIMER;
		}
	}
	if (symbols)
		loaded = latprobe_names_kallsyms(&tk->trace->names, "/proc/kallsyms") == 0;
	for (unsigned i = 0; loaded && i < tk->nthreads; i++)
		for (unsigned k = 0; k < tk->threads[i].nspikes; k++)
			latprobe_explain_name_symbols(&tk->threads[i].spikes[k], &tk->trace->names);
	return 0;
}

void latprobe_tracker_free(struct latprobe_tracker *tk)
{
	if (tk->cpu) {
		for (unsigned i = 0; i < tk->nthreads; i++) {
			free(tk->cpu[i].worst);
			free(tk->cpu[i].over);
		}
	}
	free(tk->cpu);
	tk->cpu = NULL;
	free(tk->steal_ns);
	tk->steal_ns = NULL;
}

void latprobe_tracker_note_steal(struct latprobe_tracker *tk, uint64_t now, const uint64_t *ns)
{
	unsigned slot = (unsigned)(tk->steal_n % LATPROBE_STEAL_RING);

	tk->steal_ts[slot] = now;
	for (unsigned i = 0; i < tk->nthreads; i++)
		tk->steal_ns[(size_t)i * LATPROBE_STEAL_RING + slot] = ns[i];
	tk->steal_n++;
}

/* The steal of thread i's CPU between the last reading at or before @p from and the first at or
 * after @p to, when the ring still holds both. */
static void steal_around(const struct latprobe_tracker *tk, unsigned i, uint64_t from, uint64_t to,
			 struct latprobe_explanation *x)
{
	uint64_t kept = tk->steal_n < LATPROBE_STEAL_RING ? tk->steal_n : LATPROBE_STEAL_RING;
	int64_t a = -1, b = -1;

	for (uint64_t k = tk->steal_n - kept; k < tk->steal_n; k++) {
		unsigned slot = (unsigned)(k % LATPROBE_STEAL_RING);

		if (tk->steal_ts[slot] <= from)
			a = slot;
		if (tk->steal_ts[slot] >= to && b < 0)
			b = slot;
	}
	if (a < 0 || b < 0)
		return;
	{
		const uint64_t *v = &tk->steal_ns[(size_t)i * LATPROBE_STEAL_RING];

		x->steal_ns = v[b] >= v[a] ? v[b] - v[a] : 0;
		x->steal_window_ns = tk->steal_ts[b] - tk->steal_ts[a];
	}
}
