/*
 * The trace events latprobe keeps, decoded from the kernel's binary records, and the rolling
 * window of them per CPU.
 *
 * Each CPU's window holds its events in time order (the kernel's per-CPU buffer is in time order;
 * a rare out-of-order event is inserted in place). Events are appended as the trace buffers are
 * drained while the probe runs and dropped from the front once no sample still needs them, so
 * memory stays bounded however long the run: what is kept is about one drain period plus one
 * wake-up interval of the machine's events.
 */
#ifndef LATPROBE_WINDOW_H
#define LATPROBE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What an event is (the tracepoints behind each: docs/latprobe.md, "Trace events"). */
enum latprobe_trace_kind {
	LATPROBE_EV_IRQ_ENTRY,	  /**< the timer interrupt begins (x86: local_timer_entry); a marker
				       next to the VECTOR_ENTRY or HARDIRQ_ENTRY of the same record */
	LATPROBE_EV_TIMER_START,  /**< timer:hrtimer_start: timer, expires (soft), pid = who */
	LATPROBE_EV_TIMER_EXPIRE, /**< timer:hrtimer_expire_entry: timer, function */
	LATPROBE_EV_WAKING,	  /**< sched:sched_waking: pid = the woken task, prio */
	LATPROBE_EV_SWITCH,	  /**< sched:sched_switch: pid = next, prev = the task before */
	LATPROBE_EV_SYSCALL_EXIT, /**< syscalls:sys_exit_clock_nanosleep: pid = the task */
	LATPROBE_EV_TIMER_EXPIRE_EXIT, /**< timer:hrtimer_expire_exit: timer */
	LATPROBE_EV_HARDIRQ_ENTRY,     /**< irq:irq_handler_entry: id = the IRQ number */
	LATPROBE_EV_HARDIRQ_EXIT,      /**< irq:irq_handler_exit: id = the IRQ number */
	LATPROBE_EV_VECTOR_ENTRY,      /**< an x86 system vector begins: id = its slot */
	LATPROBE_EV_VECTOR_EXIT,       /**< an x86 system vector ends: id = its slot */
	LATPROBE_EV_SOFTIRQ_ENTRY,     /**< irq:softirq_entry: id = the softirq number */
	LATPROBE_EV_SOFTIRQ_EXIT,      /**< irq:softirq_exit: id = the softirq number */
	LATPROBE_EV_CPU_IDLE,	       /**< power:cpu_idle: id = the state entered, -1 left */
	LATPROBE_EV_NKINDS
};

/** One decoded trace event. */
struct latprobe_trace_event {
	uint64_t ts;	/**< trace clock "mono": CLOCK_MONOTONIC ns */
	uint64_t timer; /**< the hrtimer's address (TIMER_*) */
	union {
		int64_t expires;   /**< TIMER_START: the soft expiry */
		uint64_t function; /**< TIMER_EXPIRE: the callback's address */
	};
	int32_t pid;	   /**< TIMER_START, SYSCALL_EXIT: the task; WAKING: woken; SWITCH: next */
	int32_t ctx;	   /**< common_pid: the task current on the CPU when it was recorded */
	int32_t id;	   /**< IRQ number, vector slot or softirq number; SWITCH: the prev pid */
	int16_t prio;	   /**< WAKING: the woken task's kernel priority; SWITCH: next's */
	int16_t prev_prio; /**< SWITCH: the previous task's kernel priority */
	uint16_t cpu;
	uint8_t kind; /**< enum latprobe_trace_kind */
	uint8_t flags;
};

/** A CPU's events, in time order: ev[start .. end) are live. */
struct latprobe_window {
	struct latprobe_trace_event *ev;
	size_t start, end, cap;
	size_t limit;	  /**< events kept at most; beyond it the oldest are dropped */
	uint64_t dropped; /**< events dropped because the window was at its limit */
};

/** The windows of every CPU the trace has. */
struct latprobe_windows {
	struct latprobe_window *cpu;
	unsigned ncpus;
};

/**
 * Allocate @p ncpus empty windows, each keeping at most @p limit events.
 * @return 0, ENOMEM.
 */
int latprobe_windows_init(struct latprobe_windows *w, unsigned ncpus, size_t limit);

/** Free the windows. */
void latprobe_windows_free(struct latprobe_windows *w);

/**
 * Append an event to its CPU's window (inserted in time order if it is older than the last).
 * @return 0, EINVAL (no window for its CPU), ENOMEM.
 */
int latprobe_window_push(struct latprobe_windows *w, const struct latprobe_trace_event *e);

/** Drop the events of every window older than @p ts. */
void latprobe_windows_trim(struct latprobe_windows *w, uint64_t ts);

/** Index of the first event of @p win at or after @p ts (win->end if none). */
size_t latprobe_window_lower(const struct latprobe_window *win, uint64_t ts);

/** Events in all windows. */
size_t latprobe_windows_count(const struct latprobe_windows *w);

#endif /* LATPROBE_WINDOW_H */
