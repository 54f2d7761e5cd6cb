/*
 * The timer suite's runner, portable: which cases run, the per-case watchdog, the checks and the
 * latmon-log output, main(). The cases are timer_cases.c. Nothing here knows the CPU: what it
 * needs is platform.h (its timer section).
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
 *
 * The per-case watchdog (docs/target/qemu.md, "When a handler is broken") covers what a bounded
 * wait cannot, because the broken interrupt keeps the waiting code from running:
 *   - a storm: every interrupt taken is counted per core by the platform's dispatcher
 *     (suite_irq_entry) since the case last advanced (a sample); one that fires more than
 *     "storm-limit" times (default 1000) is masked at the controller, and the case fails with
 *     its ID and count; the next case starts with the suite's own interrupts enabled again, a
 *     foreign one stays masked;
 *   - no progress: a second timer of the core (platform_watchdog_at, above the measured interrupt
 *     in priority) expires when the case has not advanced for "case-timeout-ms" (default 10 x
 *     timeout-ms): the interrupt counted most since the last sample is masked and the case
 *     fails; if the case still does not go on (a handler that never returns) by a second
 *     expiry, the run stops with status 1 and the message.
 * Neither depends on the broken interrupt's handler.
 *
 * On the command line (platform_cmdline): "cases=NAME,NAME,..." runs only those cases;
 * "timeout-ms=N" waits N ms (default 20) for an interrupt before it counts as lost, for
 * emulators on a busy host, where 20 ms of the counter can pass before a guest runs at all;
 * "storm-limit=N" and "case-timeout-ms=N" set the watchdog's limits.
 */
#include "suite/timer_suite.h"
#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
#include "latmon_errno.h"
#include "platform.h"

static int64_t samples[SUITE_SAMPLES];
static uint64_t timeout_ticks, lead_ticks, case_timeout_ticks;

/* ---- the per-case watchdog ---- */

#define WATCH_IDS 8u

enum watch_trip { TRIP_NONE, TRIP_STORM, TRIP_NO_PROGRESS };

/* Interrupts a core took since the case last advanced: written by that core's dispatcher only. */
struct watch_core {
	uint32_t generation; /* the progress generation these counts belong to */
	unsigned ids[WATCH_IDS];
	uint32_t counts[WATCH_IDS];
	volatile unsigned in_handler; /* 1 + the ID whose handler runs now, or 0 */
};

static struct {
	volatile uint32_t generation; /* advanced on progress: the counts start again */
	volatile uint32_t storm_limit;
	volatile uint64_t deadline; /* counter value of the next expiry (0: off) */
	volatile uint32_t expiries; /* expiries without progress since the trip */
	volatile uint32_t trip;	    /* enum watch_trip */
	volatile unsigned trip_id, trip_core, trip_in_handler;
	volatile uint32_t trip_count;
	const char *volatile case_name;
	struct watch_core core[SUITE_CORES];
} watch;

static uint64_t parse_u64(const char *t);
static void say(const char *s);
static void say_u64(uint64_t v);

/* A case's waits end early once the watchdog has tripped (suite_cases_init). */
static int watch_tripped(void)
{
	return watch.trip != TRIP_NONE;
}

static void watch_arm(void)
{
	watch.deadline = case_timeout_ticks ? platform_cycles() + case_timeout_ticks : 0;
	(void)platform_watchdog_at(watch.deadline);
}

/* The case advanced (a sample, or it starts): the counts and the timer start again. */
static void watch_progress(void)
{
	watch.generation = watch.generation + 1u;
	watch.expiries = 0;
	watch_arm();
}

static void watch_case(const char *name)
{
	watch.trip = TRIP_NONE;
	watch.case_name = name;
	platform_timer_irqs_restore();
	watch_progress();
}

static struct watch_core *watch_core_now(void)
{
	struct watch_core *w = &watch.core[platform_hart_id() % SUITE_CORES];

	if (w->generation != watch.generation) {
		w->generation = watch.generation;
		for (unsigned i = 0; i < WATCH_IDS; i++)
			w->counts[i] = 0;
	}
	return w;
}

static void watch_record(enum watch_trip kind, unsigned id, uint32_t count, unsigned in_handler)
{
	if (watch.trip != TRIP_NONE)
		return;
	watch.trip_id = id;
	watch.trip_count = count;
	watch.trip_core = platform_hart_id();
	watch.trip_in_handler = in_handler;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	watch.trip = kind;
}

static int suite_irq_entry(unsigned id)
{
	struct watch_core *w = watch_core_now();
	unsigned slot = WATCH_IDS - 1u;

	for (unsigned i = 0; i < WATCH_IDS; i++)
		if (w->ids[i] == id || !w->counts[i]) {
			slot = i;
			break;
		}
	if (w->ids[slot] != id) {
		w->ids[slot] = id;
		w->counts[slot] = 0;
	}
	w->counts[slot] = w->counts[slot] + 1u;
	if (watch.storm_limit && w->counts[slot] > watch.storm_limit) {
		platform_irq_line(id, 0);
		watch_record(TRIP_STORM, id, w->counts[slot], 0);
		return 1;
	}
	w->in_handler = id + 1u;
	return 0;
}

static void suite_irq_done(unsigned id)
{
	(void)id;
	watch.core[platform_hart_id() % SUITE_CORES].in_handler = 0;
}

static void suite_watchdog_expired(void)
{
	struct watch_core *w = watch_core_now();
	unsigned top = 0, running = w->in_handler;
	uint32_t most = 0;

	if (!watch.deadline || platform_cycles() < watch.deadline) {
		(void)platform_watchdog_at(
		    watch.deadline); /* an early wake-up (idle): keep watching */
		return;
	}
	for (unsigned i = 0; i < WATCH_IDS; i++)
		if (w->counts[i] > most) {
			most = w->counts[i];
			top = w->ids[i];
		}
	if (running)
		top = running - 1u;
	watch.expiries = watch.expiries + 1u;
	if (watch.expiries == 1u) {
		/* stop what keeps the case from advancing; the case then fails with the record */
		if (most || running)
			platform_irq_line(top, 0);
		watch_record(TRIP_NO_PROGRESS, top, most, running != 0);
		watch_arm();
		return;
	}
	/* a second expiry without progress: the case's code does not run any more */
	say("\nsuite: FAIL ");
	say(watch.case_name ? watch.case_name : "?");
	say(": watchdog: no progress for ");
	say_u64(2u * case_timeout_ticks);
	say(" counts");
	if (running) {
		say("; the handler of interrupt ");
		say_u64(top);
		say(" has not returned");
	} else if (most) {
		say("; interrupt ");
		say_u64(top);
		say(" fired ");
		say_u64(most);
		say(" times since the last sample");
	}
	say(" - stopping\nsuite: FAILED\n");
	platform_exit(1);
}
/* ---- output ---- */

static int console_sink(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	platform_uart_write(data, len);
	return 0;
}

static void say(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	platform_uart_write(s, n);
}

static void say_u64(uint64_t v)
{
	char buf[LATMON_LOG_U64_TEXT];

	say(latmon_log_format_u64(buf, v));
}

static uint64_t writer_mem[1024]; /* latmon_log_writer_size(suite_case_count), checked at init */
static char cmdline[256];

/* The value of option @p key ("key=") on the command line, or NULL. */
static const char *option(const char *key)
{
	const char *p = cmdline;

	for (; *p; p++) {
		size_t n = 0;

		if (p != cmdline && p[-1] != ' ')
			continue;
		while (key[n] && p[n] == key[n])
			n++;
		if (!key[n] && p[n] == '=')
			return p + n + 1;
	}
	return 0;
}

/* A decimal number at @p t (up to 3,600,000), 0 when there is none. */
static uint64_t parse_u64(const char *t)
{
	uint64_t v = 0;

	while (t && *t >= '0' && *t <= '9' && v < 3600000u)
		v = v * 10u + (uint64_t)(*t++ - '0');
	return v;
}

/* Is case @p name in the "cases=" list of the command line (or is there no such list)? */
static int case_selected(const char *name)
{
	const char *p = option("cases");

	if (!p)
		return 1;
	while (*p && *p != ' ') {
		size_t n = 0;

		while (name[n] && p[n] == name[n])
			n++;
		if (!name[n] && (p[n] == ',' || p[n] == ' ' || !p[n]))
			return 1;
		while (*p && *p != ',' && *p != ' ')
			p++;
		if (*p == ',')
			p++;
	}
	return 0;
}

static void fail_message(const struct suite_case *c, unsigned k, int err)
{
	say("suite: FAIL ");
	say(c->name);
	say(": sample ");
	say_u64(k);
	say(": ");
	if (watch.trip == TRIP_STORM) {
		say("watchdog: interrupt ");
		say_u64(watch.trip_id);
		say(" fired ");
		say_u64(watch.trip_count);
		say(" times on core ");
		say_u64(watch.trip_core);
		say(" without the case advancing (an interrupt storm: does its handler clear the "
		    "interrupt at its source - the device's status, cntv_ctl_el0 for the generic "
		    "timer?); interrupt ");
		say_u64(watch.trip_id);
		say(" masked");
	} else if (watch.trip == TRIP_NO_PROGRESS) {
		say("watchdog: no progress for ");
		say_u64(case_timeout_ticks);
		say(" counts");
		if (watch.trip_in_handler) {
			say("; the handler of interrupt ");
			say_u64(watch.trip_id);
			say(" did not return");
		} else if (watch.trip_count) {
			say("; interrupt ");
			say_u64(watch.trip_id);
			say(" fired ");
			say_u64(watch.trip_count);
			say(" times since the last sample");
		}
		if (watch.trip_count || watch.trip_in_handler) {
			say("; interrupt ");
			say_u64(watch.trip_id);
			say(" masked");
		}
	} else if (err == ETIMEDOUT) {
		say("interrupt not taken within ");
		say_u64(timeout_ticks);
		say(" counts - does the handler end it (EOIR) with the ID it acknowledged?");
	} else if (err == EALREADY) {
		say("core 1 did not start (no PSCI firmware, or not released from reset)");
	} else if (err == ENOTSUP) {
		say("not supported on this platform");
	} else {
		say(latmon_strerror(err));
	}
	say("\n");
}

static int suite_run(void)
{
	struct latmon_log_writer *w;
	char hz[LATMON_LOG_U64_TEXT], many[LATMON_LOG_U64_TEXT];
	unsigned failed = 0, core1 = 0;
	int err;

	if (platform_cmdline(cmdline, sizeof cmdline) != 0)
		cmdline[0] = 0;
	timeout_ticks = platform_cycles_hz() / 50u; /* 20 ms */
	{
		uint64_t ms = parse_u64(option("timeout-ms"));

		if (ms)
			timeout_ticks = platform_cycles_hz() / 1000u * ms;
		case_timeout_ticks = 10u * timeout_ticks;
		ms = parse_u64(option("case-timeout-ms"));
		if (ms)
			case_timeout_ticks = platform_cycles_hz() / 1000u * ms;
		watch.storm_limit = 1000u;
		if (option("storm-limit"))
			watch.storm_limit = (uint32_t)parse_u64(option("storm-limit"));
	}
	lead_ticks = platform_cycles_hz() / 100000u + 16u; /* 10 us */
	suite_cases_init(timeout_ticks, lead_ticks, watch_tripped);
	err = latmon_log_writer_init(&w, writer_mem, sizeof writer_mem, suite_case_count,
				     console_sink, 0);
	if (err) {
		say("suite: log writer: ");
		say(latmon_strerror(err));
		say("\n");
		return 1;
	}
	{
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
		err = latmon_log_begin(w, header, sizeof header / sizeof header[0]);
	}
	platform_irq_unmask();
	for (unsigned i = 0; i < suite_case_count && !err; i++) {
		const struct suite_case *c = &suite_cases[i];
		uint32_t order_errors = 0, nested0, soft_to0, nested1, soft_to1;
		unsigned n = 0, k, extra = 0;
		int cerr;

		if (!case_selected(c->name))
			continue;
		suite_core0_counts(&nested0, &soft_to0);
		if (watch.trip == TRIP_STORM) { /* between cases: no case to end */
			say("suite: FAIL between cases: watchdog: interrupt ");
			say_u64(watch.trip_id);
			say(" fired ");
			say_u64(watch.trip_count);
			say(" times (an interrupt storm); masked\n");
			failed++;
		}
		say("suite: case "); /* which case runs, for a host whose time limit ends the run */
		say(c->name);
		say("\n");
		watch_case(c->name);
		cerr = platform_caches(c->caches);
		if (!cerr && c->many_irqs)
			extra = platform_many_irqs(1);
		if (!cerr && (c->kind == KIND_OTHER_CORE || c->kind == KIND_CROSS_CORE) && !core1) {
			cerr = suite_core1_start();
			core1 = !cerr;
		}
		for (k = 0; k < SUITE_SAMPLES && !cerr; k++) {
			int64_t v = 0;

			if (c->invalidate_each)
				cerr = platform_caches(PLATFORM_CACHES_INVALIDATE);
			if (cerr)
				break;
			cerr = suite_case_sample(c, &v, &order_errors);
			if (!cerr && watch.trip != TRIP_NONE)
				cerr = ETIMEDOUT; /* the watchdog ended the case (fail_message) */
			if (!cerr) {
				samples[n++] = v;
				watch_progress();
			}
		}
		watch.deadline = 0; /* the case's end: output is no progress of a case */
		(void)platform_watchdog_at(0);
		if (c->many_irqs)
			platform_many_irqs(0);
		platform_caches(PLATFORM_CACHES_ON);

		{
			struct latmon_log_kv extra_kv[] = {
				{ "test", c->what },
				{ "cpu", (c->kind == KIND_OTHER_CORE || c->kind == KIND_CROSS_CORE)
					     ? "1"
					     : "0" },
				{ "extra_irqs", latmon_log_format_u64(many, extra) },
			};
			err = latmon_log_series(w, i, c->name, 0, extra_kv, 3);
		}
		for (k = 0; k < n && !err; k++)
			err = latmon_log_sample(w, i, &samples[k], 1);
		suite_core0_counts(&nested1, &soft_to1);
		if (!err) {
			struct latmon_log_counter counters[] = {
				{ "events", SUITE_SAMPLES },
				{ "lost", SUITE_SAMPLES - n },
				{ "order_errors", order_errors },
				{ "nested", nested1 - nested0 },
				{ "nest_timeouts", soft_to1 - soft_to0 },
			};
			err = latmon_log_counters(w, i, counters, 5);
		}
		if (!cerr && c->kind == KIND_PRIORITY && order_errors) {
			say("suite: FAIL priority: the low-priority interrupt was taken first ");
			say_u64(order_errors);
			say(" times\n");
			failed++;
		}
		if (!cerr && c->kind == KIND_NESTED && nested1 - nested0 != n) {
			say("suite: FAIL nested: the timer did not preempt the low-priority "
			    "handler\n");
			failed++;
		}
		if (cerr) {
			fail_message(c, k, cerr);
			failed++;
		}
		watch.trip = TRIP_NONE; /* reported with its case */
	}
	if (!err)
		err = latmon_log_end(w);
	if (err) {
		say("suite: latmon-log: ");
		say(latmon_strerror(err));
		say("\n");
		return 1;
	}
	say(failed ? "suite: FAILED\n" : "suite: passed\n");
	return failed ? 1 : 0;
}

static const struct platform_timer_hooks suite_hooks = {
	.on_timer = suite_on_timer,
	.on_soft_irq = suite_on_soft_irq,
	.irq_entry = suite_irq_entry,
	.irq_done = suite_irq_done,
	.watchdog_expired = suite_watchdog_expired,
};

int main(void)
{
	int err;

	platform_init();
	err = platform_timer_init(&suite_hooks);
	if (err) {
		say("suite: the platform has no timer section: ");
		say(latmon_strerror(err));
		say("\n");
		return 1;
	}
	return suite_run();
}
