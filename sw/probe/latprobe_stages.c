/* Stage decomposition; see latprobe_stages.h. */
#include "latprobe_stages.h"

#include <stdlib.h>
#include <string.h>

const char *const latprobe_stage_names[LATPROBE_NSTAGES] = {
	"irq", "handler", "wakeup", "sched", "user",
};

const char *const latprobe_stage_result_names[LATPROBE_STAGES_NRESULTS] = {
	"ok", "no_start", "no_expire", "no_irq", "no_waking", "no_switch", "disorder", "sum",
};

void latprobe_stage_matcher_init(struct latprobe_stage_matcher *m)
{
	memset(m, 0, sizeof(*m));
}

static void note_irq(struct latprobe_stage_matcher *m, const struct latprobe_trace_event *e)
{
	if (e->kind == LATPROBE_EV_IRQ_ENTRY && e->cpu < LATPROBE_TRACE_MAX_CPUS)
		m->last_irq[e->cpu] = e->ts;
}

enum latprobe_stage_result latprobe_stages_match(struct latprobe_stage_matcher *m,
						 const struct latprobe_trace_event *ev, size_t n,
						 pid_t tid, uint64_t expiry, uint64_t user,
						 int64_t latency, int64_t stages[LATPROBE_NSTAGES])
{
	const struct latprobe_trace_event *start = NULL, *expire = NULL, *waking = NULL;
	const struct latprobe_trace_event *sw = NULL;
	uint64_t irq = 0;
	int64_t sum = 0;
	size_t i;

	/* Everything up to the user-space read belongs to this wake-up or an earlier one; the
	 * scan resumes there for the next sample. */
	for (i = m->pos; i < n && ev[i].ts <= user; i++) {
		const struct latprobe_trace_event *e = &ev[i];

		note_irq(m, e);
		switch (e->kind) {
		case LATPROBE_EV_TIMER_START:
			if (e->pid == tid && e->expires == (int64_t)expiry) {
				start = e; /* the latest arming for this expiry counts */
				expire = waking = sw = NULL;
			}
			break;
		case LATPROBE_EV_TIMER_EXPIRE:
			if (start && !expire && e->timer == start->timer) {
				expire = e;
				irq = e->cpu < LATPROBE_TRACE_MAX_CPUS ? m->last_irq[e->cpu] : 0;
			}
			break;
		case LATPROBE_EV_WAKING:
			if (expire && !waking && e->pid == tid)
				waking = e;
			break;
		case LATPROBE_EV_SWITCH:
			if (waking && !sw && e->pid == tid)
				sw = e;
			break;
		default:
			break;
		}
	}
	m->pos = i;
	if (!start)
		return LATPROBE_STAGES_NO_START;
	if (!expire)
		return LATPROBE_STAGES_NO_EXPIRE;
	/* the interrupt must be the one that ran the handler: after the timer was armed */
	if (!irq || irq < start->ts)
		return LATPROBE_STAGES_NO_IRQ;
	if (!waking)
		return LATPROBE_STAGES_NO_WAKING;
	if (!sw)
		return LATPROBE_STAGES_NO_SWITCH;
	stages[LATPROBE_STAGE_IRQ] = (int64_t)(irq - expiry);
	stages[LATPROBE_STAGE_HANDLER] = (int64_t)(expire->ts - irq);
	stages[LATPROBE_STAGE_WAKEUP] = (int64_t)(waking->ts - expire->ts);
	stages[LATPROBE_STAGE_SCHED] = (int64_t)(sw->ts - waking->ts);
	stages[LATPROBE_STAGE_USER] = (int64_t)(user - sw->ts);
	for (int s = 0; s < LATPROBE_NSTAGES; s++) {
		if (s > LATPROBE_STAGE_IRQ && stages[s] < 0)
			return LATPROBE_STAGES_DISORDER;
		sum += stages[s];
	}
	if (sum != latency)
		return LATPROBE_STAGES_SUM;
	return LATPROBE_STAGES_OK;
}

void latprobe_trace_sort(struct latprobe_trace_event *ev, size_t n)
{
	/* stable, so that events of one CPU with the same time keep the order the kernel wrote
	 * them in: a bottom-up merge sort on a copy (qsort is not stable) */
	struct latprobe_trace_event *tmp;
	size_t width;

	if (n < 2)
		return;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp) {
		/* no memory for the copy: an insertion sort is stable and in place */
		for (size_t i = 1; i < n; i++) {
			struct latprobe_trace_event e = ev[i];
			size_t j = i;

			for (; j > 0 && ev[j - 1].ts > e.ts; j--)
				ev[j] = ev[j - 1];
			ev[j] = e;
		}
		return;
	}
	for (width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t a = lo, b = mid, k = lo;

			while (a < mid && b < hi)
				tmp[k++] = ev[b].ts < ev[a].ts ? ev[b++] : ev[a++];
			while (a < mid)
				tmp[k++] = ev[a++];
			while (b < hi)
				tmp[k++] = ev[b++];
		}
		memcpy(ev, tmp, n * sizeof(*ev));
	}
	free(tmp);
}
