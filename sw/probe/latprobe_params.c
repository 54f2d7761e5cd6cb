/* latprobe command line parsing; see latprobe_params.h. */
#define _GNU_SOURCE
#include "latprobe_params.h"

#include "latmon/latmon_expo.h"
#include "latmon/latmon_exporter.h"
#include "latmon_parse.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_text[] =
    "usage: latprobe [options]\n"
    "\n"
    "Measure the timer wake-up latency of this Linux machine: one thread per CPU sleeps until\n"
    "absolute times on CLOCK_MONOTONIC and measures how late it wakes up, in nanoseconds.\n"
    "\n"
    "what to measure:\n"
    "  -i, --interval TIME     wake-up period (default 1000us; suffixes ns us ms s)\n"
    "  -D, --duration TIME     stop after TIME (suffixes s m h; default: until -l or Ctrl-C)\n"
    "  -l, --loops N           stop after N wake-ups per CPU\n"
    "  -a, --cpus LIST         CPUs to measure, e.g. 0 or 0-3 or 1,3 (default: all online)\n"
    "how:\n"
    "  -p, --priority N        real-time priority 1..99 (default 95 for fifo/rr)\n"
    "      --policy P          fifo (default), rr, other, or deadline:RUNTIME:PERIOD for\n"
    "                          SCHED_DEADLINE, e.g. deadline:100us:1ms (deadline = period)\n"
    "  -c, --clock C           the timers' clock: monotonic (default) or realtime (0 or 1,\n"
    "                          as cyclictest -c)\n"
    "  -r, --relative          relative sleeps from each wake-up (default: absolute times on\n"
    "                          a fixed grid)\n"
    "  -x, --posix-timers      POSIX timers (timer_create, a signal per expiry) instead of\n"
    "                          clock_nanosleep\n"
    "      --warm-up TIME      measure but do not keep the wake-ups of the first TIME (a\n"
    "                          number alone is seconds); they are counted as warmup\n"
    "  -H, --housekeeping LIST CPUs for latprobe's own threads (main, trace reader, metrics)\n"
    "      --deepest-idle-state N  on the measured CPUs only, disable the idle states deeper\n"
    "                          than N while measuring (cpuidle stateK/disable; restored\n"
    "                          after the run, also after SIGINT/SIGTERM)\n"
    "      --no-mlock          do not lock memory (mlockall is the default)\n"
    "      --aligned           wake every CPU at the same instants (default: CPU k of n is\n"
    "                          k/n of an interval later, so that their timers do not coincide)\n"
    "      --dma-latency US    hold /dev/cpu_dma_latency at US while measuring; none leaves it\n"
    "                          untouched (default: 0 when root, as cyclictest; else none)\n";

static const char usage_text2[] =
    "tracing (root; tracefs):\n"
    "      --stages            split each latency into the stages of the interrupt path and\n"
    "                          explain the worst samples of each CPU\n"
    "      --explain TIME      also explain every sample above TIME (implies --stages)\n"
    "      --explain-worst N   explain the worst N samples of each CPU (default 5; 0: none)\n"
    "      --explain-max N     explain at most N samples above --explain per CPU (default 100)\n"
    "      --break TIME        stop at the first sample above TIME and keep the kernel's trace\n"
    "                          of it (implies --stages), like cyclictest --breaktrace\n"
    "      --break-trace FILE  where --break writes the trace (default latprobe-break.trace)\n"
    "      --timerlat          measure with the kernel's timerlat tracer instead of latprobe's\n"
    "                          threads (its IRQ and thread latency per CPU, the samples rtla\n"
    "                          timerlat reads); needs a kernel with the tracer\n"
    "      --threshold TIME    act on every event above TIME and go on measuring; an event is\n"
    "                          a sample above it that finds no action still running\n"
    "      --on-threshold A    the action (repeatable; default trace): trace[,file=F] keeps\n"
    "                          the kernel's trace of the moment in F (F.2, F.3, ... after the\n"
    "                          first; default latprobe-threshold.trace; implies --stages);\n"
    "                          signal,num=N[,pid=P] sends signal N to P (default: the parent);\n"
    "                          shell,command=CMD runs /bin/sh -c CMD with LATPROBE_CPU,\n"
    "                          LATPROBE_LATENCY_NS, LATPROBE_T_NS and LATPROBE_EVENT set\n"
    "      --on-threshold-timeout T  kill the shell command after T (default 30s)\n"
    "      --trace-buffer KB   per-CPU trace buffer (default 8192)\n"
    "what to keep:\n"
    "      --hist-bin TIME     histogram bin width (default 1us)\n"
    "      --hist-bins N       histogram bins before the overflow bin (default 20000)\n"
    "      --max-samples N     raw samples kept per CPU (default 1000000; 0: histogram only)\n"
    "output:\n"
    "  -o, --output FILE       latmon-log file (default: - for standard output)\n"
    "      --json FILE         JSON summary (- for standard output)\n"
    "      --scenario NAME     scenario name written into the log header\n"
    "  -q, --quiet             no summary on standard error\n"
    "  -h, --help              this text\n"
    "field monitoring (docs/fleet.md):\n"
    "      --deadline TIME     count the samples above TIME as deadline violations\n"
    "      --metrics ADDR:PORT serve Prometheus/OpenMetrics metrics over HTTP while measuring,\n"
    "                          e.g. :9110 (every address) or 127.0.0.1:9110\n"
    "      --metrics-buckets B histogram bounds: a list 10us,100us,1ms or log spacing\n"
    "                          MIN..MAX/N (N per decade); default 1-2-5 per decade from 1us\n"
    "                          to max(10ms, 10 x deadline), the deadline among them\n"
    "      --metrics-label K=V a label on every metric, e.g. site=plant3 (repeatable; host=\n"
    "                          and scenario= replace the defaults)\n"
    "      --metrics-linger T  after the measurement, keep serving the final counts for T\n"
    "                          (e.g. 5s; at least two scrape intervals lets the last scrape\n"
    "                          see every sample); Ctrl-C or SIGTERM end it early\n"
    "\n"
    "exit status: 0 ok, 1 measurement failed, 2 bad arguments, 3 setup failed (permissions,\n"
    "CPUs, tracefs, output). Ctrl-C or SIGTERM stop the measurement and write complete output.\n";

void latprobe_print_usage(FILE *out)
{
	fputs(usage_text, out);
	fputs(usage_text2, out);
}

const char *latprobe_policy_name(enum latprobe_policy policy)
{
	switch (policy) {
	case LATPROBE_POLICY_FIFO:
		return "fifo";
	case LATPROBE_POLICY_RR:
		return "rr";
	case LATPROBE_POLICY_OTHER:
		return "other";
	case LATPROBE_POLICY_DEADLINE:
		return "deadline";
	}
	return "?";
}

void latprobe_params_defaults(struct latprobe_params *params)
{
	memset(params, 0, sizeof(*params));
	params->interval_ns = 1000000;
	params->policy = LATPROBE_POLICY_FIFO;
	params->priority = -1; /* resolved after parsing: 95 for fifo/rr, 0 for other */
	params->mlock = true;
	params->dma_latency_us = LATPROBE_DMA_DEFAULT;
	params->trace_buffer_kb = 8192;
	params->explain_worst = 5;
	params->explain_max = 100;
	params->break_trace = "latprobe-break.trace";
	params->hist_bin_ns = 1000;
	params->hist_bins = 20000;
	params->max_samples = 1000000;
	params->output = "-";
	params->clock = CLOCK_MONOTONIC;
	params->deepest_idle = LATPROBE_IDLE_UNTOUCHED;
	params->action_trace = "latprobe-threshold.trace";
	params->action_timeout_ns = 30000000000ull;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return EINVAL;
}

int latprobe_parse_cpus(const char *text, unsigned *cpus, unsigned *ncpus)
{
	unsigned char seen[LATPROBE_MAX_CPUS];
	const char *p = text;
	unsigned n = 0;

	if (!text || !*text)
		return EINVAL;
	memset(seen, 0, sizeof(seen));
	for (;;) {
		char *end;
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			return EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= LATPROBE_MAX_CPUS)
			return EINVAL;
		for (unsigned long c = lo; c <= hi; c++) {
			if (seen[c])
				return EINVAL;
			seen[c] = 1;
			cpus[n++] = (unsigned)c;
		}
		if (*p == '\0')
			break;
		if (*p != ',')
			return EINVAL;
		p++;
	}
	*ncpus = n;
	return 0;
}

enum long_only {
	OPT_POLICY = 256,
	OPT_NO_MLOCK,
	OPT_ALIGNED,
	OPT_DMA_LATENCY,
	OPT_STAGES,
	OPT_TIMERLAT,
	OPT_EXPLAIN,
	OPT_EXPLAIN_WORST,
	OPT_EXPLAIN_MAX,
	OPT_BREAK,
	OPT_BREAK_TRACE,
	OPT_TRACE_BUFFER,
	OPT_HIST_BIN,
	OPT_HIST_BINS,
	OPT_MAX_SAMPLES,
	OPT_JSON,
	OPT_SCENARIO,
	OPT_DEADLINE,
	OPT_METRICS,
	OPT_METRICS_BUCKETS,
	OPT_METRICS_LABEL,
	OPT_METRICS_LINGER,
	OPT_WARMUP,
	OPT_DEEPEST_IDLE,
	OPT_THRESHOLD,
	OPT_ON_THRESHOLD,
	OPT_ON_THRESHOLD_TIMEOUT,
};

/* deadline:RUNTIME:PERIOD (a number alone is microseconds) */
static int parse_deadline(struct latprobe_params *params, const char *text)
{
	char buf[64], *colon;
	uint64_t runtime, period;

	if (strlen(text) >= sizeof(buf))
		return EINVAL;
	snprintf(buf, sizeof(buf), "%s", text);
	colon = strchr(buf, ':');
	if (!colon)
		return EINVAL;
	*colon = '\0';
	if (latmon_parse_duration(buf, 1000, &runtime) ||
	    latmon_parse_duration(colon + 1, 1000, &period))
		return EINVAL;
	/* the kernel's limits: runtime at least 1024 ns, runtime <= deadline <= period */
	if (runtime < 1024 || period < runtime || period > (1ull << 63))
		return ERANGE;
	params->dl_runtime_ns = runtime;
	params->dl_deadline_ns = period;
	params->dl_period_ns = period;
	return 0;
}

/* One --on-threshold action: trace[,file=F], signal,num=N[,pid=P], shell,command=CMD. The
 * text is not changed (the file and the command point into it). */
static int parse_action(struct latprobe_params *params, const char *text, char *err, size_t errlen)
{
	const char *comma = strchr(text, ',');
	size_t kind = comma ? (size_t)(comma - text) : strlen(text);
	const char *args = comma ? comma + 1 : NULL;
	uint64_t v;

	if (kind == 5 && !strncmp(text, "trace", 5)) {
		params->actions |= LATPROBE_ACTION_TRACE;
		if (!args)
			return 0;
		if (strncmp(args, "file=", 5) || !args[5])
			return fail(err, errlen,
				    "--on-threshold trace,%s: give trace or trace,file=FILE", args);
		params->action_trace = args + 5;
		return 0;
	}
	if (kind == 6 && !strncmp(text, "signal", 6)) {
		char buf[128], *kv, *next;
		bool num = false;

		params->actions |= LATPROBE_ACTION_SIGNAL;
		snprintf(buf, sizeof(buf), "%s", args ? args : "");
		for (kv = buf; *kv; kv = next) {
			next = strchr(kv, ',');
			if (next)
				*next++ = '\0';
			else
				next = kv + strlen(kv);
			if (!strncmp(kv, "num=", 4) && !latmon_parse_u64(kv + 4, 10, 1, 64, &v)) {
				params->action_signal = (int)v;
				num = true;
			} else if (!strcmp(kv, "pid=parent")) {
				params->action_pid = 0;
			} else if (!strncmp(kv, "pid=", 4) &&
				   !latmon_parse_u64(kv + 4, 10, 1, INT32_MAX, &v)) {
				params->action_pid = (long)v;
			} else {
				return fail(err, errlen,
					    "--on-threshold signal: '%s': give num=N (1..64) and "
					    "optionally pid=P or pid=parent",
					    kv);
			}
		}
		if (!num)
			return fail(err, errlen,
				    "--on-threshold signal: give the signal, e.g. signal,num=10");
		return 0;
	}
	if (kind == 5 && !strncmp(text, "shell", 5)) {
		if (!args || strncmp(args, "command=", 8) || !args[8])
			return fail(err, errlen, "--on-threshold shell: give shell,command=CMD");
		params->actions |= LATPROBE_ACTION_SHELL;
		params->action_shell = args + 8;
		return 0;
	}
	return fail(err, errlen,
		    "--on-threshold %.*s: give trace[,file=F], signal,num=N[,pid=P] or "
		    "shell,command=CMD",
		    (int)kind, text);
}

int latprobe_params_parse(struct latprobe_params *params, int argc, char **argv, char *err,
			  size_t errlen, bool *help)
{
	static const struct option options[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'D' },
		{ "loops", required_argument, NULL, 'l' },
		{ "cpus", required_argument, NULL, 'a' },
		{ "priority", required_argument, NULL, 'p' },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "no-mlock", no_argument, NULL, OPT_NO_MLOCK },
		{ "aligned", no_argument, NULL, OPT_ALIGNED },
		{ "dma-latency", required_argument, NULL, OPT_DMA_LATENCY },
		{ "stages", no_argument, NULL, OPT_STAGES },
		{ "timerlat", no_argument, NULL, OPT_TIMERLAT },
		{ "explain", required_argument, NULL, OPT_EXPLAIN },
		{ "explain-worst", required_argument, NULL, OPT_EXPLAIN_WORST },
		{ "explain-max", required_argument, NULL, OPT_EXPLAIN_MAX },
		{ "break", required_argument, NULL, OPT_BREAK },
		{ "break-trace", required_argument, NULL, OPT_BREAK_TRACE },
		{ "trace-buffer", required_argument, NULL, OPT_TRACE_BUFFER },
		{ "hist-bin", required_argument, NULL, OPT_HIST_BIN },
		{ "hist-bins", required_argument, NULL, OPT_HIST_BINS },
		{ "max-samples", required_argument, NULL, OPT_MAX_SAMPLES },
		{ "output", required_argument, NULL, 'o' },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "scenario", required_argument, NULL, OPT_SCENARIO },
		{ "quiet", no_argument, NULL, 'q' },
		{ "deadline", required_argument, NULL, OPT_DEADLINE },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "metrics-buckets", required_argument, NULL, OPT_METRICS_BUCKETS },
		{ "metrics-label", required_argument, NULL, OPT_METRICS_LABEL },
		{ "metrics-linger", required_argument, NULL, OPT_METRICS_LINGER },
		{ "clock", required_argument, NULL, 'c' },
		{ "relative", no_argument, NULL, 'r' },
		{ "posix-timers", no_argument, NULL, 'x' },
		{ "warm-up", required_argument, NULL, OPT_WARMUP },
		{ "housekeeping", required_argument, NULL, 'H' },
		{ "deepest-idle-state", required_argument, NULL, OPT_DEEPEST_IDLE },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "on-threshold", required_argument, NULL, OPT_ON_THRESHOLD },
		{ "on-threshold-timeout", required_argument, NULL, OPT_ON_THRESHOLD_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *buckets = NULL;
	char host[256], port[8];
	uint64_t v;
	int c, rc;

	*help = false;
	err[0] = '\0';
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:D:l:a:p:o:qhc:rxH:", options, NULL)) != -1) {
		switch (c) {
		case 'i':
			rc = latmon_parse_duration(optarg, 1000, &v);
			if (rc || v < 10000 || v > 3600000000000ull)
				return fail(
				    err, errlen,
				    "--interval %s: give a period from 10us to 1h, e.g. 1000us or "
				    "1ms (a number alone is microseconds)",
				    optarg);
			params->interval_ns = v;
			break;
		case 'D':
			rc = latmon_parse_duration(optarg, 1000000000, &v);
			if (rc || v == 0)
				return fail(
				    err, errlen,
				    "--duration %s: give a positive time, e.g. 10s, 5m or 1h "
				    "(a number alone is seconds)",
				    optarg);
			params->duration_ns = v;
			break;
		case 'l':
			if (latmon_parse_u64(optarg, 10, 1, UINT64_MAX / 2, &v))
				return fail(err, errlen, "--loops %s: give a positive whole number",
					    optarg);
			params->count = v;
			break;
		case 'a':
			if (latprobe_parse_cpus(optarg, params->cpus, &params->ncpus))
				return fail(
				    err, errlen,
				    "--cpus %s: give CPU numbers like 0, 0-3 or 1,3,5-7, each "
				    "once, below %d",
				    optarg, LATPROBE_MAX_CPUS);
			break;
		case 'p':
			if (latmon_parse_u64(optarg, 10, 0, 99, &v))
				return fail(err, errlen,
					    "--priority %s: give a real-time priority from 1 to 99",
					    optarg);
			params->priority = (int)v;
			break;
		case OPT_POLICY:
			if (!strcmp(optarg, "fifo"))
				params->policy = LATPROBE_POLICY_FIFO;
			else if (!strcmp(optarg, "rr"))
				params->policy = LATPROBE_POLICY_RR;
			else if (!strcmp(optarg, "other"))
				params->policy = LATPROBE_POLICY_OTHER;
			else if (!strncmp(optarg, "deadline:", 9) &&
				 !parse_deadline(params, optarg + 9))
				params->policy = LATPROBE_POLICY_DEADLINE;
			else
				return fail(
				    err, errlen,
				    "--policy %s: give fifo, rr, other or "
				    "deadline:RUNTIME:PERIOD (runtime from 1024ns up to the "
				    "period, e.g. deadline:100us:1ms)",
				    optarg);
			break;
		case 'c':
			if (!strcmp(optarg, "monotonic") || !strcmp(optarg, "0"))
				params->clock = CLOCK_MONOTONIC;
			else if (!strcmp(optarg, "realtime") || !strcmp(optarg, "1"))
				params->clock = CLOCK_REALTIME;
			else
				return fail(err, errlen,
					    "--clock %s: give monotonic (0) or realtime (1)",
					    optarg);
			break;
		case 'r':
			params->relative = true;
			break;
		case 'x':
			params->posix_timers = true;
			break;
		case OPT_WARMUP:
			rc = latmon_parse_duration(optarg, 1000000000, &v);
			if (rc || v > 86400000000000ull)
				return fail(
				    err, errlen,
				    "--warm-up %s: give a time such as 2s or 500ms (a number "
				    "alone is seconds), at most 24h",
				    optarg);
			params->warmup_ns = v;
			break;
		case 'H':
			if (latprobe_parse_cpus(optarg, params->hk_cpus, &params->nhk_cpus))
				return fail(
				    err, errlen,
				    "--housekeeping %s: give CPU numbers like 0, 0-3 or 1,3,5-7, "
				    "each once, below %d",
				    optarg, LATPROBE_MAX_CPUS);
			break;
		case OPT_DEEPEST_IDLE:
			if (!strcmp(optarg, "-1")) {
				params->deepest_idle = LATPROBE_IDLE_UNTOUCHED;
				break;
			}
			if (latmon_parse_u64(optarg, 10, 0, 1000, &v))
				return fail(err, errlen,
					    "--deepest-idle-state %s: give the deepest idle state "
					    "index to allow (0 keeps only state0), or -1 for none",
					    optarg);
			params->deepest_idle = (int)v;
			break;
		case OPT_THRESHOLD:
			rc = latmon_parse_duration(optarg, 1000, &v);
			if (rc || v == 0)
				return fail(
				    err, errlen,
				    "--threshold %s: give a latency such as 500us or 2ms (a "
				    "number alone is microseconds)",
				    optarg);
			params->threshold_ns = v;
			break;
		case OPT_ON_THRESHOLD:
			if (parse_action(params, optarg, err, errlen))
				return EINVAL;
			break;
		case OPT_ON_THRESHOLD_TIMEOUT:
			rc = latmon_parse_duration(optarg, 1000000000, &v);
			if (rc || v == 0 || v > 86400000000000ull)
				return fail(err, errlen,
					    "--on-threshold-timeout %s: give a time such as 30s (a "
					    "number alone is seconds), at most 24h",
					    optarg);
			params->action_timeout_ns = v;
			break;
		case OPT_NO_MLOCK:
			params->mlock = false;
			break;
		case OPT_ALIGNED:
			params->aligned = true;
			break;
		case OPT_DMA_LATENCY:
			if (!strcmp(optarg, "none")) {
				params->dma_latency_us = LATPROBE_DMA_NONE;
				break;
			}
			if (latmon_parse_u64(optarg, 10, 0, INT32_MAX, &v))
				return fail(
				    err, errlen,
				    "--dma-latency %s: give microseconds, 0 or more (0 keeps CPUs "
				    "out of deep idle states), or none to leave it untouched",
				    optarg);
			params->dma_latency_us = (int)v;
			break;
		case OPT_STAGES:
			params->stages = true;
			break;
		case OPT_TIMERLAT:
			params->timerlat = true;
			break;
		case OPT_EXPLAIN:
			rc = latmon_parse_duration(optarg, 1000, &v);
			if (rc || v == 0)
				return fail(err, errlen,
					    "--explain %s: give a latency such as 100us or 1ms (a "
					    "number alone is microseconds)",
					    optarg);
			params->explain_ns = v;
			params->stages = true;
			break;
		case OPT_EXPLAIN_WORST:
			if (latmon_parse_u64(optarg, 10, 0, 1000, &v))
				return fail(
				    err, errlen,
				    "--explain-worst %s: give a number of samples from 0 to 1000",
				    optarg);
			params->explain_worst = v;
			break;
		case OPT_EXPLAIN_MAX:
			if (latmon_parse_u64(optarg, 10, 1, 100000, &v))
				return fail(
				    err, errlen,
				    "--explain-max %s: give a number of samples from 1 to 100000",
				    optarg);
			params->explain_max = v;
			break;
		case OPT_BREAK:
			rc = latmon_parse_duration(optarg, 1000, &v);
			if (rc || v == 0)
				return fail(
				    err, errlen,
				    "--break %s: give a latency such as 500us or 2ms (a number "
				    "alone is microseconds)",
				    optarg);
			params->break_ns = v;
			params->stages = true;
			break;
		case OPT_BREAK_TRACE:
			if (!*optarg)
				return fail(err, errlen, "--break-trace: give a file name");
			params->break_trace = optarg;
			break;
		case OPT_TRACE_BUFFER:
			if (latmon_parse_u64(optarg, 10, 64, 4194304, &v))
				return fail(
				    err, errlen,
				    "--trace-buffer %s: give kilobytes per CPU, 64 to 4194304",
				    optarg);
			params->trace_buffer_kb = v;
			break;
		case OPT_HIST_BIN:
			rc = latmon_parse_duration(optarg, 1, &v);
			if (rc || v == 0 || v > 1000000000)
				return fail(
				    err, errlen,
				    "--hist-bin %s: give a bin width from 1ns to 1s, e.g. 100ns "
				    "or 1us (a number alone is nanoseconds)",
				    optarg);
			params->hist_bin_ns = v;
			break;
		case OPT_HIST_BINS:
			if (latmon_parse_u64(optarg, 10, 1, 100000000, &v))
				return fail(
				    err, errlen,
				    "--hist-bins %s: give a number of bins from 1 to 100000000",
				    optarg);
			params->hist_bins = v;
			break;
		case OPT_MAX_SAMPLES:
			if (latmon_parse_u64(optarg, 10, 0, 1000000000, &v))
				return fail(
				    err, errlen,
				    "--max-samples %s: give a number from 0 (histogram only) to "
				    "1000000000",
				    optarg);
			params->max_samples = v;
			break;
		case 'o':
			params->output = optarg;
			break;
		case OPT_JSON:
			params->json = optarg;
			break;
		case OPT_SCENARIO:
			if (!*optarg)
				return fail(err, errlen, "--scenario: give a non-empty name");
			params->scenario = optarg;
			break;
		case 'q':
			params->quiet = true;
			break;
		case OPT_DEADLINE:
			rc = latmon_parse_duration(optarg, 1000, &v);
			if (rc || v == 0 || v > 1000000000000ull)
				return fail(err, errlen,
					    "--deadline %s: give a latency such as 3ms or 100us (a "
					    "number alone is microseconds), at most 1000s",
					    optarg);
			params->deadline_ns = v;
			break;
		case OPT_METRICS:
			if (latmon_exporter_parse_listen(optarg, host, sizeof(host), port,
							 sizeof(port)))
				return fail(err, errlen,
					    "--metrics %s: give ADDRESS:PORT, e.g. :9110 (every "
					    "address), 127.0.0.1:9110 or [::1]:9110",
					    optarg);
			params->metrics = optarg;
			break;
		case OPT_METRICS_BUCKETS:
			buckets = optarg;
			break;
		case OPT_METRICS_LINGER:
			rc = latmon_parse_duration(optarg, 1000000000, &v);
			if (rc || v > 86400000000000ull)
				return fail(
				    err, errlen,
				    "--metrics-linger %s: give a time such as 5s or 1m (a number "
				    "alone is seconds), at most 24h",
				    optarg);
			params->metrics_linger_ns = v;
			break;
		case OPT_METRICS_LABEL: {
			char why[300];

			if (latmon_label_set_add(&params->labels, optarg, "cpu source", why,
						 sizeof(why)))
				return fail(err, errlen, "--metrics-label %s", why);
			break;
		}
		case 'h':
			*help = true;
			return 0;
		case ':':
			return fail(err, errlen, "option %s needs a value; see latprobe --help",
				    argv[optind - 1]);
		default:
			return fail(err, errlen, "unknown option %s; see latprobe --help",
				    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s'; see latprobe --help",
			    argv[optind]);
	if (params->actions && !params->threshold_ns)
		return fail(err, errlen, "--on-threshold needs --threshold TIME");
	if (params->threshold_ns && !params->actions)
		params->actions = LATPROBE_ACTION_TRACE; /* rtla's default action */
	if (params->threshold_ns && params->break_ns)
		return fail(err, errlen,
			    "--break stops at its threshold and --threshold acts and goes on: give "
			    "one of them");
	if (params->timerlat &&
	    (params->stages || params->actions || params->break_ns || params->metrics ||
	     params->warmup_ns || params->policy == LATPROBE_POLICY_DEADLINE))
		return fail(err, errlen,
			    "--timerlat: the kernel's timerlat tracer measures, not latprobe's "
			    "threads; leave out --stages, --explain, --break, --threshold, "
			    "--metrics, --warm-up and --policy deadline");
	if (params->timerlat && (params->interval_ns % 1000 || params->interval_ns < 100000 ||
				 params->interval_ns > 1000000000))
		return fail(err, errlen,
			    "--timerlat: the timerlat tracer's period is whole microseconds from "
			    "100us to 1s; give --interval in that range");
	if (params->actions & LATPROBE_ACTION_TRACE)
		params->stages = true;
	if (params->policy == LATPROBE_POLICY_OTHER || params->policy == LATPROBE_POLICY_DEADLINE) {
		if (params->priority > 0)
			return fail(err, errlen,
				    "--priority %d needs --policy fifo or rr (policy %s has no "
				    "real-time priority)",
				    params->priority, latprobe_policy_name(params->policy));
		params->priority = 0;
	} else if (params->priority < 0) {
		params->priority = 95;
	} else if (params->priority == 0) {
		return fail(
		    err, errlen,
		    "--priority 0 is not a real-time priority; give 1..99 or --policy other");
	}
	if (!strcmp(params->output, "-") && params->json && !strcmp(params->json, "-"))
		return fail(
		    err, errlen,
		    "the latmon-log and the JSON summary cannot both go to standard output; "
		    "give -o FILE or --json FILE");
	if (params->stages &&
	    (params->clock != CLOCK_MONOTONIC || params->relative || params->posix_timers))
		return fail(err, errlen,
			    "--stages, --explain, --break and the trace action follow the "
			    "absolute clock_nanosleep on CLOCK_MONOTONIC: leave out --clock "
			    "realtime, --relative and --posix-timers");
	if (params->stages && params->max_samples == 0)
		return fail(err, errlen,
			    "--stages, --explain and --break work on the kept samples: give "
			    "--max-samples above 0");
	if (params->duration_ns && params->duration_ns < params->interval_ns)
		return fail(err, errlen,
			    "--duration is shorter than one --interval: nothing would be measured");
	if ((buckets || params->labels.n || params->metrics_linger_ns) && !params->metrics)
		return fail(err, errlen,
			    "--metrics-buckets, --metrics-label and --metrics-linger shape the "
			    "metrics: give --metrics ADDR:PORT too");
	if (buckets) {
		char why[200];

		if (latmon_buckets_parse(buckets, params->deadline_ns, &params->buckets, why,
					 sizeof(why)))
			return fail(err, errlen, "--metrics-buckets: %s", why);
	} else if (latmon_buckets_default(&params->buckets, params->deadline_ns)) {
		return fail(err, errlen, "--deadline: too large for the default buckets");
	}
	return 0;
}
