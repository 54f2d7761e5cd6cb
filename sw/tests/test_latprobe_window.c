/*
 * Unit tests of the rolling per-CPU trace windows (sw/probe/latprobe_window.c): time order kept
 * (an older event is inserted in place), lookup by time, trimming, the per-CPU limit dropping
 * the oldest events and counting them, and events of a CPU without a window refused.
 */
#include <errno.h>
#include <stdio.h>

#include "../probe/latprobe_window.h"

#include "check.h"

static struct latprobe_trace_event at(uint64_t ts, uint16_t cpu, int32_t id)
{
	struct latprobe_trace_event e = { .ts = ts, .cpu = cpu, .id = id };

	return e;
}

static bool in_order(const struct latprobe_window *win)
{
	for (size_t i = win->start + 1; i < win->end; i++)
		if (win->ev[i - 1].ts > win->ev[i].ts)
			return false;
	return true;
}

static void test_order_and_lookup(void)
{
	struct latprobe_windows w;
	struct latprobe_trace_event e;

	CHECK(latprobe_windows_init(&w, 2, 1000) == 0);
	for (int i = 0; i < 100; i++) {
		e = at(1000 + 10 * (uint64_t)i, (uint16_t)(i % 2), i);
		CHECK(latprobe_window_push(&w, &e) == 0);
	}
	/* an event older than the last one of its CPU goes in its place */
	e = at(1005, 0, 1000);
	CHECK(latprobe_window_push(&w, &e) == 0);
	CHECK(in_order(&w.cpu[0]) && in_order(&w.cpu[1]));
	CHECK(w.cpu[0].end - w.cpu[0].start == 51 && w.cpu[1].end - w.cpu[1].start == 50);
	CHECK(w.cpu[0].ev[w.cpu[0].start + 1].id == 1000);
	CHECK(latprobe_windows_count(&w) == 101);
	/* the first event at or after a time */
	CHECK(w.cpu[1].ev[latprobe_window_lower(&w.cpu[1], 1011)].ts == 1030);
	CHECK(w.cpu[1].ev[latprobe_window_lower(&w.cpu[1], 1010)].ts == 1010);
	CHECK(latprobe_window_lower(&w.cpu[1], 99999) == w.cpu[1].end);
	/* a CPU without a window */
	e = at(5000, 7, 0);
	CHECK(latprobe_window_push(&w, &e) == EINVAL);
	latprobe_windows_free(&w);
}

static void test_trim(void)
{
	struct latprobe_windows w;
	struct latprobe_trace_event e;

	CHECK(latprobe_windows_init(&w, 1, 1 << 20) == 0);
	for (uint64_t t = 0; t < 20000; t++) {
		e = at(t, 0, (int32_t)t);
		CHECK(latprobe_window_push(&w, &e) == 0);
		if (t % 1000 == 999)
			latprobe_windows_trim(&w, t - 499);
	}
	/* trimmed every 1000 events to the last 500: memory stays bounded */
	CHECK(w.cpu[0].ev[w.cpu[0].start].ts == 19500 && w.cpu[0].end - w.cpu[0].start == 500);
	CHECK(w.cpu[0].cap <= 8192 && w.cpu[0].dropped == 0);
	latprobe_windows_trim(&w, 1u << 30);
	CHECK(latprobe_windows_count(&w) == 0);
	latprobe_windows_free(&w);
}

static void test_limit(void)
{
	struct latprobe_windows w;
	struct latprobe_trace_event e;
	uint64_t kept;

	CHECK(latprobe_windows_init(&w, 1, 800) == 0);
	for (uint64_t t = 0; t < 10000; t++) {
		e = at(t, 0, (int32_t)t);
		CHECK(latprobe_window_push(&w, &e) == 0);
	}
	kept = w.cpu[0].end - w.cpu[0].start;
	/* the newest events stay, the oldest went, and every dropped one is counted */
	CHECK(kept <= 800 && kept >= 700);
	CHECK(w.cpu[0].dropped + kept == 10000);
	CHECK(w.cpu[0].ev[w.cpu[0].end - 1].ts == 9999 && in_order(&w.cpu[0]));
	latprobe_windows_free(&w);
}

int main(void)
{
	test_order_and_lookup();
	test_trim();
	test_limit();
	return check_report("test_latprobe_window");
}
