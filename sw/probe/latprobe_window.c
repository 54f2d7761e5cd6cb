/* Rolling per-CPU windows of trace events; see latprobe_window.h. */
#include "latprobe_window.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int latprobe_windows_init(struct latprobe_windows *w, unsigned ncpus, size_t limit)
{
	w->ncpus = 0;
	w->cpu = calloc(ncpus ? ncpus : 1, sizeof(*w->cpu));
	if (!w->cpu)
		return ENOMEM;
	w->ncpus = ncpus;
	for (unsigned c = 0; c < ncpus; c++)
		w->cpu[c].limit = limit;
	return 0;
}

void latprobe_windows_free(struct latprobe_windows *w)
{
	for (unsigned c = 0; c < w->ncpus; c++)
		free(w->cpu[c].ev);
	free(w->cpu);
	w->cpu = NULL;
	w->ncpus = 0;
}

/* Room for one more event at the end: grow, move the live events to the front, or, at the limit,
 * drop the oldest eighth (in one go, so that a full window costs one move per many events). */
static int make_room(struct latprobe_window *win)
{
	size_t live = win->end - win->start;

	if (win->end < win->cap)
		return 0;
	if (live >= win->limit) {
		size_t drop = win->limit / 8 ? win->limit / 8 : 1;

		win->start += drop;
		win->dropped += drop;
		live -= drop;
	}
	if (win->start > 0 && (win->start >= live || win->cap >= win->limit)) {
		memmove(win->ev, win->ev + win->start, live * sizeof(*win->ev));
		win->start = 0;
		win->end = live;
		return 0;
	}
	{
		size_t cap = win->cap ? win->cap * 2 : 4096;
		struct latprobe_trace_event *ev;

		if (cap > win->limit)
			cap = win->limit;
		ev = realloc(win->ev, cap * sizeof(*ev));
		if (!ev)
			return ENOMEM;
		win->ev = ev;
		win->cap = cap;
	}
	return 0;
}

int latprobe_window_push(struct latprobe_windows *w, const struct latprobe_trace_event *e)
{
	struct latprobe_window *win;
	size_t at;
	int rc;

	if (e->cpu >= w->ncpus)
		return EINVAL;
	win = &w->cpu[e->cpu];
	if (!win->limit) {
		win->dropped++;
		return 0;
	}
	rc = make_room(win);
	if (rc)
		return rc;
	at = win->end;
	/* the per-CPU buffer is in time order; an older event (rare) is inserted in place */
	while (at > win->start && win->ev[at - 1].ts > e->ts)
		at--;
	if (at < win->end)
		memmove(&win->ev[at + 1], &win->ev[at], (win->end - at) * sizeof(*win->ev));
	win->ev[at] = *e;
	win->end++;
	return 0;
}

size_t latprobe_window_lower(const struct latprobe_window *win, uint64_t ts)
{
	size_t lo = win->start, hi = win->end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (win->ev[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void latprobe_windows_trim(struct latprobe_windows *w, uint64_t ts)
{
	for (unsigned c = 0; c < w->ncpus; c++) {
		struct latprobe_window *win = &w->cpu[c];

		win->start = latprobe_window_lower(win, ts);
		if (win->start == win->end)
			win->start = win->end = 0;
	}
}

size_t latprobe_windows_count(const struct latprobe_windows *w)
{
	size_t n = 0;

	for (unsigned c = 0; c < w->ncpus; c++)
		n += w->cpu[c].end - w->cpu[c].start;
	return n;
}
