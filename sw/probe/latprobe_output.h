/*
 * latprobe output: the latmon-log (docs/latmon-log.md) and the JSON summary.
 */
#ifndef LATPROBE_OUTPUT_H
#define LATPROBE_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "latprobe_measure.h"

struct latprobe_actions;
#include "latprobe_output_trace.h"
#include "latprobe_params.h"

/** What the run as a whole needs to describe itself. */
struct latprobe_run_info {
	const char *cmdline;	   /**< the command line, joined with spaces */
	const char *start_utc;	   /**< ISO 8601 UTC start time */
	const char *host;	   /**< nodename */
	const char *kernel;	   /**< uname release and version */
	int interrupted;	   /**< stopped by SIGINT/SIGTERM */
	uint64_t elapsed_ns;	   /**< from start to the end of the measurement */
	uint64_t t0_mono_ns;	   /**< CLOCK_MONOTONIC time of t = 0 (the trace clock "mono") */
	int dma_latency_us;	   /**< held at this value while measuring, -1: untouched */
	const char *dma_note;	   /**< why it was left untouched ("" when held) */
	bool stages;		   /**< --stages: the threads' stages are filled in */
	uint64_t trace_events;	   /**< trace events decoded and kept */
	uint64_t trace_lost_pages; /**< trace pages that said events were lost */
	uint64_t trace_overrun;	   /**< trace events the kernel overwrote or dropped */
	uint64_t trace_window_dropped; /**< events dropped from a full window (memory limit) */
	uint64_t trace_bad_pages;      /**< trace pages that could not be parsed */
	const char *trace_irq_event;   /**< the timer interrupt's entry event used */
	const char *trace_used;	       /**< tracepoints in use, comma-separated */
	const char *trace_missing;     /**< tracepoints this kernel lacks, comma-separated */
	bool broke;		       /**< --break: a sample crossed the threshold */
	unsigned break_cpu;
	uint64_t break_t, break_latency, break_threshold;
	const char *break_trace; /**< where the trace was kept, NULL if it could not be */
	size_t idle_disabled;	 /**< --deepest-idle-state: idle-state switches turned off */
	const struct latprobe_actions *actions; /**< --threshold: what happened, or NULL */
};

/**
 * Write the latmon-log of the run to @p out.
 * @return 0, or an errno value (EIO when writing failed).
 */
int latprobe_write_log(FILE *out, const struct latprobe_params *params,
		       const struct latprobe_run_info *info, struct latprobe_thread *threads,
		       unsigned nthreads);

/**
 * Write the JSON summary to @p out (sorts each thread's kept samples).
 * @return 0, or an errno value.
 */
int latprobe_write_json(FILE *out, const struct latprobe_params *params,
			const struct latprobe_run_info *info, struct latprobe_thread *threads,
			unsigned nthreads);

/**
 * A short human summary per CPU on @p out, at the end of the run: its percentiles are the
 * exact ones of the samples (as the latmon-log holds them and `latmon stats` prints them) when
 * every wake-up was kept, else the histogram's bin edges, and it says which (sorts each
 * thread's kept latencies).
 */
void latprobe_write_summary(FILE *out, struct latprobe_thread *threads, unsigned nthreads);

/**
 * SIGUSR2: the statistics so far, while the threads measure (their counters are read as they
 * run, so a CPU's figures may be a wake-up apart); percentiles are histogram bin edges.
 * @param elapsed_ns since the start of the run.
 */
void latprobe_write_snapshot(FILE *out, const struct latprobe_thread *threads, unsigned nthreads,
			     uint64_t elapsed_ns);

#endif /* LATPROBE_OUTPUT_H */
