/*
 * The fabric-measured interrupt test-case suite (docs/hw/soc.md): every latency measured by a
 * latmon core in the fabric (suite/timer_suite.c is the A53 suite measured with the CPU's own
 * counter). The published interrupt test cases — baseline,
 * caches invalidated / data cache off, many enabled sources, priority of two simultaneous
 * interrupts, nested interrupts, parallel handlers on two harts, background memory traffic, and
 * throughput — each measured by latmon cores and written as one latmon-log.
 *
 * Portable part: suite/fabric_suite.c (runner, latmon-log output) and suite/fabric_cases.c (the
 * cases) use only platform.h (a CPU's cycles, interrupts, nesting, caches, harts: cpu/<cpu>/) and
 * the board functions declared here (the fabric's test interrupt sources, their monitors and the
 * traffic generator: board/<board>.c).
 */
#ifndef FFABRIC_SUITE_H
#define FFABRIC_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
#include "platform.h"

/* ---- what the host may change in the image before a run ------------------------------------ */

#define FSUITE_CONFIG_MAGIC 0x53554954u /* "SUIT" */

/** Words the host runner patches in the image (docs/hw/soc.md, "Running the suite"). */
struct fsuite_config {
	uint32_t magic;	       /**< FSUITE_CONFIG_MAGIC */
	uint32_t rounds;       /**< interrupts per case (per rate for throughput) */
	uint32_t cases;	       /**< bit i: run suite case i */
	uint32_t uart_divisor; /**< cycles per UART bit (0: keep the platform's) */
	uint32_t seed;	       /**< seed of the traffic generator */
};

extern const volatile struct fsuite_config fsuite_config;

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

/* ---- the suite (suite/fabric_suite.c, suite/fabric_cases.c) -------------------------------- */

struct fsuite;

/** One test case: writes one latmon-log through the suite's output functions. */
struct fsuite_case {
	const char *name;
	const char *description;
	int (*run)(struct fsuite *s, const struct fsuite_case *c);
};

extern const struct fsuite_case fsuite_cases[];
extern const size_t fsuite_case_count;

/* Output of a case (suite/fabric_suite.c): series, samples, counters, free header lines. */
int fsuite_header(struct fsuite *s, const char *key, const char *value);
int fsuite_header_u64(struct fsuite *s, const char *key, uint64_t value);
int fsuite_series(struct fsuite *s, unsigned id, const char *name, const char *channel);
int fsuite_sample(struct fsuite *s, unsigned id, uint32_t latency);
int fsuite_counters(struct fsuite *s, unsigned id, const struct latmon_log_counter *c, size_t n);
/** Interrupts per case, from the configuration. */
uint32_t fsuite_rounds(const struct fsuite *s);

#endif
