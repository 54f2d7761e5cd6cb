/*
 * latmon exposition: metrics in the three formats a Prometheus server scrapes (docs/fleet.md):
 *  - the Prometheus text format 0.0.4 (text/plain; version=0.0.4),
 *  - OpenMetrics 1.0.0 text (application/openmetrics-text; with _created and # EOF),
 *  - the Prometheus protobuf format (length-delimited io.prometheus.client.MetricFamily), the
 *    one that carries native histograms (Prometheus --enable-feature=native-histograms).
 * Values are exact: counts are integers, durations are whole nanoseconds printed as decimal
 * seconds digit for digit (never through a float in the text formats).
 */
#ifndef LATMON_EXPO_H
#define LATMON_EXPO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "latmon/latmon_meter.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A growable byte buffer; the first failed allocation sticks in `error` (ENOMEM). */
struct latmon_buf {
	char *data;
	size_t len, cap;
	int error;
};

/** An empty buffer (no memory yet). */
void latmon_buf_init(struct latmon_buf *buf);
/** Free the memory. */
void latmon_buf_free(struct latmon_buf *buf);
/** Append @p len bytes. @return 0 or ENOMEM (also remembered in buf->error). */
int latmon_buf_append(struct latmon_buf *buf, const void *data, size_t len);
/** Append formatted text. @return 0 or ENOMEM. */
int latmon_buf_printf(struct latmon_buf *buf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** The exposition formats. */
enum latmon_expo_format {
	LATMON_EXPO_TEXT,	 /**< Prometheus text 0.0.4 (also for browsers and curl) */
	LATMON_EXPO_OPENMETRICS, /**< OpenMetrics 1.0.0 text */
	LATMON_EXPO_PROTOBUF, /**< delimited io.prometheus.client.MetricFamily, native histograms */
};

/**
 * The format to answer an HTTP Accept header with: protobuf when it names
 * application/vnd.google.protobuf with proto=io.prometheus.client.MetricFamily and
 * encoding=delimited, OpenMetrics when it names application/openmetrics-text, else text; of
 * several, the one with the highest q (the first on a tie). NULL: text.
 */
enum latmon_expo_format latmon_expo_negotiate(const char *accept);

/** The Content-Type header value of a format. */
const char *latmon_expo_content_type(enum latmon_expo_format format);

/** A label. Names must match [a-zA-Z_][a-zA-Z0-9_]* (latmon_label_name_valid). */
struct latmon_label {
	const char *name;
	const char *value;
};

/** 1 when @p name is a valid label name that is not reserved (no leading __, not le). */
int latmon_label_name_valid(const char *name);

/** Most labels a user adds (--metrics-label). */
#define LATMON_MAX_LABELS 16

/** Labels a user gave as NAME=VALUE, with their storage. */
struct latmon_label_set {
	struct latmon_label label[LATMON_MAX_LABELS];
	char text[LATMON_MAX_LABELS][256];
	unsigned n;
};

/**
 * Add "NAME=VALUE" (name and value below 128 characters each, the name valid and given once).
 * @param reserved names the tool sets itself, separated by spaces ("cpu source"), or NULL.
 * @param err      receives a one-line message naming @p text on error.
 * @return 0, or EINVAL.
 */
int latmon_label_set_add(struct latmon_label_set *set, const char *text, const char *reserved,
			 char *err, size_t errlen);

/** The value of label @p name in the set, or NULL. */
const char *latmon_label_set_get(const struct latmon_label_set *set, const char *name);

/** Metric types. */
enum latmon_expo_type {
	LATMON_EXPO_COUNTER,
	LATMON_EXPO_GAUGE,
	LATMON_EXPO_HISTOGRAM,
};

/** A writer of one exposition. Families are written one after the other. */
struct latmon_expo {
	struct latmon_buf *out;
	enum latmon_expo_format format;
	/* the open family */
	const char *name;
	enum latmon_expo_type type;
	struct latmon_buf family, metric, inner;
	unsigned nmetrics;
	uint64_t created_ms; /**< OpenMetrics _created of counters and histograms (Unix ms) */
};

/** Start writing into @p out (appended to). @p created_ms: when the counters started. */
void latmon_expo_begin(struct latmon_expo *e, struct latmon_buf *out,
		       enum latmon_expo_format format, uint64_t created_ms);

/**
 * Open a family (the previous one is written out, if it has metrics).
 * @param name  base name: without _total for counters ("latmon_samples"); with its unit for
 *              the others ("latmon_latency_seconds").
 * @param unit  OpenMetrics unit ("seconds") or NULL.
 */
void latmon_expo_family(struct latmon_expo *e, const char *name, enum latmon_expo_type type,
			const char *help, const char *unit);

/** A counter or gauge sample of value @p num / 10^@p decimals (exact in the text formats). */
void latmon_expo_value(struct latmon_expo *e, const struct latmon_label *labels, unsigned nlabels,
		       uint64_t num, unsigned decimals);

/** A histogram sample from a meter snapshot (classic buckets; native ones in protobuf). */
void latmon_expo_histogram(struct latmon_expo *e, const struct latmon_label *labels,
			   unsigned nlabels, const struct latmon_buckets *buckets,
			   const struct latmon_meter_snapshot *snap);

/**
 * Write the last family (and # EOF for OpenMetrics) and free the writer's memory.
 * @return 0, or ENOMEM (the output is incomplete).
 */
int latmon_expo_end(struct latmon_expo *e);

/** One meter's series: its labels and a snapshot. */
struct latmon_expo_series {
	const struct latmon_label *labels;
	unsigned nlabels;
	const struct latmon_meter_snapshot *snap;
};

/**
 * The metrics of meters that share bucket bounds and counters: latmon_latency_seconds
 * (histogram), latmon_samples_total, the counters of @p counters (mask of enum
 * latmon_meter_counter), latmon_latency_{last,max,min}_seconds (gauges, once a sample exists).
 */
void latmon_expo_meters(struct latmon_expo *e, const struct latmon_expo_series *series, unsigned n,
			const struct latmon_buckets *buckets, unsigned counters);

/** Decimal text of num / 10^decimals, exact, without trailing zeros ("0.000015", "3"). */
void latmon_expo_decimal(char *buf, size_t len, uint64_t num, unsigned decimals);

#ifdef __cplusplus
}
#endif

#endif /* LATMON_EXPO_H */
