/*
 * Unit tests of the tracker (sw/probe/latprobe_tracker.c) on a synthetic trace: samples are
 * processed only once their clock read lies before the drain and only as far as published, every
 * sample gets its stage result, the worst N of a CPU are explained (a later, worse sample displaces
 * the least bad), every sample above --explain is explained up to --explain-max and all are
 * counted, the sets do not overlap, and the horizon follows the last processed expiry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../probe/latprobe_tracker.h"

#include "check.h"

#define TID    700
#define TIMER  0xffffc90001123ab8ull
#define START  1000000000ull
#define PERIOD 1000000ull
#define N      20

static struct latprobe_trace trace;
static struct latprobe_params params;
static struct latprobe_thread thread;
static int64_t t_mem[N], lat_mem[N];

static void push(uint64_t ts, enum latprobe_trace_kind kind, int32_t pid, int32_t ctx)
{
	struct latprobe_trace_event e = { .ts = ts, .pid = pid, .ctx = ctx, .cpu = 1 };

	e.kind = (uint8_t)kind;
	e.timer = TIMER;
	if (kind == LATPROBE_EV_TIMER_START)
		e.expires = (int64_t)(ts + 500000);
	CHECK(latprobe_window_push(&trace.windows, &e) == 0);
}

/* Sample k: expiry E = START + (k+1) * PERIOD, armed 500 us before, latency given (the thread
 * switched in 1 us before its clock read). */
static void sample(unsigned k, int64_t latency)
{
	uint64_t e = START + (k + 1) * PERIOD;

	push(e - 500000, LATPROBE_EV_TIMER_START, TID, TID);
	push(e + 1000, LATPROBE_EV_IRQ_ENTRY, 0, 900);
	push(e + 1200, LATPROBE_EV_TIMER_EXPIRE, 0, 900);
	push(e + 1300, LATPROBE_EV_WAKING, TID, 900);
	push(e + (uint64_t)latency - 1000, LATPROBE_EV_SWITCH, TID, 900);
	t_mem[k] = (int64_t)((k + 1) * PERIOD);
	lat_mem[k] = latency;
}

static void setup(uint64_t worst, uint64_t explain_ns, uint64_t explain_max)
{
	memset(&trace, 0, sizeof(trace));
	latprobe_names_init(&trace.names);
	CHECK(latprobe_windows_init(&trace.windows, 2, 1 << 16) == 0);
	latprobe_params_defaults(&params);
	params.priority = 95;
	params.max_samples = N;
	params.explain_worst = worst;
	params.explain_ns = explain_ns;
	params.explain_max = explain_max;
	memset(&thread, 0, sizeof(thread));
	thread.params = &params;
	thread.cpu = 1;
	thread.start_ns = START;
	thread.t = t_mem;
	thread.latency = lat_mem;
	thread.capacity = N;
	atomic_store(&thread.tid, TID);
}

static void teardown(struct latprobe_tracker *tk)
{
	latprobe_tracker_free(tk);
	latprobe_thread_free(&thread);
	latprobe_windows_free(&trace.windows);
}

/* Publish samples [0, n) as the thread would. */
static void publish(uint64_t n)
{
	thread.nsamples = n;
	atomic_store(&thread.published, n);
}

static void test_worst_and_above(void)
{
	static const int64_t latency[N] = { 20000, 25000, 900000, 30000, 21000,	 22000,	 700000,
					    23000, 24000, 26000,  27000, 28000,	 800000, 29000,
					    31000, 32000, 33000,  34000, 600000, 35000 };
	struct latprobe_tracker tk;

	setup(3, 650000, 2);
	CHECK(latprobe_tracker_init(&tk, &params, &thread, 1, &trace) == 0);
	for (unsigned k = 0; k < N; k++)
		sample(k, latency[k]);
	/* published but not yet read out of the buffers: the drain was before their clock read */
	publish(10);
	latprobe_tracker_step(&tk, START + 4 * PERIOD);
	CHECK(thread.stage_counts[LATPROBE_STAGES_OK] == 3); /* samples 0..2 read before it */
	/* the horizon: the next expiry is armed after the last processed one's, minus a margin */
	CHECK(latprobe_tracker_horizon(&tk) == START + 3 * PERIOD - 2000000);
	latprobe_tracker_step(&tk, UINT64_MAX);
	CHECK(thread.stage_counts[LATPROBE_STAGES_OK] == 10); /* only as far as published */
	publish(N);
	latprobe_tracker_step(&tk, UINT64_MAX);
	CHECK(thread.stage_counts[LATPROBE_STAGES_OK] == N);
	/* a thread that stopped and whose samples are all processed holds nothing back */
	atomic_store(&thread.finished, true);
	CHECK(latprobe_tracker_horizon(&tk) == 0); /* no thread needs anything: 0 keeps all */
	for (unsigned k = 0; k < N; k++)
		CHECK(thread.stages[k * LATPROBE_NSTAGES + LATPROBE_STAGE_SCHED] ==
		      latency[k] - 1000 - 1300);
	CHECK(latprobe_tracker_finish(&tk) == 0);
	/* above 650 us: 900, 700, 800 us (the first two kept: --explain-max 2), counted all;
	 * of the rest the worst 3: 800 (not kept above), 600 and 35 us */
	CHECK(thread.spikes_above == 3);
	CHECK(thread.nspikes == 5);
	{
		static const int64_t expected[5] = { 900000, 800000, 700000, 600000, 35000 };

		for (unsigned k = 0; k < thread.nspikes && k < 5; k++) {
			CHECK(thread.spikes[k].latency == expected[k]);
			CHECK(thread.spikes[k].stage_result == LATPROBE_STAGES_OK);
			/* its t is the sample's */
			for (unsigned j = 0; j < N; j++)
				if (latency[j] == expected[k])
					CHECK(thread.spikes[k].t == t_mem[j]);
		}
	}
	teardown(&tk);
}

static void test_worst_only(void)
{
	struct latprobe_tracker tk;

	setup(2, 0, 100);
	CHECK(latprobe_tracker_init(&tk, &params, &thread, 1, &trace) == 0);
	for (unsigned k = 0; k < N; k++)
		sample(k, 20000 + 1000 * (int64_t)((k * 7) % N));
	publish(N);
	latprobe_tracker_step(&tk, UINT64_MAX);
	CHECK(latprobe_tracker_finish(&tk) == 0);
	CHECK(thread.nspikes == 2 && thread.spikes_above == 0);
	CHECK(thread.spikes[0].latency == 20000 + 1000 * (N - 1));
	CHECK(thread.spikes[1].latency == 20000 + 1000 * (N - 2));
	/* the explanation's t is the sample's */
	for (unsigned k = 0; k < N; k++)
		if (lat_mem[k] == thread.spikes[0].latency)
			CHECK(thread.spikes[0].t == t_mem[k]);
	teardown(&tk);
}

static void test_nothing_to_explain(void)
{
	struct latprobe_tracker tk;

	setup(0, 0, 100);
	CHECK(latprobe_tracker_init(&tk, &params, &thread, 1, &trace) == 0);
	sample(0, 20000);
	/* the switch went untraced: the syscall exit stands in */
	trace.windows.cpu[1].end--;
	push(START + PERIOD + 19000, LATPROBE_EV_SYSCALL_EXIT, TID, TID);
	publish(1);
	CHECK(latprobe_tracker_horizon(&tk) == START - 100000000ull);
	latprobe_tracker_step(&tk, UINT64_MAX);
	CHECK(latprobe_tracker_finish(&tk) == 0);
	CHECK(thread.nspikes == 0);
	CHECK(thread.stage_counts[LATPROBE_STAGES_OK] == 1 && thread.switch_untraced == 1);
	/* the CPU ran task 900 before, not the idle task */
	CHECK(thread.switch_untraced_idle == 0 && thread.switch_traced[0] == 0);
	teardown(&tk);
}

int main(void)
{
	test_worst_and_above();
	test_worst_only();
	test_nothing_to_explain();
	return check_report("test_latprobe_tracker");
}
