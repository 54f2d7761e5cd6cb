/*
 * latprobe --timerlat: the kernel's timerlat tracer measures instead of latprobe's threads
 * (docs/latprobe.md, "The timerlat tracer"). Its per-CPU timer fires every --interval; the
 * tracer's IRQ handler records how late it ran (context irq) and its per-CPU kernel thread how
 * late it woke (context thread). latprobe enables the tracer in a tracefs instance of its own
 * (instances/latprobe-timerlat.<pid>, trace clock "mono"), sets the tracer's period and CPUs
 * (osnoise/timerlat_period_us, osnoise/cpus: global settings, restored afterwards), reads the
 * instance's trace_pipe while it runs and writes the samples as the series cpuN.irq and
 * cpuN.thread. Several instances running timerlat share one set of timerlat threads and each
 * receives every sample, so rtla timerlat running at the same time sees the same samples.
 */
#ifndef LATPROBE_TIMERLAT_H
#define LATPROBE_TIMERLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latprobe_params.h"

/** The samples of one CPU and context, in the order the tracer wrote them. */
struct latprobe_timerlat_series {
	int64_t *t;    /**< the sample's trace time since the start, ns (µs resolution) */
	int64_t *v;    /**< timer_latency, ns */
	uint32_t *seq; /**< the tracer's sequence number of the period */
	uint64_t n, cap;
};

struct latprobe_timerlat {
	char root[128]; /**< the tracefs mount point */
	char dir[192];	/**< our instance */
	bool mounted, created, period_saved, cpus_saved;
	char saved_period[32], saved_cpus[512];
	int fd; /**< the instance's trace_pipe */
	char buf[8192];
	size_t used;
	uint64_t t0_ns;			    /**< CLOCK_MONOTONIC at the start */
	unsigned ncpus;			    /**< series hold 2 per CPU number below this */
	struct latprobe_timerlat_series *s; /**< [cpu * 2 + context] */
	uint64_t lost;			    /**< events the kernel said it lost ([LOST n EVENTS]) */
	uint64_t unparsed;		    /**< lines that were not timerlat samples */
	uint64_t overrun;		    /**< per-CPU stats: overrun events */
};

/**
 * Parse one line of the tracer's text output into @p tl. Lines that are not timerlat samples
 * are counted (unparsed), "[LOST n EVENTS]" adds to lost.
 * @return 0, or ENOMEM.
 */
int latprobe_timerlat_line(struct latprobe_timerlat *tl, const char *line);

/**
 * Run the measurement with the timerlat tracer: set up, measure for params->duration_ns (or
 * until SIGINT/SIGTERM), write the latmon-log and the JSON summary, tear down.
 * @return a latprobe exit status (LATPROBE_EXIT_SETUP with a message when the kernel has no
 *         timerlat tracer).
 */
int latprobe_timerlat_run(const struct latprobe_params *params, const char *cmdline);

#endif /* LATPROBE_TIMERLAT_H */
