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
#include "platform.h"
#include "suite/fabric_suite.h"

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
static int monitor_drain(struct fsuite *s, struct monitor *m, unsigned id)
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
		err = fsuite_sample(s, id, trace_buf[k]);
	return err;
}

static int monitor_counters(struct fsuite *s, struct monitor *m, unsigned id)
{
	struct latmon_log_counter c[] = {
		{ "events", m->count },	   { "overruns", m->overruns }, { "timeouts", m->timeouts },
		{ "ignored", m->ignored }, { "lost", m->trace_lost },
	};

	return fsuite_counters(s, id, c, sizeof c / sizeof c[0]);
}

static void wait_cycles(uint64_t cycles)
{
	uint64_t until = platform_cycles() + cycles;

	while (platform_cycles() < until) {
	}
}

/* ---- T1/T2 cases -------------------------------------------------------------------------- */

struct t1t2_options {
	platform_isr_fn isr;
	int invalidate;	 /* invalidate both caches before each interrupt */
	int dcache_off;	 /* stack and ISR data bypass the data cache */
	unsigned extra;	 /* further enabled sources: test lines 2 .. 2 + extra - 1 */
	int traffic;	 /* background memory traffic of the bus master */
	uint32_t period; /* cycles between timer interrupts */
};

/* What the ISRs share with the case (on its stack: uncached in dcache-off). */
struct t1t2_state {
	volatile uint32_t count;
	uint32_t expect, data_errors;
	uint32_t extra_period[FSUITE_LINES];
	volatile uint32_t extra_count[FSUITE_LINES];
};

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

static uint32_t traffic_window[1024] __attribute__((aligned(4096)));

struct t1t2_run {
	struct fsuite *s;
	const struct t1t2_options *o;
	int err;
};

static int t1t2_body(struct fsuite *s, const struct t1t2_options *o)
{
	struct monitor t1, t2;
	struct t1t2_state st = { 0, 0x2545F491u, 0, { 0 }, { 0 } };
	uint32_t remaining = fsuite_rounds(s), batch_start;
	unsigned k;
	int err;

	if ((err = fsuite_series(s, SERIES_T1, "T1", "timer-to-data-ready")) ||
	    (err = fsuite_series(s, SERIES_T2, "T2", "data-ready-to-isr-read")) ||
	    (err = monitor_attach(&t1, REF_T1)) || (err = monitor_attach(&t2, REF_T2)))
		return err;
	/* the data words continue where an earlier case left the generator */
	st.expect = data_word;
	REG(REF_CTRL) = 0;
	REG(REF_TIMER_PERIOD) = o->period;
	REG(REF_GEN_DELAY) = GEN_DELAY;
	if (o->traffic)
		board_traffic(1, traffic_window, sizeof traffic_window, 8u, fsuite_config.seed);
	for (k = 0; k < o->extra && k < sizeof extra_isrs / sizeof extra_isrs[0]; k++) {
		st.extra_period[2 + k] = extra_periods[k];
		platform_irq_attach(board_line_irq(2 + k), extra_isrs[k], &st);
		board_line_at(2 + k, board_now() + extra_periods[k]);
	}
	platform_irq_attach(PLATFORM_FABRIC_IRQ, fsuite_inject_data_isr(o->isr), &st);
	fsuite_inject_second_line(1);
	while (remaining && !err) {
		uint32_t batch = remaining < BATCH ? remaining : BATCH, seen;

		if ((err = monitor_start(&t1)) || (err = monitor_start(&t2)))
			break;
		batch_start = st.count;
		seen = st.count;
		if (o->invalidate)
			platform_cache_invalidate();
		REG(REF_CTRL) = 1; /* timer on */
		while (st.count - batch_start < batch) {
			if (o->invalidate && st.count != seen) {
				seen = st.count;
				platform_cache_invalidate();
			}
		}
		REG(REF_CTRL) = 0;
		/* a word may still be on its way: let it arrive and be served */
		wait_cycles(4u * GEN_DELAY + 2000u);
		while (REG(REF_FIFO_LEVEL) != 0) {
		}
		if ((err = monitor_drain(s, &t1, SERIES_T1)) ||
		    (err = monitor_drain(s, &t2, SERIES_T2)))
			break;
		remaining -= batch;
	}
	platform_irq_detach(PLATFORM_FABRIC_IRQ);
	fsuite_inject_second_line(0);
	for (k = 0; k < o->extra && k < sizeof extra_isrs / sizeof extra_isrs[0]; k++) {
		platform_irq_detach(board_line_irq(2 + k));
		board_line_ack(2 + k);
	}
	board_traffic(0, 0, 0, 0, 0);
	data_word = st.expect;
	if (!err)
		err = monitor_counters(s, &t1, SERIES_T1);
	if (!err)
		err = monitor_counters(s, &t2, SERIES_T2);
	if (!err) {
		uint64_t extra = 0;
		for (k = 0; k < FSUITE_LINES; k++)
			extra += st.extra_count[k];
		struct latmon_log_counter c[] = {
			{ "served", st.count },
			{ "data_errors", st.data_errors },
			{ "dropped_words", REG(REF_DROPPED) },
			{ "other_interrupts", extra },
			{ "traffic_accesses", o->traffic ? board_traffic_count() : 0 },
		};
		err = fsuite_counters(s, SERIES_T2, c, sizeof c / sizeof c[0]);
	}
	return err;
}

static void t1t2_dcache_off(void *arg)
{
	struct t1t2_run *r = arg;

	r->err = t1t2_body(r->s, r->o);
}

static int run_t1t2(struct fsuite *s, const struct t1t2_options *o)
{
	struct t1t2_run r = { s, o, 0 };

	if (!o->dcache_off)
		return t1t2_body(s, o);
	platform_run_dcache_off(t1t2_dcache_off, &r);
	return r.err;
}

static int case_baseline(struct fsuite *s, const struct fsuite_case *c)
{
	static const struct t1t2_options o = { isr_data, 0, 0, 0, 0, TIMER_PERIOD };

	(void)c;
	return run_t1t2(s, &o);
}

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

static int case_isr_loop(struct fsuite *s, const struct fsuite_case *c)
{
	static const struct t1t2_options o = { isr_data_loop100, 0, 0, 0, 0, TIMER_PERIOD };
	int err = fsuite_header_u64(s, "isr_loop_iterations", LOOP_ITER);

	(void)c;
	if (!err)
		err = fsuite_header_u64(s, "isr_loop_cycles", loop_cycles());
	return err ? err : run_t1t2(s, &o);
}

static int case_cache_invalidate(struct fsuite *s, const struct fsuite_case *c)
{
	static const struct t1t2_options o = { isr_data, 1, 0, 0, 0, COLD_TIMER_PERIOD };

	(void)c;
	return run_t1t2(s, &o);
}

static int case_dcache_off(struct fsuite *s, const struct fsuite_case *c)
{
	static const struct t1t2_options o = { isr_data, 0, 1, 0, 0, TIMER_PERIOD };

	(void)c;
	return run_t1t2(s, &o);
}

static int case_many_sources(struct fsuite *s, const struct fsuite_case *c)
{
	static const struct t1t2_options o = { isr_data, 0, 0, 5, 0, TIMER_PERIOD };

	(void)c;
	return run_t1t2(s, &o);
}

static int case_bus_traffic(struct fsuite *s, const struct fsuite_case *c)
{
	static const struct t1t2_options o = { isr_data, 0, 0, 0, 1, TIMER_PERIOD };

	(void)c;
	return run_t1t2(s, &o);
}

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

static void hart1_lines(void *arg)
{
	volatile struct line_state *st = arg;

	platform_irq_attach(board_line_irq(1), isr_line1, arg);
	while (!st->stop)
		platform_delay_loop(100);
	platform_irq_detach(board_line_irq(1));
}

static int run_lines(struct fsuite *s, enum line_mode mode)
{
	volatile struct line_state *st = platform_uncached(&line_shared);
	struct monitor high, low;
	uint32_t remaining = fsuite_rounds(s);
	int err;

	if ((err = fsuite_series(s, 0, "high", "line0")) ||
	    (err = fsuite_series(s, 1, "low", "line1")) ||
	    (err = monitor_attach(&high, (uintptr_t)board_line_monitor(0)->base)) ||
	    (err = monitor_attach(&low, (uintptr_t)board_line_monitor(1)->base)))
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
	while (remaining && !err) {
		uint32_t batch = remaining < BATCH ? remaining : BATCH;

		if ((err = monitor_start(&high)) || (err = monitor_start(&low)))
			break;
		for (uint32_t r = 0; r < batch; r++) {
			uint32_t c0 = st->count[0], c1 = st->count[1], t = board_now() + ROUND_GAP;
			/* the low-priority line first: when both are due in one cycle, its
			 * comparator is armed too */
			board_line_at(1, t);
			board_line_at(0, mode == PRIORITY || mode == PARALLEL ? t : t + NEST_DELAY);
			while (st->count[0] == c0 || st->count[1] == c1)
				platform_delay_loop(20);
		}
		wait_cycles(500);
		if ((err = monitor_drain(s, &high, 0)) || (err = monitor_drain(s, &low, 1)))
			break;
		remaining -= batch;
	}
	platform_irq_detach(board_line_irq(0));
	if (mode == PARALLEL) {
		st->stop = 1;
		platform_hart_join(1);
	} else {
		platform_irq_detach(board_line_irq(1));
	}
	platform_irq_nesting(0);
	if (!err)
		err = monitor_counters(s, &high, 0);
	if (!err)
		err = monitor_counters(s, &low, 1);
	if (!err) {
		struct latmon_log_counter c[] = { { "served", st->count[0] }, { "hart", 0 } };
		err = fsuite_counters(s, 0, c, 2);
	}
	if (!err) {
		struct latmon_log_counter c[] = { { "served", st->count[1] },
						  { "hart", mode == PARALLEL ? 1u : 0u },
						  { "work_iterations", LOW_WORK } };
		err = fsuite_counters(s, 1, c, 3);
	}
	return err;
}

static int case_priority(struct fsuite *s, const struct fsuite_case *c)
{
	(void)c;
	return run_lines(s, PRIORITY);
}

static int case_nested_off(struct fsuite *s, const struct fsuite_case *c)
{
	(void)c;
	return run_lines(s, NESTED_OFF);
}

static int case_nested_on(struct fsuite *s, const struct fsuite_case *c)
{
	(void)c;
	return run_lines(s, NESTED_ON);
}

static int case_parallel(struct fsuite *s, const struct fsuite_case *c)
{
	(void)c;
	if (platform_harts() < 2)
		return fsuite_header(s, "skipped", "one-hart-only");
	return run_lines(s, PARALLEL);
}

/* ---- throughput ---------------------------------------------------------------------------- */

/* Stimulus periods in cycles, slowest first. */
static const uint32_t throughput_periods[] = { 2000, 1000, 500, 300, 200, 150,
					       120,  100,  80,	60,  40,  20 };

static int case_throughput(struct fsuite *s, const struct fsuite_case *c)
{
	volatile struct line_state *st = platform_uncached(&line_shared);
	const size_t rates = sizeof throughput_periods / sizeof throughput_periods[0];
	uint32_t total = fsuite_rounds(s) < BATCH ? fsuite_rounds(s) : BATCH;
	uint32_t sustained = 0;
	struct monitor m;
	int err;

	(void)c;
	if ((err = monitor_attach(&m, (uintptr_t)board_line_monitor(0)->base)))
		return err;
	for (size_t i = 0; i < rates && !err; i++) {
		char name[8] = "p";
		uint32_t p = throughput_periods[i], digits = 0;
		for (uint32_t v = p; v; v /= 10u)
			digits++;
		for (uint32_t v = p, d = digits; d; v /= 10u, d--)
			name[d] = (char)('0' + v % 10u);
		err = fsuite_series(s, (unsigned)i, name, "line0");
	}
	platform_irq_attach(board_line_irq(0), fsuite_inject_line0_isr(isr_line0), (void *)st);
	for (size_t i = 0; i < rates && !err; i++) {
		struct latmon_stim stim = { 0, throughput_periods[i], 0, 0, 0, 0, total, 1, 0, 0 };
		uint32_t status = 0, served;
		uint64_t before = m.overruns;

		st->count[0] = 0;
		if ((err = monitor_start(&m)) || (err = latmon_stim_start(&m.dev, &stim)))
			break;
		while (!(status & LATMON_REGISTERS__STIM_STATUS__DONE_bm) && !err)
			err = m.dev.hal.read32(m.dev.hal.ctx, LATMON_STIM_STATUS_OFFSET, &status);
		wait_cycles(2000);
		served = st->count[0];
		if (!err)
			err = monitor_drain(s, &m, (unsigned)i);
		if (!err) {
			uint64_t overruns = m.overruns - before;
			struct latmon_log_counter k[] = {
				{ "period", throughput_periods[i] },
				{ "sent", total },
				{ "served", served },
				{ "overruns", overruns },
				{ "lost", total - served },
			};
			err = fsuite_counters(s, (unsigned)i, k, sizeof k / sizeof k[0]);
			if (served == total && overruns == 0)
				sustained = throughput_periods[i];
		}
	}
	platform_irq_detach(board_line_irq(0));
	if (!err) {
		struct latmon_log_counter k[] = { { "sustained_period", sustained } };
		err = fsuite_counters(s, 0, k, 1);
	}
	return err;
}

/* ---- the table ----------------------------------------------------------------------------- */

/* The one home of the case names and their order: the host reads this table and its length from
 * the image's symbol table (src/latmon/campaign/firmware.py); bit i of fsuite_config.cases runs
 * entry i. */

const struct fsuite_case fsuite_cases[] = {
	{ "baseline", "T1/T2, caches on and warm, one source", case_baseline },
	{ "isr-loop100", "baseline with a 100-iteration loop in the ISR before its read",
	  case_isr_loop },
	{ "cache-invalidate", "instruction and data caches invalidated before each interrupt",
	  case_cache_invalidate },
	{ "dcache-off", "data cache bypassed for the stack and the ISR's data", case_dcache_off },
	{ "many-sources", "five more periodic sources enabled (lower priority)",
	  case_many_sources },
	{ "priority", "two simultaneous interrupts on one hart, served high first", case_priority },
	{ "nested-off", "high raised during the low ISR's work, no nesting", case_nested_off },
	{ "nested-on", "high raised during the low ISR's work, nesting enabled", case_nested_on },
	{ "parallel", "two simultaneous interrupts, one per hart", case_parallel },
	{ "bus-traffic", "baseline with random memory traffic of a second bus master",
	  case_bus_traffic },
	{ "throughput", "stimulus generator sweep: highest rate without a lost interrupt",
	  case_throughput },
};

const size_t fsuite_case_count = sizeof fsuite_cases / sizeof fsuite_cases[0];
