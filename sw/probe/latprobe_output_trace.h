/*
 * What tracing adds to latprobe's output (docs/latprobe.md, "Output"): per CPU the stage series
 * `cpuN.stages` with its coverage counters, one series `cpuN.spike.K` per explained spike (the
 * explanation in its C record, one row per contributor), the same in the JSON summary, and the
 * coverage and worst spike of each CPU on standard error.
 */
#ifndef LATPROBE_OUTPUT_TRACE_H
#define LATPROBE_OUTPUT_TRACE_H

#include <stdio.h>

#include "latmon/latmon_log.h"
#include "latprobe_measure.h"

/** The parts of the latency rtla timerlat reports apart, from the stages. */
enum latprobe_component {
	LATPROBE_COMPONENT_IRQ,	   /**< expiry → the probe timer's handler (irq + handler) */
	LATPROBE_COMPONENT_THREAD, /**< expiry → the switch to the probe (irq .. sched) */
	LATPROBE_NCOMPONENTS
};

/**
 * The component @p c of every decomposed sample of @p th, in sample order, into @p v (and their
 * times into @p t unless NULL); both hold th->nsamples values. @return how many.
 */
uint64_t latprobe_component_values(const struct latprobe_thread *th, enum latprobe_component c,
				   int64_t *t, int64_t *v);

/**
 * Write one IRQ or thread series "cpuN.<kind>" (fields t,latency; meta kind, of, cpu and from:
 * @p source, "stages" or "timerlat") with its counters events, min, max, as series @p id.
 * @return 0, or the writer's error.
 */
int latprobe_write_component_values(struct latmon_log_writer *w, unsigned id, unsigned cpu,
				    const char *kind, const char *source, const int64_t *t,
				    const int64_t *v, uint64_t n);

/** Series the trace output declares after the nthreads cpuN series. */
unsigned latprobe_trace_series_count(const struct latprobe_thread *threads, unsigned nthreads);

/**
 * Declare and write the stage and spike series, starting at series id @p first_id.
 * @return 0, or the writer's error.
 */
int latprobe_write_trace_series(struct latmon_log_writer *w, unsigned first_id,
				const struct latprobe_thread *threads, unsigned nthreads);

/** The stages and spikes of one thread as JSON members (", \"stages\": {...}, ..."). */
void latprobe_write_trace_json(FILE *out, const struct latprobe_thread *th);

/** Write @p text as a JSON string (quoted, escaped). */
void latprobe_json_string(FILE *out, const char *text);

/** Coverage and the worst explained spike of each thread, one line each, on @p out. */
void latprobe_write_trace_summary(FILE *out, const struct latprobe_thread *threads,
				  unsigned nthreads);

#endif /* LATPROBE_OUTPUT_TRACE_H */
