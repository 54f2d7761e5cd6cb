/* Unit tests of latprobe's option parsing (sw/probe/latprobe_params.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../probe/latprobe_params.h"

#include "check.h"

static int parse(struct latprobe_params *p, char *err, const char *a0, const char *a1,
		 const char *a2, const char *a3)
{
	char *argv[6] = { "latprobe", (char *)a0, (char *)a1, (char *)a2, (char *)a3, NULL };
	int argc = 1;
	bool help;

	while (argc < 5 && argv[argc])
		argc++;
	latprobe_params_defaults(p);
	return latprobe_params_parse(p, argc, argv, err, 256, &help);
}

static void test_cpus(void)
{
	unsigned cpus[LATPROBE_MAX_CPUS], n = 0;

	CHECK(latprobe_parse_cpus("0", cpus, &n) == 0 && n == 1 && cpus[0] == 0);
	CHECK(latprobe_parse_cpus("1,3,5-7", cpus, &n) == 0 && n == 5 && cpus[0] == 1 &&
	      cpus[1] == 3 && cpus[2] == 5 && cpus[4] == 7);
	CHECK(latprobe_parse_cpus("0-1023", cpus, &n) == 0 && n == 1024);
	CHECK(latprobe_parse_cpus("1024", cpus, &n) == EINVAL);
	CHECK(latprobe_parse_cpus("3-1", cpus, &n) == EINVAL);
	CHECK(latprobe_parse_cpus("1,1", cpus, &n) == EINVAL);
	CHECK(latprobe_parse_cpus("0-2,2", cpus, &n) == EINVAL);
	CHECK(latprobe_parse_cpus("1,", cpus, &n) == EINVAL);
	CHECK(latprobe_parse_cpus("a", cpus, &n) == EINVAL);
	CHECK(latprobe_parse_cpus("", cpus, &n) == EINVAL);
}

static void test_options(void)
{
	static struct latprobe_params p;
	char err[256];

	CHECK(parse(&p, err, NULL, NULL, NULL, NULL) == 0);
	CHECK(p.interval_ns == 1000000 && p.priority == 95 && p.policy == LATPROBE_POLICY_FIFO &&
	      p.mlock && p.dma_latency_us == LATPROBE_DMA_DEFAULT && !strcmp(p.output, "-"));
	/* no tracing by default; with it, the 5 worst samples of each CPU are explained */
	CHECK(!p.stages && p.explain_worst == 5 && p.explain_ns == 0 && p.break_ns == 0);
	CHECK(!p.aligned);
	CHECK(parse(&p, err, "--aligned", NULL, NULL, NULL) == 0 && p.aligned);
	CHECK(parse(&p, err, "--dma-latency", "none", NULL, NULL) == 0 &&
	      p.dma_latency_us == LATPROBE_DMA_NONE);
	CHECK(parse(&p, err, "--dma-latency", "0", NULL, NULL) == 0 && p.dma_latency_us == 0);
	CHECK(parse(&p, err, "--dma-latency", "20", NULL, NULL) == 0 && p.dma_latency_us == 20);
	/* --explain and --break trace: they imply --stages */
	CHECK(parse(&p, err, "--explain", "500", NULL, NULL) == 0 && p.explain_ns == 500000 &&
	      p.stages);
	CHECK(parse(&p, err, "--break", "2ms", "--break-trace", "b.txt") == 0 &&
	      p.break_ns == 2000000 && p.stages && !strcmp(p.break_trace, "b.txt"));
	CHECK(parse(&p, err, "--explain-worst", "0", "--explain-max", "7") == 0 &&
	      p.explain_worst == 0 && p.explain_max == 7 && !p.stages);
	CHECK(parse(&p, err, "-i", "200us", "-l", "50") == 0);
	CHECK(p.interval_ns == 200000 && p.count == 50);
	CHECK(parse(&p, err, "--policy", "other", NULL, NULL) == 0 && p.priority == 0);
	CHECK(parse(&p, err, "--policy", "rr", "-p", "10") == 0 && p.priority == 10 &&
	      p.policy == LATPROBE_POLICY_RR);
	CHECK(parse(&p, err, "-D", "10", NULL, NULL) == 0 && p.duration_ns == 10000000000ull);

	/* every error names the option and what to give instead */
	CHECK(parse(&p, err, "-i", "5us", NULL, NULL) == EINVAL && strstr(err, "--interval 5us"));
	CHECK(parse(&p, err, "-p", "100", NULL, NULL) == EINVAL && strstr(err, "1 to 99"));
	CHECK(parse(&p, err, "-p", "0", NULL, NULL) == EINVAL && strstr(err, "--policy other"));
	CHECK(parse(&p, err, "--policy", "other", "-p", "5") == EINVAL &&
	      strstr(err, "needs --policy fifo or rr"));
	CHECK(parse(&p, err, "--policy", "batch", NULL, NULL) == EINVAL &&
	      strstr(err, "fifo, rr, other or deadline:RUNTIME:PERIOD"));
	CHECK(parse(&p, err, "--json", "-", NULL, NULL) == EINVAL &&
	      strstr(err, "cannot both go to standard output"));
	CHECK(parse(&p, err, "-D", "100us", "-i", "1ms") == EINVAL &&
	      strstr(err, "shorter than one --interval"));
	CHECK(parse(&p, err, "--bogus", NULL, NULL, NULL) == EINVAL &&
	      strstr(err, "unknown option --bogus"));
	CHECK(parse(&p, err, "-i", NULL, NULL, NULL) == EINVAL && strstr(err, "needs a value"));
	CHECK(parse(&p, err, "extra", NULL, NULL, NULL) == EINVAL &&
	      strstr(err, "unexpected argument 'extra'"));
	CHECK(parse(&p, err, "-l", "0", NULL, NULL) == EINVAL && strstr(err, "--loops"));
	CHECK(parse(&p, err, "-a", "0,0", NULL, NULL) == EINVAL && strstr(err, "--cpus 0,0"));
	CHECK(parse(&p, err, "--hist-bin", "0", NULL, NULL) == EINVAL && strstr(err, "--hist-bin"));
	CHECK(parse(&p, err, "--dma-latency", "-1", NULL, NULL) == EINVAL &&
	      strstr(err, "or none to leave it untouched"));
	CHECK(parse(&p, err, "--explain", "0", NULL, NULL) == EINVAL && strstr(err, "--explain 0"));
	CHECK(parse(&p, err, "--break", "soon", NULL, NULL) == EINVAL &&
	      strstr(err, "--break soon"));
	CHECK(parse(&p, err, "--explain-worst", "1001", NULL, NULL) == EINVAL &&
	      strstr(err, "0 to 1000"));
	CHECK(parse(&p, err, "--explain-max", "0", NULL, NULL) == EINVAL &&
	      strstr(err, "--explain-max 0"));
	CHECK(parse(&p, err, "--explain", "1ms", "--max-samples", "0") == EINVAL &&
	      strstr(err, "give --max-samples above 0"));
}

/* The options of issue 42: the peers' (cyclictest, rtla timerlat) features. */
static void test_peer_options(void)
{
	static struct latprobe_params p;
	char err[256];

	CHECK(parse(&p, err, NULL, NULL, NULL, NULL) == 0);
	CHECK(p.clock == CLOCK_MONOTONIC && !p.relative && !p.posix_timers && p.warmup_ns == 0 &&
	      p.nhk_cpus == 0 && p.deepest_idle == LATPROBE_IDLE_UNTOUCHED && !p.threshold_ns);
	CHECK(parse(&p, err, "--policy", "deadline:100us:1ms", NULL, NULL) == 0 &&
	      p.policy == LATPROBE_POLICY_DEADLINE && p.dl_runtime_ns == 100000 &&
	      p.dl_deadline_ns == 1000000 && p.dl_period_ns == 1000000 && p.priority == 0);
	CHECK(parse(&p, err, "--policy", "deadline:500:400", NULL, NULL) == EINVAL);
	CHECK(parse(&p, err, "--policy", "deadline:1ns:1ms", NULL, NULL) == EINVAL);
	CHECK(parse(&p, err, "--policy", "deadline:100us:1ms", "-p", "5") == EINVAL &&
	      strstr(err, "policy deadline has no real-time priority"));
	CHECK(parse(&p, err, "-c", "1", "-r", "-x") == 0 && p.clock == CLOCK_REALTIME &&
	      p.relative && p.posix_timers);
	CHECK(parse(&p, err, "--clock", "monotonic", NULL, NULL) == 0 &&
	      p.clock == CLOCK_MONOTONIC);
	CHECK(parse(&p, err, "--warm-up", "2", NULL, NULL) == 0 && p.warmup_ns == 2000000000ull);
	CHECK(parse(&p, err, "-H", "0,2-3", NULL, NULL) == 0 && p.nhk_cpus == 3 &&
	      p.hk_cpus[2] == 3);
	CHECK(parse(&p, err, "--deepest-idle-state", "1", NULL, NULL) == 0 && p.deepest_idle == 1);
	CHECK(parse(&p, err, "--deepest-idle-state", "-1", NULL, NULL) == 0 &&
	      p.deepest_idle == LATPROBE_IDLE_UNTOUCHED);
	/* --threshold alone: rtla's default action, the trace (which needs tracing) */
	CHECK(parse(&p, err, "--threshold", "2ms", NULL, NULL) == 0 && p.threshold_ns == 2000000 &&
	      p.actions == LATPROBE_ACTION_TRACE && p.stages);
	CHECK(parse(&p, err, "--threshold", "2ms", "--on-threshold", "signal,num=10,pid=77") == 0 &&
	      p.actions == LATPROBE_ACTION_SIGNAL && p.action_signal == 10 && p.action_pid == 77 &&
	      !p.stages);
	CHECK(parse(&p, err, "--threshold", "1ms", "--on-threshold", "shell,command=a, b") == 0 &&
	      p.actions == LATPROBE_ACTION_SHELL && !strcmp(p.action_shell, "a, b"));
	CHECK(parse(&p, err, "--threshold", "1ms", "--on-threshold", "trace,file=x.t") == 0 &&
	      !strcmp(p.action_trace, "x.t"));
	CHECK(parse(&p, err, "--threshold", "1ms", "--on-threshold", "signal,num=99") == EINVAL &&
	      strstr(err, "num=N (1..64)"));
	CHECK(parse(&p, err, "--stages", "-r", NULL, NULL) == EINVAL &&
	      strstr(err, "leave out --clock realtime"));
}

static void test_metrics_options(void)
{
	static struct latprobe_params p; /* large: not on the stack */
	char err[256];

	CHECK(parse(&p, err, "--metrics", ":9110", NULL, NULL) == 0 && !strcmp(p.metrics, ":9110"));
	/* default buckets: 1-2-5 from 1 us to 10 ms */
	CHECK(p.buckets.n == 13 && p.buckets.bound_ns[0] == 1000);
	CHECK(parse(&p, err, "--metrics", "[::1]:9110", "--deadline", "3ms") == 0);
	CHECK(p.deadline_ns == 3000000 && p.buckets.bound_ns[p.buckets.n - 1] == 50000000);
	CHECK(parse(&p, err, "--metrics", ":0", "--metrics-buckets", "1us..1ms/3") == 0 &&
	      p.buckets.n == 10);
	CHECK(parse(&p, err, "--metrics", ":1", "--metrics-label", "site=plant3") == 0);
	CHECK(p.labels.n == 1 && !strcmp(p.labels.label[0].name, "site") &&
	      !strcmp(latmon_label_set_get(&p.labels, "site"), "plant3"));
	CHECK(parse(&p, err, "--metrics", "9110", NULL, NULL) == EINVAL &&
	      strstr(err, "ADDRESS:PORT"));
	CHECK(parse(&p, err, "--metrics", "::1:9110", NULL, NULL) == EINVAL);
	CHECK(parse(&p, err, "--metrics", ":70000", NULL, NULL) == EINVAL);
	CHECK(parse(&p, err, "--metrics-label", "a=b", NULL, NULL) == EINVAL &&
	      strstr(err, "give --metrics"));
	CHECK(parse(&p, err, "--metrics", ":1", "--metrics-label", "cpu=3") == EINVAL &&
	      strstr(err, "cpu source"));
	CHECK(parse(&p, err, "--metrics", ":1", "--metrics-label", "novalue") == EINVAL &&
	      strstr(err, "NAME=VALUE"));
	CHECK(parse(&p, err, "--metrics", ":1", "--metrics-buckets", "5us,1us") == EINVAL &&
	      strstr(err, "--metrics-buckets"));
	CHECK(parse(&p, err, "--deadline", "0", NULL, NULL) == EINVAL && strstr(err, "--deadline"));
	CHECK(parse(&p, err, "--metrics", ":1", "--metrics-linger", "5") == 0 &&
	      p.metrics_linger_ns == 5000000000ull);
	CHECK(parse(&p, err, "--metrics", ":1", "--metrics-linger", "250ms") == 0 &&
	      p.metrics_linger_ns == 250000000ull);
	CHECK(parse(&p, err, "--metrics", ":1", "--metrics-linger", "soon") == EINVAL &&
	      strstr(err, "--metrics-linger soon"));
	CHECK(parse(&p, err, "--metrics-linger", "5s", NULL, NULL) == EINVAL &&
	      strstr(err, "give --metrics"));
}

int main(void)
{
	test_cpus();
	test_options();
	test_peer_options();
	test_metrics_options();
	return check_report("test_latprobe_params");
}
