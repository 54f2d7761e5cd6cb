/*
 * Numbers and durations as people type them on a command line or in an option list: the one
 * parser of latprobe, latctl and the exporter's bucket lists (docs/liblatmon.md).
 */
#ifndef LATMON_PARSE_H
#define LATMON_PARSE_H

#include <stdint.h>

/*
 * An unsigned integer, the whole of @p text: decimal (@p base 10), or as C writes it (@p base 0:
 * 0x... hexadecimal, 0... octal). No sign, no blanks.
 * @return 0; EINVAL (empty, a sign, not a number, trailing text, or too large for 64 bits);
 * ERANGE (outside @p min .. @p max). *@p out is written only on success.
 */
int latmon_parse_u64(const char *text, int base, uint64_t min, uint64_t max, uint64_t *out);

/* Nanoseconds of the units a duration may carry */
#define LATMON_NS 1ull
#define LATMON_US 1000ull
#define LATMON_MS 1000000ull
#define LATMON_S  1000000000ull

/*
 * A duration at the start of @p text, in whole nanoseconds: digits, an optional fraction (its
 * first nine digits count; what falls below one nanosecond is dropped), an optional unit — ns,
 * us, ms, s, m, h — not followed by a letter ("5sec" has no unit). Without a unit the number is
 * in @p default_unit nanoseconds. *@p end receives the first character after it.
 * @return 0; EINVAL (no digits); ERANGE (more than 2^64 - 1 ns).
 */
int latmon_parse_duration_prefix(const char *text, uint64_t default_unit, const char **end,
				 uint64_t *out);

/* The same, the whole of @p text: EINVAL also for anything after the duration. */
int latmon_parse_duration(const char *text, uint64_t default_unit, uint64_t *out);

#endif
