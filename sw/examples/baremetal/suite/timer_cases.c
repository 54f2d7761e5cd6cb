/*
 * The timer suite's cases (timer_suite.h), run by the suite runner (runner.c): the table — the
 * one home of the case names, which the host reads from the image's symbol table
 * (src/latmon/campaign/firmware.py: suite_cases and suite_case_count) — the interrupt handlers'
 * records, how one sample of each kind is armed, waited for and checked, and the run's one
 * latmon-log (a series per case).
 *
 * Every case measures the latency of the suite's high-priority interrupt (a one-shot timer) in
 * counts of the platform's counter: the value the handler read on entry minus the value the
 * timer was programmed to fire at. The cases differ in what the system does around it:
 *
 *   caches-on           MMU and caches on, the core busy-polls           (the baseline)
 *   caches-off          MMU and caches off
 *   caches-invalidated  caches on, cleaned and invalidated (D, I, TLB) before every interrupt
 *   wfi-idle            the core waits in WFI (idle) when the interrupt arrives
 *   many-irqs           every interrupt the controller has is enabled, not only the measured one
 *   priority            a low-priority interrupt is pending together with the measured one; the
 *                       value is unmask-to-entry, and the high one must be taken first
 *   nested              the measured interrupt arrives while a low-priority handler runs with
 *                       interrupts re-enabled (the handler arms it); it must preempt it
 *   two-cores           core 1 measures its own timer while core 0 polls memory
 *   cross-core          core 0 raises the software interrupt of core 1: send-to-entry
 *
 * A lost interrupt (a handler that does not end it, a wrong ID) is a timeout: the case fails with
 * a message that says what to check, and the run goes on to the next case instead of hanging.
 * What a bounded wait cannot cover (a storm, a handler that never returns) is the per-case
 * watchdog's (timer_watch.c).
 *
 * On the command line (platform_cmdline): "cases=NAME,NAME,..." runs only those cases (the
 * runner); "timeout-ms=N" waits N ms (default 20) for an interrupt before it counts as lost, for
 * emulators on a busy host, where 20 ms of the counter can pass before a guest runs at all;
 * "storm-limit=N" and "case-timeout-ms=N" set the watchdog's limits.
 */
#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
#include "latmon_errno.h"
#include "platform.h"
#include "suite/suite.h"
#include "suite/timer_suite.h"

enum timer_kind {
	KIND_TIMER,
	KIND_TIMER_IDLE,
	KIND_PRIORITY,
	KIND_NESTED,
	KIND_OTHER_CORE,
	KIND_CROSS_CORE,
};

struct timer_opts {
	enum timer_kind kind;
	enum platform_caches caches;
	int many_irqs;
	int invalidate_each;
};

/* What the interrupt handlers record, per core. Written in handlers, read by the runner. */
struct suite_core_state {
	volatile uint64_t timer_at;    /* the value the timer was programmed to fire at */
	volatile uint64_t timer_entry; /* counter on entry of the timer handler */
	volatile uint32_t timer_seen;  /* timer handler runs */
	volatile uint64_t soft_entry;  /* counter on entry of the software-interrupt handler */
	volatile uint32_t soft_seen;   /* software-interrupt handler runs */
	volatile uint32_t order;       /* handler entries, numbered */
	volatile uint32_t timer_order; /* order number of the last timer entry */
	volatile uint32_t soft_order;  /* order number of the last software-interrupt entry */
	volatile uint32_t in_soft;     /* the software-interrupt handler is running */
	volatile uint32_t nested;      /* timer entries that preempted the software handler */
	volatile uint32_t soft_wait; /* the software handler waits, interrupts on, for the timer */
	volatile uint32_t soft_timeouts; /* ... and the timer did not come */
};

static struct suite_core_state state[SUITE_CORES];

/* Core 1's mailbox: core 0 asks for one measurement, core 1 answers. */
static volatile uint32_t core1_request; /* incremented by core 0 */
static volatile uint32_t core1_done;	/* set to the request number when answered */
static volatile int64_t core1_latency;
static volatile int core1_error;
static volatile uint32_t core1_running;

static uint64_t timeout_ticks, lead_ticks;

static uint32_t rng = 0x9E3779B9u;

static void fence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* xorshift32: a varying lead time, so the interrupt does not always meet the same instruction. */
static uint32_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void on_timer(uint64_t entry)
{
	struct suite_core_state *s = &state[platform_hart_id() % SUITE_CORES];

	s->timer_entry = entry;
	s->timer_order = ++s->order;
	if (s->in_soft)
		s->nested = s->nested + 1u;
	fence();
	s->timer_seen = s->timer_seen + 1u;
}

static void on_soft_irq(uint64_t entry)
{
	struct suite_core_state *s = &state[platform_hart_id() % SUITE_CORES];

	s->soft_entry = entry;
	s->soft_order = ++s->order;
	fence();
	s->soft_seen = s->soft_seen + 1u;
	if (s->soft_wait) {
		/*
		 * the nested case: arm the timer from inside this low-priority handler (so that it
		 * fires while the handler runs, however slowly an emulator gets here), then stay,
		 * interrupts on, until the timer has preempted it (or the timeout)
		 */
		uint32_t seen = s->timer_seen;
		uint64_t end;

		s->in_soft = 1;
		s->timer_at = platform_cycles() + lead_ticks + (next_random() % 64u);
		fence();
		platform_timer_fire_at(s->timer_at);
		end = platform_cycles() + timeout_ticks;
		platform_irq_unmask();
		while (s->timer_seen == seen && platform_cycles() < end) {
		}
		platform_irq_mask();
		s->in_soft = 0;
		if (s->timer_seen == seen)
			s->soft_timeouts = s->soft_timeouts + 1u;
	}
}

/*
 * Wait until *flag differs from @p old; 0 or ETIMEDOUT. Idle, the check and the WFI run with
 * interrupts masked: an interrupt taken between them would leave the WFI waiting for one that
 * has come already (a lost wake-up; as a Xen guest with trapped WFI nothing else ends it:
 * docs/target/xen.md). WFI still ends on a pending interrupt; it is taken once unmasked.
 */
static int wait_change(volatile uint32_t *flag, uint32_t old, int idle)
{
	uint64_t end = platform_cycles() + timeout_ticks;
	int err = 0;

	for (;;) {
		if (idle)
			platform_irq_mask();
		if (*flag != old)
			break;
		if (platform_cycles() > end || timer_watch_tripped()) {
			err = ETIMEDOUT;
			break;
		}
		if (idle) {
			platform_idle_until(end);
			platform_irq_unmask();
		} else {
			platform_relax();
		}
	}
	if (idle)
		platform_irq_unmask();
	fence();
	return err;
}

/* This core's timer armed to fire a lead and 0..63 counts from now. @return the handler's runs
 * before. */
static uint32_t timer_arm(struct suite_core_state *s)
{
	uint32_t seen = s->timer_seen;

	s->timer_at = platform_cycles() + lead_ticks + (next_random() % 64u);
	fence();
	platform_timer_fire_at(s->timer_at);
	return seen;
}

/* One interrupt of this core's timer (core 1's measurement): the latency in counts. */
static int measure_timer(int64_t *latency)
{
	struct suite_core_state *s = &state[platform_hart_id() % SUITE_CORES];
	uint32_t seen = timer_arm(s);
	int err = wait_change(&s->timer_seen, seen, 0);

	if (!err)
		*latency = (int64_t)(s->timer_entry - s->timer_at);
	return err;
}

/* Core 1: answer core 0's requests, forever. */
static void core1_main(void *arg)
{
	uint32_t served = 0;

	(void)arg;
	platform_irq_unmask();
	core1_running = 1;
	for (;;) {
		while (core1_request == served)
			platform_relax();
		fence();
		served = core1_request;
		platform_timer_irqs_restore(); /* its own banked lines, if a storm masked one */
		{
			int64_t latency = 0;
			int err = measure_timer(&latency);
			core1_latency = latency;
			core1_error = err;
		}
		fence();
		core1_done = served;
	}
}

/* Start core 1 serving the two-core cases. @return 0, or a positive errno value (EALREADY: it
 * did not start in time). */
static int core1_start(void)
{
	int err = platform_hart_start(1, core1_main, 0);

	for (uint64_t end = platform_cycles() + timeout_ticks; !err && !core1_running;) {
		platform_relax();
		if (platform_cycles() > end)
			err = EALREADY; /* reported as: core 1 did not start */
	}
	return err;
}

/* core 0 reads memory while core 1 measures */
#define POLL_WORDS 256u
static volatile uint64_t poll_area[POLL_WORDS];
static uint32_t poll_sink;

/* ---- a case's run ---- */

static int64_t samples[SUITE_SAMPLES];

static struct {
	unsigned n;			/* samples taken */
	uint32_t order_errors;		/* priority: the low-priority interrupt taken first */
	unsigned extra;			/* further interrupts enabled (many-irqs) */
	uint32_t nested0, soft_to0;	/* core 0's counts when the case began */
	unsigned checks_failed;		/* the case's own checks (priority, nested) */
	uint32_t timer_seen, soft_seen; /* the handlers' runs before this sample */
	uint64_t from;			/* the counter value the latency counts from */
	uint32_t want;			/* two-cores: core 1's request */
} run;
static unsigned core1_serves, between_failed;

static const struct timer_opts *opts(const struct suite_case *c)
{
	return c->opts;
}

static int timer_setup(struct suite *s, const struct suite_case *c)
{
	const struct timer_opts *o = opts(c);
	int err;

	run.n = 0;
	run.order_errors = 0;
	run.extra = 0;
	suite_set_rounds(s, SUITE_SAMPLES);
	err = platform_caches(o->caches);
	if (!err && o->many_irqs)
		run.extra = platform_many_irqs(1);
	if (!err && (o->kind == KIND_OTHER_CORE || o->kind == KIND_CROSS_CORE) && !core1_serves) {
		err = core1_start();
		core1_serves = !err;
	}
	return err;
}

static int timer_arm_sample(struct suite *s, const struct suite_case *c)
{
	const struct timer_opts *o = opts(c);
	struct suite_core_state *st = &state[0];
	int err;

	(void)s;
	if (o->invalidate_each && (err = platform_caches(PLATFORM_CACHES_INVALIDATE)))
		return err;
	run.timer_seen = st->timer_seen;
	run.soft_seen = st->soft_seen;
	switch (o->kind) {
	case KIND_TIMER:
	case KIND_TIMER_IDLE:
		(void)timer_arm(st);
		break;
	case KIND_PRIORITY:
		/* both pending at once, interrupts masked; then unmask: the timer (high) must come
		 * first */
		platform_irq_mask();
		st->timer_at = platform_cycles() + 1u;
		platform_timer_fire_at(st->timer_at);
		platform_soft_irq_raise(0);
		while (platform_cycles() <= st->timer_at + 2u) { /* both are pending now */
		}
		run.from = platform_cycles();
		platform_irq_unmask();
		break;
	case KIND_NESTED:
		/* the timer fires while the low-priority handler runs with interrupts on: the
		 * handler arms it (on_soft_irq) */
		st->soft_wait = 1;
		fence();
		platform_soft_irq_raise(0);
		break;
	case KIND_OTHER_CORE:
		run.want = core1_request + 1u;
		fence();
		core1_request = run.want;
		break;
	case KIND_CROSS_CORE:
		run.soft_seen = state[1].soft_seen;
		run.from = platform_cycles();
		platform_soft_irq_raise(1);
		break;
	}
	return 0;
}

static int timer_wait(struct suite *s, const struct suite_case *c)
{
	struct suite_core_state *st = &state[0];
	int err = 0;

	(void)s;
	switch (opts(c)->kind) {
	case KIND_TIMER:
		return wait_change(&st->timer_seen, run.timer_seen, 0);
	case KIND_TIMER_IDLE:
		return wait_change(&st->timer_seen, run.timer_seen, 1);
	case KIND_PRIORITY:
		err = wait_change(&st->timer_seen, run.timer_seen, 0);
		return err ? err : wait_change(&st->soft_seen, run.soft_seen, 0);
	case KIND_NESTED:
		err = wait_change(&st->soft_seen, run.soft_seen, 0);
		if (!err)
			err = wait_change(&st->timer_seen, run.timer_seen, 0);
		st->soft_wait = 0;
		return err;
	case KIND_OTHER_CORE: {
		uint64_t end = platform_cycles() + 2u * timeout_ticks;
		uint32_t i = 0;

		while (core1_done != run.want) {
			poll_sink += poll_area[i++ % POLL_WORDS] != 0;
			platform_relax();
			if (platform_cycles() > end || timer_watch_tripped())
				return ETIMEDOUT;
		}
		return 0;
	}
	case KIND_CROSS_CORE:
		return wait_change(&state[1].soft_seen, run.soft_seen, 0);
	}
	return EINVAL;
}

static int timer_check(struct suite *s, const struct suite_case *c)
{
	struct suite_core_state *st = &state[0];
	int64_t v = 0;
	int err = 0;

	(void)s;
	switch (opts(c)->kind) {
	case KIND_TIMER:
	case KIND_TIMER_IDLE:
	case KIND_NESTED:
		v = (int64_t)(st->timer_entry - st->timer_at);
		break;
	case KIND_PRIORITY:
		v = (int64_t)(st->timer_entry - run.from);
		if (st->timer_order > st->soft_order)
			run.order_errors = run.order_errors + 1u;
		break;
	case KIND_OTHER_CORE:
		fence();
		v = core1_latency;
		err = core1_error;
		break;
	case KIND_CROSS_CORE:
		v = (int64_t)(state[1].soft_entry - run.from);
		break;
	}
	if (!err && timer_watch_tripped())
		err = ETIMEDOUT; /* the watchdog ended the case (timer_watch_report) */
	if (!err) {
		samples[run.n++] = v;
		timer_watch_progress();
	}
	return err;
}

/* The case's series (its index in the table), samples and counters in the run's log. */
static int timer_finish(struct suite *s, const struct suite_case *c, int cerr)
{
	const struct timer_opts *o = opts(c);
	unsigned id = (unsigned)(c - suite_cases);
	int two_cores = o->kind == KIND_OTHER_CORE || o->kind == KIND_CROSS_CORE;
	char many[LATMON_LOG_U64_TEXT];
	struct latmon_log_kv kv[] = {
		{ "test", c->description },
		{ "cpu", two_cores ? "1" : "0" },
		{ "extra_irqs", latmon_log_format_u64(many, run.extra) },
	};
	int err;

	timer_watch_off();
	if (o->many_irqs)
		platform_many_irqs(0);
	platform_caches(PLATFORM_CACHES_ON);
	err = suite_series(s, id, c->name, kv, 3);
	for (unsigned k = 0; k < run.n && !err; k++)
		err = suite_sample(s, id, samples[k]);
	if (!err) {
		struct latmon_log_counter counters[] = {
			{ "events", SUITE_SAMPLES },
			{ "lost", SUITE_SAMPLES - run.n },
			{ "order_errors", run.order_errors },
			{ "nested", state[0].nested - run.nested0 },
			{ "nest_timeouts", state[0].soft_timeouts - run.soft_to0 },
		};
		(void)suite_counters(s, id, counters, 5);
	}
	if (!cerr && o->kind == KIND_PRIORITY && run.order_errors) {
		suite_say("suite: FAIL priority: the low-priority interrupt was taken first ");
		suite_say_u64(run.order_errors);
		suite_say(" times\n");
		run.checks_failed++;
	}
	if (!cerr && o->kind == KIND_NESTED && state[0].nested - run.nested0 != run.n) {
		suite_say("suite: FAIL nested: the timer did not preempt the low-priority "
			  "handler\n");
		run.checks_failed++;
	}
	return cerr;
}

#define SAMPLE timer_setup, timer_arm_sample, timer_wait, timer_check, timer_finish

static const struct timer_opts busy = { KIND_TIMER, PLATFORM_CACHES_ON, 0, 0 },
			       busy_off = { KIND_TIMER, PLATFORM_CACHES_OFF, 0, 0 },
			       busy_invalidated = { KIND_TIMER, PLATFORM_CACHES_ON, 0, 1 },
			       idle = { KIND_TIMER_IDLE, PLATFORM_CACHES_ON, 0, 0 },
			       many = { KIND_TIMER, PLATFORM_CACHES_ON, 1, 0 },
			       priority = { KIND_PRIORITY, PLATFORM_CACHES_ON, 0, 0 },
			       nested = { KIND_NESTED, PLATFORM_CACHES_ON, 0, 0 },
			       other_core = { KIND_OTHER_CORE, PLATFORM_CACHES_ON, 0, 0 },
			       cross_core = { KIND_CROSS_CORE, PLATFORM_CACHES_ON, 0, 0 };

/* The one home of the case names: the host reads them from the image's symbol table
 * (src/latmon/campaign/firmware.py: this table and its length). */
const struct suite_case suite_cases[] = {
	{ "caches-on", "timer-irq-busy-core-caches-on", &busy, 0, SAMPLE },
	{ "caches-off", "timer-irq-busy-core-mmu-and-caches-off", &busy_off, 0, SAMPLE },
	{ "caches-invalidated", "timer-irq-caches-and-tlb-invalidated-before-each",
	  &busy_invalidated, 0, SAMPLE },
	{ "wfi-idle", "timer-irq-core-in-wfi", &idle, 0, SAMPLE },
	{ "many-irqs", "timer-irq-all-interrupts-enabled", &many, 0, SAMPLE },
	{ "priority", "unmask-to-entry-high-before-pending-low", &priority, 0, SAMPLE },
	{ "nested", "timer-irq-preempts-low-priority-handler", &nested, 0, SAMPLE },
	{ "two-cores", "timer-irq-on-core1-core0-polling", &other_core, 0, SAMPLE },
	{ "cross-core", "sgi-core0-to-core1-send-to-entry", &cross_core, 0, SAMPLE },
};
const size_t suite_case_count = sizeof suite_cases / sizeof suite_cases[0];

/* ---- the run: options, its one latmon-log, the watchdog's reports ---- */

static const struct platform_timer_hooks hooks = {
	.on_timer = on_timer,
	.on_soft_irq = on_soft_irq,
	.irq_entry = timer_watch_irq_entry,
	.irq_done = timer_watch_irq_done,
	.watchdog_expired = timer_watch_expired,
};

static uint64_t log_mem[1024]; /* latmon_log_writer_size(suite_case_count) */

static int timer_init(struct suite *s, uint32_t *chosen)
{
	uint64_t hz = platform_cycles_hz(), ms, case_timeout;
	uint32_t storm_limit = 1000u;
	int err = platform_timer_init(&hooks);

	(void)chosen; /* every case: the command line chooses */
	if (err) {
		suite_say("suite: the platform has no timer section: ");
		suite_say(latmon_strerror(err));
		suite_say("\n");
		return 1;
	}
	timeout_ticks = hz / 50u; /* 20 ms */
	ms = suite_parse_u64(suite_option(s, "timeout-ms"));
	if (ms)
		timeout_ticks = hz / 1000u * ms;
	case_timeout = 10u * timeout_ticks;
	ms = suite_parse_u64(suite_option(s, "case-timeout-ms"));
	if (ms)
		case_timeout = hz / 1000u * ms;
	if (suite_option(s, "storm-limit"))
		storm_limit = (uint32_t)suite_parse_u64(suite_option(s, "storm-limit"));
	lead_ticks = hz / 100000u + 16u; /* 10 us */
	timer_watch_init(timeout_ticks, case_timeout, storm_limit);
	return 0;
}

static int timer_header(struct suite *s, const struct suite_case *c)
{
	char hz[LATMON_LOG_U64_TEXT];
	struct latmon_log_kv header[] = {
		{ "source", "latmon-irq-suite" },
		{ "unit", "cycles" },
		{ "clock_hz", latmon_log_format_u64(hz, platform_cycles_hz()) },
		{ "counter", "generic-timer" },
		{ "cpu", PLATFORM_CPU_NAME },
		{ "platform", platform_board_name() },
		{ "emulated", platform_emulated() },
		{ "hypervisor", platform_hypervisor() },
	};
	int err = suite_log_begin(s, header, sizeof header / sizeof header[0]);

	(void)c; /* the run's one log */
	platform_irq_unmask();
	return err;
}

static int timer_begin(struct suite *s, const struct suite_case *c)
{
	(void)s;
	run.nested0 = state[0].nested;
	run.soft_to0 = state[0].soft_timeouts;
	run.checks_failed = 0;
	between_failed += (unsigned)timer_watch_storm_between(); /* no case to end */
	suite_say("suite: case "); /* which case runs, for a host whose time limit ends the run */
	suite_say(c->name);
	suite_say("\n");
	timer_watch_case(c->name);
	return 0;
}

static int timer_end(struct suite *s, const struct suite_case *c, int err)
{
	unsigned failed = run.checks_failed;

	(void)s;
	if (err) { /* at the first sample not taken */
		timer_watch_report(c->name, run.n, err);
		failed++;
	}
	timer_watch_clear();
	return (int)failed;
}

static int timer_done(struct suite *s, unsigned failed, int log_err)
{
	(void)s;
	failed += between_failed;
	if (log_err) {
		suite_say("suite: latmon-log: ");
		suite_say(latmon_strerror(log_err));
		suite_say("\n");
		return 1;
	}
	suite_say(failed ? "suite: FAILED\n" : "suite: passed\n");
	return failed ? 1 : 0;
}

const struct suite_ops suite_ops = {
	.cases = suite_cases,
	.count = sizeof suite_cases / sizeof suite_cases[0],
	.log_per_case = 0,
	.log_series = sizeof suite_cases / sizeof suite_cases[0],
	.log_mem = log_mem,
	.log_mem_size = sizeof log_mem,
	.init = timer_init,
	.header = timer_header,
	.begin = timer_begin,
	.end = timer_end,
	.done = timer_done,
};
