/*
 * The portable suite runner (suite/runner.c) and what a case file gives it. One runner serves
 * both suites: the timer cases (suite/timer_cases.c: latencies of the CPU's own timer by its own
 * counter; docs/target/qemu.md) and the fabric cases (suite/fabric_cases.c: latencies measured
 * by latmon cores in the fabric; docs/hw/soc.md). An image links the runner and one case file;
 * both reach the CPU only through platform.h (the fabric cases also the board's test sources,
 * suite/fabric_suite.h).
 *
 * The runner's loop, per case chosen:
 *
 *   begin (the case file: announce it, arm its watchdog)   [the case's latmon-log begins]
 *   setup -> rounds x (arm -> wait -> check) -> finish     [... and ends]
 *   end (the case file: report a failure)
 *
 * A round is one measurement for the timer cases (one interrupt) and one batch for the fabric
 * cases (up to 1,000 interrupts, one read of the latmon cores' trace). The first error of setup,
 * arm, wait or check ends the rounds; finish always runs (it releases what setup took) and gets
 * that error.
 */
#ifndef SUITE_SUITE_H
#define SUITE_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon_log.h"

struct suite; /* the runner's state (suite/runner.c) */

/* Case flags. */
#define SUITE_DCACHE_OFF 0x1u /* the case runs on a stack that bypasses the data cache */

struct suite_case {
	/* first: the host reads the names from the image's symbol table through the table's
	 * entries (src/latmon/campaign/firmware.py) */
	const char *name;
	const char *description;
	const void *opts; /* the case file's options of this case */
	uint32_t flags;	  /* SUITE_* */
	/* declare the series, take the sources, set the rounds (suite_set_rounds; default 1) */
	int (*setup)(struct suite *s, const struct suite_case *c);
	int (*arm)(struct suite *s, const struct suite_case *c);   /* start one round */
	int (*wait)(struct suite *s, const struct suite_case *c);  /* until the round is served */
	int (*check)(struct suite *s, const struct suite_case *c); /* record the round */
	/* release what setup took; the counters; @p err: the rounds' first error. @return the
	 * case's result */
	int (*finish)(struct suite *s, const struct suite_case *c, int err);
};

/* What a case file gives the runner, besides its cases (as rtla's tool_ops). */
struct suite_ops {
	const struct suite_case *cases;
	size_t count;
	int log_per_case;  /* 1: one latmon-log per case; 0: one for the run, a series per case */
	size_t log_series; /* series per latmon-log */
	uint64_t *log_mem; /* the log writer's memory (latmon_log_writer_size(log_series)) */
	size_t log_mem_size;
	/* Before the first case: 0, or the program's exit status. @p chosen: bit i runs case i. */
	int (*init)(struct suite *s, uint32_t *chosen);
	/* The latmon-log's header (suite_log_begin), for case @p c (NULL: the run's one log). */
	int (*header)(struct suite *s, const struct suite_case *c);
	/* Around a case: before its log begins (0, or an error that fails the case unrun), and
	 * after it has ended (its result @p err: reported; @return 1 when the case failed). */
	int (*begin)(struct suite *s, const struct suite_case *c);
	int (*end)(struct suite *s, const struct suite_case *c, int err);
	/* After the last case (the run's log has ended, @p log_err its error): main's status. */
	int (*done)(struct suite *s, unsigned failed, int log_err);
};

extern const struct suite_ops suite_ops;

/* ---- for the case files (suite/runner.c) ---------------------------------------------------- */

/* Begin the latmon-log with these header lines (from suite_ops.header). */
int suite_log_begin(struct suite *s, const struct latmon_log_kv *kv, size_t n);
int suite_header(struct suite *s, const char *key, const char *value);
int suite_header_u64(struct suite *s, const char *key, uint64_t value);
/* A series @p id named @p name with further key=value pairs on its line. */
int suite_series(struct suite *s, unsigned id, const char *name, const struct latmon_log_kv *kv,
		 size_t n);
int suite_sample(struct suite *s, unsigned id, int64_t value);
int suite_counters(struct suite *s, unsigned id, const struct latmon_log_counter *c, size_t n);

/* The rounds of the case that runs (set by its setup), and the round that runs now. */
void suite_set_rounds(struct suite *s, uint32_t rounds);
uint32_t suite_round(const struct suite *s);

/* The program's command line (platform_cmdline; empty when there is none) and an option of it:
 * the value after "@p key=", or NULL. A "cases=NAME,NAME" option limits the cases that run. */
const char *suite_option(const struct suite *s, const char *key);
/* A decimal number at @p t (up to 3,600,000), 0 when there is none. */
uint64_t suite_parse_u64(const char *t);

/* Write @p text (a decimal @p v) on the console. */
void suite_say(const char *text);
void suite_say_u64(uint64_t v);

#endif
