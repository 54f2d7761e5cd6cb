/*
 * latprobe: measures the timer wake-up latency of the Linux machine it runs on.
 *
 * main() only sequences the run, in the steps of rtla's tools: parse the command line; set up
 * (CPUs, output files, memory, memory locking, /dev/cpu_dma_latency, signals, tracing); measure
 * (one thread per CPU, the main thread waits and, when tracing, follows the samples on every
 * tick); report (latmon-log, JSON, summary); tear down what was set up. The parts live in
 * latprobe_*.c.
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

#include "latprobe_action.h"
#include "latprobe_idle.h"
#include "latprobe_measure.h"
#include "latprobe_metrics.h"
#include "latprobe_output.h"
#include "latprobe_params.h"
#include "latprobe_steal.h"
#include "latprobe_timerlat.h"
#include "latprobe_tracefs.h"
#include "latprobe_tracker.h"

/* Time from the moment every thread is ready to the first period's start. */
#define START_DELAY_NS 5000000ull

/* How often the main thread drains the trace buffers and follows the samples. */
#define TICK_NS 100000000l

/* Samples whose clock read is this close to a drain wait for the next one: their last events
 * may not have been committed to the buffer yet. */
#define SETTLE_NS 1000000ull

/* Trace events kept in all windows together at most (48 bytes each): 512 MiB. */
#define TRACE_WINDOW_BUDGET ((512ull << 20) / sizeof(struct latprobe_trace_event))

struct run {
	struct latprobe_params params;
	struct latprobe_thread *threads;
	unsigned nthreads;
	cpu_set_t allowed;
	FILE *log;
	FILE *json;
	int dma_fd;
	int dma_held_us;    /* -1: untouched */
	char dma_note[160]; /* why it is untouched */
	atomic_bool stop;
	atomic_uint running;
	atomic_uint ready;
	_Atomic uint64_t go;
	char cmdline[4096];
	char start_utc[32];
	char host[256];
	char kernel[512];
	uint64_t start_ns, end_ns;
	bool tracing; /* --stages: the trace session is open and followed */
	struct latprobe_trace trace;
	struct latprobe_tracker tracker;
	struct latprobe_break brk;
	char trace_used[4000], trace_missing[1024];
	pid_t *tids;
	struct latprobe_run_info info;
	struct latprobe_metrics metrics; /* --metrics */
	struct latprobe_actions actions; /* --threshold */
	struct latprobe_idle idle;	 /* --deepest-idle-state */
	bool idle_set;
	bool steal_off; /* /proc/stat has no steal column for a measured CPU */
	bool failed;	/* a measurement thread or the trace failed: exit 1, results kept */
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

static void utc_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	if (clock_gettime(CLOCK_REALTIME, &ts) || !gmtime_r(&ts.tv_sec, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "unknown");
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

/* --housekeeping: latprobe's own threads (this one, and the trace reader and metrics threads
 * it starts, which inherit its affinity) on those CPUs, from the start. */
static int pin_housekeeping(const struct latprobe_params *params, const cpu_set_t *allowed)
{
	cpu_set_t hk;

	if (!params->nhk_cpus)
		return LATPROBE_EXIT_OK;
	CPU_ZERO(&hk);
	for (unsigned i = 0; i < params->nhk_cpus; i++) {
		if (params->hk_cpus[i] >= CPU_SETSIZE || !CPU_ISSET(params->hk_cpus[i], allowed)) {
			error_msg("--housekeeping: CPU %u is not online or not available to this "
				  "process (see /sys/devices/system/cpu/online and taskset -p %d)",
				  params->hk_cpus[i], (int)getpid());
			return LATPROBE_EXIT_SETUP;
		}
		CPU_SET(params->hk_cpus[i], &hk);
	}
	if (sched_setaffinity(0, sizeof(hk), &hk)) {
		error_msg("--housekeeping: sched_setaffinity: %s", strerror(errno));
		return LATPROBE_EXIT_SETUP;
	}
	return LATPROBE_EXIT_OK;
}

/* Keep the main thread off the measured CPUs when another CPU is available (unless
 * --housekeeping placed it). */
static void pin_main_thread(const struct latprobe_params *params, const cpu_set_t *allowed)
{
	cpu_set_t rest = *allowed;

	if (params->nhk_cpus)
		return;
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

/*
 * /dev/cpu_dma_latency: the PM QoS request holds while the file stays open. By default latprobe
 * holds 0 when it runs as root, as cyclictest does (idle states with an exit latency above 0 µs
 * are not used), and says so in its output; otherwise, and with --dma-latency none, it leaves
 * the setting untouched and records why.
 */
static int hold_dma_latency(struct run *run)
{
	int32_t value = run->params.dma_latency_us;
	bool by_default = value == LATPROBE_DMA_DEFAULT;
	int rc;

	run->dma_fd = -1;
	run->dma_held_us = -1;
	if (value == LATPROBE_DMA_NONE) {
		snprintf(run->dma_note, sizeof(run->dma_note), "--dma-latency none");
		return LATPROBE_EXIT_OK;
	}
	if (by_default && geteuid() != 0) {
		snprintf(run->dma_note, sizeof(run->dma_note),
			 "not root (as root latprobe holds it at 0, as cyclictest does)");
		return LATPROBE_EXIT_OK;
	}
	if (by_default)
		value = 0;
	run->dma_fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (run->dma_fd >= 0 &&
	    write(run->dma_fd, &value, sizeof(value)) == (ssize_t)sizeof(value)) {
		run->dma_held_us = value;
		return LATPROBE_EXIT_OK;
	}
	rc = errno;
	if (run->dma_fd >= 0)
		close(run->dma_fd);
	run->dma_fd = -1;
	if (!by_default) {
		error_msg("cannot hold /dev/cpu_dma_latency at %d us for --dma-latency: %s (it "
			  "needs root)",
			  value, strerror(rc));
		return LATPROBE_EXIT_SETUP;
	}
	snprintf(run->dma_note, sizeof(run->dma_note), "cannot open /dev/cpu_dma_latency: %s",
		 strerror(rc));
	fprintf(stderr,
		"latprobe: warning: %s; measuring with it untouched (give --dma-latency none to "
		"say so)\n",
		run->dma_note);
	return LATPROBE_EXIT_OK;
}

static void explain_start_error(const struct latprobe_params *p, unsigned cpu, int rc)
{
	if (rc == EPERM && p->policy == LATPROBE_POLICY_DEADLINE) {
		error_msg(
		    "cannot run the measurement thread of CPU %u under SCHED_DEADLINE: %s; it "
		    "needs root (CAP_SYS_NICE), and the kernel admits a task pinned to one "
		    "CPU only when that CPU is its own root domain (an exclusive cpuset "
		    "partition) or deadline admission control is off "
		    "(/proc/sys/kernel/sched_rt_runtime_us = -1)",
		    cpu, strerror(rc));
	} else if (rc == EBUSY && p->policy == LATPROBE_POLICY_DEADLINE) {
		error_msg("cannot run the measurement thread of CPU %u under SCHED_DEADLINE: the "
			  "CPU's deadline bandwidth is used up (lower the runtime)",
			  cpu);
	} else if (rc == EPERM) {
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

/* ---- setup ---------------------------------------------------------------------------- */

static int setup_threads(struct run *run)
{
	struct latprobe_params *params = &run->params;

	run->threads = calloc(params->ncpus, sizeof(*run->threads));
	if (!run->threads) {
		error_msg("out of memory");
		return LATPROBE_EXIT_SETUP;
	}
	for (unsigned i = 0; i < params->ncpus; i++) {
		struct latprobe_thread *th = &run->threads[i];

		th->params = params;
		th->cpu = params->cpus[i];
		th->stop = &run->stop;
		th->running = &run->running;
		th->ready = &run->ready;
		th->go = &run->go;
		th->main_pid = getpid();
		th->brk = params->break_ns ? &run->brk : NULL;
		th->thr = params->threshold_ns ? &run->actions.thr : NULL;
		if (latprobe_thread_alloc(th)) {
			error_msg("cannot allocate memory for %" PRIu64 " samples per CPU; lower "
				  "--max-samples or --hist-bins",
				  params->max_samples);
			return LATPROBE_EXIT_SETUP;
		}
	}
	return LATPROBE_EXIT_OK;
}

static int setup_tracing(struct run *run)
{
	struct latprobe_params *params = &run->params;
	struct latprobe_trace_config cfg = {
		.buffer_kb = params->trace_buffer_kb,
		.explain = params->explain_worst || params->explain_ns || params->break_ns,
		.break_instance =
		    params->break_ns != 0 ||
		    (params->threshold_ns && (params->actions & LATPROBE_ACTION_TRACE)),
		.window_limit = TRACE_WINDOW_BUDGET,
	};
	char err[512];

	run->tids = calloc(params->ncpus, sizeof(*run->tids));
	if (!run->tids) {
		error_msg("out of memory");
		return LATPROBE_EXIT_SETUP;
	}
	if (latprobe_trace_open(&run->trace, &cfg, err, sizeof(err))) {
		error_msg("%s", err);
		return LATPROBE_EXIT_SETUP;
	}
	if (latprobe_tracker_init(&run->tracker, params, run->threads, params->ncpus,
				  &run->trace)) {
		error_msg("cannot allocate memory for the stages of %" PRIu64 " samples per CPU; "
			  "lower --max-samples",
			  params->max_samples);
		return LATPROBE_EXIT_SETUP;
	}
	run->brk.threshold_ns = params->break_ns;
	run->brk.marker_fd = run->trace.break_marker_fd;
	run->brk.tracing_on_fd = run->trace.break_tracing_on_fd;
	latprobe_trace_describe(&run->trace, run->trace_used, sizeof(run->trace_used),
				run->trace_missing, sizeof(run->trace_missing));
	if (!latprobe_trace_has(&run->trace, "syscalls/sys_exit_clock_nanosleep"))
		fprintf(stderr, "latprobe: note: this kernel has no trace event "
				"syscalls:sys_exit_clock_nanosleep: where it does not trace the "
				"switch to the probe, that wake-up has no stages (no_switch)\n");
	run->tracing = true;
	return LATPROBE_EXIT_OK;
}

/* --metrics: a meter per thread and the exporter's socket (a taken port fails here, before
 * measuring); its thread starts with the measurement. */
static int setup_metrics(struct run *run)
{
	char err[512], address[160];

	if (!run->params.metrics)
		return LATPROBE_EXIT_OK;
	if (latprobe_metrics_open(&run->metrics, &run->params, run->threads, run->params.ncpus,
				  run->host, err, sizeof(err))) {
		error_msg("%s", err);
		return LATPROBE_EXIT_SETUP;
	}
	latmon_exporter_address(run->metrics.exporter, address, sizeof(address));
	fprintf(stderr, "latprobe: metrics at http://%s/metrics\n", address);
	return LATPROBE_EXIT_OK;
}

static int run_setup(struct run *run)
{
	struct latprobe_params *params = &run->params;
	struct utsname uts;
	sigset_t block;
	int rc;

	if (uname(&uts) == 0) {
		snprintf(run->host, sizeof(run->host), "%s", uts.nodename);
		snprintf(run->kernel, sizeof(run->kernel), "%s %s", uts.release, uts.version);
	} else {
		snprintf(run->host, sizeof(run->host), "unknown");
		snprintf(run->kernel, sizeof(run->kernel), "unknown");
	}
	rc = resolve_cpus(params, &run->allowed);
	if (!rc)
		rc = pin_housekeeping(params, &run->allowed);
	if (rc)
		return rc;
	/* Outputs first: a bad path must fail before minutes of measuring, not after. */
	run->log = open_output(params->output, "latmon-log");
	if (!run->log)
		return LATPROBE_EXIT_SETUP;
	if (params->json) {
		run->json = open_output(params->json, "JSON summary");
		if (!run->json)
			return LATPROBE_EXIT_SETUP;
	}
	rc = setup_threads(run);
	if (rc)
		return rc;
	rc = setup_metrics(run);
	if (rc)
		return rc;
	if (params->mlock && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		error_msg("mlockall: %s: run as root, raise the limit (ulimit -l unlimited), or "
			  "measure without locking memory with --no-mlock",
			  strerror(errno));
		return LATPROBE_EXIT_SETUP;
	}
	rc = hold_dma_latency(run);
	if (rc)
		return rc;
	/* Signals go to the main thread's sigwaitinfo(), never to a measurement thread. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);  /* a snapshot of the statistics so far */
	sigaddset(&block, SIGCHLD);  /* the --on-threshold shell command ended */
	sigaddset(&block, SIGRTMIN); /* --posix-timers: each thread waits for its own */
	if (pthread_sigmask(SIG_BLOCK, &block, NULL)) {
		error_msg("cannot block signals");
		return LATPROBE_EXIT_SETUP;
	}
	/* after the signals are blocked: SIGINT/SIGTERM from here on end in the teardown, which
	 * restores the idle states */
	if (params->deepest_idle != LATPROBE_IDLE_UNTOUCHED) {
		char err[512];

		run->idle_set = true;
		if (latprobe_idle_limit(&run->idle, "/sys/devices/system/cpu", params->cpus,
					params->ncpus, params->deepest_idle, err, sizeof(err))) {
			error_msg("%s", err);
			return LATPROBE_EXIT_SETUP;
		}
	}
	if (params->stages && (rc = setup_tracing(run)))
		return rc;
	latprobe_actions_init(&run->actions, params, run->tracing ? &run->trace : NULL);
	return LATPROBE_EXIT_OK;
}

/* ---- measure -------------------------------------------------------------------------- */

/* The kernel ids of the measurement threads started so far (0 for the others). */
static void thread_ids(struct run *run)
{
	for (unsigned i = 0; i < run->nthreads; i++)
		run->tids[i] = atomic_load(&run->threads[i].tid);
}

/* Hypervisor steal of the measured CPUs, for the spikes explained from here on. Where the
 * kernel has no steal column it is said once and not read again. */
static void note_steal(struct run *run, uint64_t now)
{
	uint64_t *ns;
	int rc;

	if (run->steal_off)
		return;
	ns = calloc(run->nthreads ? run->nthreads : 1, sizeof(*ns));
	if (!ns)
		return;
	rc = latprobe_steal_read("/proc/stat", run->params.cpus, run->nthreads,
				 sysconf(_SC_CLK_TCK), ns);
	if (rc) {
		fprintf(
		    stderr,
		    "latprobe: note: no hypervisor steal time for the explanations (/proc/stat: "
		    "%s)\n",
		    strerror(rc));
		run->steal_off = true;
	} else {
		latprobe_tracker_note_steal(&run->tracker, now, ns);
	}
	free(ns);
}

/* Empty the trace buffers into the windows, follow the samples, and trim the windows. */
static void on_tick(struct run *run, bool last)
{
	uint64_t now = latprobe_now_ns();
	int rc;

	if (!run->tracing)
		return;
	note_steal(run, now);
	thread_ids(run);
	rc = latprobe_trace_drain(&run->trace, run->tids, run->nthreads);
	if (!rc)
		rc = run->trace.error;
	if (rc) {
		error_msg("reading the trace buffers failed: %s; stopping (the samples so far are "
			  "kept)",
			  strerror(rc));
		atomic_store(&run->stop, true);
		run->failed = true;
		last = true;
	}
	latprobe_tracker_step(&run->tracker, last ? UINT64_MAX : now - SETTLE_NS);
	if (!last)
		latprobe_windows_trim(&run->trace.windows, latprobe_tracker_horizon(&run->tracker));
}

/* Wait until every thread has finished or a signal asks to stop; when tracing, tick every
 * 100 ms meanwhile. @return 1 when a signal stopped the run. */
static int wait_for_end(struct run *run)
{
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = TICK_NS };
	sigset_t set;
	int interrupted = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGCHLD);
	while (atomic_load(&run->running) > 0) {
		int sig = run->tracing || latprobe_actions_running(&run->actions)
			      ? sigtimedwait(&set, NULL, &tick)
			      : sigwaitinfo(&set, NULL);

		latprobe_actions_poll(&run->actions, latprobe_now_ns());
		if (sig < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				on_tick(run, false);
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
		if (sig == SIGUSR2)
			latprobe_write_snapshot(stderr, run->threads, run->nthreads,
						latprobe_now_ns() - run->start_ns);
	}
	return interrupted;
}

/* After the run: the last events, the stages of the rest, the trace of a --break. */
static void finish_tracing(struct run *run)
{
	struct latprobe_run_info *info = &run->info;
	char err[512];

	latprobe_trace_stop(&run->trace);
	on_tick(run, true);
	if (latprobe_tracker_finish(&run->tracker)) {
		error_msg("out of memory for the spike explanations");
		run->failed = true;
	}
	if (atomic_load(&run->brk.hit)) {
		info->broke = true;
		info->break_cpu = run->brk.cpu;
		info->break_t = run->brk.t;
		info->break_latency = run->brk.latency;
		info->break_threshold = run->params.break_ns;
		if (latprobe_trace_save_break(&run->trace, run->params.break_trace, err,
					      sizeof(err))) {
			error_msg("%s", err);
			run->failed = true;
		} else {
			info->break_trace = run->params.break_trace;
		}
	}
	if (latprobe_trace_close(&run->trace, err, sizeof(err)))
		error_msg("%s", err);
	info->stages = true;
	info->trace_events = run->trace.events;
	info->trace_lost_pages = run->trace.lost_pages;
	info->trace_overrun = run->trace.overrun;
	info->trace_bad_pages = run->trace.bad_pages;
	for (unsigned c = 0; c < run->trace.windows.ncpus; c++)
		info->trace_window_dropped += run->trace.windows.cpu[c].dropped;
	info->trace_irq_event = run->trace.irq_event;
	info->trace_used = run->trace_used;
	info->trace_missing = run->trace_missing;
	if (run->trace.overrun || run->trace.lost_pages)
		error_msg("warning: the kernel lost %" PRIu64 " trace events (%" PRIu64
			  " buffer pages marked); the wake-ups they belonged to have no stages: "
			  "raise --trace-buffer",
			  run->trace.overrun, run->trace.lost_pages);
	if (info->trace_window_dropped)
		error_msg("warning: %" PRIu64 " trace events were dropped from full windows (the "
			  "main thread fell behind); some wake-ups have no stages",
			  info->trace_window_dropped);
	run->tracing = false;
}

/* Every thread runs and waits: give them the start time (or stop them all when one could not
 * set itself up). @return 0 or LATPROBE_EXIT_SETUP. */
static int release_threads(struct run *run)
{
	const struct timespec poll = { .tv_sec = 0, .tv_nsec = 1000000 };

	while (atomic_load(&run->ready) < run->nthreads && !atomic_load(&run->stop))
		nanosleep(&poll, NULL);
	for (unsigned i = 0; i < run->nthreads; i++) {
		if (run->threads[i].setup_failed) {
			explain_start_error(&run->params, run->threads[i].cpu,
					    run->threads[i].error);
			atomic_store(&run->stop, true);
			return LATPROBE_EXIT_SETUP;
		}
	}
	utc_now(run->start_utc, sizeof(run->start_utc));
	run->start_ns = latprobe_now_ns() + START_DELAY_NS;
	for (unsigned i = 0; i < run->nthreads; i++) {
		/* spread like cyclictest's threads, which each start on their own (-A aligns them):
		 * two CPUs' timers firing at the same instant delay each other (in a VM, the host
		 * delivers both); CPU k of n wakes k/n of an interval after the first */
		run->threads[i].start_ns = run->start_ns;
		run->threads[i].phase_ns =
		    run->params.aligned ? 0 : run->params.interval_ns * i / run->nthreads;
	}
	latprobe_actions_arm(&run->actions);
	atomic_store_explicit(&run->go, run->start_ns, memory_order_release);
	return LATPROBE_EXIT_OK;
}

static int run_measure(struct run *run)
{
	struct latprobe_params *params = &run->params;
	int rc = LATPROBE_EXIT_OK;

	atomic_store(&run->running, params->ncpus);
	for (unsigned i = 0; i < params->ncpus; i++) {
		int trc;

		trc = latprobe_thread_start(&run->threads[i]);
		if (trc) {
			explain_start_error(params, run->threads[i].cpu, trc);
			/* the threads not started will never count down */
			atomic_fetch_sub(&run->running, params->ncpus - i);
			atomic_store(&run->stop, true);
			rc = LATPROBE_EXIT_SETUP;
			break;
		}
		run->nthreads = i + 1;
	}
	if (!rc) {
		pin_main_thread(params, &run->allowed);
		/* after pinning: the exporter's thread inherits the CPUs that are not measured */
		if (run->metrics.exporter && (rc = latprobe_metrics_start(&run->metrics))) {
			error_msg("cannot start the metrics thread: %s", strerror(rc));
			atomic_store(&run->stop, true);
			rc = LATPROBE_EXIT_SETUP;
		}
	}
	if (!rc && run->tracing)
		note_steal(run, latprobe_now_ns()); /* the first reading, before any spike */
	if (!rc)
		rc = release_threads(run);
	if (!rc)
		run->info.interrupted = wait_for_end(run);
	for (unsigned i = 0; i < params->ncpus; i++)
		latprobe_thread_join(&run->threads[i]);
	run->end_ns = latprobe_now_ns();
	latprobe_actions_finish(&run->actions);
	if (run->tracing && !rc)
		finish_tracing(run);
	if (run->dma_fd >= 0) {
		close(run->dma_fd);
		run->dma_fd = -1;
	}
	for (unsigned i = 0; !rc && i < run->nthreads; i++) {
		if (run->threads[i].error && !run->threads[i].setup_failed) {
			error_msg("CPU %u: %s failed: %s; the results up to then are kept",
				  run->threads[i].cpu, run->threads[i].error_what,
				  strerror(run->threads[i].error));
			run->failed = true;
		}
	}
	return rc;
}

/* ---- report --------------------------------------------------------------------------- */

static int run_report(struct run *run)
{
	struct latprobe_params *params = &run->params;
	struct latprobe_run_info *info = &run->info;
	int rc = LATPROBE_EXIT_OK;

	info->cmdline = run->cmdline;
	info->start_utc = run->start_utc;
	info->host = run->host;
	info->kernel = run->kernel;
	info->elapsed_ns = run->end_ns > run->start_ns ? run->end_ns - run->start_ns : 0;
	info->t0_mono_ns = run->start_ns;
	info->dma_latency_us = run->dma_held_us;
	info->dma_note = run->dma_note;
	info->idle_disabled = run->idle.nsaved;
	info->actions = params->threshold_ns ? &run->actions : NULL;
	if (latprobe_write_log(run->log, params, info, run->threads, run->nthreads)) {
		error_msg("writing the latmon-log to %s failed: %s", params->output,
			  strerror(errno ? errno : EIO));
		rc = LATPROBE_EXIT_FAILURE;
	}
	if (run->json &&
	    latprobe_write_json(run->json, params, info, run->threads, run->nthreads)) {
		error_msg("writing the JSON summary to %s failed", params->json);
		rc = LATPROBE_EXIT_FAILURE;
	}
	if (!params->quiet) {
		latprobe_write_summary(stderr, run->threads, run->nthreads);
		if (info->stages)
			latprobe_write_trace_summary(stderr, run->threads, run->nthreads);
	}
	if (info->broke)
		fprintf(stderr,
			"latprobe: break: cpu%u woke %" PRIu64
			" ns late at t=%.6f s (threshold %" PRIu64 " ns); %s%s\n",
			info->break_cpu, info->break_latency, (double)info->break_t / 1e9,
			params->break_ns,
			info->break_trace ? "the trace is in " : "the trace was not kept",
			info->break_trace ? info->break_trace : "");
	if (run->failed && !rc)
		rc = LATPROBE_EXIT_FAILURE;
	return rc;
}

/* --metrics-linger: the output is complete (flushed); keep serving the final counts so that the
 * last scrape sees every sample, until the time is up or SIGINT/SIGTERM. Not after a signal
 * stopped the run (the user asked to stop). */
static void linger_metrics(struct run *run)
{
	uint64_t ns = run->params.metrics_linger_ns;
	struct timespec left;
	sigset_t set;

	if (!ns || !run->metrics.exporter || run->info.interrupted)
		return;
	if (run->log)
		fflush(run->log);
	if (run->json)
		fflush(run->json);
	if (!run->params.quiet)
		fprintf(stderr, "latprobe: serving the final metrics for %.3f s more\n",
			(double)ns / 1e9);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	for (uint64_t end = latprobe_now_ns() + ns, now; (now = latprobe_now_ns()) < end;) {
		left.tv_sec = (time_t)((end - now) / 1000000000u);
		left.tv_nsec = (long)((end - now) % 1000000000u);
		if (sigtimedwait(&set, NULL, &left) >= 0)
			break;
		if (errno != EAGAIN && errno != EINTR)
			break;
	}
}

/* ---- teardown ------------------------------------------------------------------------- */

static int run_teardown(struct run *run, int rc)
{
	struct latprobe_params *params = &run->params;
	char err[512];

	if (run->trace.created || run->trace.break_created || run->trace.mounted) {
		/* a failed setup or start: the trace settings are restored all the same */
		if (latprobe_trace_close(&run->trace, err, sizeof(err)))
			error_msg("%s", err);
	}
	if (run->idle_set && latprobe_idle_restore(&run->idle, err, sizeof(err))) {
		error_msg("%s", err);
		if (!rc)
			rc = LATPROBE_EXIT_FAILURE;
	}
	latprobe_metrics_close(&run->metrics);
	latprobe_tracker_free(&run->tracker);
	latprobe_trace_free(&run->trace);
	free(run->tids);
	if (run->dma_fd >= 0)
		close(run->dma_fd);
	if (run->threads) {
		for (unsigned i = 0; i < params->ncpus; i++)
			latprobe_thread_free(&run->threads[i]);
		free(run->threads);
	}
	if (run->json && run->json != stdout && fclose(run->json) && !rc) {
		error_msg("closing %s: %s", params->json, strerror(errno));
		rc = LATPROBE_EXIT_FAILURE;
	}
	if (run->log && run->log != stdout && fclose(run->log) && !rc) {
		error_msg("closing %s: %s", params->output, strerror(errno));
		rc = LATPROBE_EXIT_FAILURE;
	}
	return rc;
}

int main(int argc, char **argv)
{
	static struct run run; /* large (CPU list, trace session): not on the stack */
	char err[512];
	bool help;
	int rc;

	latprobe_params_defaults(&run.params);
	if (latprobe_params_parse(&run.params, argc, argv, err, sizeof(err), &help)) {
		error_msg("%s", err);
		return LATPROBE_EXIT_USAGE;
	}
	if (help) {
		latprobe_print_usage(stdout);
		return LATPROBE_EXIT_OK;
	}
	join_cmdline(run.cmdline, sizeof(run.cmdline), argc, argv);
	if (run.params.timerlat) {
		rc = resolve_cpus(&run.params, &run.allowed);
		return rc ? rc : latprobe_timerlat_run(&run.params, run.cmdline);
	}
	run.dma_fd = -1;
	run.trace.break_marker_fd = run.trace.break_tracing_on_fd = -1;
	rc = run_setup(&run);
	if (!rc)
		rc = run_measure(&run);
	if (!rc) {
		rc = run_report(&run);
		linger_metrics(&run);
	}
	return run_teardown(&run, rc);
}
