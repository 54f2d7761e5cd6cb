/*
 * The timer suite (docs/target/qemu.md, "The suite"): its cases (timer_cases.c: the table, the
 * interrupt handlers' records and how a sample of each kind is measured) and its per-case
 * watchdog (timer_watch.c), run by the suite runner (runner.c). All reach the CPU only through
 * platform.h (its timer section).
 */
#ifndef SUITE_TIMER_SUITE_H
#define SUITE_TIMER_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "suite/suite.h"

#define SUITE_SAMPLES 200u
#define SUITE_CORES   2u

/* The cases, in the order the log lists them (timer_cases.c). */
extern const struct suite_case suite_cases[];
extern const size_t suite_case_count;

/* ---- the watchdog (timer_watch.c) ---- */

/* Before the first case: the wait for an interrupt before it counts as lost, the time without
 * progress before the watchdog trips and the storm limit (0: none). */
void timer_watch_init(uint64_t timeout_ticks, uint64_t case_timeout_ticks, uint32_t storm_limit);
/* A case starts: its name for the reports, the suite's own interrupts enabled again. */
void timer_watch_case(const char *name);
/* The case advanced (a sample): the counts and the no-progress timer start again. */
void timer_watch_progress(void);
/* The case has ended: the no-progress timer off. */
void timer_watch_off(void);
/* Nonzero once the watchdog has tripped in this case (its waits end then). */
int timer_watch_tripped(void);
/* A storm recorded between cases: reported (@return 1), else 0. */
int timer_watch_storm_between(void);
/* Report case @p name's failure @p err at sample @p k, with what the watchdog recorded. */
void timer_watch_report(const char *name, unsigned k, int err);
/* Forget the record (reported with its case). */
void timer_watch_clear(void);
/* The platform's hooks: every interrupt taken (0: run its handler, 1: masked as a storm), its
 * handler returned, the watchdog timer expired. */
int timer_watch_irq_entry(unsigned id);
void timer_watch_irq_done(unsigned id);
void timer_watch_expired(void);

#endif
