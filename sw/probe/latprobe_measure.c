/* latprobe measurement threads; see latprobe_measure.h. */
#define _GNU_SOURCE
#include "latprobe_measure.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000ull

uint64_t latprobe_now_ns(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC cannot fail with a valid pointer */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static struct timespec to_timespec(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / NSEC_PER_SEC),
			       .tv_nsec = (long)(ns % NSEC_PER_SEC) };
	return ts;
}

int latprobe_thread_alloc(struct latprobe_thread *thread)
{
	const struct latprobe_params *p = thread->params;
	size_t hist_bytes = latprobe_hist_size(p->hist_bins);
	size_t sample_bytes;
	unsigned char *mem;

	uint64_t cap = p->max_samples;

	/* no more than the run can measure: the periods of --duration (after the warm-up; one
	 * more for the phase shift) or --loops. Every byte is touched below, so a 5 s run does not
	 * pre-fault memory for a million samples. */
	if (p->duration_ns && p->duration_ns / p->interval_ns + 1 < cap)
		cap = p->duration_ns / p->interval_ns + 1;
	if (p->count && p->count < cap)
		cap = p->count;
	if (hist_bytes == 0 || cap > SIZE_MAX / (2 * sizeof(int64_t)))
		return ENOMEM;
	thread->capacity = cap;
	sample_bytes = (size_t)cap * sizeof(int64_t);
	mem = malloc(hist_bytes + 2 * sample_bytes);
	if (!mem)
		return ENOMEM;
	/* Touch every page now, so that no page fault happens while measuring (with mlockall
	 * MCL_FUTURE the pages also stay resident). */
	memset(mem, 0, hist_bytes + 2 * sample_bytes);
	thread->memory = mem;
	thread->t = (int64_t *)(mem + hist_bytes);
	thread->latency = (int64_t *)(mem + hist_bytes + sample_bytes);
	return latprobe_hist_init(&thread->hist, p->hist_bin_ns, p->hist_bins, (uint64_t *)mem);
}

void latprobe_thread_free(struct latprobe_thread *thread)
{
	free(thread->memory);
	thread->memory = NULL;
	thread->t = NULL;
	thread->latency = NULL;
	free(thread->stages);
	free(thread->stage_result);
	free(thread->switch_traced);
	free(thread->spikes);
	thread->stages = NULL;
	thread->stage_result = NULL;
	thread->switch_traced = NULL;
	thread->spikes = NULL;
}

static void finish(struct latprobe_thread *thread)
{
	atomic_store(&thread->finished, true);
	/* The last thread to finish wakes the main thread, which waits in sigtimedwait(). */
	if (atomic_fetch_sub(thread->running, 1) == 1)
		kill(thread->main_pid, SIGUSR1);
}

/* --break: mark the trace, stop it, and stop every thread (cyclictest's breaktrace). */
static void hit_break(struct latprobe_thread *thread, uint64_t expiry, uint64_t late)
{
	struct latprobe_break *b = thread->brk;
	char mark[160];
	int n;

	if (b->marker_fd >= 0) {
		n = snprintf(mark, sizeof(mark),
			     "latprobe: break: cpu%u woke %" PRIu64
			     " ns late for the expiry at %" PRIu64 ".%09" PRIu64
			     " (threshold %" PRIu64 " ns)\n",
			     thread->cpu, late, (uint64_t)(expiry / NSEC_PER_SEC),
			     (uint64_t)(expiry % NSEC_PER_SEC), b->threshold_ns);
		if (n > 0 && write(b->marker_fd, mark, (size_t)n) < 0)
			(void)0; /* the marker is a courtesy; the trace is stopped all the same */
	}
	if (b->tracing_on_fd >= 0 && write(b->tracing_on_fd, "0", 1) < 0)
		(void)0;
	b->cpu = thread->cpu;
	b->t = expiry - thread->start_ns;
	b->latency = late;
	atomic_store(thread->stop, true);
	kill(thread->main_pid, SIGUSR1);
}

/* --threshold: an event when no action is still running (the main thread re-arms it). */
static void hit_threshold(struct latprobe_thread *thread, uint64_t expiry, uint64_t late)
{
	struct latprobe_threshold *h = thread->thr;
	char mark[160];
	int n;

	atomic_fetch_add(&h->above, 1);
	if (!atomic_exchange(&h->armed, false))
		return;
	if (h->marker_fd >= 0) {
		n = snprintf(mark, sizeof(mark),
			     "latprobe: threshold: cpu%u woke %" PRIu64
			     " ns late (threshold %" PRIu64 " ns)\n",
			     thread->cpu, late, h->threshold_ns);
		if (n > 0 && write(h->marker_fd, mark, (size_t)n) < 0)
			(void)0; /* a courtesy, as for --break */
	}
	if (h->tracing_on_fd >= 0 && write(h->tracing_on_fd, "0", 1) < 0)
		(void)0;
	h->cpu = thread->cpu;
	h->t = expiry - thread->start_ns;
	h->latency = late;
	atomic_store_explicit(&h->pending, true, memory_order_release);
	kill(thread->main_pid, SIGUSR1);
}

/* struct sched_attr of sched_setattr(2); glibc 2.36 has no wrapper */
struct dl_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* How the thread sleeps: its clock, and a POSIX timer when asked for. */
struct waiter {
	clockid_t clock;
	int64_t offset; /* the clock minus CLOCK_MONOTONIC, at the start */
	bool posix;
	timer_t timer;
	bool timer_made;
	sigset_t sigs;
};

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts); /* cannot fail for these clocks with a valid pointer */
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static int fail_setup(struct latprobe_thread *thread, int rc, const char *what)
{
	thread->error = rc;
	thread->error_what = what;
	thread->setup_failed = true;
	return rc;
}

/* Before reporting ready: SCHED_DEADLINE and the POSIX timer, set up by the thread itself. */
static int setup_self(struct latprobe_thread *thread, struct waiter *wt)
{
	const struct latprobe_params *p = thread->params;

	wt->clock = p->clock;
	wt->posix = p->posix_timers;
	if (p->policy == LATPROBE_POLICY_DEADLINE) {
		struct dl_attr attr = {
			.size = sizeof(attr),
			.sched_policy = SCHED_DEADLINE,
			.sched_runtime = p->dl_runtime_ns,
			.sched_deadline = p->dl_deadline_ns,
			.sched_period = p->dl_period_ns,
		};

		if (syscall(SYS_sched_setattr, 0, &attr, 0))
			return fail_setup(thread, errno, "sched_setattr(SCHED_DEADLINE)");
	}
	if (wt->posix) {
		struct sigevent sev;

		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = SIGRTMIN;
		sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
		if (timer_create(wt->clock, &sev, &wt->timer))
			return fail_setup(thread, errno, "timer_create");
		wt->timer_made = true;
		sigemptyset(&wt->sigs);
		sigaddset(&wt->sigs, SIGRTMIN);
	}
	return 0;
}

/* Sleep until @p at on the waiter's clock (absolute), or for @p rel ns (relative, at != 0 is
 * ignored). @return 0, or an errno value (EINTR: try again). */
static int wait_timer(struct waiter *wt, bool relative, uint64_t at, uint64_t rel)
{
	struct timespec ts = to_timespec(relative ? rel : at);

	if (!wt->posix)
		return clock_nanosleep(wt->clock, relative ? 0 : TIMER_ABSTIME, &ts, NULL);
	{
		struct itimerspec its = { .it_value = ts };

		if (timer_settime(wt->timer, relative ? 0 : TIMER_ABSTIME, &its, NULL))
			return errno;
		while (sigwaitinfo(&wt->sigs, NULL) < 0) {
			if (errno != EINTR)
				return errno;
		}
	}
	return 0;
}

/* Report ready and wait for the start time: the thread runs (its stack is in place, its first
 * timer can be armed in time) before the first period begins. @return false when stopped. */
static bool wait_for_start(struct latprobe_thread *thread)
{
	const struct timespec poll = { .tv_sec = 0, .tv_nsec = 100000 };

	atomic_fetch_add(thread->ready, 1);
	while (!atomic_load_explicit(thread->go, memory_order_acquire)) {
		if (atomic_load(thread->stop))
			return false;
		nanosleep(&poll, NULL);
	}
	return true;
}

/* One wake-up that counts: histogram, meter, kept sample, --break, --threshold. */
static void record(struct latprobe_thread *thread, uint64_t next, uint64_t late)
{
	latprobe_hist_add(&thread->hist, late);
	if (thread->meter)
		latmon_meter_record(thread->meter, late); /* wait-free */
	if (thread->nsamples < thread->capacity) {
		thread->t[thread->nsamples] = (int64_t)(next - thread->start_ns);
		thread->latency[thread->nsamples] = (int64_t)late;
		thread->nsamples++;
		/* the tracker (main thread) reads samples below this count */
		atomic_store_explicit(&thread->published, thread->nsamples, memory_order_release);
	}
	if (thread->brk && late > thread->brk->threshold_ns &&
	    !atomic_exchange(&thread->brk->hit, true))
		hit_break(thread, next, late);
	if (thread->thr && late > thread->thr->threshold_ns)
		hit_threshold(thread, next, late);
	thread->events++;
}

static void *measure(void *arg)
{
	struct latprobe_thread *thread = arg;
	const struct latprobe_params *p = thread->params;
	uint64_t interval = p->interval_ns;
	uint64_t next, end, warm_end;
	struct waiter wt = { 0 };

	atomic_store(&thread->tid, (pid_t)syscall(SYS_gettid));
	if (setup_self(thread, &wt)) {
		atomic_fetch_add(thread->ready, 1); /* the main thread sees setup_failed */
		goto out;
	}
	if (!wait_for_start(thread))
		goto out;
	/* 0 for CLOCK_MONOTONIC (the expiry the kernel traces is exactly `next`) */
	if (wt.clock != CLOCK_MONOTONIC)
		wt.offset = (int64_t)(clock_ns(wt.clock) - latprobe_now_ns());
	/* each thread's periods are shifted by its phase, its end too: every thread has the same
	 * number of periods in the duration, which begins after the warm-up */
	next = thread->start_ns + thread->phase_ns + interval;
	warm_end = thread->start_ns + thread->phase_ns + p->warmup_ns;
	end = p->duration_ns ? warm_end + p->duration_ns : UINT64_MAX;
	if (p->relative) {
		/* relative sleeps start from the common start (and the CPU's phase), as the grid */
		struct timespec at = to_timespec(thread->start_ns + thread->phase_ns);
		int rc;

		while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL)) == EINTR)
			;
		if (rc) {
			thread->error = rc;
			thread->error_what = "clock_nanosleep";
			goto out;
		}
	}
	while (!atomic_load_explicit(thread->stop, memory_order_relaxed) && next <= end) {
		uint64_t now, late, before = 0;
		int rc;

		if (p->relative) {
			/* cyclictest -r: the expected wake-up is the clock read before the sleep
			 * plus the interval (the sleep's own entry counts as latency) */
			before = latprobe_now_ns();
			next = before + interval;
			if (next > end)
				break; /* the next wake-up would fall after the duration */
		}
		rc = wait_timer(&wt, p->relative, (uint64_t)((int64_t)next + wt.offset), interval);
		if (rc == EINTR)
			continue;
		if (rc) {
			thread->error = rc;
			thread->error_what =
			    wt.posix ? "timer_settime/sigwaitinfo" : "clock_nanosleep";
			break;
		}
		if (wt.clock == CLOCK_MONOTONIC) {
			now = latprobe_now_ns();
		} else {
			/* read on the timer's clock, as the kernel expires it */
			now = (uint64_t)((int64_t)clock_ns(wt.clock) - wt.offset);
		}
		late = now >= next ? now - next : 0;
		if (next <= warm_end)
			thread->warmup++;
		else
			record(thread, next, late);
		if (p->count && thread->events >= p->count)
			break;
		if (p->relative)
			continue;
		next += interval;
		if (now >= next) {
			/* Wake-up times that passed while this one was late (those within the run's
			 * duration): skip them and count them. */
			uint64_t skipped = (now - next) / interval + 1;

			if (end != UINT64_MAX) {
				uint64_t left = next <= end ? (end - next) / interval + 1 : 0;

				if (skipped > left)
					skipped = left;
			}
			/* those within the warm-up are not counted, as its wake-ups */
			uint64_t counted = skipped;

			if (next <= warm_end) {
				uint64_t in_warm = (warm_end - next) / interval + 1;

				counted = skipped > in_warm ? skipped - in_warm : 0;
			}
			thread->missed += counted;
			if (thread->meter && counted)
				latmon_meter_add(thread->meter, LATMON_METER_MISSED, counted);
			next += skipped * interval;
		}
	}
out:
	if (wt.timer_made)
		timer_delete(wt.timer);
	finish(thread);
	return NULL;
}

int latprobe_thread_start(struct latprobe_thread *thread)
{
	const struct latprobe_params *p = thread->params;
	pthread_attr_t attr;
	struct sched_param sp = { .sched_priority = p->priority };
	cpu_set_t set;
	/* SCHED_DEADLINE: the thread starts as SCHED_OTHER and sets it itself (setup_self) */
	int policy = p->policy == LATPROBE_POLICY_FIFO ? SCHED_FIFO
		     : p->policy == LATPROBE_POLICY_RR ? SCHED_RR
						       : SCHED_OTHER;
	int rc;

	rc = pthread_attr_init(&attr);
	if (rc)
		return rc;
	CPU_ZERO(&set);
	CPU_SET(thread->cpu, &set);
	rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!rc)
		rc = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	if (!rc)
		rc = pthread_attr_setschedpolicy(&attr, policy);
	if (!rc)
		rc = pthread_attr_setschedparam(&attr, &sp);
	if (!rc)
		rc = pthread_create(&thread->handle, &attr, measure, thread);
	pthread_attr_destroy(&attr);
	if (!rc)
		thread->started = true;
	return rc;
}

int latprobe_thread_join(struct latprobe_thread *thread)
{
	if (!thread->started)
		return 0;
	thread->started = false;
	return pthread_join(thread->handle, NULL);
}
