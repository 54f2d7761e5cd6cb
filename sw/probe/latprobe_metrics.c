/* latprobe --metrics; see latprobe_metrics.h. */
#define _GNU_SOURCE
#include "latprobe_metrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "latmon/latmon_expo.h"

/* Labels of one series: host, scenario, the --metrics-label ones, source, cpu. */
#define MAX_SERIES_LABELS (LATMON_MAX_LABELS + 4)

/* How long a scrape waits for a snapshot when the writer is always inside a section. */
#define SNAPSHOT_TRIES 100

/* The labels every series of this probe carries (without cpu). @return how many. */
static unsigned common_labels(const struct latprobe_metrics *m, struct latmon_label *labels)
{
	const struct latprobe_params *p = m->params;
	unsigned n = 0;

	if (!latmon_label_set_get(&p->labels, "host"))
		labels[n++] = (struct latmon_label){ "host", m->host };
	if (p->scenario && !latmon_label_set_get(&p->labels, "scenario"))
		labels[n++] = (struct latmon_label){ "scenario", p->scenario };
	for (unsigned i = 0; i < p->labels.n; i++)
		labels[n++] = p->labels.label[i];
	labels[n++] = (struct latmon_label){ "source", "latprobe" };
	return n;
}

static int snapshot(const struct latmon_meter *meter, struct latmon_meter_snapshot *out)
{
	const struct timespec pause = { .tv_sec = 0, .tv_nsec = 100000 };

	for (int i = 0; i < SNAPSHOT_TRIES; i++) {
		if (latmon_meter_read(meter, out) == 0)
			return 0;
		nanosleep(&pause, NULL);
	}
	return EAGAIN;
}

static int collect(void *ctx, struct latmon_expo *e)
{
	struct latprobe_metrics *m = ctx;
	const struct latprobe_params *p = m->params;
	struct latmon_label common[MAX_SERIES_LABELS];
	struct latmon_label *labels = NULL;
	struct latmon_meter_snapshot *snaps = NULL;
	struct latmon_expo_series *series = NULL;
	char(*cpu)[12] = NULL;
	unsigned ncommon = common_labels(m, common);
	unsigned counters = 1u << LATMON_METER_MISSED;
	int rc = ENOMEM;

	labels = calloc((size_t)m->nthreads * MAX_SERIES_LABELS, sizeof(*labels));
	snaps = calloc(m->nthreads, sizeof(*snaps));
	series = calloc(m->nthreads, sizeof(*series));
	cpu = calloc(m->nthreads, sizeof(*cpu));
	if (!labels || !snaps || !series || !cpu)
		goto cleanup;
	for (unsigned i = 0; i < m->nthreads; i++) {
		struct latmon_label *l = &labels[(size_t)i * MAX_SERIES_LABELS];

		rc = snapshot(m->threads[i].meter, &snaps[i]);
		if (rc)
			goto cleanup;
		memcpy(l, common, ncommon * sizeof(*l));
		snprintf(cpu[i], sizeof(cpu[i]), "%u", m->threads[i].cpu);
		l[ncommon] = (struct latmon_label){ "cpu", cpu[i] };
		series[i] = (struct latmon_expo_series){ l, ncommon + 1, &snaps[i] };
	}
	if (p->deadline_ns)
		counters |= 1u << LATMON_METER_VIOLATIONS;
	latmon_expo_meters(e, series, m->nthreads, &p->buckets, counters);
	latmon_expo_family(e, "latmon_interval_seconds", LATMON_EXPO_GAUGE,
			   "The probe's wake-up period.", "seconds");
	latmon_expo_value(e, common, ncommon, p->interval_ns, 9);
	latmon_expo_family(e, "latmon_start_time_seconds", LATMON_EXPO_GAUGE,
			   "When this exporter's counters began at 0 (Unix time): a new value is a "
			   "restart, however the counts compare.",
			   "seconds");
	latmon_expo_value(e, common, ncommon, m->start_ms, 3);
	if (p->deadline_ns) {
		latmon_expo_family(e, "latmon_deadline_seconds", LATMON_EXPO_GAUGE,
				   "The deadline latmon_deadline_violations_total counts against.",
				   "seconds");
		latmon_expo_value(e, common, ncommon, p->deadline_ns, 9);
	}
	rc = 0;
cleanup:
	free(labels);
	free(snaps);
	free(series);
	free(cpu);
	return rc;
}

int latprobe_metrics_open(struct latprobe_metrics *m, const struct latprobe_params *params,
			  struct latprobe_thread *threads, unsigned nthreads, const char *host,
			  char *err, size_t errlen)
{
	struct latmon_exporter_config cfg = { .listen = params->metrics,
					      .collect = collect,
					      .ctx = m };
	struct timespec now;

	memset(m, 0, sizeof(*m));
	m->params = params;
	m->threads = threads;
	m->nthreads = nthreads;
	m->host = host;
	clock_gettime(CLOCK_REALTIME, &now);
	m->start_ms = (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
	for (unsigned i = 0; i < nthreads; i++) {
		/* a cache line of its own per meter: the threads never share one */
		size_t size = (sizeof(struct latmon_meter) + 63) / 64 * 64;
		struct latmon_meter *meter = aligned_alloc(64, size);

		if (!meter) {
			snprintf(err, errlen, "out of memory for the metrics");
			return ENOMEM;
		}
		memset(meter, 0, size); /* touched now: no page fault while measuring */
		threads[i].meter = meter;
		latmon_meter_init(meter, &params->buckets, params->deadline_ns,
				  1u << LATMON_METER_MISSED);
	}
	return latmon_exporter_open(&m->exporter, &cfg, err, errlen);
}

int latprobe_metrics_start(struct latprobe_metrics *m)
{
	return latmon_exporter_start(m->exporter);
}

void latprobe_metrics_close(struct latprobe_metrics *m)
{
	latmon_exporter_close(m->exporter);
	m->exporter = NULL;
	for (unsigned i = 0; m->threads && i < m->nthreads; i++) {
		free(m->threads[i].meter);
		m->threads[i].meter = NULL;
	}
}
