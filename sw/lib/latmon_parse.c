/* Numbers and durations from text (latmon_parse.h). */
#include "latmon_parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int latmon_parse_u64(const char *text, int base, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!text || !out || (base != 0 && base != 10))
		return EINVAL;
	if (*text < '0' || *text > '9') /* empty, a sign or a blank (strtoull would take them) */
		return EINVAL;
	errno = 0;
	v = strtoull(text, &end, base);
	if (errno || *end)
		return EINVAL;
	if (v < min || v > max)
		return ERANGE;
	*out = v;
	return 0;
}

static const struct {
	const char *suffix;
	uint64_t ns;
} units[] = {
	{ "ns", LATMON_NS }, { "us", LATMON_US },	{ "ms", LATMON_MS },
	{ "s", LATMON_S },   { "m", 60ull * LATMON_S }, { "h", 3600ull * LATMON_S },
};

/* The fraction's digits that count: 10^9 keeps every product below 2^64 (see below). */
#define FRACTION_SCALE 1000000000ull

int latmon_parse_duration_prefix(const char *text, uint64_t default_unit, const char **end,
				 uint64_t *out)
{
	const char *p = text, *frac = NULL, *frac_end = NULL;
	uint64_t whole = 0, part = 0, scale = 1, unit = default_unit, total;
	bool digits = false;

	if (!text || !end || !out || !default_unit)
		return EINVAL;
	for (; *p >= '0' && *p <= '9'; p++, digits = true) {
		uint64_t d = (uint64_t)(*p - '0');

		if (whole > UINT64_MAX / 10 || (whole == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return ERANGE;
		whole = whole * 10 + d;
	}
	if (*p == '.') {
		frac = ++p;
		for (; *p >= '0' && *p <= '9'; p++)
			digits = true;
		frac_end = p;
	}
	if (!digits)
		return EINVAL;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t len = strlen(units[i].suffix);

		if (!strncmp(p, units[i].suffix, len) && !(p[len] >= 'a' && p[len] <= 'z')) {
			unit = units[i].ns;
			p += len;
			break;
		}
	}
	if (whole > UINT64_MAX / unit)
		return ERANGE;
	total = whole * unit;
	for (const char *q = frac; q && q < frac_end && scale < FRACTION_SCALE; q++) {
		part = part * 10 + (uint64_t)(*q - '0');
		scale *= 10;
	}
	/* part * unit / scale without overflow: part < scale <= 10^9, so part * (unit / scale) <
	 * unit and part * (unit % scale) < 10^18 */
	part = part * (unit / scale) + part * (unit % scale) / scale;
	if (total > UINT64_MAX - part)
		return ERANGE;
	*out = total + part;
	*end = p;
	return 0;
}

int latmon_parse_duration(const char *text, uint64_t default_unit, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int err = latmon_parse_duration_prefix(text, default_unit, &end, &v);

	if (err)
		return err;
	if (*end)
		return EINVAL;
	*out = v;
	return 0;
}
