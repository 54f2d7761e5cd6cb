/*
 * --threshold with --on-threshold: what happens at an event, in the main thread while the
 * measurement goes on (rtla timerlat --on-threshold, with the run continuing).
 *
 * A measurement thread whose sample is above the threshold counts it; if no event is being
 * handled (the threshold is armed) it disarms it, freezes the trace action's instance (marker,
 * tracing_on 0) and wakes the main thread. The main thread then runs every action once: saves
 * the frozen trace to its file, sends the signal, starts the shell command (reaped later, killed
 * after its time limit); when the trace is saved and the command has ended it clears the
 * instance, turns it on again and re-arms. Samples above the threshold meanwhile (the rest of
 * the same burst) are counted, not acted upon: one event, one action.
 */
#ifndef LATPROBE_ACTION_H
#define LATPROBE_ACTION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "latprobe_measure.h"
#include "latprobe_params.h"
#include "latprobe_tracefs.h"

struct latprobe_actions {
	const struct latprobe_params *params;
	struct latprobe_threshold thr; /**< shared with the measurement threads */
	struct latprobe_trace *trace;  /**< the session with the frozen instance, or NULL */
	pid_t child;		       /**< the shell command running, or 0 */
	uint64_t child_deadline;       /**< CLOCK_MONOTONIC ns it is killed at */
	bool busy;		       /**< an event is being handled */
	/* what happened (JSON, log header, summary) */
	uint64_t events;	/**< events handled */
	uint64_t traces_saved;	/**< trace files written */
	uint64_t signals_sent;	/**< signals delivered */
	uint64_t shells_ok;	/**< shell commands that exited 0 */
	uint64_t shells_failed; /**< ... that could not start or exited otherwise */
	uint64_t shells_killed; /**< ... killed at the time limit */
	uint64_t action_errors; /**< actions that failed (each said on stderr) */
	char first_trace[256];	/**< the first trace file written */
	unsigned first_cpu;	/**< the first event */
	uint64_t first_t, first_latency;
};

/** Prepare (disarmed until latprobe_actions_arm()). */
void latprobe_actions_init(struct latprobe_actions *a, const struct latprobe_params *params,
			   struct latprobe_trace *trace);

/** Arm the threshold (after the trace instance runs). */
void latprobe_actions_arm(struct latprobe_actions *a);

/**
 * Handle a pending event and follow a running command; call on every wake-up of the main
 * thread. @p now is CLOCK_MONOTONIC ns.
 */
void latprobe_actions_poll(struct latprobe_actions *a, uint64_t now);

/** True while an action still runs (the main thread must wake up to follow it). */
bool latprobe_actions_running(const struct latprobe_actions *a);

/** At the end: wait for the shell command (up to its time limit), handle a last event. */
void latprobe_actions_finish(struct latprobe_actions *a);

#endif /* LATPROBE_ACTION_H */
