/*
 * The interrupt test-case suite (docs/target/qemu.md, "The A53 suite"): the published interrupt
 * latency test cases of Horst et al. (fortiss) as far as an emulator can express them.
 *
 * suite/timer_suite.c is portable: the case table, the runner loop, the checks and the latmon-log
 * output. Everything a CPU defines — the timer, the interrupt controller, caches, the second core —
 * is behind the functions below, implemented per platform (cpu/a53/timer_suite.c: ARM generic
 * timer, GIC-400, MMU and caches, PSCI). The platform's interrupt handlers call suite_on_timer()
 * and suite_on_soft_irq() with the counter value they read first thing on entry.
 */
#ifndef SUITE_H
#define SUITE_H

#include <stddef.h>
#include <stdint.h>

/* ---- provided by the platform ---- */

/* The free-running counter the latencies are measured in, and its frequency. */
uint64_t suite_now(void);
uint64_t suite_clock_hz(void);

/* Program the measured interrupt (high priority) of this core to fire at counter value @p at. */
void suite_timer_fire_at(uint64_t at);

/* Make the low-priority software interrupt pending on @p core. */
void suite_soft_irq_raise(unsigned core);

/* Mask / unmask interrupts on this core (unmasking inside a handler allows nesting). */
void suite_irq_mask(void);
void suite_irq_unmask(void);

/* Idle (WFI) until an interrupt arrives, at the latest at counter value @p deadline (a
 * platform watchdog wakes the core then: a lost interrupt never leaves it asleep). */
void suite_idle_until(uint64_t deadline);

/* A hint inside a polling loop that another core is awaited (lets an emulator run it). */
void suite_relax(void);

enum suite_caches {
	SUITE_CACHES_ON,	 /* MMU on, normal memory write-back, I and D caches on */
	SUITE_CACHES_OFF,	 /* MMU and caches off */
	SUITE_CACHES_INVALIDATE, /* (caches on) clean and invalidate D, I and TLBs now */
};
/* @return 0, or a positive errno value (ENOTSUP: the platform has no such control). */
int suite_caches(enum suite_caches mode);

/*
 * Enable (@p on) or disable every interrupt the controller implements besides the suite's two.
 * @return how many further interrupts are enabled.
 */
unsigned suite_many_irqs(int on);

/*
 * Start core @p core running @p fn (with this core's cache set-up); fn never returns.
 * @return 0, or a positive errno value (the platform cannot start it).
 */
int suite_core_start(unsigned core, void (*fn)(void));

/* This core's number. */
unsigned suite_core_id(void);

/* Write text to the console. */
void suite_console_write(const char *data, size_t len);

/* For the log header: the CPU, the platform, whether it is an emulation ("yes", "no", or
 * "unknown" when the program cannot tell, e.g. as a Xen guest), and the hypervisor below the
 * program ("none" when it runs on the machine itself). */
extern const char SUITE_CPU_NAME[];
const char *suite_platform_name(void);
const char *suite_emulated(void);
const char *suite_hypervisor(void);

/*
 * The per-case watchdog's timer: a second timer of this core, independent of the measured
 * interrupt and above it in priority, that calls suite_watchdog_expired() at counter value
 * @p at (0: off). suite_idle_until() keeps it armed. @return 0, or ENOTSUP (no such timer: the
 * watchdog then has only the interrupt counts and the bounded waits).
 */
int suite_watchdog_at(uint64_t at);

/* Enable (@p on) or disable interrupt @p id at the controller, for this core. */
void suite_irq_line(unsigned id, int on);

/* Enable again the suite's own interrupts of this core (a case starts with them usable). */
void suite_irq_restore(void);

/* ---- called by the platform's interrupt handlers ---- */
void suite_on_timer(uint64_t entry);
void suite_on_soft_irq(uint64_t entry);

/*
 * The watchdog's view of every interrupt taken, called by the platform's dispatcher after the
 * acknowledge and before the handler: @return 0 to run the handler, or 1 when interrupt @p id
 * has fired more than the storm limit without the case advancing (a storm): the suite has
 * masked it (suite_irq_line) and recorded it; the platform ends it without the handler.
 * suite_irq_done() when its handler has returned.
 */
int suite_irq_entry(unsigned id);
void suite_irq_done(unsigned id);

/* The watchdog timer (suite_watchdog_at) expired: called in its interrupt handler. */
void suite_watchdog_expired(void);

/* Run every case, print the latmon-log; @return 0 when every case passed its checks. */
int suite_run(void);

#endif
