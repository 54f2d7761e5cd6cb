/* latprobe measurement threads; see latprobe_measure.h. */
#define _GNU_SOURCE
#include "latprobe_measure.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
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
	thread->stages = NULL;
	thread->stage_result = NULL;
}

int latprobe_thread_stages(struct latprobe_thread *thread, const struct latprobe_trace_event *ev,
			   size_t n)
{
	struct latprobe_stage_matcher *m;
	pid_t tid = atomic_load(&thread->tid);

	memset(thread->stage_counts, 0, sizeof(thread->stage_counts));
	if (!thread->nsamples)
		return 0;
	m = malloc(sizeof(*m));
	thread->stages = malloc(thread->nsamples * LATPROBE_NSTAGES * sizeof(*thread->stages));
	thread->stage_result = malloc(thread->nsamples);
	if (!m || !thread->stages || !thread->stage_result) {
		free(m);
		return ENOMEM;
	}
	latprobe_stage_matcher_init(m);
	for (uint64_t k = 0; k < thread->nsamples; k++) {
		uint64_t expiry = thread->start_ns + (uint64_t)thread->t[k];
		uint64_t user = expiry + (uint64_t)thread->latency[k];
		enum latprobe_stage_result r =
		    latprobe_stages_match(m, ev, n, tid, expiry, user, thread->latency[k],
					  &thread->stages[k * LATPROBE_NSTAGES]);

		thread->stage_result[k] = (uint8_t)r;
		thread->stage_counts[r]++;
	}
	free(m);
	return 0;
}

static void finish(struct latprobe_thread *thread)
{
	/* The last thread to finish wakes the main thread, which waits in sigtimedwait(). */
	if (atomic_fetch_sub(thread->running, 1) == 1)
		kill(thread->main_pid, SIGUSR1);
}

static void *measure(void *arg)
{
	struct latprobe_thread *thread = arg;
	const struct latprobe_params *p = thread->params;
	uint64_t interval = p->interval_ns;
	uint64_t next = thread->start_ns + interval;
	uint64_t end = p->duration_ns ? thread->start_ns + p->duration_ns : UINT64_MAX;

	atomic_store(&thread->tid, (pid_t)syscall(SYS_gettid));
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
		}
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
