/*
 * Unit tests of the trace output (sw/probe/latprobe_output_trace.c): JSON strings escaped (quotes,
 * backslashes, control characters), and the latmon-log records of one CPU with two decomposed
 * wake-ups and one explained spike: the stage series with its counters, the spike series with
 * its explanation in the C record (names escaped) and one row per contributor.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../probe/latprobe_output_trace.h"

#include "check.h"

static char out[16384];
static size_t used;

static int sink(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	if (used + len >= sizeof(out))
		return 28; /* ENOSPC */
	memcpy(out + used, data, len);
	used += len;
	out[used] = '\0';
	return 0;
}

static void test_json_strings(void)
{
	char buf[128] = { 0 };
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	CHECK(f != NULL);
	if (!f)
		return;
	latprobe_json_string(f, "a\"b\\c\n\x01 rt 99");
	fclose(f);
	CHECK(!strcmp(buf, "\"a\\\"b\\\\c\\u000a\\u0001 rt 99\""));
}

static void test_series(void)
{
	static struct latprobe_params params;
	static struct latprobe_thread th;
	static alignas(max_align_t) unsigned char mem[65536];
	struct latmon_log_writer *w;
	struct latmon_log_kv header[] = { { "source", "latprobe" }, { "unit", "ns" } };
	struct latprobe_explanation *x;
	int64_t t[2] = { 1000000, 2000000 }, latency[2] = { 12000, 802000 };
	int64_t stages[2 * LATPROBE_NSTAGES] = { 3000, 1000, 500, 6000,	  1500,
						 2000, 1000, 500, 796500, 2000 };
	uint8_t result[2] = { LATPROBE_STAGES_OK, LATPROBE_STAGES_OK }, traced[2] = { 1, 0 };

	latprobe_params_defaults(&params);
	th.params = &params;
	th.cpu = 1;
	th.t = t;
	th.latency = latency;
	th.nsamples = 2;
	th.stages = stages;
	th.stage_result = result;
	th.switch_traced = traced;
	th.stage_counts[LATPROBE_STAGES_OK] = 2;
	th.stage_counts[LATPROBE_STAGES_ARMED_LATE] = 1;
	th.switch_untraced = 1;
	th.spikes_above = 4;
	th.nspikes = 1;
	th.spikes = x = calloc(1, sizeof(*x));
	CHECK(x != NULL);
	if (!x)
		return;
	x->cpu = 1;
	x->t = 2000000;
	x->latency = 802000;
	x->cause = LATPROBE_CAUSE_PREEMPTED;
	x->stage_result = LATPROBE_STAGES_OK;
	memcpy(x->match.stages, &stages[LATPROBE_NSTAGES], sizeof(x->match.stages));
	x->running_at_expiry = 900;
	x->ncontrib = 2;
	x->contrib[0] = (struct latprobe_contribution){ .ns = 796000,
							.first = 4000,
							.key = 900,
							.prio = 0,
							.stage = LATPROBE_STAGE_SCHED,
							.holder = LATPROBE_HELD_TASK,
							.name = "my busy" };
	x->contrib[1] = (struct latprobe_contribution){ .ns = 6000,
							.first = 800000,
							.key = 700,
							.prio = INT16_MIN,
							.stage = LATPROBE_STAGE_USER,
							.holder = LATPROBE_HELD_PROBE,
							.name = "latprobe" };
	x->nevents = 9;
	x->silence_ns = 796000;
	/* the CPU was in idle state 1 at the expiry; the hypervisor stole 20 ms around it */
	x->idle_state = 1;
	snprintf(x->idle_name, sizeof(x->idle_name), "haltpoll idle");
	x->steal_ns = 20000000;
	x->steal_window_ns = 200000000;

	CHECK(latprobe_trace_series_count(&th, 1) == 4);
	CHECK(latmon_log_writer_init(&w, mem, sizeof(mem), 5, sink, NULL) == 0);
	CHECK(latmon_log_begin(w, header, 2) == 0);
	CHECK(latmon_log_series(w, 0, "cpu1", "t,latency", NULL, 0) == 0);
	CHECK(latprobe_write_trace_series(w, 1, &th, 1) == 0);
	CHECK(latmon_log_end(w) == 0);
	CHECK(strstr(out, "C 1 name=cpu1.stages fields=t,latency,stage_irq,stage_handler,"
			  "stage_wakeup,stage_sched,stage_user,switch_traced kind=stages of=cpu1 "
			  "cpu=1 *") != NULL);
	CHECK(strstr(out, "\nS 1 0 1000000 12000 3000 1000 500 6000 1500 1 *") != NULL);
	CHECK(strstr(out, "\nS 1 1 2000000 802000 2000 1000 500 796500 2000 0 *") != NULL);
	CHECK(strstr(out, "\nX 1 matched=2 no_start=0 no_expire=0 no_irq=0 no_waking=0 "
			  "no_switch=0 disorder=0 sum=0 armed_late=1 switch_untraced=1 "
			  "switch_untraced_idle=0 *") != NULL);
	CHECK(strstr(out, "\nX 1 spikes_above=4 *") != NULL);
	/* IRQ latency (irq + handler) and thread latency (irq .. sched) of each decomposed
	 * sample, as series of their own */
	CHECK(strstr(out, "C 2 name=cpu1.irq fields=t,latency kind=irq of=cpu1 cpu=1") != NULL);
	CHECK(strstr(out, "\nS 2 0 1000000 4000 *") != NULL);
	CHECK(strstr(out, "\nS 2 1 2000000 3000 *") != NULL);
	CHECK(strstr(out, "\nX 2 events=2 min=3000 max=4000 *") != NULL);
	CHECK(strstr(out, "C 3 name=cpu1.thread fields=t,latency kind=thread of=cpu1 cpu=1") !=
	      NULL);
	CHECK(strstr(out, "\nS 3 0 1000000 10500 *") != NULL);
	CHECK(strstr(out, "\nS 3 1 2000000 800000 *") != NULL);
	/* the explanation: names with spaces escaped, the stages, the rows */
	CHECK(strstr(out,
		     "C 4 name=cpu1.spike.1 fields=latency,stage,holder,id,prio,first "
		     "kind=spike of=cpu1 cpu=1 rank=1 t=2000000 latency=802000 "
		     "cause=preempted class=scheduler why=802.0\\x20us\\x20late:\\x20my\\x20busy"
		     "\\x20(pid\\x20900,\\x20rt\\x2099)\\x20held") != NULL);
	CHECK(strstr(out, " stage_result=ok stage_irq=2000 stage_handler=1000 stage_wakeup=500 "
			  "stage_sched=796500 stage_user=2000 switch_traced=0 running=900 "
			  "idle_state=1 steal_ns=20000000 steal_window_ns=200000000 "
			  "who0=my\\x20busy who1=latprobe *") != NULL);
	CHECK(strstr(out, "the\\x20CPU\\x20woke\\x20from\\x20idle\\x20state\\x201\\x20(haltpoll"
			  "\\x20idle)") != NULL);
	CHECK(strstr(out, "the\\x20hypervisor\\x20stole\\x2020000.0\\x20us\\x20of\\x20this"
			  "\\x20CPU\\x20in\\x20the\\x20200000.0\\x20us\\x20around\\x20it") != NULL);
	CHECK(strstr(out, "\nS 4 0 796000 3 2 900 0 4000 *") != NULL);
	CHECK(strstr(out, "\nS 4 1 6000 4 0 700 -32768 800000 *") != NULL);
	CHECK(strstr(out, "\nX 4 other_ns=0 events=9 silence_ns=796000 *") != NULL);
	free(x);
}

int main(void)
{
	test_json_strings();
	test_series();
	return check_report("test_latprobe_output_trace");
}
