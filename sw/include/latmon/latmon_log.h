/*
 * latmon-log version 1 writer (docs/latmon-log.md).
 *
 * Writes through a sink callback, so the same code prints on a UART, into a FILE * or into a
 * buffer. No dynamic allocation: the caller provides the memory for the writer, sized by
 * latmon_log_writer_size(). Every function returns 0 or a positive errno value; after the first
 * error the writer stays failed and returns that error from every later call, so a caller may
 * check once at the end (latmon_log_end) without losing the cause.
 */
#ifndef LATMON_LOG_H
#define LATMON_LOG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the format written (the value of `H latmon_log=`). */
#define LATMON_LOG_VERSION 1
/** Longest record line, in bytes, without the line end. */
#define LATMON_LOG_MAX_LINE 4096

/**
 * Receives the bytes of each finished line (including its LF).
 * @return 0, or a positive errno value (the writer keeps and returns it).
 */
typedef int (*latmon_log_sink_fn)(void *ctx, const char *data, size_t len);

/** A key and a string value for header and series records. */
struct latmon_log_kv {
	const char *key;
	const char *value;
};

/** A key and an unsigned counter value for X records. */
struct latmon_log_counter {
	const char *key;
	uint64_t value;
};

struct latmon_log_writer;

/**
 * Bytes of memory a writer for up to @p max_series series needs.
 * @return the size in bytes (never 0).
 */
size_t latmon_log_writer_size(unsigned max_series);

/**
 * Place a writer in caller-provided memory.
 * @param out        receives the writer (it lives inside @p mem).
 * @param mem        at least latmon_log_writer_size(max_series) bytes, aligned for uint64_t.
 * @param mem_size   size of @p mem.
 * @param max_series most series the log will declare (1..65536).
 * @param sink       where finished lines go.
 * @param ctx        passed to @p sink.
 * @return 0, EINVAL for a null pointer, a misaligned buffer or max_series out of range, ENOSPC
 *         when @p mem_size is too small.
 */
int latmon_log_writer_init(struct latmon_log_writer **out, void *mem, size_t mem_size,
			   unsigned max_series, latmon_log_sink_fn sink, void *ctx);

/**
 * Start the log: writes `H latmon_log=1` and one H record per pair. The pairs must include
 * `source` and `unit` (`ns` or `cycles`; `cycles` also needs `clock_hz`).
 * @return 0, EINVAL for missing or invalid keys or values, EALREADY when already begun, or the
 *         sink's error.
 */
int latmon_log_begin(struct latmon_log_writer *w, const struct latmon_log_kv *header, size_t count);

/**
 * Write one more H record (free-form metadata) after latmon_log_begin().
 * @return 0, EINVAL for an invalid key or empty value, EPROTO before begin or after a series
 *         record, or the sink's error.
 */
int latmon_log_header(struct latmon_log_writer *w, const char *key, const char *value);

/**
 * Declare series @p id.
 * @param id     0 .. max_series-1, each declared once.
 * @param name   unique name (`cpu0`, `t1`).
 * @param fields comma-separated field names, or NULL for the single field `latency`.
 * @param extra  further key=value pairs of the C record (may be NULL when @p count is 0).
 * @return 0, EINVAL (bad id, name, fields or pairs), EEXIST (id already declared), EPROTO (log not
 *         begun or already ended), or the sink's error.
 */
int latmon_log_series(struct latmon_log_writer *w, unsigned id, const char *name,
		      const char *fields, const struct latmon_log_kv *extra, size_t count);

/**
 * Write one sample of series @p id: one value per field, in field order.
 * @return 0, EINVAL (undeclared id, wrong number of values), EPROTO, or the sink's error.
 */
int latmon_log_sample(struct latmon_log_writer *w, unsigned id, const int64_t *values,
		      size_t count);

/**
 * Write one histogram bin [lo, hi) of series @p id. A NULL @p lo is the underflow bin, a NULL
 * @p hi the overflow bin.
 * @return 0, EINVAL (undeclared id, hi <= lo), EPROTO, or the sink's error.
 */
int latmon_log_bin(struct latmon_log_writer *w, unsigned id, const int64_t *lo, const int64_t *hi,
		   uint64_t count);

/**
 * Write an X record of counters for series @p id.
 * @return 0, EINVAL (undeclared id, bad key, count 0), EPROTO, or the sink's error.
 */
int latmon_log_counters(struct latmon_log_writer *w, unsigned id,
			const struct latmon_log_counter *counters, size_t count);

/**
 * End the log: an X record with samples= and bins= for every declared series, then the trailer.
 * @return 0, or the first error the writer met (also an earlier one).
 */
int latmon_log_end(struct latmon_log_writer *w);

/** Room for the decimal text of any uint64_t and its NUL (latmon_log_format_u64). */
#define LATMON_LOG_U64_TEXT 21

/**
 * Decimal text of @p v in @p buf (header values are text: a clock frequency, a count), without
 * a C library and without 64-bit division where the value fits 32 bits.
 * @return a pointer into @p buf to the NUL-terminated digits.
 */
const char *latmon_log_format_u64(char buf[LATMON_LOG_U64_TEXT], uint64_t v);

/**
 * CRC-32/ISO-HDLC (zlib's crc32) of @p len bytes, continuing from @p crc (0 to start).
 * @return the updated CRC.
 */
uint32_t latmon_crc32(uint32_t crc, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LATMON_LOG_H */
