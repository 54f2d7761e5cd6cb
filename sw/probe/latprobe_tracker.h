/*
 * The tracker follows the measurement threads' kept samples while the probe runs (the main
 * thread calls it after each drain of the trace buffers): every sample whose clock read lies
 * before the drain gets its stages from the windows (latprobe_stages.h), and the spikes — every
 * sample above --explain (up to --explain-max per CPU) and the worst --explain-worst of each CPU
 * — get an explanation (latprobe_explain.h) while their events are still in the windows. It then
 * says how far back the windows must still reach, so that they are trimmed behind it.
 */
#ifndef LATPROBE_TRACKER_H
#define LATPROBE_TRACKER_H

#include <stdint.h>

#include "latprobe_measure.h"
#include "latprobe_params.h"
#include "latprobe_tracefs.h"

struct latprobe_tracker_cpu; /* per thread, private */

/** Steal readings kept (one per tick of the main thread: 6.4 s at 100 ms). */
#define LATPROBE_STEAL_RING 64

struct latprobe_tracker {
	const struct latprobe_params *params;
	struct latprobe_thread *threads;
	unsigned nthreads;
	struct latprobe_trace *trace;
	int16_t probe_prio; /**< the probe threads' kernel priority */
	struct latprobe_tracker_cpu *cpu;
	/* hypervisor steal per thread's CPU, read on every tick (latprobe_tracker_note_steal) */
	uint64_t steal_ts[LATPROBE_STEAL_RING]; /**< CLOCK_MONOTONIC of each reading */
	uint64_t *steal_ns;			/**< nthreads x LATPROBE_STEAL_RING */
	uint64_t steal_n;			/**< readings so far */
};

/**
 * Note the steal time of every thread's CPU (@p ns, one per thread) read at @p now; the
 * spikes explained afterwards say how much was stolen between the readings around them.
 */
void latprobe_tracker_note_steal(struct latprobe_tracker *tk, uint64_t now, const uint64_t *ns);

/**
 * Prepare to follow @p nthreads threads: allocates each thread's stage arrays (one entry per
 * sample it may keep) and the spike sets.
 * @return 0, ENOMEM.
 */
int latprobe_tracker_init(struct latprobe_tracker *tk, const struct latprobe_params *params,
			  struct latprobe_thread *threads, unsigned nthreads,
			  struct latprobe_trace *trace);

/**
 * Process every published sample whose clock read is before @p upto (CLOCK_MONOTONIC ns;
 * UINT64_MAX at the end of the run, after the last drain).
 * Threads whose id is not known yet (0) are skipped.
 */
void latprobe_tracker_step(struct latprobe_tracker *tk, uint64_t upto);

/** The oldest time the windows must still reach back to (0: keep everything). */
uint64_t latprobe_tracker_horizon(const struct latprobe_tracker *tk);

/**
 * After the last step: hand each thread its explained spikes (largest latency first), with the
 * hrtimer callbacks named from /proc/kallsyms when it can be read.
 * @return 0, ENOMEM.
 */
int latprobe_tracker_finish(struct latprobe_tracker *tk);

/** Free the tracker's own memory (the threads keep what was handed to them). */
void latprobe_tracker_free(struct latprobe_tracker *tk);

#endif /* LATPROBE_TRACKER_H */
