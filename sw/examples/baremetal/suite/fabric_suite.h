/*
 * The fabric-measured interrupt test-case suite (docs/hw/soc.md): every latency measured by a
 * latmon core in the fabric (suite/timer_suite.c is the A53 suite measured with the CPU's own
 * counter). The published interrupt test cases — baseline,
 * caches invalidated / data cache off, many enabled sources, priority of two simultaneous
 * interrupts, nested interrupts, parallel handlers on two harts, background memory traffic, and
 * throughput — each measured by latmon cores and written as one latmon-log.
 *
 * Portable part: the suite runner (suite/runner.c: the loop, the latmon-log output) and
 * suite/fabric_cases.c (the cases, one latmon-log each) use only platform.h (a CPU's cycles,
 * interrupts, nesting, caches, harts: cpu/<cpu>/) and the board functions declared here (the
 * fabric's test interrupt sources, their monitors and the traffic generator: board/<board>.c).
 */
#ifndef FFABRIC_SUITE_H
#define FFABRIC_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
#include "platform.h"
#include "suite/suite.h"

/* ---- what the host may change in the image before a run ------------------------------------ */

#define FSUITE_CONFIG_MAGIC 0x53554954u /* "SUIT" */

/** Words the host runner patches in the image (docs/hw/soc.md, "Running the suite"). */
struct fsuite_config {
	uint32_t magic;	       /**< FSUITE_CONFIG_MAGIC */
	uint32_t rounds;       /**< interrupts per case (per rate for throughput) */
	uint32_t cases;	       /**< bit i: run suite case i */
	uint32_t uart_divisor; /**< cycles per UART bit (0: keep the platform's) */
	uint32_t seed;	       /**< seed of the traffic generator */
	uint32_t inject;       /**< a broken handler for the watchdog's tests (FSUITE_INJECT_*) */
};

/* Broken handlers the tests inject (fsuite_config.inject; docs/hw/soc.md, "When a handler is
 * broken"). They are attached instead of the right ones; the right ones are unchanged. */
#define FSUITE_INJECT_NONE	  0u
#define FSUITE_INJECT_NO_ACK	  1u /* line 0's ISR never acknowledges its line */
#define FSUITE_INJECT_WRONG_ACK	  2u /* line 0's ISR acknowledges line 1 instead */
#define FSUITE_INJECT_SECOND_LINE 3u /* test line 5 raised, its ISR never acknowledges it */
#define FSUITE_INJECT_NO_READ	  4u /* the data ISR never reads DATA: data-ready stays high */
#define FSUITE_INJECT_SPIN	  5u /* the data ISR never returns */
#define FSUITE_INJECT_FAULT	  6u /* the data ISR executes an illegal instruction */

extern const volatile struct fsuite_config fsuite_config;

/* ---- the watchdog's parts of the CPU platform (cpu/<cpu>/platform.c) ----------------------- */

/**
 * The storm guard: a source served more than FSUITE_STORM_LIMIT times without the interrupted
 * code running in between is masked and recorded. @return 1 with its @p id, @p count and
 * @p hart for the first one since the last call (then forgotten), else 0. Attaching a handler
 * enables the source again.
 */
int platform_irq_storm(unsigned *id, uint32_t *count, unsigned *hart);
#define FSUITE_STORM_LIMIT 4096u /* above a batch's 1,000 interrupts */
/**
 * Report a storm the guard masked since the last call (platform_irq_storm) on the console,
 * naming the case @p name, its interrupt ID and count. @return 1 if there was one, else 0.
 */
int platform_storm_report(const char *name);
/** Tell the watchdog (another hart, where there is one) which case runs now (0: none). */
void platform_watch_case(const char *name);

/* ---- the injections (suite/fabric_inject.c) ------------------------------------------------- */

/* The handler to attach instead of @p right, the right one when nothing is injected; @p right's
 * context must begin with its uint32_t count. */
platform_isr_fn fsuite_inject_data_isr(platform_isr_fn right);
platform_isr_fn fsuite_inject_line0_isr(platform_isr_fn right);
/** The injected second line: attached and raised (@p on), or detached and cleared. */
void fsuite_inject_second_line(int on);

/* ---- board: the fabric's test sources (board/<board>.c) ------------------------------------ */

/** Number of test interrupt lines; line 0 can be driven by the stimulus generator. */
#define FSUITE_LINES 8
/** The line the platform uses to wake another hart (not for cases). */
#define FSUITE_LINE_DOORBELL 7

/** The interrupt id of test line @p line (for platform_irq_attach). */
unsigned board_line_irq(unsigned line);
/** The fabric's cycle counter (the time base of board_line_at). */
uint32_t board_now(void);
/** Raise test line @p line when board_now() equals @p when (one shot). */
void board_line_at(unsigned line, uint32_t when);
/** Raise the lines whose bits are set in @p mask now. */
void board_line_raise(uint32_t mask);
/** Acknowledge (lower) line @p line: the access that ends its measurement. */
void board_line_ack(unsigned line);
/** The levels of all lines. */
uint32_t board_line_pending(void);
/**
 * The latmon core measuring line @p line (0 or 1; NULL for the others): irq = the line's raise,
 * ack = board_line_ack(). The core of line 0 has the stimulus generator that raises line 0.
 */
struct latmon_mmio *board_line_monitor(unsigned line);
/**
 * Background memory traffic: random single-word accesses (reads and writes) of a bus master into
 * @p window (@p bytes, a power of two), 0..@p gap_max idle cycles apart; @p on 0 stops it.
 */
void board_traffic(int on, void *window, uint32_t bytes, uint32_t gap_max, uint32_t seed);
/** Accesses the traffic master completed. */
uint32_t board_traffic_count(void);

/* ---- the cases (suite/fabric_cases.c), run by the suite runner (suite/runner.c) ---------- */

/* The cases, in the order of fsuite_config.cases' bits. */
extern const struct suite_case fsuite_cases[];
extern const size_t fsuite_case_count;

#endif
