/*
 * The timer suite's two halves (docs/target/qemu.md, "The suite"): the runner (timer_suite.c:
 * which cases, the per-case watchdog, the latmon-log output, main) and the cases (timer_cases.c:
 * the table, the interrupt handlers' records and how a sample of each kind is measured). Both
 * reach the CPU only through platform.h.
 */
#ifndef SUITE_TIMER_SUITE_H
#define SUITE_TIMER_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

#define SUITE_SAMPLES 200u
#define SUITE_CORES   2u

enum suite_kind {
	KIND_TIMER,
	KIND_TIMER_IDLE,
	KIND_PRIORITY,
	KIND_NESTED,
	KIND_OTHER_CORE,
	KIND_CROSS_CORE,
};

struct suite_case {
	const char *name;
	const char *what;
	enum suite_kind kind;
	enum platform_caches caches;
	int many_irqs;
	int invalidate_each;
};

/* The cases, in the order the log lists them (timer_cases.c). */
extern const struct suite_case suite_cases[];
extern const size_t suite_case_count;

/*
 * Before the first case: the wait for an interrupt before it counts as lost and the lead of a
 * programmed timer, in counts; @p stopped returns nonzero when the watchdog has tripped (the
 * waits end then).
 */
void suite_cases_init(uint64_t timeout_ticks, uint64_t lead_ticks, int (*stopped)(void));
/* One sample of case @p c: its latency in counts; the priority case counts its order errors.
 * @return 0 or a positive errno value (ETIMEDOUT: the interrupt did not come). */
int suite_case_sample(const struct suite_case *c, int64_t *latency, uint32_t *order_errors);
/* Start core 1 serving the two-core cases. @return 0, or a positive errno value (EALREADY: it
 * did not start in time). */
int suite_core1_start(void);
/* Core 0's counts so far: timer entries that preempted the low-priority handler, and the
 * handler's waits for the timer that timed out. */
void suite_core0_counts(uint32_t *nested, uint32_t *soft_timeouts);

/* The handlers the platform calls (platform_timer_hooks), with the counter value on entry. */
void suite_on_timer(uint64_t entry);
void suite_on_soft_irq(uint64_t entry);

#endif
