/*
 * --deepest-idle-state: on the measured CPUs only, the idle states deeper than N are disabled
 * for the run through cpuidle's per-CPU switches (<root>/cpuN/cpuidle/stateK/disable, root
 * /sys/devices/system/cpu), as cyclictest --deepest-idle-state and rtla do; every switch is
 * read before it is changed and written back afterwards. Unlike /dev/cpu_dma_latency (a global
 * PM QoS request), the other CPUs keep every idle state.
 */
#ifndef LATPROBE_IDLE_H
#define LATPROBE_IDLE_H

#include <stddef.h>

/** One switch latprobe changed and what it held before. */
struct latprobe_idle_saved {
	unsigned cpu;
	unsigned state;
	char before; /**< '0' or '1' */
};

struct latprobe_idle {
	char root[128];
	struct latprobe_idle_saved *saved;
	size_t nsaved;
	unsigned nstates; /**< idle states of the first measured CPU (for the header) */
};

/**
 * Disable the idle states deeper than @p deepest on each of @p cpus.
 * @param root the cpu directory ("/sys/devices/system/cpu"; a test may give another).
 * @return 0; ENOENT (no cpuidle for a CPU), EACCES/EPERM (not root), ENOMEM, or a write's errno,
 *         with a message in @p err. After a failure the switches already changed stay saved:
 *         latprobe_idle_restore() puts them back.
 */
int latprobe_idle_limit(struct latprobe_idle *idle, const char *root, const unsigned *cpus,
			unsigned ncpus, int deepest, char *err, size_t errlen);

/**
 * Write back every switch latprobe_idle_limit() changed, and free the record.
 * @return 0, or the errno of the first write that failed (message in @p err); the others are
 *         still written back.
 */
int latprobe_idle_restore(struct latprobe_idle *idle, char *err, size_t errlen);

#endif /* LATPROBE_IDLE_H */
