/*
 * latctl stream --metrics: the stream loop publishes every sample it reads (converted to ns)
 * and the core's own counters into one latmon meter; the exporter's thread serves it to
 * Prometheus (docs/fleet.md). The loop never waits for the network.
 */
#ifndef LATCTL_METRICS_H
#define LATCTL_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon_expo.h"
#include "latmon/latmon_exporter.h"
#include "latmon/latmon_meter.h"

struct latctl_metrics_params {
	const char *listen;		/**< --metrics ADDR:PORT; NULL: no metrics */
	const char *buckets;		/**< --metrics-buckets text; NULL: the default */
	struct latmon_label_set labels; /**< --metrics-label NAME=VALUE */
	uint64_t clock_hz;
};

struct latctl_metrics {
	struct latmon_meter *meter;
	struct latmon_exporter *exporter;
	struct latmon_label_set labels; /* with host and core unless given */
	char host[256];
	uint64_t clock_hz, start_ms;
	uint32_t last_hw[4]; /* the core's counters at the previous read */
	int have_hw;
};

/**
 * Prepare the meter and bind the address (a taken port fails here).
 * @param err receives a one-line message on error.
 * @return 0, EINVAL (bad buckets), ENOMEM, or the error of binding.
 */
int latctl_metrics_open(struct latctl_metrics *m, const struct latctl_metrics_params *p, char *err,
			size_t errlen);

/** Start the exporter's thread. @return 0 or the pthread error. */
int latctl_metrics_start(struct latctl_metrics *m);

/** One sample of @p cycles (the stream loop only). */
void latctl_metrics_sample(struct latctl_metrics *m, uint32_t cycles);

/** Samples overwritten in the ring before they were read (the stream loop only). */
void latctl_metrics_lost(struct latctl_metrics *m, uint64_t n);

/**
 * The core's counters as read now (violations, timeouts, overruns, ignored; 32-bit, wrapping):
 * their growth since the previous call is added (the stream loop only).
 */
void latctl_metrics_core_counters(struct latctl_metrics *m, const uint32_t now[4]);

/** The address served, e.g. "127.0.0.1:9110". */
void latctl_metrics_address(const struct latctl_metrics *m, char *buf, size_t len);

/** Stop serving and free. Safe on a zeroed struct. */
void latctl_metrics_close(struct latctl_metrics *m);

#endif
