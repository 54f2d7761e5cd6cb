/* Unit tests of latprobe's option parsing (sw/probe/latprobe_params.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

static void test_durations(void)
{
	uint64_t v = 0;

	CHECK(latprobe_parse_duration("1000", 1000, &v) == 0 && v == 1000000);
	CHECK(latprobe_parse_duration("250us", 1000, &v) == 0 && v == 250000);
	CHECK(latprobe_parse_duration("1.5ms", 1000, &v) == 0 && v == 1500000);
	CHECK(latprobe_parse_duration("10s", 1, &v) == 0 && v == 10000000000ull);
	CHECK(latprobe_parse_duration("2m", 1, &v) == 0 && v == 120000000000ull);
	CHECK(latprobe_parse_duration("1h", 1, &v) == 0 && v == 3600000000000ull);
	CHECK(latprobe_parse_duration("0.000000001s", 1, &v) == 0 && v == 1);
	CHECK(latprobe_parse_duration("", 1, &v) == EINVAL);
	CHECK(latprobe_parse_duration("ms", 1, &v) == EINVAL);
	CHECK(latprobe_parse_duration("-5", 1, &v) == EINVAL);
	CHECK(latprobe_parse_duration("5 s", 1, &v) == EINVAL);
	CHECK(latprobe_parse_duration("5sec", 1, &v) == EINVAL);
	CHECK(latprobe_parse_duration("99999999999999999999", 1, &v) == ERANGE);
	CHECK(latprobe_parse_duration("9999999999999h", 1, &v) == ERANGE);
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
	      strstr(err, "fifo, rr or other"));
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

int main(void)
{
	test_durations();
	test_cpus();
	test_options();
	return check_report("test_latprobe_params");
}
