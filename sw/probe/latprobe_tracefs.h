/*
 * The trace session behind latprobe --stages: a tracefs instance of its own
 * (instances/latprobe.<pid>) with the trace clock "mono" (CLOCK_MONOTONIC, the probe's clock)
 * and a per-CPU buffer of the requested size. Its binary per-CPU buffers (trace_pipe_raw) are
 * drained while the probe runs and each record decoded into the rolling per-CPU windows
 * (latprobe_window.h), with the names of tasks and interrupts on the way (latprobe_names.h).
 *
 * Events are chosen by what the running kernel has (events/<system>/<event>/format), never
 * assumed: the stages need timer:hrtimer_start, timer:hrtimer_expire_entry, sched:sched_waking,
 * sched:sched_switch and the timer interrupt's entry (x86: irq_vectors:local_timer_entry; else
 * irq:irq_handler_entry of an interrupt named like the architected timer, e.g. arm64's
 * "arch_timer"); syscalls:sys_exit_clock_nanosleep marks the probe's first instruction where the
 * kernel does not trace the switch to it. Explanations also use irq:irq_handler_entry/exit,
 * irq:softirq_entry/exit, timer:hrtimer_expire_exit and every x86 system vector
 * (irq_vectors:*_entry/_exit) the kernel has. What is missing is reported, not replaced.
 *
 * With --break a second instance (instances/latprobe-break.<pid>) records the same events in an
 * overwriting buffer that nobody drains: the measurement thread that sees the spike writes a
 * marker and turns it off, and its text (the kernel's own `trace` output) is kept in a file.
 *
 * Nothing outside the instances is changed, so removing them restores every setting; if tracefs
 * was not mounted, it is mounted for the run and unmounted afterwards. Instances left behind by
 * a latprobe that was killed (its pid is gone) are removed at the next start.
 */
#ifndef LATPROBE_TRACEFS_H
#define LATPROBE_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "latprobe_names.h"
#include "latprobe_rbpage.h"
#include "latprobe_tracefmt.h"
#include "latprobe_window.h"

#define LATPROBE_TRACEPOINTS_MAX 64

/** One tracepoint the session knows about. */
struct latprobe_tracepoint {
	char path[80]; /**< "sched/sched_switch" */
	uint8_t role;  /**< what it is for (latprobe_tracefs.c) */
	bool present;  /**< the kernel has it */
	bool enabled;  /**< enabled in the instance */
	unsigned id;   /**< the kernel's event ID */
	int slot;      /**< x86 system vectors: the vector's name slot */
	struct latprobe_field f[4];
	struct latprobe_string_field s[2];
};

struct latprobe_trace_config {
	uint64_t buffer_kb; /**< per-CPU buffer of each instance */
	bool explain; /**< also record what explanations need (IRQs, softirqs, all switches) */
	bool break_instance; /**< create the --break instance */
	size_t window_limit; /**< events kept in all CPU windows together at most */
};

struct latprobe_trace {
	char root[128]; /**< the tracefs mount point */
	char dir[192];	/**< our instance */
	char break_dir[192];
	bool mounted; /**< we mounted tracefs (and unmount it) */
	bool created; /**< the instance exists (and must be removed) */
	bool break_created;
	bool explain;
	unsigned ncpus;		 /**< per-CPU buffers */
	int *fds;		 /**< per_cpu/cpuN/trace_pipe_raw */
	int break_marker_fd;	 /**< the break instance's trace_marker, or -1 */
	int break_tracing_on_fd; /**< the break instance's tracing_on, or -1 */
	struct latprobe_page_layout layout;
	struct latprobe_tracepoint tp[LATPROBE_TRACEPOINTS_MAX];
	unsigned ntp;
	uint8_t by_id[65536]; /**< event ID → 1 + index in tp[], 0: not ours */
	struct latprobe_field f_type, f_flags, f_pid;
	bool timer_irq_by_name; /**< the timer interrupt is found by its handler's name */
	const char *irq_event;	/**< the timer interrupt's entry event ("system/event") */
	const char *irq_filter; /**< the kernel filter on it (only the timer's), or NULL */
	int timer_vector_slot;	/**< x86: the slot of local_timer, else -1 */
	unsigned char *page;
	size_t page_size;
	/* what was kept */
	struct latprobe_windows windows;
	struct latprobe_names names;
	uint64_t events; /**< events decoded and kept */
	/* what was lost */
	uint64_t lost_pages; /**< pages that said events were lost before them */
	uint64_t overrun;    /**< events overwritten or dropped by the kernel (per-CPU stats) */
	uint64_t bad_pages;  /**< pages that could not be parsed */
	int error;	     /**< ENOMEM while keeping an event */
};

/**
 * Set the session up and start tracing.
 * @return 0, or an errno value with a message in @p err (EACCES/EPERM: not root; ENOENT: no
 *         tracefs or a missing event the stages need).
 */
int latprobe_trace_open(struct latprobe_trace *t, const struct latprobe_trace_config *cfg,
			char *err, size_t errlen);

/**
 * Read what the kernel has buffered into the windows: the probe threads' (@p tids) timer
 * starts, wake-ups and syscall exits, every switch, timer interrupt and timer expiry, and with
 * explanations every interrupt, softirq and callback.
 * @return 0 or an errno value (ENOMEM when keeping an event failed).
 */
int latprobe_trace_drain(struct latprobe_trace *t, const pid_t *tids, unsigned ntids);

/** Stop tracing (the buffers keep what they hold for a last drain). */
void latprobe_trace_stop(struct latprobe_trace *t);

/**
 * Write the --break instance's trace (the kernel's text) to @p path.
 * @return 0, or an errno value with a message in @p err.
 */
int latprobe_trace_save_break(struct latprobe_trace *t, const char *path, char *err, size_t errlen);

/**
 * Comma-separated tracepoints in use (@p used) and those the kernel lacks (@p missing), e.g.
 * "syscalls:sys_exit_clock_nanosleep".
 */
void latprobe_trace_describe(const struct latprobe_trace *t, char *used, size_t used_len,
			     char *missing, size_t missing_len);

/** True when the kernel has the tracepoint "system/event" and it is enabled. */
bool latprobe_trace_has(const struct latprobe_trace *t, const char *path);

/**
 * Read the kernel's loss counters, close the buffers, remove the instances and unmount tracefs
 * if we mounted it. Safe to call after a failed or partial latprobe_trace_open().
 * @return 0, or the errno of a failed removal (with a message in @p err).
 */
int latprobe_trace_close(struct latprobe_trace *t, char *err, size_t errlen);

/** Free the windows and names. */
void latprobe_trace_free(struct latprobe_trace *t);

#endif /* LATPROBE_TRACEFS_H */
