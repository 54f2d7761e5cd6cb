/*
 * Why was a wake-up late? The explanation of one sample, from the trace of the CPUs involved
 * between the timer's expiry E and the probe's clock read U (docs/latprobe.md, "Spikes
 * explained").
 *
 * The time from E to U is attributed, nanosecond by nanosecond, to what the CPU was doing: the
 * innermost of an hrtimer callback, a hard interrupt (a device IRQ or an x86 system vector), a
 * softirq, or else the task current on the CPU (the probe itself, the idle task, or another
 * task). The context is rebuilt from the entry/exit events and every event's own context flags
 * and current pid (common_flags, common_pid), from the moment the probe armed its timer. Each
 * piece of time also belongs to the stage it falls in (irq, handler, wakeup, sched, user); the
 * stages before the wake-up are taken on the CPU the timer expired on.
 *
 * The contributors are summed per (stage, what) and sorted; the largest names the cause:
 * the idle state, a late interrupt, another interrupt or softirq, hrtimer callbacks, a task of
 * higher priority (the scheduler did its job), a task of lower priority that could not be
 * preempted, or the probe's own path.
 */
#ifndef LATPROBE_EXPLAIN_H
#define LATPROBE_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "latprobe_names.h"
#include "latprobe_stages.h"
#include "latprobe_window.h"

/** What held the CPU. */
enum latprobe_holder {
	LATPROBE_HELD_PROBE,   /**< the probe thread itself (its wake-up, return to user space) */
	LATPROBE_HELD_IDLE,    /**< the idle task: leaving an idle state */
	LATPROBE_HELD_TASK,    /**< another task */
	LATPROBE_HELD_IRQ,     /**< a device interrupt handler (irq:irq_handler_entry/exit) */
	LATPROBE_HELD_VECTOR,  /**< an x86 system interrupt (irq_vectors: local_timer, ...) */
	LATPROBE_HELD_SOFTIRQ, /**< a softirq */
	LATPROBE_HELD_HRTIMER, /**< another hrtimer's callback */
	LATPROBE_HELD_UNKNOWN, /**< nothing traced on the CPU to tell */
	LATPROBE_NHOLDERS
};

extern const char *const latprobe_holder_names[LATPROBE_NHOLDERS];

/** The cause named by the largest contribution. */
enum latprobe_cause {
	LATPROBE_CAUSE_NONE,		   /**< no trace to explain it with */
	LATPROBE_CAUSE_IDLE,		   /**< the CPU was idle: idle-state exit and wake-up */
	LATPROBE_CAUSE_IRQ_DELIVERY,	   /**< the timer interrupt came late while a task ran */
	LATPROBE_CAUSE_INTERRUPT,	   /**< another interrupt handler ran */
	LATPROBE_CAUSE_SOFTIRQ,		   /**< a softirq ran */
	LATPROBE_CAUSE_TIMERS,		   /**< other hrtimer callbacks ran */
	LATPROBE_CAUSE_PREEMPTED,	   /**< a task of higher or equal priority held the CPU */
	LATPROBE_CAUSE_NOT_PREEMPTIBLE,	   /**< a task of lower priority kept the CPU */
	LATPROBE_CAUSE_PROBE,		   /**< the probe's own path (nothing else traced) */
	LATPROBE_CAUSE_TASK_PRIO_UNTRACED, /**< a task held the CPU whose switch-in was not traced:
					      its priority then is not known, no cause is named */
	LATPROBE_NCAUSES
};

extern const char *const latprobe_cause_names[LATPROBE_NCAUSES];

/** Whether a cause lies with the hardware/hypervisor, interrupts, the scheduler or the probe. */
const char *latprobe_cause_class(enum latprobe_cause cause);

#define LATPROBE_CONTRIB_MAX 12

/** Where a task's priority in an explanation comes from. */
enum latprobe_prio_from {
	LATPROBE_PRIO_NONE,	   /**< not a task */
	LATPROBE_PRIO_SWITCH_IN,   /**< the traced switch to the task */
	LATPROBE_PRIO_SWITCH_AWAY, /**< only the switch away from it (the switch to it untraced) */
	LATPROBE_PRIO_LATEST,	   /**< neither: the latest the trace knows of the task */
};

/** Time one thing held the CPU within one stage. */
struct latprobe_contribution {
	uint64_t ns;	   /**< time it held the CPU in the stage */
	int64_t first;	   /**< when it first held it, relative to the expiry */
	uint64_t key;	   /**< pid, IRQ number, vector slot, softirq number or callback address */
	int16_t prio;	   /**< TASK: kernel priority as last traced (INT16_MIN: unknown) */
	uint8_t stage;	   /**< enum latprobe_stage, or LATPROBE_NSTAGES when there are no stages */
	uint8_t holder;	   /**< enum latprobe_holder */
	uint8_t prio_from; /**< TASK: enum latprobe_prio_from */
	bool timer_irq;	   /**< IRQ/VECTOR: a timer interrupt (its own entry and exit) */
	char name[LATPROBE_NAME_LEN]; /**< command name, handler name, vector, softirq, symbol */
};

/** The explanation of one sample. */
struct latprobe_explanation {
	unsigned cpu;
	int64_t t;	 /**< the sample's time since the run's start (its cpuN row) */
	uint64_t expiry; /**< CLOCK_MONOTONIC */
	int64_t latency;
	int16_t probe_prio;		   /**< the probe thread's kernel priority */
	uint8_t stage_result;		   /**< enum latprobe_stage_result */
	struct latprobe_stage_match match; /**< the stages, when stage_result is OK */
	int32_t running_at_expiry; /**< the task current at the expiry: 0 idle, -1 unknown */
	uint8_t cause;		   /**< enum latprobe_cause */
	unsigned ncontrib;
	struct latprobe_contribution contrib[LATPROBE_CONTRIB_MAX]; /**< largest first */
	uint64_t other_ns;	  /**< what did not fit in contrib[] */
	uint32_t nevents;	  /**< trace events of the CPUs between the expiry and the read */
	uint64_t silence_ns;	  /**< the longest stretch without any event on the CPU(s) */
	int64_t silence_at;	  /**< where it began, relative to the expiry */
	bool window_cut;	  /**< the trace did not reach back to the arming of the timer */
	int32_t idle_state;	  /**< the idle state the CPU was in at the expiry (power:cpu_idle),
				       -1: not idle or not traced */
	char idle_name[24];	  /**< its cpuidle name, "" when not known */
	uint64_t steal_ns;	  /**< hypervisor steal of the CPU around the sample (/proc/stat) */
	uint64_t steal_window_ns; /**< the stretch steal_ns was counted over, 0: not known */
};

/**
 * Explain the sample of thread @p tid on @p cpu with expiry @p expiry and clock read @p user,
 * whose stages @p match were found with result @p result.
 * @param probe_prio the probe's kernel priority (99 − rt priority; 120 for policy other).
 * @param names      for the names of tasks and interrupt lines (copied into the explanation).
 */
void latprobe_explain(const struct latprobe_windows *w, const struct latprobe_names *names,
		      pid_t tid, int16_t probe_prio, unsigned cpu, uint64_t expiry, uint64_t user,
		      enum latprobe_stage_result result, const struct latprobe_stage_match *match,
		      struct latprobe_explanation *out);

/**
 * Name the hrtimer callbacks of an explanation from the kernel's symbols (left as hex
 * addresses when @p names has no symbols).
 */
void latprobe_explain_name_symbols(struct latprobe_explanation *x,
				   const struct latprobe_names *names);

/**
 * One line saying why the sample was late, e.g. "latmon-busy (pid 4242, rt 99) held the CPU
 * for 795.1 us after the probe was woken (sched stage): a task of higher or equal priority".
 */
void latprobe_explain_text(const struct latprobe_explanation *x, char *buf, size_t len);

#endif /* LATPROBE_EXPLAIN_H */
