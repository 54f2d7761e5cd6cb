/*
 * latprobe: measures the timer wake-up latency of the Linux machine it runs on.
 *
 * main() only sequences the run: parse, set up (CPUs, memory locking, output files,
 * cpu_dma_latency), start one measurement thread per CPU, wait for the end or a signal, write
 * the results, undo what was set up. The parts live in latprobe_*.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "latprobe_measure.h"
#include "latprobe_output.h"
#include "latprobe_params.h"
#include "latprobe_tracefs.h"

/* Time from starting the threads to their first period's start: room to get scheduled. */
#define START_DELAY_NS 20000000ull

/* events kept for --stages at most: 64 Mi * 32 bytes = 2 GiB */
#define TRACE_EVENTS_MAX (64ull << 20)

struct run {
	struct latprobe_params params;
	struct latprobe_thread *threads;
	unsigned nthreads;
	FILE *log;
	FILE *json;
	int dma_fd;
	atomic_bool stop;
	atomic_uint running;
	char cmdline[4096];
	char start_utc[32];
	char host[256];
	char kernel[512];
	struct latprobe_trace trace; /* --stages */
	bool tracing;
	pid_t *tids;
};

static void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void error_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("latprobe: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void join_cmdline(char *buf, size_t len, int argc, char **argv)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && used + 1 < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* CPUs to measure: the ones asked for, each checked against the CPUs this process may use. */
static int resolve_cpus(struct latprobe_params *params, cpu_set_t *allowed)
{
	if (sched_getaffinity(0, sizeof(*allowed), allowed)) {
		error_msg("sched_getaffinity: %s", strerror(errno));
		return LATPROBE_EXIT_SETUP;
	}
	if (params->ncpus == 0) {
		for (unsigned c = 0; c < CPU_SETSIZE && c < LATPROBE_MAX_CPUS; c++) {
			if (CPU_ISSET(c, allowed))
				params->cpus[params->ncpus++] = c;
		}
		return LATPROBE_EXIT_OK;
	}
	for (unsigned i = 0; i < params->ncpus; i++) {
		if (params->cpus[i] >= CPU_SETSIZE || !CPU_ISSET(params->cpus[i], allowed)) {
			error_msg(
			    "CPU %u is not online or not available to this process (see "
			    "/sys/devices/system/cpu/online and taskset -p %d); choose others "
			    "with --cpus",
			    params->cpus[i], (int)getpid());
			return LATPROBE_EXIT_SETUP;
		}
	}
	return LATPROBE_EXIT_OK;
}

/* Keep the main thread off the measured CPUs when another CPU is available. */
static void pin_main_thread(const struct latprobe_params *params, const cpu_set_t *allowed)
{
	cpu_set_t rest = *allowed;

	for (unsigned i = 0; i < params->ncpus; i++)
		CPU_CLR(params->cpus[i], &rest);
	if (CPU_COUNT(&rest) == 0)
		return; /* every CPU is measured: the main thread only sleeps until the end */
	if (sched_setaffinity(0, sizeof(rest), &rest))
		fprintf(stderr,
			"latprobe: warning: cannot move the main thread off the measured "
			"CPUs: %s\n",
			strerror(errno));
}

static FILE *open_output(const char *path, const char *what)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		error_msg("cannot write the %s to %s: %s", what, path, strerror(errno));
	return f;
}

static int hold_dma_latency(struct run *run)
{
	int32_t value = run->params.dma_latency_us;

	run->dma_fd = -1;
	if (value < 0)
		return LATPROBE_EXIT_OK;
	run->dma_fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (run->dma_fd < 0) {
		error_msg("cannot open /dev/cpu_dma_latency for --dma-latency: %s (it needs root)",
			  strerror(errno));
		return LATPROBE_EXIT_SETUP;
	}
	if (write(run->dma_fd, &value, sizeof(value)) != (ssize_t)sizeof(value)) {
		error_msg("cannot write /dev/cpu_dma_latency: %s", strerror(errno));
		close(run->dma_fd);
		run->dma_fd = -1;
		return LATPROBE_EXIT_SETUP;
	}
	/* The request holds while the file stays open; closing it releases the request. */
	return LATPROBE_EXIT_OK;
}

static void explain_start_error(const struct latprobe_params *p, unsigned cpu, int rc)
{
	if (rc == EPERM) {
		error_msg(
		    "no permission to run at SCHED_%s priority %d: run as root, give the "
		    "binary CAP_SYS_NICE (setcap cap_sys_nice,cap_ipc_lock+ep latprobe), raise "
		    "the limit (ulimit -r %d), or measure without real-time priority with "
		    "--policy other",
		    p->policy == LATPROBE_POLICY_RR ? "RR" : "FIFO", p->priority, p->priority);
	} else {
		error_msg("cannot start the measurement thread on CPU %u: %s", cpu, strerror(rc));
	}
}

/* The kernel ids of the measurement threads, once every one has started (else false). */
static bool thread_ids(struct run *run)
{
	for (unsigned i = 0; i < run->nthreads; i++) {
		run->tids[i] = atomic_load(&run->threads[i].tid);
		if (!run->tids[i])
			return false;
	}
	return true;
}

/* Empty the trace buffers into memory (--stages). */
static int drain_trace(struct run *run)
{
	int rc;

	if (!run->tracing || !thread_ids(run))
		return 0;
	rc = latprobe_trace_drain(&run->trace, run->tids, run->nthreads);
	if (rc) {
		error_msg("reading the trace buffers failed: %s; stopping", strerror(rc));
		atomic_store(&run->stop, true);
		run->tracing = false;
	}
	return rc;
}

/* Wait until every thread has finished or a signal asks to stop; with --stages, drain the trace
 * buffers every 100 ms meanwhile. */
static int wait_for_end(struct run *run)
{
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = 100000000 };
	sigset_t set;
	int interrupted = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	while (atomic_load(&run->running) > 0) {
		int sig = run->tracing ? sigtimedwait(&set, NULL, &tick) : sigwaitinfo(&set, NULL);

		if (sig < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				drain_trace(run);
				continue;
			}
			error_msg("sigwaitinfo: %s", strerror(errno));
			atomic_store(&run->stop, true);
			break;
		}
		if (sig == SIGINT || sig == SIGTERM) {
			interrupted = 1;
			atomic_store(&run->stop, true);
		}
	}
	return interrupted;
}

/* After the run: the last events, then the stages of every kept sample. */
static int finish_stages(struct run *run, struct latprobe_run_info *info)
{
	char err[512];
	int rc;

	latprobe_trace_stop(&run->trace);
	rc = drain_trace(run);
	if (!rc && run->tracing) {
		latprobe_trace_sort(run->trace.ev, run->trace.n);
		for (unsigned i = 0; !rc && i < run->nthreads; i++)
			rc = latprobe_thread_stages(&run->threads[i], run->trace.ev, run->trace.n);
		if (rc)
			error_msg("no memory to match the trace events; the stages are left out");
	}
	info->stages = run->tracing && !rc;
	if (latprobe_trace_close(&run->trace, err, sizeof(err)))
		error_msg("%s", err);
	info->trace_events = run->trace.n;
	info->trace_irq_event = run->trace.irq_event;
	info->trace_lost_pages = run->trace.lost_pages;
	info->trace_overrun = run->trace.overrun;
	info->trace_over_limit = run->trace.over_limit;
	info->trace_bad_pages = run->trace.bad_pages;
	if (info->stages && (run->trace.overrun || run->trace.lost_pages))
		error_msg("warning: the kernel lost %" PRIu64 " trace events (%" PRIu64
			  " buffer pages marked); the wake-ups they belonged to have no stages: "
			  "raise --trace-buffer",
			  run->trace.overrun, run->trace.lost_pages);
	if (info->stages && run->trace.over_limit)
		error_msg("warning: %" PRIu64 " trace events beyond the memory limit were not "
			  "kept; lower --max-samples or the duration",
			  run->trace.over_limit);
	latprobe_trace_free(&run->trace);
	run->tracing = false;
	return rc;
}

static void utc_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	if (clock_gettime(CLOCK_REALTIME, &ts) || !gmtime_r(&ts.tv_sec, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "unknown");
}

int main(int argc, char **argv)
{
	static struct run run; /* large (CPU list, strings): not on the stack */
	struct latprobe_params *params = &run.params;
	struct latprobe_run_info info = { 0 };
	char err[512];
	cpu_set_t allowed;
	sigset_t block;
	struct utsname uts;
	uint64_t start_ns, end_ns;
	bool help;
	int rc = LATPROBE_EXIT_OK, failed = 0;

	latprobe_params_defaults(params);
	if (latprobe_params_parse(params, argc, argv, err, sizeof(err), &help)) {
		error_msg("%s", err);
		return LATPROBE_EXIT_USAGE;
	}
	if (help) {
		fputs(latprobe_usage(), stdout);
		return LATPROBE_EXIT_OK;
	}
	run.dma_fd = -1;
	join_cmdline(run.cmdline, sizeof(run.cmdline), argc, argv);
	if (uname(&uts) == 0) {
		snprintf(run.host, sizeof(run.host), "%s", uts.nodename);
		snprintf(run.kernel, sizeof(run.kernel), "%s %s", uts.release, uts.version);
	} else {
		snprintf(run.host, sizeof(run.host), "unknown");
		snprintf(run.kernel, sizeof(run.kernel), "unknown");
	}

	rc = resolve_cpus(params, &allowed);
	if (rc)
		return rc;

	/* Outputs first: a bad path must fail before minutes of measuring, not after. */
	run.log = open_output(params->output, "latmon-log");
	if (!run.log)
		return LATPROBE_EXIT_SETUP;
	if (params->json) {
		run.json = open_output(params->json, "JSON summary");
		if (!run.json) {
			rc = LATPROBE_EXIT_SETUP;
			goto cleanup;
		}
	}

	run.threads = calloc(params->ncpus, sizeof(*run.threads));
	if (!run.threads) {
		error_msg("out of memory");
		rc = LATPROBE_EXIT_SETUP;
		goto cleanup;
	}
	for (unsigned i = 0; i < params->ncpus; i++) {
		struct latprobe_thread *th = &run.threads[i];

		th->params = params;
		th->cpu = params->cpus[i];
		th->stop = &run.stop;
		th->running = &run.running;
		th->main_pid = getpid();
		if (latprobe_thread_alloc(th)) {
			error_msg("cannot allocate memory for %" PRIu64 " samples per CPU; lower "
				  "--max-samples or --hist-bins",
				  params->max_samples);
			rc = LATPROBE_EXIT_SETUP;
			goto cleanup;
		}
	}
	if (params->mlock && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		error_msg("mlockall: %s: run as root, raise the limit (ulimit -l unlimited), or "
			  "measure without locking memory with --no-mlock",
			  strerror(errno));
		rc = LATPROBE_EXIT_SETUP;
		goto cleanup;
	}
	rc = hold_dma_latency(&run);
	if (rc)
		goto cleanup;

	/* Signals go to the main thread's sigwaitinfo(), never to a measurement thread. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	if (pthread_sigmask(SIG_BLOCK, &block, NULL)) {
		error_msg("cannot block signals");
		rc = LATPROBE_EXIT_SETUP;
		goto cleanup;
	}

	if (params->stages) {
		/* events kept: the probe's own five per wake-up plus every timer interrupt and
		 * timer expiry of the machine, for the samples that are kept */
		uint64_t limit = params->max_samples * params->ncpus * 16 + 1000000;

		if (limit > TRACE_EVENTS_MAX)
			limit = TRACE_EVENTS_MAX;
		run.tids = calloc(params->ncpus, sizeof(*run.tids));
		if (!run.tids) {
			error_msg("out of memory");
			rc = LATPROBE_EXIT_SETUP;
			goto cleanup;
		}
		if (latprobe_trace_open(&run.trace, params->trace_buffer_kb, (size_t)limit, err,
					sizeof(err))) {
			error_msg("%s", err);
			rc = LATPROBE_EXIT_SETUP;
			goto cleanup;
		}
		run.tracing = true;
	}

	utc_now(run.start_utc, sizeof(run.start_utc));
	start_ns = latprobe_now_ns() + START_DELAY_NS;
	atomic_store(&run.running, params->ncpus);
	for (unsigned i = 0; i < params->ncpus; i++) {
		int trc;

		run.threads[i].start_ns = start_ns;
		trc = latprobe_thread_start(&run.threads[i]);
		if (trc) {
			explain_start_error(params, run.threads[i].cpu, trc);
			/* the threads not started will never count down */
			atomic_fetch_sub(&run.running, params->ncpus - i);
			atomic_store(&run.stop, true);
			rc = LATPROBE_EXIT_SETUP;
			break;
		}
		run.nthreads = i + 1;
	}
	if (!rc) {
		pin_main_thread(params, &allowed);
		info.interrupted = wait_for_end(&run);
	}
	for (unsigned i = 0; i < params->ncpus; i++)
		latprobe_thread_join(&run.threads[i]);
	end_ns = latprobe_now_ns();
	if (run.tracing && !rc && finish_stages(&run, &info))
		failed = 1;
	if (run.dma_fd >= 0) {
		close(run.dma_fd);
		run.dma_fd = -1;
	}
	if (rc)
		goto cleanup;

	for (unsigned i = 0; i < run.nthreads; i++) {
		if (run.threads[i].error) {
			error_msg("CPU %u: %s failed: %s; the results up to then are kept",
				  run.threads[i].cpu, run.threads[i].error_what,
				  strerror(run.threads[i].error));
			failed = 1;
		}
	}
	info.cmdline = run.cmdline;
	info.start_utc = run.start_utc;
	info.host = run.host;
	info.kernel = run.kernel;
	info.elapsed_ns = end_ns > start_ns ? end_ns - start_ns : 0;
	if (latprobe_write_log(run.log, params, &info, run.threads, run.nthreads)) {
		error_msg("writing the latmon-log to %s failed: %s", params->output,
			  strerror(errno ? errno : EIO));
		rc = LATPROBE_EXIT_FAILURE;
	}
	if (run.json && latprobe_write_json(run.json, params, &info, run.threads, run.nthreads)) {
		error_msg("writing the JSON summary to %s failed", params->json);
		rc = LATPROBE_EXIT_FAILURE;
	}
	if (!params->quiet)
		latprobe_write_summary(stderr, run.threads, run.nthreads);
	if (failed && !rc)
		rc = LATPROBE_EXIT_FAILURE;

cleanup:
	if (run.trace.created || run.trace.mounted) {
		/* a failed setup or start: the trace settings are restored all the same */
		if (latprobe_trace_close(&run.trace, err, sizeof(err)))
			error_msg("%s", err);
		latprobe_trace_free(&run.trace);
	}
	free(run.tids);
	if (run.dma_fd >= 0)
		close(run.dma_fd);
	if (run.threads) {
		for (unsigned i = 0; i < params->ncpus; i++)
			latprobe_thread_free(&run.threads[i]);
		free(run.threads);
	}
	if (run.json && run.json != stdout && fclose(run.json) && !rc) {
		error_msg("closing %s: %s", params->json, strerror(errno));
		rc = LATPROBE_EXIT_FAILURE;
	}
	if (run.log && run.log != stdout && fclose(run.log) && !rc) {
		error_msg("closing %s: %s", params->output, strerror(errno));
		rc = LATPROBE_EXIT_FAILURE;
	}
	return rc;
}
