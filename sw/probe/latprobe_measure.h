/*
 * One measurement thread per CPU: absolute wake-ups on CLOCK_MONOTONIC, the lateness of each
 * wake-up in nanoseconds, missed periods counted.
 *
 * Missed periods: when a wake-up comes so late that one or more later wake-up times have
 * already passed, those periods are skipped (the thread sleeps until the next wake-up time
 * still in the future, keeping the grid) and counted in `missed`. cyclictest skips them
 * silently; here events + missed = periods elapsed, always.
 */
#ifndef LATPROBE_MEASURE_H
#define LATPROBE_MEASURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "latmon/latmon_meter.h"
#include "latprobe_explain.h"
#include "latprobe_hist.h"
#include "latprobe_params.h"
#include "latprobe_stages.h"

/** --break: shared by the threads; the first sample above the threshold stops the run. */
struct latprobe_break {
	uint64_t threshold_ns;
	int marker_fd;	   /**< the break trace's trace_marker, or -1 */
	int tracing_on_fd; /**< the break trace's tracing_on, or -1 */
	atomic_bool hit;
	/* the sample that hit it, written by the thread that set `hit` */
	unsigned cpu;
	uint64_t t, latency;
};

/** --threshold: shared by the threads; the main thread runs the actions (latprobe.c). */
struct latprobe_threshold {
	uint64_t threshold_ns;
	int marker_fd;		/**< the trace action's trace_marker, or -1 */
	int tracing_on_fd;	/**< the trace action's tracing_on, or -1 */
	atomic_bool armed;	/**< the next sample above the threshold is an event */
	atomic_bool pending;	/**< an event waits for the main thread (cpu, t, latency are set) */
	_Atomic uint64_t above; /**< samples above the threshold (events or not) */
	unsigned cpu;
	uint64_t t, latency;
};

struct latprobe_thread {
	/* set by the caller before latprobe_thread_start() */
	const struct latprobe_params *params;
	unsigned cpu;
	uint64_t start_ns;  /**< CLOCK_MONOTONIC time of the run's start (shared by all threads) */
	uint64_t phase_ns;  /**< this thread wakes at start_ns + phase_ns + k * interval */
	atomic_uint *ready; /**< threads running and waiting for the start time */
	_Atomic uint64_t *go; /**< the start time once every thread is ready (0 until then); the
				   main thread sets start_ns before it publishes it here */
	atomic_bool *stop;    /**< set by main to stop every thread at its next wake-up */
	atomic_uint *running; /**< threads still measuring; the last one to finish signals main */
	pid_t main_pid;
	struct latprobe_break *brk;	/**< --break, or NULL */
	struct latprobe_threshold *thr; /**< --threshold, or NULL */
	struct latmon_meter *meter;	/**< --metrics: every sample published here, or NULL */
	/* results */
	struct latprobe_hist hist;
	int64_t *t;	   /**< wake-up time since start_ns (phase included), per sample */
	int64_t *latency;  /**< lateness of the wake-up, per kept sample */
	uint64_t nsamples; /**< samples kept (<= capacity) */
	uint64_t
	    capacity; /**< samples it can keep: --max-samples, or fewer when the run is shorter */
	_Atomic uint64_t published; /**< kept samples the main thread may read while measuring */
	uint64_t events;	    /**< wake-ups measured */
	uint64_t missed;	    /**< periods skipped because a wake-up came too late */
	uint64_t warmup;	    /**< wake-ups in the --warm-up (not in events nor statistics) */
	bool setup_failed;	    /**< the thread could not set itself up (error says why) */
	_Atomic pid_t tid;	    /**< the thread's kernel id (for tracing), 0 until it runs */
	atomic_bool finished;	    /**< it measures no more (its last sample is published) */
	/* --stages: per kept sample, filled in by the tracker as the run goes */
	int64_t *stages;	/**< LATPROBE_NSTAGES values per kept sample */
	uint8_t *stage_result;	/**< enum latprobe_stage_result per kept sample */
	uint8_t *switch_traced; /**< 1: S is the traced switch, 0: the syscall exit */
	uint64_t stage_counts[LATPROBE_STAGES_NRESULTS]; /**< samples per result */
	uint64_t switch_untraced; /**< matched samples whose switch-in the kernel did not trace */
	uint64_t switch_untraced_idle; /**< of those, the CPU was idle before */
	/* explained spikes (the tracker's), largest latency first */
	struct latprobe_explanation *spikes;
	unsigned nspikes;
	uint64_t spikes_above;	/**< samples above --explain (explained or not) */
	int error;		/**< errno of a failed call, 0 if none */
	const char *error_what; /**< which call failed */
	/* private */
	pthread_t handle;
	bool started;
	void *memory;
};

/**
 * Allocate (and, with mlock, pre-fault) the thread's sample and histogram memory.
 * @return 0, ENOMEM.
 */
int latprobe_thread_alloc(struct latprobe_thread *thread);

/** Free what latprobe_thread_alloc() allocated. */
void latprobe_thread_free(struct latprobe_thread *thread);

/**
 * Create the thread on its CPU with the scheduling policy and priority of the params
 * (SCHED_DEADLINE and POSIX timers are set up by the thread itself before it reports ready; a
 * failure there sets setup_failed, error and error_what).
 * @return 0, or the pthread error (EPERM: no permission for the real-time policy, EINVAL: the
 *         CPU is not usable).
 */
int latprobe_thread_start(struct latprobe_thread *thread);

/** Wait for the thread to finish. @return 0, or pthread_join's error. */
int latprobe_thread_join(struct latprobe_thread *thread);

/** CLOCK_MONOTONIC now, in nanoseconds. */
uint64_t latprobe_now_ns(void);

#endif /* LATPROBE_MEASURE_H */
