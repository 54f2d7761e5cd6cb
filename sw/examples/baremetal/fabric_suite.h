/*
 * The fabric-measured interrupt test-case suite (docs/hw/soc.md): every latency measured by a
 * latmon core in the fabric (suite.c/suite.h is the A53 suite measured with the CPU's own
 * counter). The published interrupt test cases — baseline,
 * caches invalidated / data cache off, many enabled sources, priority of two simultaneous
 * interrupts, nested interrupts, parallel handlers on two harts, background memory traffic, and
 * throughput — each measured by latmon cores and written as one latmon-log.
 *
 * Portable part: fabric_suite.c (runner, latmon-log output) and fabric_suite_cases.c (the cases)
 * use only the
 * functions declared here. A platform implements the CPU part (platform_<cpu>.c: interrupts,
 * caches, cycle counter, harts) and the board part (fabric_suite_<board>.c: the fabric's test
 * interrupt sources, their monitors and the traffic generator).
 */
#ifndef FFABRIC_SUITE_H
#define FFABRIC_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon.h"
#include "latmon/latmon_log.h"

/*
 * The interrupt path's code (trap entry, dispatcher, ISRs and what they call) is kept together in
 * one section, so that a small direct-mapped instruction cache holds it beside the main loop.
 */
#define FSUITE_ISR_CODE __attribute__((section(".text.isr")))

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

/* ---- CPU platform (platform_<cpu>.c) -------------------------------------------------------- */

typedef void (*fsuite_isr_fn)(void *ctx);

/* The injections (fabric_suite_inject.c): the handler to attach instead of @p right, the right
 * one when nothing is injected; @p right's context must begin with its uint32_t count. */
fsuite_isr_fn fsuite_inject_data_isr(fsuite_isr_fn right);
fsuite_isr_fn fsuite_inject_line0_isr(fsuite_isr_fn right);
/** The injected second line: attached and raised (@p on), or detached and cleared. */
void fsuite_inject_second_line(int on);

/** The CPU's cycle counter (the clock of the fabric in the virtual SoC). */
uint64_t platform_cycles(void);
/** This hart's number, 0 .. platform_harts() - 1. */
unsigned platform_hart_id(void);
unsigned platform_harts(void);
/**
 * Call @p isr with @p ctx when interrupt @p id is raised on this hart; a lower id has the higher
 * priority. Enables the source and the CPU's interrupts.
 * @return 0 or EINVAL.
 */
int platform_irq_attach(unsigned id, fsuite_isr_fn isr, void *ctx);
/** Stop taking interrupt @p id on this hart. */
void platform_irq_detach(unsigned id);
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
/** 1: an ISR runs with interrupts of higher priority enabled (nesting); 0: it runs to its end. */
void platform_irq_nesting(int on);
/** Invalidate the instruction and data caches (write back first where they are write-back). */
void platform_cache_invalidate(void);
/**
 * Run @p fn(@p arg) with this hart's data cache bypassed for its stack and for every access
 * through platform_uncached() — on a core whose caches cannot be switched off at run time, by
 * an uncached alias of the memory. The ISRs that interrupt @p fn use the same stack.
 */
void platform_run_dcache_off(void (*fn)(void *), void *arg);
/** An address of the same memory that bypasses the data cache (shared between harts). */
void *platform_uncached(void *p);
/**
 * Start @p fn(@p arg) on hart @p hart (not the caller).
 * @return 0, ENODEV (no such hart) or EBUSY (it still runs earlier work).
 */
int platform_hart_start(unsigned hart, void (*fn)(void *), void *arg);
/** Wait until the work started on @p hart has returned. */
void platform_hart_join(unsigned hart);
/** The cycles one pass of platform_delay_loop(n) takes is what the ISR-loop case measures. */
void platform_delay_loop(uint32_t iterations);
/** Set the console's speed in clock cycles per bit (where the platform can). */
void platform_console_speed(uint32_t cycles_per_bit);
/** End the program with @p code (the virtual SoC's simulation ends; a board stops). */
void platform_exit(int code) __attribute__((noreturn));

/* ---- board: the fabric's test sources (fabric_suite_<board>.c)
 * ------------------------------------- */

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

/* ---- the suite (fabric_suite.c, fabric_suite_cases.c)
 * ------------------------------------------------- */

struct fsuite;

/** One test case: writes one latmon-log through the suite's output functions. */
struct fsuite_case {
	const char *name;
	const char *description;
	int (*run)(struct fsuite *s, const struct fsuite_case *c);
};

extern const struct fsuite_case fsuite_cases[];
extern const size_t fsuite_case_count;

/* Output of a case (fabric_suite.c): series, samples, counters, free header lines. */
int fsuite_header(struct fsuite *s, const char *key, const char *value);
int fsuite_header_u64(struct fsuite *s, const char *key, uint64_t value);
int fsuite_series(struct fsuite *s, unsigned id, const char *name, const char *channel);
int fsuite_sample(struct fsuite *s, unsigned id, uint32_t latency);
int fsuite_counters(struct fsuite *s, unsigned id, const struct latmon_log_counter *c, size_t n);
/** Interrupts per case, from the configuration. */
uint32_t fsuite_rounds(const struct fsuite *s);

#endif
