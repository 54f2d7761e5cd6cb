/*
 * latmon meter: the latency histogram and counters that a measuring thread publishes and an
 * exporter thread reads (docs/fleet.md).
 *
 * One writer per meter (the measuring thread) and any number of readers. The writer never
 * blocks and never waits: each update is a sequence-lock write section over atomic stores
 * (no lock, no system call, no allocation). A reader copies the meter and retries when the
 * writer was inside a section meanwhile, so every snapshot is consistent: the bucket counts add
 * up to the sample count, and the sum belongs to the same samples.
 *
 * Two histograms of the same samples are kept, for Prometheus's two kinds:
 *  - classic: cumulative buckets `le` (value <= bound) on configurable bounds in whole
 *    nanoseconds, log-spaced by default (latmon_buckets_default);
 *  - native (sparse): exponential buckets of schema 3 (8 per power of two, each ~9 % wide) in
 *    seconds, bucket k = (2^((k-1)/8), 2^(k/8)], computed as Prometheus's own client does, over
 *    every value a 64-bit nanosecond count can hold; 0 goes to the zero bucket.
 */
#ifndef LATMON_METER_H
#define LATMON_METER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most classic bucket bounds (the +Inf bucket not counted). */
#define LATMON_METER_MAX_BUCKETS 64

/** Schema of the native histogram: 2^3 buckets per power of two. */
#define LATMON_METER_NATIVE_SCHEMA 3
/** Lowest native bucket index kept: its upper bound 2^(-240/8) s = 2^-30 s is below 1 ns. */
#define LATMON_METER_NATIVE_MIN_INDEX (-240)
/** Native buckets kept: indices up to 273, 2^(273/8) s, above the largest 64-bit nanosecond
 * count (2^64 ns = 2^34.1 s). */
#define LATMON_METER_NATIVE_BUCKETS 514

/** Classic bucket bounds in nanoseconds, strictly increasing. */
struct latmon_buckets {
	uint64_t bound_ns[LATMON_METER_MAX_BUCKETS];
	unsigned n;
};

/** Counters beside the histogram; which ones a meter has is its `counters` mask. */
enum latmon_meter_counter {
	LATMON_METER_MISSED = 0, /**< latprobe: periods skipped because a wake-up came too late */
	LATMON_METER_VIOLATIONS, /**< samples above the deadline (latprobe) or the core's THRESHOLD
				  */
	LATMON_METER_TIMEOUTS,	 /**< latmon core: irq without ack within TIMEOUT */
	LATMON_METER_OVERRUNS,	 /**< latmon core: irq while a measurement was running */
	LATMON_METER_IGNORED,	 /**< latmon core: ack without a measurement */
	LATMON_METER_LOST,	 /**< latctl stream: samples overwritten before they were read */
	LATMON_METER_NCOUNTERS,
};

/** The meter. Allocate it with the measuring thread's memory; align it to a cache line. */
struct latmon_meter {
	_Atomic uint32_t seq; /**< odd while the writer is inside a section */
	_Atomic uint64_t classic[LATMON_METER_MAX_BUCKETS + 1]; /**< per bucket, [n] is +Inf */
	_Atomic uint64_t native[LATMON_METER_NATIVE_BUCKETS];
	_Atomic uint64_t zero;	/**< samples of 0 ns (native zero bucket) */
	_Atomic uint64_t count; /**< samples */
	_Atomic uint64_t sum;	/**< nanoseconds, saturating at UINT64_MAX */
	_Atomic uint64_t last, max, min;
	_Atomic uint64_t counter[LATMON_METER_NCOUNTERS];
	/* configuration, fixed before the writer starts */
	struct latmon_buckets buckets;
	uint64_t deadline_ns; /**< record() counts samples above it as violations; 0: none */
	unsigned counters;    /**< mask of (1u << enum latmon_meter_counter) exported */
};

/** A consistent copy of a meter (plain integers). */
struct latmon_meter_snapshot {
	uint64_t classic[LATMON_METER_MAX_BUCKETS + 1];
	uint64_t native[LATMON_METER_NATIVE_BUCKETS];
	uint64_t zero, count, sum, last, max, min;
	uint64_t counter[LATMON_METER_NCOUNTERS];
};

/**
 * Prepare a meter: counts zero, the bucket bounds copied.
 * @param buckets     classic bounds (latmon_buckets_parse / latmon_buckets_default).
 * @param deadline_ns samples above it count as LATMON_METER_VIOLATIONS in record(); 0: none.
 * @param counters    mask of the counters this meter exports.
 * @return 0, or EINVAL (a NULL pointer, bounds not strictly increasing or too many).
 */
int latmon_meter_init(struct latmon_meter *meter, const struct latmon_buckets *buckets,
		      uint64_t deadline_ns, unsigned counters);

/** Record one latency (the one writer only). Wait-free: never blocks, never allocates. */
void latmon_meter_record(struct latmon_meter *meter, uint64_t latency_ns);

/** Add @p n to a counter (the one writer only). */
void latmon_meter_add(struct latmon_meter *meter, enum latmon_meter_counter which, uint64_t n);

/**
 * A consistent snapshot (any thread). Retries while the writer is inside a section.
 * @return 0, or EAGAIN when the writer was inside a section on every one of many tries (it
 *         never is for long: the caller may try again later).
 */
int latmon_meter_read(const struct latmon_meter *meter, struct latmon_meter_snapshot *out);

/** Index of the classic bucket of a value: the first bound >= value, n for +Inf. */
unsigned latmon_buckets_index(const struct latmon_buckets *buckets, uint64_t value_ns);

/**
 * The native bucket index of a value of @p value_ns nanoseconds in seconds (value_ns > 0):
 * k such that 2^((k-1)/8) < value_ns / 1e9 <= 2^(k/8), computed in double precision with the
 * bounds Prometheus uses, so that Prometheus files the value exactly as this does.
 */
int latmon_native_index(uint64_t value_ns);

/** The upper bound of native bucket @p index, in seconds (as Prometheus computes it). */
double latmon_native_bound(int index);

/**
 * The default classic bounds: 1, 2, 5 per decade from 1 µs up to the first bound at or above
 * max(10 ms, 10 x deadline), with the deadline itself added as a bound.
 * @return 0, or EINVAL (deadline above 1000 s).
 */
int latmon_buckets_default(struct latmon_buckets *buckets, uint64_t deadline_ns);

/**
 * Parse classic bounds: a list of durations "10us,50us,100us,1ms" (each a number with ns, us,
 * ms or s; a number alone is µs), or log spacing "MIN..MAX/N": N bounds per decade from MIN to
 * MAX (rounded to whole ns, duplicates dropped). The deadline, when non-zero, is added as a
 * bound if missing.
 * @param err receives a one-line message on error.
 * @return 0, or EINVAL (syntax, not increasing, more than LATMON_METER_MAX_BUCKETS).
 */
int latmon_buckets_parse(const char *text, uint64_t deadline_ns, struct latmon_buckets *buckets,
			 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* LATMON_METER_H */
