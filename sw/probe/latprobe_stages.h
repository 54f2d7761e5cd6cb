/*
 * The stages of one timer wake-up, from trace events (docs/latprobe.md, "Stages"):
 *
 *   expiry E ──irq──▶ timer interrupt entry I ──handler──▶ hrtimer_expire_entry H (the probe's
 *   timer) ──wakeup──▶ sched_waking W (the probe's thread) ──sched──▶ switch-in S (sched_switch
 *   to the probe's thread) ──user──▶ the probe reads the clock in user space U
 *
 * E is the wake-up time the probe asked for (the timer's soft expiry, in hrtimer_start) and U the
 * time the probe measured, so the five stages add up to U − E, the latency the probe reports.
 * The IRQ stage can be negative: an interrupt that began before E (for another timer, or an
 * early timer interrupt in a VM) found the probe's timer expired while it ran.
 *
 * Some kernels do not trace every switch: the 6.x kernel of the Firecracker VM latprobe was
 * developed on never records a sched_switch away from the idle task (nor away from a few of its
 * agent's threads). Then S is taken at the probe thread's return from clock_nanosleep
 * (syscalls:sys_exit_clock_nanosleep, the first event the thread itself causes after it runs),
 * so the sched stage also holds the kernel's return path, and the wake-up is marked
 * "switch not traced"; nothing is guessed.
 */
#ifndef LATPROBE_STAGES_H
#define LATPROBE_STAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "latprobe_window.h"

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
	LATPROBE_STAGES_NO_START,   /**< no hrtimer_start of the thread for this expiry */
	LATPROBE_STAGES_NO_EXPIRE,  /**< the timer's expiry was not traced */
	LATPROBE_STAGES_NO_IRQ,	    /**< no timer interrupt entry before the handler */
	LATPROBE_STAGES_NO_WAKING,  /**< the thread was not woken (it had not gone to sleep) */
	LATPROBE_STAGES_NO_SWITCH,  /**< neither a switch to the thread nor its syscall exit */
	LATPROBE_STAGES_DISORDER,   /**< events out of order: a stage after the first is negative */
	LATPROBE_STAGES_SUM,	    /**< the stages do not add up to the measured latency */
	LATPROBE_STAGES_ARMED_LATE, /**< the thread armed the timer only after its expiry (it was
					 held up between its clock read and its next sleep): the
					 wake-up was immediate, there is no interrupt path */
	LATPROBE_STAGES_NRESULTS
};

extern const char *const latprobe_stage_result_names[LATPROBE_STAGES_NRESULTS];

/** The stages of one wake-up and the events they were found from. */
struct latprobe_stage_match {
	int64_t stages[LATPROBE_NSTAGES];
	bool switch_traced; /**< S is a sched_switch (else the thread's syscall exit) */
	unsigned timer_cpu; /**< the CPU the probe's timer expired on */
	uint64_t start_ts;  /**< the thread armed the timer (hrtimer_start) */
	uint64_t timer;	    /**< the probe's hrtimer (its address) */
	uint64_t irq_ts, expire_ts, waking_ts, switch_ts; /**< I, H, W, S */
	uint64_t timer_function; /**< the probe timer's callback (hrtimer_wakeup) */
};

/**
 * Find the stages of thread @p tid's wake-up for expiry @p expiry, read in user space at
 * @p user (both CLOCK_MONOTONIC ns); the thread runs on @p cpu. Searches the windows @p w.
 * @param latency the latency the probe measured for this wake-up (checked against the sum).
 * @return LATPROBE_STAGES_OK with @p m filled, or the reason there are none (then @p m holds
 *         the events found up to the missing one, 0 for the others).
 */
enum latprobe_stage_result latprobe_stages_find(const struct latprobe_windows *w, pid_t tid,
						unsigned cpu, uint64_t expiry, uint64_t user,
						int64_t latency, struct latprobe_stage_match *m);

#endif /* LATPROBE_STAGES_H */
