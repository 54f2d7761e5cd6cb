/*
 * The timer suite's per-case watchdog (docs/target/qemu.md, "When a handler is broken"): it
 * covers what a bounded wait cannot, because the broken interrupt keeps the waiting code from
 * running:
 *   - a storm: every interrupt taken is counted per core by the platform's dispatcher
 *     (timer_watch_irq_entry) since the case last advanced (a sample); one that fires more than
 *     "storm-limit" times (default 1000) is masked at the controller, and the case fails with
 *     its ID and count; the next case starts with the suite's own interrupts enabled again, a
 *     foreign one stays masked;
 *   - no progress: a second timer of the core (platform_watchdog_at, above the measured interrupt
 *     in priority) expires when the case has not advanced for "case-timeout-ms" (default 10 x
 *     timeout-ms): the interrupt counted most since the last sample is masked and the case
 *     fails; if the case still does not go on (a handler that never returns) by a second
 *     expiry, the run stops with status 1 and the message.
 * Neither depends on the broken interrupt's handler. Portable: the timer section of platform.h.
 */
#include "latmon/latmon.h"
#include "latmon_errno.h"
#include "platform.h"
#include "suite/suite.h"
#include "suite/timer_suite.h"

static uint64_t timeout_ticks, case_timeout_ticks;

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

#define say	suite_say
#define say_u64 suite_say_u64

void timer_watch_init(uint64_t timeout, uint64_t case_timeout, uint32_t storm_limit)
{
	timeout_ticks = timeout;
	case_timeout_ticks = case_timeout;
	watch.storm_limit = storm_limit;
}

int timer_watch_tripped(void)
{
	return watch.trip != TRIP_NONE;
}

static void watch_arm(void)
{
	watch.deadline = case_timeout_ticks ? platform_cycles() + case_timeout_ticks : 0;
	(void)platform_watchdog_at(watch.deadline);
}

/* The case advanced (a sample, or it starts): the counts and the timer start again. */
void timer_watch_progress(void)
{
	watch.generation = watch.generation + 1u;
	watch.expiries = 0;
	watch_arm();
}

void timer_watch_case(const char *name)
{
	watch.trip = TRIP_NONE;
	watch.case_name = name;
	platform_timer_irqs_restore();
	timer_watch_progress();
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

int timer_watch_irq_entry(unsigned id)
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

void timer_watch_irq_done(unsigned id)
{
	(void)id;
	watch.core[platform_hart_id() % SUITE_CORES].in_handler = 0;
}

void timer_watch_expired(void)
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
void timer_watch_report(const char *name, unsigned k, int err)
{
	say("suite: FAIL ");
	say(name);
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

void timer_watch_off(void)
{
	watch.deadline = 0; /* the case's end: output is no progress of a case */
	(void)platform_watchdog_at(0);
}

int timer_watch_storm_between(void)
{
	if (watch.trip != TRIP_STORM)
		return 0;
	say("suite: FAIL between cases: watchdog: interrupt ");
	say_u64(watch.trip_id);
	say(" fired ");
	say_u64(watch.trip_count);
	say(" times (an interrupt storm); masked\n");
	return 1;
}

void timer_watch_clear(void)
{
	watch.trip = TRIP_NONE; /* reported with its case */
}
