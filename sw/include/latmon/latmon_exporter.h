/*
 * latmon exporter: a small HTTP responder that serves metrics to Prometheus from its own thread
 * (docs/fleet.md). Linux (POSIX sockets, poll, pthreads); no dependency beyond the C library.
 *
 * The measuring threads never wait for it: they publish into latmon meters, and the exporter's
 * thread reads snapshots when a scrape arrives (the collect callback). One thread serves every
 * connection with poll(): many concurrent scrapers, keep-alive, pipelined requests. It is built
 * to stay up on a device nobody watches: requests are size-limited, a request must arrive within
 * a deadline (slow senders are cut off), idle and slow-reading connections are closed, a full
 * connection table evicts the connection idle the longest, and nothing a client sends can make
 * it allocate more than one response per connection.
 */
#ifndef LATMON_EXPORTER_H
#define LATMON_EXPORTER_H

#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon_expo.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes counted in latmon_exporter_requests_total{code=...}. */
#define LATMON_EXPORTER_CODES                                         \
	{                                                             \
		200, 400, 404, 405, 408, 414, 431, 500, 501, 503, 505 \
	}
#define LATMON_EXPORTER_NCODES 11

struct latmon_exporter_config {
	const char *listen; /**< "HOST:PORT", "[V6]:PORT" or ":PORT" (every address); port 0:
			       any free port (latmon_exporter_address tells which) */
	/**
	 * Write the tool's metric families (called in the exporter's thread, once per scrape).
	 * @return 0, or a positive errno value (the scrape is answered with 503).
	 */
	int (*collect)(void *ctx, struct latmon_expo *expo);
	void *ctx;
	unsigned max_connections;    /**< 0: 64 */
	unsigned request_timeout_ms; /**< a request must be complete this long after its first
					byte (0: 5000) */
	unsigned idle_timeout_ms;    /**< a kept-alive connection without a request (0: 120000) */
	unsigned write_timeout_ms;   /**< a response must be taken within (0: 10000) */
};

/** The exporter's own counters (its thread writes them; read them in collect or after close). */
struct latmon_exporter_stats {
	uint64_t connections; /**< accepted */
	uint64_t dropped;     /**< closed for a timeout or to make room */
	uint64_t scrapes;     /**< /metrics answered with 200 */
	uint64_t
	    requests[LATMON_EXPORTER_NCODES]; /**< responses per status (LATMON_EXPORTER_CODES) */
};

struct latmon_exporter;

/**
 * Split "HOST:PORT", "[V6]:PORT" or ":PORT" (no name resolution).
 * @return 0, or EINVAL (no port, port not 0..65535, unbalanced brackets, too long).
 */
int latmon_exporter_parse_listen(const char *text, char *host, size_t hostlen, char *port,
				 size_t portlen);

/**
 * Resolve, bind and listen (so that a taken port fails at set-up), without starting the thread.
 * @param err receives a one-line message on error.
 * @return 0, EINVAL (bad address), ENOMEM, or the errno of the failed socket call.
 */
int latmon_exporter_open(struct latmon_exporter **out, const struct latmon_exporter_config *config,
			 char *err, size_t errlen);

/** The address it listens on, "127.0.0.1:9110" or "[::1]:9110". */
void latmon_exporter_address(const struct latmon_exporter *exporter, char *buf, size_t len);

/**
 * Start serving in a new thread "latmon-exporter" (SCHED_OTHER, every signal blocked, the
 * caller's CPU affinity).
 * @return 0, or the pthread error.
 */
int latmon_exporter_start(struct latmon_exporter *exporter);

/** Stop the thread (when started), close every socket, free. NULL is ignored. */
void latmon_exporter_close(struct latmon_exporter *exporter);

/** The exporter's counters (meaningful while serving only in the exporter's thread). */
const struct latmon_exporter_stats *latmon_exporter_stats(const struct latmon_exporter *exporter);

#ifdef __cplusplus
}
#endif

#endif /* LATMON_EXPORTER_H */
