/*
 * latprobe settings: the params struct every part reads, and the parser that fills it from the
 * command line. Parsing is pure (no system calls) so that it is unit-tested.
 */
#ifndef LATPROBE_PARAMS_H
#define LATPROBE_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "latmon/latmon_expo.h"
#include "latmon/latmon_meter.h"

/** Most CPUs latprobe measures at once. */
#define LATPROBE_MAX_CPUS 1024

/** --dma-latency not given: hold 0 when root (as cyclictest does), else leave it untouched. */
#define LATPROBE_DMA_DEFAULT (-2)
/** --dma-latency none: leave /dev/cpu_dma_latency untouched. */
#define LATPROBE_DMA_NONE (-1)

enum latprobe_policy {
	LATPROBE_POLICY_FIFO,
	LATPROBE_POLICY_RR,
	LATPROBE_POLICY_OTHER,
	LATPROBE_POLICY_DEADLINE, /**< SCHED_DEADLINE (sched_setattr), runtime/deadline/period */
};

/** --deepest-idle-state not given: the idle states are left alone. */
#define LATPROBE_IDLE_UNTOUCHED (-1)

/** What --on-threshold does (a bit each). */
enum latprobe_action {
	LATPROBE_ACTION_TRACE = 1,  /**< save the kernel's trace of the moment */
	LATPROBE_ACTION_SIGNAL = 2, /**< send a signal to a process */
	LATPROBE_ACTION_SHELL = 4,  /**< run a shell command */
};

struct latprobe_params {
	/* what to measure */
	uint64_t interval_ns; /**< period of the wake-ups */
	uint64_t duration_ns; /**< stop after this long; 0: no limit */
	uint64_t count;	      /**< stop after this many wake-ups per CPU; 0: no limit */
	unsigned cpus[LATPROBE_MAX_CPUS];
	unsigned ncpus; /**< 0: every online CPU (filled in by main) */
	/* how */
	enum latprobe_policy policy;
	int priority; /**< SCHED_FIFO/RR priority 1..99; 0 for OTHER and DEADLINE */
	uint64_t dl_runtime_ns, dl_deadline_ns, dl_period_ns; /**< --policy deadline:R[:D]:P */
	int clock;	    /**< clockid_t of the timers: CLOCK_MONOTONIC or CLOCK_REALTIME */
	bool relative;	    /**< relative sleeps (each from the previous wake-up), not a grid */
	bool posix_timers;  /**< POSIX interval timers (timer_create + signal), not nanosleep */
	uint64_t warmup_ns; /**< wake-ups in the first warmup_ns are measured but not kept */
	unsigned hk_cpus[LATPROBE_MAX_CPUS]; /**< --housekeeping: CPUs of latprobe's own threads */
	unsigned nhk_cpus;		     /**< 0: not given */
	int deepest_idle; /**< deepest idle state allowed on measured CPUs, or IDLE_UNTOUCHED */
	bool mlock;	  /**< mlockall(MCL_CURRENT | MCL_FUTURE) */
	bool aligned; /**< every CPU wakes at the same instants (else their phases are spread) */
	int dma_latency_us; /**< hold /dev/cpu_dma_latency at this value, or LATPROBE_DMA_* */
	bool stages;	    /**< trace the run: stages of every sample, spikes explained (root) */
	bool timerlat;	    /**< the kernel's timerlat tracer measures (latprobe_timerlat.h) */
	uint64_t trace_buffer_kb; /**< per-CPU trace buffer size for --stages and --timerlat */
	uint64_t explain_ns;	  /**< explain every sample above this (0: none) */
	uint64_t explain_worst;	  /**< explain the worst N samples of each CPU (with tracing) */
	uint64_t explain_max;	  /**< at most this many samples above explain_ns per CPU */
	uint64_t break_ns; /**< stop at the first sample above this, keep the trace (0: off) */
	const char *break_trace;  /**< where the trace of a --break goes */
	uint64_t threshold_ns;	  /**< --threshold: act on samples above it (0: off) */
	unsigned actions;	  /**< enum latprobe_action bits */
	const char *action_trace; /**< where the trace action writes (".N" added after the first) */
	int action_signal;	  /**< the signal action's signal */
	long action_pid;	  /**< ... to this pid (0: latprobe's parent) */
	const char *action_shell; /**< the shell action's command */
	uint64_t action_timeout_ns; /**< the shell command is killed after this long */
	/* what to keep */
	uint64_t hist_bin_ns; /**< histogram bin width */
	uint64_t hist_bins;   /**< bins before the overflow bin */
	uint64_t max_samples; /**< raw samples kept per CPU; 0: none (histogram only) */
	/* where to */
	const char *output;   /**< latmon-log path, "-" for stdout */
	const char *json;     /**< JSON summary path, "-" for stdout, NULL: none */
	const char *scenario; /**< free text for the log header, NULL: none */
	bool quiet;	      /**< no summary on stderr */
	/* field monitoring (docs/fleet.md) */
	uint64_t deadline_ns; /**< samples above it are deadline violations; 0: none */
	const char *metrics;  /**< --metrics ADDR:PORT: serve Prometheus metrics; NULL: none */
	struct latmon_buckets buckets;	/**< the metrics histogram's bounds */
	struct latmon_label_set labels; /**< --metrics-label NAME=VALUE */
	uint64_t metrics_linger_ns;	/**< serve the final counts this long after the run */
};

/** Exit codes of latprobe (documented in docs/latprobe.md). */
enum latprobe_exit {
	LATPROBE_EXIT_OK = 0,
	LATPROBE_EXIT_FAILURE = 1, /**< the measurement failed (a system call failed mid-run) */
	LATPROBE_EXIT_USAGE = 2,   /**< bad arguments */
	LATPROBE_EXIT_SETUP = 3,   /**< cannot set up: permissions, CPUs, tracefs, output file */
};

/**
 * Fill @p params with the defaults.
 */
void latprobe_params_defaults(struct latprobe_params *params);

/**
 * Parse the command line into @p params (which latprobe_params_defaults() has filled).
 * @param err     receives a one-line message on error (what was wrong and what to do).
 * @param errlen  size of @p err.
 * @param help    set to true when --help was given (nothing else is checked then).
 * @return 0, or EINVAL for bad arguments (with @p err filled).
 */
int latprobe_params_parse(struct latprobe_params *params, int argc, char **argv, char *err,
			  size_t errlen, bool *help);

/**
 * Parse a CPU list such as "0", "0-3", "1,3,5-7" (each CPU once, at most LATPROBE_MAX_CPUS).
 * @return 0, EINVAL (syntax, CPU out of range, repeated CPU).
 */
int latprobe_parse_cpus(const char *text, unsigned *cpus, unsigned *ncpus);

/** Print the usage text on @p out. */
void latprobe_print_usage(FILE *out);

/** Name of a policy ("fifo", "rr", "other"). */
const char *latprobe_policy_name(enum latprobe_policy policy);

#endif /* LATPROBE_PARAMS_H */
