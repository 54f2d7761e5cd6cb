/*
 * latctl stream: keep reading the trace as it fills and append every sample to a latmon-log,
 * until SIGINT or SIGTERM; then the log is closed cleanly (its trailer written), so nothing
 * read is lost. Samples overwritten in the ring before they could be read are counted (X lost=).
 * Waits for the core's interrupt (enable IRQ_ENABLE.SAMPLE) or polls every --interval-ms.
 * --metrics ADDR:PORT also serves every sample read and the core's counters to Prometheus
 * (latctl_metrics.h, docs/fleet.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "latctl.h"
#include "latctl_metrics.h"
#include "latmon/latmon_map.h"
#include "latmon_parse.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

int latctl_cmd_stream(struct latctl *c, int argc, char **argv)
{
	uint32_t samples[LATMON_TRACE_ENTRIES], first;
	struct latctl_log *log = NULL;
	const char *out_path = NULL;
	struct sigaction sa;
	uint64_t interval_ms = 100, next = 0, lost = 0, written = 0, v;
	FILE *out = stdout;
	struct latctl_metrics_params mp = { 0 };
	struct latctl_metrics metrics = { 0 };
	struct latmon_stats stats;
	char why[512];
	size_t n, k;
	int rc, err = 0, end, i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			out_path = argv[++i];
		} else if (strcmp(argv[i], "--interval-ms") == 0 && i + 1 < argc) {
			if (latmon_parse_u64(argv[++i], 0, 0, 60000, &v) || v == 0)
				return latctl_usage_error(c, "--interval-ms %s: give 1 .. 60000",
							  argv[i]);
			interval_ms = v;
		} else if (strcmp(argv[i], "--metrics") == 0 && i + 1 < argc) {
			mp.listen = argv[++i];
		} else if (strcmp(argv[i], "--metrics-buckets") == 0 && i + 1 < argc) {
			mp.buckets = argv[++i];
		} else if (strcmp(argv[i], "--metrics-label") == 0 && i + 1 < argc) {
			if (latmon_label_set_add(&mp.labels, argv[++i], "source", why, sizeof(why)))
				return latctl_usage_error(c, "--metrics-label %s", why);
		} else {
			return latctl_usage_error(c,
						  "stream: unknown option '%s' (-o FILE, "
						  "--interval-ms N, --metrics ADDR:PORT, "
						  "--metrics-buckets B, --metrics-label K=V)",
						  argv[i]);
		}
	}
	if ((mp.buckets || mp.labels.n) && !mp.listen)
		return latctl_usage_error(c, "--metrics-buckets and --metrics-label shape the "
					     "metrics: give --metrics ADDR:PORT too");
	if (!c->clock_hz)
		return latctl_usage_error(c, "stream writes latmon-log, which needs --clock-hz HZ");
	if ((rc = latctl_open(c)))
		return rc;
	if (mp.listen) {
		mp.clock_hz = c->clock_hz;
		if ((err = latctl_metrics_open(&metrics, &mp, why, sizeof(why)))) {
			latctl_metrics_close(&metrics);
			return err == EINVAL ? latctl_usage_error(c, "--metrics: %s", why)
					     : latctl_fail(c, why, err);
		}
		latctl_metrics_address(&metrics, why, sizeof(why));
		fprintf(stderr, "%s: metrics at http://%s/metrics\n", c->prog, why);
	}
	if (out_path && !(out = fopen(out_path, "w"))) {
		latctl_metrics_close(&metrics);
		return latctl_fail(c, out_path, errno);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	err = latctl_log_open(&log, out, c, "trace");
	if (!err && mp.listen)
		err = latctl_metrics_start(&metrics);
	while (!err) {
		/* read everything new, then check for a stop: the last batch is never skipped */
		err = latmon_read_trace(&c->dev, samples, LATMON_TRACE_ENTRIES, &first, &n);
		if (err)
			break;
		for (k = 0; k < n && !err; k++) {
			uint32_t number = first + (uint32_t)k;
			if ((uint32_t)(number - (uint32_t)next) >= UINT32_C(0x80000000))
				continue; /* already written */
			if (number != (uint32_t)next) {
				lost += (uint32_t)(number - (uint32_t)next);
				if (metrics.meter)
					latctl_metrics_lost(&metrics,
							    (uint32_t)(number - (uint32_t)next));
			}
			err = latctl_log_sample(log, number, samples[k]);
			if (metrics.meter)
				latctl_metrics_sample(&metrics, samples[k]);
			next = (uint64_t)number + 1;
			written++;
		}
		if (!err && metrics.meter && !(err = latmon_read_stats(&c->dev, &stats))) {
			const uint32_t hw[4] = { stats.violations, stats.timeouts, stats.overruns,
						 stats.ignored };

			latctl_metrics_core_counters(&metrics, hw);
		}
		if (err || stop_requested)
			break;
		fflush(out);
		if (latmon_wait(&c->dev, (int)interval_ms) == ENOTSUP) {
			struct timespec ts = { (time_t)(interval_ms / 1000),
					       (long)(interval_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
		}
		latmon_irq_ack(&c->dev, UINT32_MAX);
	}
	if (log) {
		if (!err)
			err = latctl_log_counter(log, "lost", lost);
		end = latctl_log_close(log);
		err = err ? err : end;
	}
	latctl_metrics_close(&metrics);
	if (out != stdout && fclose(out) != 0 && !err)
		err = errno;
	fprintf(stderr,
		"%s: stream: %llu samples written, %llu overwritten before they were read\n",
		c->prog, (unsigned long long)written, (unsigned long long)lost);
	if (err)
		return latctl_fail(c, "stream", err);
	return LATCTL_OK;
}
