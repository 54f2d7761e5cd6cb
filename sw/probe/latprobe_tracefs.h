/*
 * The trace session behind latprobe --stages: a tracefs instance of its own
 * (instances/latprobe.<pid>) with the trace clock "mono" (CLOCK_MONOTONIC, the probe's clock),
 * a per-CPU buffer of the requested size and five events enabled:
 * irq_vectors:local_timer_entry, timer:hrtimer_start, timer:hrtimer_expire_entry,
 * sched:sched_waking and sched:sched_switch. The binary per-CPU buffers (trace_pipe_raw) are
 * drained while the probe runs and the events of the probe's threads kept.
 *
 * Nothing outside the instance is changed, so removing the instance restores every setting; if
 * tracefs was not mounted, it is mounted for the run and unmounted afterwards. An instance left
 * behind by a latprobe that was killed (its pid is gone) is removed at the next start.
 */
#ifndef LATPROBE_TRACEFS_H
#define LATPROBE_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "latprobe_rbpage.h"
#include "latprobe_stages.h"
#include "latprobe_tracefmt.h"

enum { LATPROBE_NEVENTS = 5 };

struct latprobe_trace {
	char root[128]; /**< the tracefs mount point */
	char dir[192];	/**< our instance */
	bool mounted;	/**< we mounted tracefs (and unmount it) */
	bool created;	/**< the instance exists (and must be removed) */
	unsigned ncpus; /**< per-CPU buffers */
	int *fds;	/**< per_cpu/cpuN/trace_pipe_raw */
	struct latprobe_page_layout layout;
	unsigned ids[LATPROBE_NEVENTS]; /**< event IDs, by enum latprobe_trace_kind */
	const char *irq_event;		/**< the timer interrupt's entry event used (system/name) */
	const char *irq_filter;		/**< its filter, or NULL */
	struct latprobe_field f_type, f_pid, f_timer_start, f_softexpires, f_timer_expire,
	    f_waking_pid, f_next_pid;
	unsigned char *page;
	size_t page_size;
	/* what was kept */
	struct latprobe_trace_event *ev;
	size_t n, cap, limit; /**< events kept, allocated, at most */
	/* what was lost */
	uint64_t lost_pages; /**< pages that said events were lost before them */
	uint64_t overrun;    /**< events overwritten or dropped by the kernel (per-CPU stats) */
	uint64_t over_limit; /**< events not kept because the limit was reached */
	uint64_t bad_pages;  /**< pages that could not be parsed */
};

/**
 * Set the session up and start tracing.
 * @param buffer_kb per-CPU buffer size. @param limit events kept at most.
 * @return 0, or an errno value with a message in @p err (EACCES/EPERM: not root; ENOENT: no
 *         tracefs or a missing event).
 */
int latprobe_trace_open(struct latprobe_trace *t, uint64_t buffer_kb, size_t limit, char *err,
			size_t errlen);

/**
 * Read what the kernel has buffered and keep the events of the threads @p tids: their timer
 * starts, wake-ups and switches-in, and every timer interrupt entry and timer expiry.
 * @return 0 or an errno value (ENOMEM when keeping an event failed).
 */
int latprobe_trace_drain(struct latprobe_trace *t, const pid_t *tids, unsigned ntids);

/** Stop tracing (the buffers keep what they hold for a last drain). */
void latprobe_trace_stop(struct latprobe_trace *t);

/**
 * Read the kernel's loss counters, close the buffers, remove the instance and unmount tracefs
 * if we mounted it. Safe to call after a failed or partial latprobe_trace_open().
 * @return 0, or the errno of a failed removal (with a message in @p err).
 */
int latprobe_trace_close(struct latprobe_trace *t, char *err, size_t errlen);

/** Free the kept events. */
void latprobe_trace_free(struct latprobe_trace *t);

#endif /* LATPROBE_TRACEFS_H */
