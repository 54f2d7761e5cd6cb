/*
 * The cases of the interrupt test-case suite (portable; docs/hw/soc.md). Every latency comes
 * from a latmon core read through liblatmon; the firmware only counts what its ISRs did.
 *
 *   T1/T2 cases (the reference design: timer -> data generator -> FIFO -> pl_ps_irq -> ISR reads
 *   DATA; T1 = timer -> data ready, T2 = data ready -> the ISR's read):
 *     baseline, isr-loop100, cache-invalidate, dcache-off, many-sources, bus-traffic
 *   line cases (two test lines, each with its own latmon core; ack = the ISR's ACK write):
 *     priority, nested-off, nested-on, parallel
 *   throughput: the stimulus generator raises line 0 periodically, faster and faster.
 */
#include <stdint.h>

#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
#include "latmon/latmon_map.h"
#include "latmon/latmon_regs.h"
#include "latmon_errno.h"
#include "platform.h"
#include "suite/fabric_suite.h"
#include "suite/suite.h"

/* The reference design's layout (docs/hw/refdesign.md), wherever the platform maps it. */
#define REF_BASE	 (PLATFORM_DATA_ADDR - 0x20000u)
#define REF_T1		 (REF_BASE + 0x00000u)
#define REF_T2		 (REF_BASE + 0x10000u)
#define REF_DATA	 PLATFORM_DATA_ADDR
#define REF_TIMER_PERIOD (REF_BASE + 0x20004u)
#define REF_GEN_DELAY	 (REF_BASE + 0x20008u)
#define REF_CTRL	 (REF_BASE + 0x2000Cu)
#define REF_FIFO_LEVEL	 (REF_BASE + 0x20010u)
#define REF_DROPPED	 (REF_BASE + 0x20014u)
#define REG(addr)	 (*(volatile uint32_t *)(uintptr_t)(addr))

#define TIMER_PERIOD 1000u    /* cycles between timer interrupts: 100 kHz at 100 MHz */
#define GEN_DELAY    50u      /* cycles the fabric takes to produce a word (T1 = GEN_DELAY + 2) */
#define BATCH	     1000u    /* interrupts per trace read: below the 1,024-sample trace RAM */
#define TIMEOUT	     1000000u /* a measurement without ack ends after 10 ms: counted, not hung */
#define LOOP_ITER    100u     /* iterations of the isr-loop100 case's delay loop */

/* With the caches invalidated, one interrupt's service, the invalidation and the waiting loop's
 * refills take longer than TIMER_PERIOD: the next interrupt would find the CPU still in them, at
 * a phase that drifts, T2 would measure that phase, and the loop would see the batch's last
 * interrupt too late to stop the timer before more came. At this period each interrupt finds
 * the caches empty and the CPU in its waiting loop. */
#define COLD_TIMER_PERIOD 4000u

enum { SERIES_T1 = 0, SERIES_T2 = 1 };

static uint32_t trace_buf[BATCH + 24];
/* The generator's next data word is xorshift of this: the sequence runs on across the cases. */
static uint32_t data_word = 0x2545F491u;

PLATFORM_ISR_CODE static uint32_t xorshift(uint32_t x)
{
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

/* ---- latmon cores ----------------------------------------------------------------------- */

struct monitor {
	struct latmon_mmio mmio;
	struct latmon_dev dev;
	/* summed over the batches of a case */
	uint64_t count, overruns, timeouts, ignored, trace_lost, samples;
};

static int monitor_attach(struct monitor *m, uintptr_t base)
{
	struct latmon_hal hal;
	struct latmon_config cfg = { LATMON_RISING, LATMON_RISING, TIMEOUT, 0, 0, 0, 0, 0, 0, 0 };
	int err;

	m->mmio.base = (volatile uint32_t *)base;
	m->mmio.size = 0x10000u;
	m->count = m->overruns = m->timeouts = m->ignored = m->trace_lost = m->samples = 0;
	latmon_hal_mmio(&hal, &m->mmio);
	err = latmon_attach(&m->dev, &hal, PLATFORM_FABRIC_HZ);
	if (!err)
		err = latmon_configure(&m->dev, &cfg);
	if (!err)
		err = latmon_arm(&m->dev, 0);
	return err;
}

static int monitor_start(struct monitor *m)
{
	int err = latmon_clear(&m->dev);

	return err ? err : latmon_arm(&m->dev, 1);
}

/* Stop, add the counters, print the batch's samples as series @p id. */
static int monitor_drain(struct suite *s, struct monitor *m, unsigned id)
{
	struct latmon_stats st;
	uint32_t first;
	size_t n;
	int err = latmon_arm(&m->dev, 0);

	if (!err)
		err = latmon_read_stats(&m->dev, &st);
	if (!err)
		err = latmon_read_trace(&m->dev, trace_buf, sizeof trace_buf / sizeof trace_buf[0],
					&first, &n);
	if (err)
		return err;
	m->count += st.count;
	m->overruns += st.overruns;
	m->timeouts += st.timeouts;
	m->ignored += st.ignored;
	m->trace_lost += st.trace_lost;
	m->samples += n;
	for (size_t k = 0; k < n && !err; k++)
		err = suite_sample(s, id, trace_buf[k]);
	return err;
}

static int monitor_counters(struct suite *s, struct monitor *m, unsigned id)
{
	struct latmon_log_counter c[] = {
		{ "events", m->count },	   { "overruns", m->overruns }, { "timeouts", m->timeouts },
		{ "ignored", m->ignored }, { "lost", m->trace_lost },
	};

	return suite_counters(s, id, c, sizeof c / sizeof c[0]);
}

static void wait_cycles(uint64_t cycles)
{
	uint64_t until = platform_cycles() + cycles;

	while (platform_cycles() < until) {
	}
}

/* A series of the case's log, on test line or path @p channel. */
static int series(struct suite *s, unsigned id, const char *name, const char *channel)
{
	struct latmon_log_kv kv[] = { { "channel", channel } };

	return suite_series(s, id, name, kv, 1);
}

/* Interrupts per case, from the configuration (suite_ops.init). */
static uint32_t case_rounds;

/* The rounds of @p total interrupts in batches: how many, and the size of the next one. */
static uint32_t batches(uint32_t total)
{
	return (total + BATCH - 1u) / BATCH;
}

static uint32_t next_batch(uint32_t remaining)
{
	return remaining < BATCH ? remaining : BATCH;
}

/* ---- T1/T2 cases -------------------------------------------------------------------------- */

struct t1t2_options {
	platform_isr_fn isr;
	int invalidate; /* invalidate both caches before each interrupt */
	unsigned extra; /* further enabled sources: test lines 2 .. 2 + extra - 1 */
	int traffic;	/* background memory traffic of the bus master */
	int loop; /* the isr-loop case: the delay loop's iterations and cycles in the header */
	uint32_t period; /* cycles between timer interrupts */
};

/* What the ISRs share with the case (uncached in dcache-off). */
struct t1t2_state {
	volatile uint32_t count;
	uint32_t expect, data_errors;
	uint32_t extra_period[FSUITE_LINES];
	volatile uint32_t extra_count[FSUITE_LINES];
};

/* A T1/T2 case's run: what its rounds share. */
struct t1t2_run {
	struct monitor t1, t2;
	struct t1t2_state st;
	uint32_t remaining, batch, batch_start;
};

static struct t1t2_run t1t2_mem;
static struct t1t2_run *t1t2; /* t1t2_mem, through the uncached alias in dcache-off */

PLATFORM_ISR_CODE static void isr_data(void *ctx)
{
	struct t1t2_state *st = ctx;
	uint32_t word = REG(REF_DATA); /* the ack of T2: the ISR's first access to the fabric */

	st->expect = xorshift(st->expect);
	if (word != st->expect)
		st->data_errors++;
	st->count = st->count + 1u;
}

PLATFORM_ISR_CODE static void isr_data_loop100(void *ctx)
{
	platform_delay_loop(LOOP_ITER); /* the only difference to isr_data */
	isr_data(ctx);
}

/* A further periodic source: acknowledge, schedule the next raise, count. */
PLATFORM_ISR_CODE static void isr_extra(void *ctx, unsigned line)
{
	struct t1t2_state *st = ctx;

	board_line_ack(line);
	board_line_at(line, board_now() + st->extra_period[line]);
	st->extra_count[line] = st->extra_count[line] + 1u;
}

PLATFORM_ISR_CODE static void isr_extra2(void *ctx)
{
	isr_extra(ctx, 2);
}
PLATFORM_ISR_CODE static void isr_extra3(void *ctx)
{
	isr_extra(ctx, 3);
}
PLATFORM_ISR_CODE static void isr_extra4(void *ctx)
{
	isr_extra(ctx, 4);
}
PLATFORM_ISR_CODE static void isr_extra5(void *ctx)
{
	isr_extra(ctx, 5);
}
PLATFORM_ISR_CODE static void isr_extra6(void *ctx)
{
	isr_extra(ctx, 6);
}

static const platform_isr_fn extra_isrs[] = { isr_extra2, isr_extra3, isr_extra4, isr_extra5,
					      isr_extra6 };
/* cycles between raises of each further source: primes, so that they meet T2's interrupt at
 * every phase */
static const uint32_t extra_periods[] = { 1031, 1447, 1999, 2503, 3001 };
#define EXTRA_MAX (sizeof extra_isrs / sizeof extra_isrs[0])

static uint32_t traffic_window[1024] __attribute__((aligned(4096)));

/* The cycles platform_delay_loop(LOOP_ITER) takes, by the CPU's own cycle counter. */
static uint64_t loop_cycles(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 4; i++) {
		uint64_t t0 = platform_cycles();
		platform_delay_loop(LOOP_ITER);
		uint64_t t1 = platform_cycles();
		uint64_t t2 = platform_cycles();
		uint64_t cost = (t1 - t0) - (t2 - t1); /* minus one reading of the counter */
		if (cost < best)
			best = cost;
	}
	return best;
}

static int t1t2_setup(struct suite *s, const struct suite_case *c)
{
	const struct t1t2_options *o = c->opts;
	struct t1t2_run *r =
	    (c->flags & SUITE_DCACHE_OFF) ? platform_uncached(&t1t2_mem) : &t1t2_mem;
	struct t1t2_state *st = &r->st;
	int err = 0;

	t1t2 = r;
	st->count = 0;
	st->data_errors = 0;
	for (unsigned k = 0; k < FSUITE_LINES; k++) {
		st->extra_period[k] = 0;
		st->extra_count[k] = 0;
	}
	r->remaining = case_rounds;
	suite_set_rounds(s, batches(case_rounds));
	if (o->loop && !(err = suite_header_u64(s, "isr_loop_iterations", LOOP_ITER)))
		err = suite_header_u64(s, "isr_loop_cycles", loop_cycles());
	if (err || (err = series(s, SERIES_T1, "T1", "timer-to-data-ready")) ||
	    (err = series(s, SERIES_T2, "T2", "data-ready-to-isr-read")) ||
	    (err = monitor_attach(&r->t1, REF_T1)) || (err = monitor_attach(&r->t2, REF_T2)))
		return err;
	/* the data words continue where an earlier case left the generator */
	st->expect = data_word;
	REG(REF_CTRL) = 0;
	REG(REF_TIMER_PERIOD) = o->period;
	REG(REF_GEN_DELAY) = GEN_DELAY;
	if (o->traffic)
		board_traffic(1, traffic_window, sizeof traffic_window, 8u, fsuite_config.seed);
	for (unsigned k = 0; k < o->extra && k < EXTRA_MAX; k++) {
		st->extra_period[2 + k] = extra_periods[k];
		platform_irq_attach(board_line_irq(2 + k), extra_isrs[k], st);
		board_line_at(2 + k, board_now() + extra_periods[k]);
	}
	platform_irq_attach(PLATFORM_FABRIC_IRQ, fsuite_inject_data_isr(o->isr), st);
	fsuite_inject_second_line(1);
	return 0;
}

static int t1t2_arm(struct suite *s, const struct suite_case *c)
{
	const struct t1t2_options *o = c->opts;
	struct t1t2_run *r = t1t2;
	int err;

	(void)s;
	r->batch = next_batch(r->remaining);
	if ((err = monitor_start(&r->t1)) || (err = monitor_start(&r->t2)))
		return err;
	r->batch_start = r->st.count;
	if (o->invalidate)
		platform_cache_invalidate();
	REG(REF_CTRL) = 1; /* timer on */
	return 0;
}

/*
 * The main loop the interrupts meet, in its own section beside the interrupt path; the option is
 * read on every pass (what the interrupt meets is part of T2). The timer stops as soon as the
 * batch is served, before any cold code runs: one more period would raise one more interrupt.
 */
PLATFORM_WAIT_CODE static int t1t2_wait(struct suite *s, const struct suite_case *c)
{
	const volatile int *invalidate = &((const struct t1t2_options *)c->opts)->invalidate;
	struct t1t2_state *st = &t1t2->st;
	const uint32_t batch_start = t1t2->batch_start, batch = t1t2->batch;
	uint32_t seen = batch_start;

	(void)s;
	while (st->count - batch_start < batch) {
		if (*invalidate && st->count != seen) {
			seen = st->count;
			platform_cache_invalidate();
		}
	}
	REG(REF_CTRL) = 0;
	return 0;
}

static int t1t2_check(struct suite *s, const struct suite_case *c)
{
	struct t1t2_run *r = t1t2;
	int err;

	(void)c;
	/* a word may still be on its way: let it arrive and be served */
	wait_cycles(4u * GEN_DELAY + 2000u);
	while (REG(REF_FIFO_LEVEL) != 0) {
	}
	if ((err = monitor_drain(s, &r->t1, SERIES_T1)) ||
	    (err = monitor_drain(s, &r->t2, SERIES_T2)))
		return err;
	r->remaining -= r->batch;
	return 0;
}

static int t1t2_finish(struct suite *s, const struct suite_case *c, int err)
{
	const struct t1t2_options *o = c->opts;
	struct t1t2_run *r = t1t2;
	struct t1t2_state *st = &r->st;

	platform_irq_detach(PLATFORM_FABRIC_IRQ);
	fsuite_inject_second_line(0);
	for (unsigned k = 0; k < o->extra && k < EXTRA_MAX; k++) {
		platform_irq_detach(board_line_irq(2 + k));
		board_line_ack(2 + k);
	}
	board_traffic(0, 0, 0, 0, 0);
	if (st->expect)
		data_word = st->expect;
	if (!err)
		err = monitor_counters(s, &r->t1, SERIES_T1);
	if (!err)
		err = monitor_counters(s, &r->t2, SERIES_T2);
	if (!err) {
		uint64_t extra = 0;
		for (unsigned k = 0; k < FSUITE_LINES; k++)
			extra += st->extra_count[k];
		struct latmon_log_counter k[] = {
			{ "served", st->count },
			{ "data_errors", st->data_errors },
			{ "dropped_words", REG(REF_DROPPED) },
			{ "other_interrupts", extra },
			{ "traffic_accesses", o->traffic ? board_traffic_count() : 0 },
		};
		err = suite_counters(s, SERIES_T2, k, sizeof k / sizeof k[0]);
	}
	return err;
}

static const struct t1t2_options baseline = { isr_data, 0, 0, 0, 0, TIMER_PERIOD };
static const struct t1t2_options isr_loop = { isr_data_loop100, 0, 0, 0, 1, TIMER_PERIOD };
static const struct t1t2_options cache_invalidate = { isr_data, 1, 0, 0, 0, COLD_TIMER_PERIOD };
static const struct t1t2_options many_sources = { isr_data, 0, 5, 0, 0, TIMER_PERIOD };
static const struct t1t2_options bus_traffic = { isr_data, 0, 0, 1, 0, TIMER_PERIOD };

/* ---- line cases: two simultaneous, nested, parallel -------------------------------------- */

enum line_mode { PRIORITY, NESTED_OFF, NESTED_ON, PARALLEL };

#define LOW_WORK   200u /* delay-loop iterations of the low-priority ISR after its ack */
#define NEST_DELAY 80u	/* cycles from the low line's raise to the high line's raise */
#define ROUND_GAP  400u /* cycles from scheduling to the first raise */

/* Shared by the harts: always accessed through platform_uncached(). */
struct line_state {
	uint32_t count[2];
	uint32_t stop;
};

static struct line_state line_shared;

/* A line case's run: what its rounds share. */
static struct {
	struct monitor high, low;
	uint32_t remaining, batch;
	int skipped; /* the parallel case on one hart */
} lines;

PLATFORM_ISR_CODE static void isr_line0(void *ctx)
{
	volatile struct line_state *st = ctx;

	board_line_ack(0);
	st->count[0] = st->count[0] + 1u;
}

PLATFORM_ISR_CODE static void isr_line1(void *ctx)
{
	volatile struct line_state *st = ctx;

	board_line_ack(1);
	platform_delay_loop(LOW_WORK);
	st->count[1] = st->count[1] + 1u;
}

/* Hart 1's loop in the parallel case, which its interrupt meets: in the waiting loops' section. */
PLATFORM_WAIT_CODE static void hart1_lines(void *arg)
{
	volatile struct line_state *st = arg;

	platform_irq_attach(board_line_irq(1), isr_line1, arg);
	while (!st->stop)
		platform_delay_loop(100);
	platform_irq_detach(board_line_irq(1));
}

static enum line_mode line_mode(const struct suite_case *c)
{
	return *(const enum line_mode *)c->opts;
}

static int lines_setup(struct suite *s, const struct suite_case *c)
{
	volatile struct line_state *st = platform_uncached(&line_shared);
	enum line_mode mode = line_mode(c);
	int err;

	lines.skipped = mode == PARALLEL && platform_harts() < 2;
	if (lines.skipped) {
		suite_set_rounds(s, 0);
		return suite_header(s, "skipped", "one-hart-only");
	}
	lines.remaining = case_rounds;
	suite_set_rounds(s, batches(case_rounds));
	if ((err = series(s, 0, "high", "line0")) || (err = series(s, 1, "low", "line1")) ||
	    (err = monitor_attach(&lines.high, (uintptr_t)board_line_monitor(0)->base)) ||
	    (err = monitor_attach(&lines.low, (uintptr_t)board_line_monitor(1)->base)))
		return err;
	st->count[0] = st->count[1] = 0;
	st->stop = 0;
	platform_irq_nesting(mode == NESTED_ON);
	platform_irq_attach(board_line_irq(0), fsuite_inject_line0_isr(isr_line0), (void *)st);
	if (mode == PARALLEL) {
		if ((err = platform_hart_start(1, hart1_lines, (void *)st)))
			return err;
		wait_cycles(2000); /* hart 1 has attached its handler */
	} else {
		platform_irq_attach(board_line_irq(1), isr_line1, (void *)st);
	}
	return 0;
}

static int lines_arm(struct suite *s, const struct suite_case *c)
{
	int err;

	(void)s;
	(void)c;
	lines.batch = next_batch(lines.remaining);
	if ((err = monitor_start(&lines.high)) || (err = monitor_start(&lines.low)))
		return err;
	return 0;
}

/* Each round of the batch: both lines scheduled, then waited for; in its own section beside
 * the interrupt path. */
PLATFORM_WAIT_CODE static int lines_wait(struct suite *s, const struct suite_case *c)
{
	volatile struct line_state *st = platform_uncached(&line_shared);
	const uint32_t batch = lines.batch;
	const int together = line_mode(c) == PRIORITY || line_mode(c) == PARALLEL;

	(void)s;
	for (uint32_t r = 0; r < batch; r++) {
		uint32_t c0 = st->count[0], c1 = st->count[1], t = board_now() + ROUND_GAP;
		/* the low-priority line first: when both are due in one cycle, its comparator is
		 * armed too */
		board_line_at(1, t);
		board_line_at(0, together ? t : t + NEST_DELAY);
		while (st->count[0] == c0 || st->count[1] == c1)
			platform_delay_loop(20);
	}
	return 0;
}

static int lines_check(struct suite *s, const struct suite_case *c)
{
	int err;

	(void)c;
	wait_cycles(500);
	if ((err = monitor_drain(s, &lines.high, 0)) || (err = monitor_drain(s, &lines.low, 1)))
		return err;
	lines.remaining -= lines.batch;
	return 0;
}

static int lines_finish(struct suite *s, const struct suite_case *c, int err)
{
	volatile struct line_state *st = platform_uncached(&line_shared);
	enum line_mode mode = line_mode(c);

	if (lines.skipped)
		return err;
	platform_irq_detach(board_line_irq(0));
	if (mode == PARALLEL) {
		st->stop = 1;
		platform_hart_join(1);
	} else {
		platform_irq_detach(board_line_irq(1));
	}
	platform_irq_nesting(0);
	if (!err)
		err = monitor_counters(s, &lines.high, 0);
	if (!err)
		err = monitor_counters(s, &lines.low, 1);
	if (!err) {
		struct latmon_log_counter k[] = { { "served", st->count[0] }, { "hart", 0 } };
		err = suite_counters(s, 0, k, 2);
	}
	if (!err) {
		struct latmon_log_counter k[] = { { "served", st->count[1] },
						  { "hart", mode == PARALLEL ? 1u : 0u },
						  { "work_iterations", LOW_WORK } };
		err = suite_counters(s, 1, k, 3);
	}
	return err;
}

static const enum line_mode priority = PRIORITY, nested_off = NESTED_OFF, nested_on = NESTED_ON,
			    parallel = PARALLEL;

/* ---- throughput ---------------------------------------------------------------------------- */

/* Stimulus periods in cycles, slowest first: one round each. */
static const uint32_t throughput_periods[] = { 2000, 1000, 500, 300, 200, 150,
					       120,  100,  80,	60,  40,  20 };
#define RATES (sizeof throughput_periods / sizeof throughput_periods[0])

static struct {
	struct monitor m;
	uint32_t total, sustained;
	uint64_t overruns_before;
} tput;

static int throughput_setup(struct suite *s, const struct suite_case *c)
{
	volatile struct line_state *st = platform_uncached(&line_shared);
	int err;

	(void)c;
	tput.total = case_rounds < BATCH ? case_rounds : BATCH;
	tput.sustained = 0;
	suite_set_rounds(s, RATES);
	if ((err = monitor_attach(&tput.m, (uintptr_t)board_line_monitor(0)->base)))
		return err;
	for (size_t i = 0; i < RATES && !err; i++) {
		char name[8] = "p";
		uint32_t p = throughput_periods[i], digits = 0;
		for (uint32_t v = p; v; v /= 10u)
			digits++;
		for (uint32_t v = p, d = digits; d; v /= 10u, d--)
			name[d] = (char)('0' + v % 10u);
		err = series(s, (unsigned)i, name, "line0");
	}
	platform_irq_attach(board_line_irq(0), fsuite_inject_line0_isr(isr_line0), (void *)st);
	return err;
}

static int throughput_arm(struct suite *s, const struct suite_case *c)
{
	volatile struct line_state *st = platform_uncached(&line_shared);
	struct latmon_stim stim = {
		0, throughput_periods[suite_round(s)], 0, 0, 0, 0, tput.total, 1, 0, 0
	};
	int err;

	(void)c;
	tput.overruns_before = tput.m.overruns;
	st->count[0] = 0;
	if ((err = monitor_start(&tput.m)) || (err = latmon_stim_start(&tput.m.dev, &stim)))
		return err;
	return 0;
}

/* The loop a rate's interrupts meet: in the waiting loops' section, beside the interrupt path. */
PLATFORM_WAIT_CODE static int throughput_wait(struct suite *s, const struct suite_case *c)
{
	uint32_t status = 0;
	int err = 0;

	(void)s;
	(void)c;
	while (!(status & LATMON_REGISTERS__STIM_STATUS__DONE_bm) && !err)
		err = tput.m.dev.hal.read32(tput.m.dev.hal.ctx, LATMON_STIM_STATUS_OFFSET, &status);
	return err;
}

static int throughput_check(struct suite *s, const struct suite_case *c)
{
	volatile struct line_state *st = platform_uncached(&line_shared);
	unsigned i = suite_round(s);
	uint32_t served;
	uint64_t overruns;
	int err;

	(void)c;
	wait_cycles(2000);
	served = st->count[0];
	if ((err = monitor_drain(s, &tput.m, i)))
		return err;
	overruns = tput.m.overruns - tput.overruns_before;
	struct latmon_log_counter k[] = {
		{ "period", throughput_periods[i] },
		{ "sent", tput.total },
		{ "served", served },
		{ "overruns", overruns },
		{ "lost", tput.total - served },
	};
	err = suite_counters(s, i, k, sizeof k / sizeof k[0]);
	if (!err && served == tput.total && overruns == 0)
		tput.sustained = throughput_periods[i];
	return err;
}

static int throughput_finish(struct suite *s, const struct suite_case *c, int err)
{
	(void)c;
	platform_irq_detach(board_line_irq(0));
	if (!err) {
		struct latmon_log_counter k[] = { { "sustained_period", tput.sustained } };
		err = suite_counters(s, 0, k, 1);
	}
	return err;
}

/* ---- the table ----------------------------------------------------------------------------- */

#define T1T2(opts, flags) &(opts), (flags), t1t2_setup, t1t2_arm, t1t2_wait, t1t2_check, t1t2_finish
#define LINES(mode)	  &(mode), 0, lines_setup, lines_arm, lines_wait, lines_check, lines_finish

/* The one home of the case names and their order: the host reads this table and its length from
 * the image's symbol table (src/latmon/campaign/firmware.py); bit i of fsuite_config.cases runs
 * entry i. */
const struct suite_case fsuite_cases[] = {
	{ "baseline", "T1/T2, caches on and warm, one source", T1T2(baseline, 0) },
	{ "isr-loop100", "baseline with a 100-iteration loop in the ISR before its read",
	  T1T2(isr_loop, 0) },
	{ "cache-invalidate", "instruction and data caches invalidated before each interrupt",
	  T1T2(cache_invalidate, 0) },
	{ "dcache-off", "data cache bypassed for the stack and the ISR's data",
	  T1T2(baseline, SUITE_DCACHE_OFF) },
	{ "many-sources", "five more periodic sources enabled (lower priority)",
	  T1T2(many_sources, 0) },
	{ "priority", "two simultaneous interrupts on one hart, served high first",
	  LINES(priority) },
	{ "nested-off", "high raised during the low ISR's work, no nesting", LINES(nested_off) },
	{ "nested-on", "high raised during the low ISR's work, nesting enabled", LINES(nested_on) },
	{ "parallel", "two simultaneous interrupts, one per hart", LINES(parallel) },
	{ "bus-traffic", "baseline with random memory traffic of a second bus master",
	  T1T2(bus_traffic, 0) },
	{ "throughput", "stimulus generator sweep: highest rate without a lost interrupt", 0, 0,
	  throughput_setup, throughput_arm, throughput_wait, throughput_check, throughput_finish },
};

const size_t fsuite_case_count = sizeof fsuite_cases / sizeof fsuite_cases[0];

/* ---- the run: configuration, one latmon-log per case, the watchdog ------------------------- */

/* Patched by the host runner in the image (docs/hw/soc.md); these are the defaults. */
__attribute__((used)) const volatile struct fsuite_config fsuite_config = {
	FSUITE_CONFIG_MAGIC, 200u, 0xFFFFFFFFu, 0u, 1u, FSUITE_INJECT_NONE,
};

#define MAX_SERIES 24
static uint64_t log_mem[640]; /* latmon_log_writer_size(24) is 4,736 bytes on rv32 */

static int fabric_init(struct suite *s, uint32_t *chosen)
{
	(void)s;
	if (fsuite_config.magic != FSUITE_CONFIG_MAGIC) {
		suite_say("suite: the configuration block is damaged\n");
		return 2;
	}
	if (fsuite_config.uart_divisor)
		platform_console_speed(fsuite_config.uart_divisor);
	case_rounds = fsuite_config.rounds ? fsuite_config.rounds : 1u;
	*chosen = fsuite_config.cases;
	return 0;
}

static int fabric_header(struct suite *s, const struct suite_case *c)
{
	char clock[LATMON_LOG_U64_TEXT], harts[LATMON_LOG_U64_TEXT];
	struct latmon_log_kv header[] = {
		{ "source", "latmon-soc-suite" },
		{ "unit", "cycles" },
		{ "clock_hz", latmon_log_format_u64(clock, PLATFORM_FABRIC_HZ) },
		{ "cpu", PLATFORM_CPU_NAME },
		{ "scenario", c->name },
		{ "description", c->description },
		{ "harts", latmon_log_format_u64(harts, platform_harts()) },
	};

	return suite_log_begin(s, header, sizeof header / sizeof header[0]);
}

static int fabric_begin(struct suite *s, const struct suite_case *c)
{
	(void)s;
	platform_watch_case(c->name);
	return 0;
}

static int fabric_end(struct suite *s, const struct suite_case *c, int err)
{
	(void)s;
	if (platform_storm_report(c->name) && !err)
		err = EIO; /* measured, but with a line masked */
	if (!err)
		return 0;
	suite_say("suite: case ");
	suite_say(c->name);
	suite_say(" failed: ");
	suite_say(latmon_strerror(err));
	suite_say("\n");
	return 1;
}

static int fabric_done(struct suite *s, unsigned failed, int log_err)
{
	(void)s;
	(void)log_err; /* a log's error failed its case */
	platform_watch_case(0);
	return failed ? 1 : 0;
}

const struct suite_ops suite_ops = {
	.cases = fsuite_cases,
	.count = sizeof fsuite_cases / sizeof fsuite_cases[0],
	.log_per_case = 1,
	.log_series = MAX_SERIES,
	.log_mem = log_mem,
	.log_mem_size = sizeof log_mem,
	.init = fabric_init,
	.header = fabric_header,
	.begin = fabric_begin,
	.end = fabric_end,
	.done = fabric_done,
};
