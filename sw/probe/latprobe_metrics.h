/*
 * latprobe --metrics: the measuring threads publish every sample into a meter of their own
 * (latmon_meter: wait-free for them); the exporter's thread serves the meters to Prometheus
 * (docs/fleet.md). Nothing on the measuring side waits for the network.
 */
#ifndef LATPROBE_METRICS_H
#define LATPROBE_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon_exporter.h"
#include "latmon/latmon_meter.h"
#include "latprobe_measure.h"
#include "latprobe_params.h"

struct latprobe_metrics {
	const struct latprobe_params *params;
	struct latprobe_thread *threads;
	unsigned nthreads;
	const char *host;
	uint64_t start_ms; /* CLOCK_REALTIME when the meters began at 0 */
	struct latmon_exporter *exporter;
	struct latmon_meter_snapshot snap; /* the exporter thread's scratch copy */
};

/**
 * Give every thread a meter (thread->meter, pre-faulted) and open the exporter's socket.
 * @param host  the host label unless --metrics-label host= replaces it.
 * @param err   receives a one-line message on error.
 * @return 0, ENOMEM, or the error of binding the address (EADDRINUSE, EACCES, EINVAL ...).
 */
int latprobe_metrics_open(struct latprobe_metrics *metrics, const struct latprobe_params *params,
			  struct latprobe_thread *threads, unsigned nthreads, const char *host,
			  char *err, size_t errlen);

/** Start serving (a thread of normal priority, with the caller's CPU affinity). @return 0 or
 * the pthread error. */
int latprobe_metrics_start(struct latprobe_metrics *metrics);

/** Stop serving and free the meters. Safe on a zeroed or half-opened struct. */
void latprobe_metrics_close(struct latprobe_metrics *metrics);

#endif /* LATPROBE_METRICS_H */
