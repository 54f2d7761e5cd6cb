/* latctl stream --metrics; see latctl_metrics.h. */
#define _GNU_SOURCE
#include "latctl_metrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "latmon/latmon.h"

/* How long a scrape waits for a snapshot when the writer is always inside a section. */
#define SNAPSHOT_TRIES 100

static const enum latmon_meter_counter hw_counter[4] = {
	LATMON_METER_VIOLATIONS,
	LATMON_METER_TIMEOUTS,
	LATMON_METER_OVERRUNS,
	LATMON_METER_IGNORED,
};

#define COUNTERS                                                           \
	((1u << LATMON_METER_VIOLATIONS) | (1u << LATMON_METER_TIMEOUTS) | \
	 (1u << LATMON_METER_OVERRUNS) | (1u << LATMON_METER_IGNORED) | (1u << LATMON_METER_LOST))

static int collect(void *ctx, struct latmon_expo *e)
{
	const struct timespec pause = { .tv_sec = 0, .tv_nsec = 100000 };
	struct latctl_metrics *m = ctx;
	struct latmon_meter_snapshot *snap = malloc(sizeof(*snap));
	struct latmon_label labels[LATMON_MAX_LABELS + 2];
	unsigned n = 0;
	int rc = EAGAIN;

	if (!snap)
		return ENOMEM;
	for (int i = 0; i < SNAPSHOT_TRIES && rc; i++) {
		rc = latmon_meter_read(m->meter, snap);
		if (rc)
			nanosleep(&pause, NULL);
	}
	if (rc) {
		free(snap);
		return rc;
	}
	for (unsigned i = 0; i < m->labels.n; i++) {
		if (strcmp(m->labels.label[i].name, "core"))
			labels[n++] = m->labels.label[i];
	}
	labels[n++] = (struct latmon_label){ "source", "latctl" };
	latmon_expo_family(e, "latmon_start_time_seconds", LATMON_EXPO_GAUGE,
			   "When this exporter's counters began at 0 (Unix time): a new value is a "
			   "restart, however the counts compare.",
			   "seconds");
	latmon_expo_value(e, labels, n, m->start_ms, 3);
	labels[n++] = (struct latmon_label){ "core", latmon_label_set_get(&m->labels, "core") };
	latmon_expo_meters(e, &(struct latmon_expo_series){ labels, n, snap }, 1,
			   &m->meter->buckets, COUNTERS);
	free(snap);
	return 0;
}

int latctl_metrics_open(struct latctl_metrics *m, const struct latctl_metrics_params *p, char *err,
			size_t errlen)
{
	struct latmon_exporter_config cfg = { .listen = p->listen, .collect = collect, .ctx = m };
	struct latmon_buckets buckets;
	struct timespec now;
	char why[300];
	size_t size = (sizeof(struct latmon_meter) + 63) / 64 * 64;
	int rc;

	memset(m, 0, sizeof(*m));
	m->clock_hz = p->clock_hz;
	m->labels = p->labels;
	/* the set's label pointers point into its own storage: re-point them into the copy */
	for (unsigned i = 0; i < m->labels.n; i++) {
		size_t nlen = strlen(p->labels.label[i].name);

		m->labels.label[i].name = m->labels.text[i];
		m->labels.label[i].value = m->labels.text[i] + nlen + 1;
	}
	if (gethostname(m->host, sizeof(m->host)) != 0)
		snprintf(m->host, sizeof(m->host), "unknown");
	m->host[sizeof(m->host) - 1] = '\0';
	m->host[strcspn(m->host, ".")] = '\0';
	if (!latmon_label_set_get(&m->labels, "host")) {
		char text[300];

		snprintf(text, sizeof(text), "host=%s", m->host);
		if (latmon_label_set_add(&m->labels, text, NULL, why, sizeof(why))) {
			snprintf(err, errlen, "the host name as a label: %s", why);
			return EINVAL;
		}
	}
	if (!latmon_label_set_get(&m->labels, "core") &&
	    latmon_label_set_add(&m->labels, "core=0", NULL, why, sizeof(why))) {
		snprintf(err, errlen, "--metrics-label: %s", why);
		return EINVAL;
	}
	if (p->buckets) {
		if (latmon_buckets_parse(p->buckets, 0, &buckets, why, sizeof(why))) {
			snprintf(err, errlen, "--metrics-buckets: %s", why);
			return EINVAL;
		}
	} else if ((rc = latmon_buckets_default(&buckets, 0))) {
		snprintf(err, errlen, "the default buckets: %s", strerror(rc));
		return rc;
	}
	m->meter = aligned_alloc(64, size);
	if (!m->meter) {
		snprintf(err, errlen, "out of memory for the metrics");
		return ENOMEM;
	}
	memset(m->meter, 0, size);
	latmon_meter_init(m->meter, &buckets, 0, COUNTERS);
	clock_gettime(CLOCK_REALTIME, &now);
	m->start_ms = (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
	return latmon_exporter_open(&m->exporter, &cfg, err, errlen);
}

int latctl_metrics_start(struct latctl_metrics *m)
{
	return latmon_exporter_start(m->exporter);
}

void latctl_metrics_sample(struct latctl_metrics *m, uint32_t cycles)
{
	uint64_t ns = 0;

	if (latmon_cycles_to_ns(cycles, m->clock_hz, &ns) == 0)
		latmon_meter_record(m->meter, ns);
}

void latctl_metrics_lost(struct latctl_metrics *m, uint64_t n)
{
	if (n)
		latmon_meter_add(m->meter, LATMON_METER_LOST, n);
}

void latctl_metrics_core_counters(struct latctl_metrics *m, const uint32_t now[4])
{
	for (int i = 0; i < 4; i++) {
		/* the first read counts what the core counted before: the whole run so far */
		uint32_t grown = m->have_hw ? now[i] - m->last_hw[i] : now[i];

		if (grown)
			latmon_meter_add(m->meter, hw_counter[i], grown);
		m->last_hw[i] = now[i];
	}
	m->have_hw = 1;
}

void latctl_metrics_address(const struct latctl_metrics *m, char *buf, size_t len)
{
	latmon_exporter_address(m->exporter, buf, len);
}

void latctl_metrics_close(struct latctl_metrics *m)
{
	latmon_exporter_close(m->exporter);
	m->exporter = NULL;
	free(m->meter);
	m->meter = NULL;
}
