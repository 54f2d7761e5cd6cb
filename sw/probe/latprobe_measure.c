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

	if (hist_bytes == 0 || p->max_samples > SIZE_MAX / (2 * sizeof(int64_t)))
		return ENOMEM;
	sample_bytes = (size_t)p->max_samples * sizeof(int64_t);
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

static void *measure(void *arg)
{
	struct latprobe_thread *thread = arg;
	const struct latprobe_params *p = thread->params;
	uint64_t interval = p->interval_ns;
	uint64_t next, end;

	atomic_store(&thread->tid, (pid_t)syscall(SYS_gettid));
	if (!wait_for_start(thread)) {
		finish(thread);
		return NULL;
	}
	/* each thread's periods are shifted by its phase, its end too: every thread has the same
	 * number of periods in the duration */
	next = thread->start_ns + thread->phase_ns + interval;
	end = p->duration_ns ? thread->start_ns + thread->phase_ns + p->duration_ns : UINT64_MAX;
	while (!atomic_load_explicit(thread->stop, memory_order_relaxed) && next <= end) {
		struct timespec ts = to_timespec(next);
		uint64_t now, late;
		int rc;

		rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (rc == EINTR)
			continue;
		if (rc) {
			thread->error = rc;
			thread->error_what = "clock_nanosleep";
			break;
		}
		now = latprobe_now_ns();
		late = now - next;
		latprobe_hist_add(&thread->hist, late);
		if (thread->nsamples < p->max_samples) {
			thread->t[thread->nsamples] = (int64_t)(next - thread->start_ns);
			thread->latency[thread->nsamples] = (int64_t)late;
			thread->nsamples++;
			/* the tracker (main thread) reads samples below this count */
			atomic_store_explicit(&thread->published, thread->nsamples,
					      memory_order_release);
		}
		if (thread->brk && late > thread->brk->threshold_ns &&
		    !atomic_exchange(&thread->brk->hit, true))
			hit_break(thread, next, late);
		thread->events++;
		if (p->count && thread->events >= p->count)
			break;
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
			thread->missed += skipped;
			next += skipped * interval;
		}
	}
	finish(thread);
	return NULL;
}

int latprobe_thread_start(struct latprobe_thread *thread)
{
	const struct latprobe_params *p = thread->params;
	pthread_attr_t attr;
	struct sched_param sp = { .sched_priority = p->priority };
	cpu_set_t set;
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
