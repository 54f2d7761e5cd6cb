/* Unit tests of the one number and duration parser (sw/lib/latmon_parse.c), which latprobe's
 * options, latctl's and the exporter's bucket lists use. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "latmon_parse.h"

#include "check.h"

static void test_durations(void)
{
	uint64_t v = 0;

	/* latprobe's options (these were latprobe_parse_duration's checks) */
	CHECK(latmon_parse_duration("1000", 1000, &v) == 0 && v == 1000000);
	CHECK(latmon_parse_duration("250us", 1000, &v) == 0 && v == 250000);
	CHECK(latmon_parse_duration("1.5ms", 1000, &v) == 0 && v == 1500000);
	CHECK(latmon_parse_duration("10s", 1, &v) == 0 && v == 10000000000ull);
	CHECK(latmon_parse_duration("2m", 1, &v) == 0 && v == 120000000000ull);
	CHECK(latmon_parse_duration("1h", 1, &v) == 0 && v == 3600000000000ull);
	CHECK(latmon_parse_duration("0.000000001s", 1, &v) == 0 && v == 1);
	CHECK(latmon_parse_duration("", 1, &v) == EINVAL);
	CHECK(latmon_parse_duration("ms", 1, &v) == EINVAL);
	CHECK(latmon_parse_duration("-5", 1, &v) == EINVAL);
	CHECK(latmon_parse_duration("5 s", 1, &v) == EINVAL);
	CHECK(latmon_parse_duration("5sec", 1, &v) == EINVAL);
	CHECK(latmon_parse_duration("99999999999999999999", 1, &v) == ERANGE);
	CHECK(latmon_parse_duration("9999999999999h", 1, &v) == ERANGE);

	/* fractions of the large units stay exact to the nanosecond (no overflow of frac * unit) */
	CHECK(latmon_parse_duration("1.000000001s", 1, &v) == 0 && v == 1000000001ull);
	CHECK(latmon_parse_duration("0.5h", 1, &v) == 0 && v == 1800000000000ull);
	CHECK(latmon_parse_duration("1.123456789h", 1, &v) == 0 && v == 4044444440400ull);
	CHECK(latmon_parse_duration("2.25m", 1, &v) == 0 && v == 135000000000ull);
	CHECK(latmon_parse_duration("0.9999999999999s", 1, &v) == 0 && v == 999999999ull);
	CHECK(latmon_parse_duration(".5ms", 1, &v) == 0 && v == 500000);
	CHECK(latmon_parse_duration("5.", 1000, &v) == 0 && v == 5000);
	CHECK(latmon_parse_duration(".", 1, &v) == EINVAL);
	CHECK(latmon_parse_duration("18446744073709551615ns", 1, &v) == 0 && v == UINT64_MAX);
	CHECK(latmon_parse_duration("18446744073709551615.5us", 1, &v) == ERANGE);
	CHECK(latmon_parse_duration("5S", 1, &v) == EINVAL); /* units are lower case */
	CHECK(latmon_parse_duration("5s5", 1, &v) == EINVAL);
	CHECK(latmon_parse_duration(NULL, 1, &v) == EINVAL);
	CHECK(latmon_parse_duration("5", 0, &v) == EINVAL); /* no default unit */

	/* the prefix form, as the bucket lists read "1us..1ms/3" and "10us,20us" */
	{
		const char *text = "10us,20", *end = NULL;

		CHECK(latmon_parse_duration_prefix(text, LATMON_US, &end, &v) == 0 && v == 10000 &&
		      end == text + 4);
		CHECK(latmon_parse_duration_prefix(end + 1, LATMON_US, &end, &v) == 0 &&
		      v == 20000 && *end == 0);
		text = "1us..1ms/3";
		CHECK(latmon_parse_duration_prefix(text, LATMON_US, &end, &v) == 0 && v == 1000 &&
		      !strcmp(end, "..1ms/3"));
		text = "10sec"; /* "s" followed by a letter is no unit: the caller sees "sec" */
		CHECK(latmon_parse_duration_prefix(text, LATMON_US, &end, &v) == 0 && v == 10000 &&
		      !strcmp(end, "sec"));
		CHECK(latmon_parse_duration_prefix("ten", LATMON_US, &end, &v) == EINVAL);
	}
}

static void test_numbers(void)
{
	uint64_t v = 7;

	CHECK(latmon_parse_u64("42", 10, 0, 100, &v) == 0 && v == 42);
	CHECK(latmon_parse_u64("0x1000", 0, 0, UINT64_MAX, &v) == 0 && v == 4096);
	CHECK(latmon_parse_u64("010", 0, 0, UINT64_MAX, &v) == 0 && v == 8);
	CHECK(latmon_parse_u64("010", 10, 0, UINT64_MAX, &v) == 0 && v == 10);
	CHECK(latmon_parse_u64("18446744073709551615", 10, 0, UINT64_MAX, &v) == 0 &&
	      v == UINT64_MAX);
	v = 7;
	CHECK(latmon_parse_u64("0x10", 10, 0, 100, &v) == EINVAL && v == 7);
	CHECK(latmon_parse_u64("101", 10, 0, 100, &v) == ERANGE && v == 7);
	CHECK(latmon_parse_u64("0", 10, 1, 100, &v) == ERANGE && v == 7);
	CHECK(latmon_parse_u64("18446744073709551616", 10, 0, UINT64_MAX, &v) == EINVAL);
	CHECK(latmon_parse_u64("", 10, 0, 100, &v) == EINVAL);
	CHECK(latmon_parse_u64("-1", 10, 0, 100, &v) == EINVAL);
	CHECK(latmon_parse_u64("+1", 10, 0, 100, &v) == EINVAL);
	CHECK(latmon_parse_u64(" 1", 10, 0, 100, &v) == EINVAL);
	CHECK(latmon_parse_u64("1 ", 10, 0, 100, &v) == EINVAL);
	CHECK(latmon_parse_u64("12abc", 10, 0, 100, &v) == EINVAL);
	CHECK(latmon_parse_u64("12", 16, 0, 100, &v) == EINVAL); /* base 10 or 0 only */
	CHECK(latmon_parse_u64(NULL, 10, 0, 100, &v) == EINVAL && v == 7);
}

int main(void)
{
	test_durations();
	test_numbers();
	return check_report("test_latmon_parse");
}
