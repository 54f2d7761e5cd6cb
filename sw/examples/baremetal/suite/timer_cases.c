/*
 * The timer suite's cases (timer_suite.h): the table — the one home of the case names, which the
 * host reads from the image's symbol table (src/latmon/firmware.py: suite_cases and
 * suite_case_count) — the interrupt handlers' records, and how one sample of each kind is taken.
 */
#include "latmon_errno.h"
#include "platform.h"
#include "suite/timer_suite.h"

const struct suite_case suite_cases[] = {
	{ "caches-on", "timer-irq-busy-core-caches-on", KIND_TIMER, PLATFORM_CACHES_ON, 0, 0 },
	{ "caches-off", "timer-irq-busy-core-mmu-and-caches-off", KIND_TIMER, PLATFORM_CACHES_OFF,
	  0, 0 },
	{ "caches-invalidated", "timer-irq-caches-and-tlb-invalidated-before-each", KIND_TIMER,
	  PLATFORM_CACHES_ON, 0, 1 },
	{ "wfi-idle", "timer-irq-core-in-wfi", KIND_TIMER_IDLE, PLATFORM_CACHES_ON, 0, 0 },
	{ "many-irqs", "timer-irq-all-interrupts-enabled", KIND_TIMER, PLATFORM_CACHES_ON, 1, 0 },
	{ "priority", "unmask-to-entry-high-before-pending-low", KIND_PRIORITY, PLATFORM_CACHES_ON,
	  0, 0 },
	{ "nested", "timer-irq-preempts-low-priority-handler", KIND_NESTED, PLATFORM_CACHES_ON, 0,
	  0 },
	{ "two-cores", "timer-irq-on-core1-core0-polling", KIND_OTHER_CORE, PLATFORM_CACHES_ON, 0,
	  0 },
	{ "cross-core", "sgi-core0-to-core1-send-to-entry", KIND_CROSS_CORE, PLATFORM_CACHES_ON, 0,
	  0 },
};
/* The one home of the case names: the host reads them from the image's symbol table
 * (src/latmon/firmware.py: this table and its length). */
const size_t suite_case_count = sizeof suite_cases / sizeof suite_cases[0];

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
static int (*stopped)(void);

void suite_cases_init(uint64_t timeout, uint64_t lead, int (*is_stopped)(void))
{
	timeout_ticks = timeout;
	lead_ticks = lead;
	stopped = is_stopped;
}

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

void suite_on_timer(uint64_t entry)
{
	struct suite_core_state *s = &state[platform_hart_id() % SUITE_CORES];

	s->timer_entry = entry;
	s->timer_order = ++s->order;
	if (s->in_soft)
		s->nested = s->nested + 1u;
	fence();
	s->timer_seen = s->timer_seen + 1u;
}

void suite_on_soft_irq(uint64_t entry)
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

/* Wait until *flag differs from @p old; 0 or ETIMEDOUT. */
static int wait_change(volatile uint32_t *flag, uint32_t old, int idle)
{
	uint64_t end = platform_cycles() + timeout_ticks;

	while (*flag == old) {
		if (platform_cycles() > end || stopped())
			return ETIMEDOUT;
		if (idle)
			platform_idle_until(end);
		else
			platform_relax();
	}
	fence();
	return 0;
}

/* One interrupt of this core's timer: the latency in counts. */
static int measure_timer(int idle, int64_t *latency)
{
	struct suite_core_state *s = &state[platform_hart_id() % SUITE_CORES];
	uint32_t seen = s->timer_seen;
	int err;

	s->timer_at = platform_cycles() + lead_ticks + (next_random() % 64u);
	fence();
	platform_timer_fire_at(s->timer_at);
	err = wait_change(&s->timer_seen, seen, idle);
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
			int err = measure_timer(0, &latency);
			core1_latency = latency;
			core1_error = err;
		}
		fence();
		core1_done = served;
	}
}

/* core 0 reads memory while core 1 measures */
#define POLL_WORDS 256u
static volatile uint64_t poll_area[POLL_WORDS];
static uint32_t poll_sink;

static int measure_on_core1(int64_t *latency)
{
	uint32_t want = core1_request + 1u;
	uint64_t end;
	uint32_t i = 0;

	fence();
	core1_request = want;
	end = platform_cycles() + 2u * timeout_ticks;
	while (core1_done != want) {
		poll_sink += poll_area[i++ % POLL_WORDS] != 0;
		platform_relax();
		if (platform_cycles() > end || stopped())
			return ETIMEDOUT;
	}
	fence();
	*latency = core1_latency;
	return core1_error;
}

static int measure_cross_core(int64_t *latency)
{
	struct suite_core_state *s1 = &state[1];
	uint32_t seen = s1->soft_seen;
	uint64_t sent;
	int err;

	sent = platform_cycles();
	platform_soft_irq_raise(1);
	err = wait_change(&s1->soft_seen, seen, 0);
	if (!err)
		*latency = (int64_t)(s1->soft_entry - sent);
	return err;
}

/* Both pending at once, interrupts masked; then unmask: the timer (high) must come first. */
static int measure_priority(int64_t *latency, uint32_t *order_errors)
{
	struct suite_core_state *s = &state[0];
	uint32_t tseen = s->timer_seen, sseen = s->soft_seen;
	uint64_t unmasked;
	int err;

	platform_irq_mask();
	s->timer_at = platform_cycles() + 1u;
	platform_timer_fire_at(s->timer_at);
	platform_soft_irq_raise(0);
	while (platform_cycles() <= s->timer_at + 2u) { /* both are pending now */
	}
	unmasked = platform_cycles();
	platform_irq_unmask();
	err = wait_change(&s->timer_seen, tseen, 0);
	if (!err)
		err = wait_change(&s->soft_seen, sseen, 0);
	if (err)
		return err;
	*latency = (int64_t)(s->timer_entry - unmasked);
	if (s->timer_order > s->soft_order)
		*order_errors = *order_errors + 1u;
	return 0;
}

/* The timer fires while the low-priority handler runs with interrupts on. */
static int measure_nested(int64_t *latency)
{
	struct suite_core_state *s = &state[0];
	uint32_t tseen = s->timer_seen, sseen = s->soft_seen;
	int err;

	s->soft_wait = 1; /* the handler arms the timer (suite_on_soft_irq) */
	fence();
	platform_soft_irq_raise(0);
	err = wait_change(&s->soft_seen, sseen, 0);
	if (!err)
		err = wait_change(&s->timer_seen, tseen, 0);
	s->soft_wait = 0;
	if (!err)
		*latency = (int64_t)(s->timer_entry - s->timer_at);
	return err;
}

int suite_case_sample(const struct suite_case *c, int64_t *latency, uint32_t *order_errors)
{
	switch (c->kind) {
	case KIND_TIMER:
		return measure_timer(0, latency);
	case KIND_TIMER_IDLE:
		return measure_timer(1, latency);
	case KIND_PRIORITY:
		return measure_priority(latency, order_errors);
	case KIND_NESTED:
		return measure_nested(latency);
	case KIND_OTHER_CORE:
		return measure_on_core1(latency);
	case KIND_CROSS_CORE:
		return measure_cross_core(latency);
	}
	return EINVAL;
}

int suite_core1_start(void)
{
	int err = platform_hart_start(1, core1_main, 0);

	for (uint64_t end = platform_cycles() + timeout_ticks; !err && !core1_running;) {
		platform_relax();
		if (platform_cycles() > end)
			err = EALREADY; /* reported as: core 1 did not start */
	}
	return err;
}

void suite_core0_counts(uint32_t *nested, uint32_t *soft_timeouts)
{
	*nested = state[0].nested;
	*soft_timeouts = state[0].soft_timeouts;
}
