/*
 * The stages of one timer wake-up, from trace events (docs/latprobe.md, "Stages"):
 *
 *   expiry E ──irq──▶ local_timer_entry I ──handler──▶ hrtimer_expire_entry H (the probe's
 *   timer) ──wakeup──▶ sched_waking W (the probe's thread) ──sched──▶ sched_switch S (to the
 *   probe's thread) ──user──▶ the probe reads the clock in user space U
 *
 * E is the wake-up time the probe asked for (the timer's soft expiry, in hrtimer_start) and U the
 * time the probe measured, so the five stages add up to U − E, the latency the probe reports.
 * The IRQ stage can be negative: an interrupt that began before E (for another timer, or an
 * early timer interrupt in a VM) found the probe's timer expired while it ran.
 */
#ifndef LATPROBE_STAGES_H
#define LATPROBE_STAGES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum latprobe_trace_kind {
	LATPROBE_EV_IRQ_ENTRY,	  /**< irq_vectors:local_timer_entry on cpu */
	LATPROBE_EV_TIMER_START,  /**< timer:hrtimer_start by pid: timer, expires (soft) */
	LATPROBE_EV_TIMER_EXPIRE, /**< timer:hrtimer_expire_entry: timer */
	LATPROBE_EV_WAKING,	  /**< sched:sched_waking of pid */
	LATPROBE_EV_SWITCH,	  /**< sched:sched_switch to pid, on cpu */
};

struct latprobe_trace_event {
	uint64_t ts;	 /**< trace clock "mono": CLOCK_MONOTONIC ns */
	uint64_t timer;	 /**< the hrtimer's address (TIMER_*) */
	int64_t expires; /**< soft expiry (TIMER_START) */
	int32_t pid;	 /**< the thread (TIMER_START, WAKING, SWITCH) */
	uint16_t cpu;
	uint8_t kind;
};

enum latprobe_stage {
	LATPROBE_STAGE_IRQ,	/**< expiry → timer interrupt entry */
	LATPROBE_STAGE_HANDLER, /**< interrupt entry → the probe's hrtimer handler */
	LATPROBE_STAGE_WAKEUP,	/**< handler → sched_waking of the probe's thread */
	LATPROBE_STAGE_SCHED,	/**< waking → switch to the thread (scheduling latency) */
	LATPROBE_STAGE_USER,	/**< switch-in → the probe's clock read in user space */
	LATPROBE_NSTAGES
};

extern const char *const latprobe_stage_names[LATPROBE_NSTAGES];

/** Why a wake-up has no stages (or 0 = it has them). */
enum latprobe_stage_result {
	LATPROBE_STAGES_OK,
	LATPROBE_STAGES_NO_START,  /**< no hrtimer_start of the thread for this expiry */
	LATPROBE_STAGES_NO_EXPIRE, /**< the timer's expiry was not traced */
	LATPROBE_STAGES_NO_IRQ,	   /**< no timer interrupt entry before the handler */
	LATPROBE_STAGES_NO_WAKING, /**< the thread was not woken (it had not gone to sleep) */
	LATPROBE_STAGES_NO_SWITCH, /**< the thread was not switched in (it never left the CPU) */
	LATPROBE_STAGES_DISORDER,  /**< events out of order: a stage after the first is negative */
	LATPROBE_STAGES_SUM,	   /**< the stages do not add up to the measured latency */
	LATPROBE_STAGES_NRESULTS
};

extern const char *const latprobe_stage_result_names[LATPROBE_STAGES_NRESULTS];

#define LATPROBE_TRACE_MAX_CPUS 1024

/** Scan state of one thread over the time-sorted events: samples must be matched in order. */
struct latprobe_stage_matcher {
	size_t pos;				    /**< first event not yet scanned */
	uint64_t last_irq[LATPROBE_TRACE_MAX_CPUS]; /**< latest timer interrupt entry per CPU */
};

void latprobe_stage_matcher_init(struct latprobe_stage_matcher *m);

/**
 * Find the stages of the thread @p tid's wake-up for expiry @p expiry, read in user space at
 * @p user (both CLOCK_MONOTONIC ns), in the events @p ev sorted by time. Samples of one thread
 * must be passed in increasing time.
 * @param latency the latency the probe measured for this wake-up (checked against the sum).
 * @return LATPROBE_STAGES_OK with @p stages filled, or the reason there are none.
 */
enum latprobe_stage_result latprobe_stages_match(struct latprobe_stage_matcher *m,
						 const struct latprobe_trace_event *ev, size_t n,
						 pid_t tid, uint64_t expiry, uint64_t user,
						 int64_t latency, int64_t stages[LATPROBE_NSTAGES]);

/** Sort events by time (ties keep their order), for latprobe_stages_match(). */
void latprobe_trace_sort(struct latprobe_trace_event *ev, size_t n);

#endif /* LATPROBE_STAGES_H */
