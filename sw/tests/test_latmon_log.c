/*
 * Unit tests of the latmon-log writer and CRC-32.
 *
 *   test_latmon_log              run the tests (the shared vector is read from
 *                                tests/data/latmon-log/vector-basic.log, relative to the
 *                                repository root, or from $LATMON_LOG_VECTOR)
 *   test_latmon_log --roundtrip  read "<t> <latency>" pairs from stdin, write them as a log on
 *                                stdout (used by the Python round-trip test)
 */
#include "latmon/latmon_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

struct buffer {
	char data[1 << 16];
	size_t len;
	int fail_after; /* sink calls before it starts failing; -1: never */
};

static int buffer_sink(void *ctx, const char *data, size_t len)
{
	struct buffer *b = ctx;

	if (b->fail_after == 0)
		return EIO;
	if (b->fail_after > 0)
		b->fail_after--;
	if (b->len + len > sizeof(b->data))
		return ENOSPC;
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

static int stdout_sink(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	return fwrite(data, 1, len, stdout) == len ? 0 : EIO;
}

#define CHECK_EQ_INT(a, b)                                                                        \
	do {                                                                                      \
		long long a_ = (a), b_ = (b);                                                     \
		if (a_ != b_) {                                                                   \
			fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, \
				#a, a_, b_);                                                      \
			failures++;                                                               \
		}                                                                                 \
	} while (0)

/* Writer memory: aligned static-size storage, as a bare-metal user would provide it. */
union writer_mem {
	uint64_t align;
	unsigned char bytes[8192];
};

static struct latmon_log_writer *new_writer(union writer_mem *mem, unsigned max_series,
					    struct buffer *b)
{
	struct latmon_log_writer *w = NULL;

	b->len = 0;
	b->fail_after = -1;
	CHECK_EQ_INT(latmon_log_writer_init(&w, mem, sizeof(*mem), max_series, buffer_sink, b), 0);
	return w;
}

static void test_crc32(void)
{
	CHECK_EQ_INT(latmon_crc32(0, "", 0), 0);
	CHECK_EQ_INT(latmon_crc32(0, "123456789", 9), 0xcbf43926u);
	CHECK_EQ_INT(latmon_crc32(latmon_crc32(0, "1234", 4), "56789", 5), 0xcbf43926u);
	CHECK_EQ_INT(latmon_crc32(0, "The quick brown fox jumps over the lazy dog", 43),
		     0x414fa339u);
}

/* The same calls as tests/test_logformat.py makes with the Python writer. */
static int write_vector(struct latmon_log_writer *w)
{
	static const struct latmon_log_kv header[] = {
		{ "source", "vector" },	    { "unit", "cycles" },    { "clock_hz", "100000000" },
		{ "host", "lab bench\\1" }, { "scenario", "basic" },
	};
	static const struct latmon_log_kv t1_meta[] = { { "channel", "0" } };
	static const struct latmon_log_kv cpu_meta[] = { { "cpu", "1" } };
	const int64_t t1_samples[] = { 120, 0, 4294967295 };
	const int64_t cpu_samples[][2] = {
		{ 1000, 5123 },
		{ 2000, -7 },
		{ 3000, INT64_MAX },
		{ INT64_MIN, 1 },
	};
	const int64_t edges[] = { 100, 200 };
	const struct latmon_log_counter counters[] = { { "overruns", 1 }, { "timeouts", 0 } };
	int err = 0;

	err = err ? err : latmon_log_begin(w, header, 5);
	err = err ? err : latmon_log_series(w, 0, "t1", NULL, t1_meta, 1);
	err = err ? err : latmon_log_series(w, 1, "cpu1", "t,latency", cpu_meta, 1);
	for (size_t i = 0; i < 3; i++)
		err = err ? err : latmon_log_sample(w, 0, &t1_samples[i], 1);
	for (size_t i = 0; i < 4; i++)
		err = err ? err : latmon_log_sample(w, 1, cpu_samples[i], 2);
	err = err ? err : latmon_log_bin(w, 0, NULL, &edges[0], 0);
	err = err ? err : latmon_log_bin(w, 0, &edges[0], &edges[1], 2);
	err = err ? err : latmon_log_bin(w, 0, &edges[1], NULL, 1);
	err = err ? err : latmon_log_counters(w, 0, counters, 2);
	err = err ? err : latmon_log_end(w);
	return err;
}

static void test_vector(void)
{
	static union writer_mem mem;
	static struct buffer b;
	static char expected[1 << 16];
	const char *path = getenv("LATMON_LOG_VECTOR");
	struct latmon_log_writer *w = new_writer(&mem, 4, &b);
	FILE *f;
	size_t n;

	CHECK_EQ_INT(write_vector(w), 0);
	if (!path)
		path = "tests/data/latmon-log/vector-basic.log";
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr,
			"cannot open the shared vector %s: %s (run from the repository root)\n",
			path, strerror(errno));
		failures++;
		return;
	}
	n = fread(expected, 1, sizeof(expected), f);
	fclose(f);
	CHECK_EQ_INT(n, b.len);
	CHECK(n == b.len && memcmp(expected, b.data, n) == 0);
	if (n != b.len || memcmp(expected, b.data, n) != 0)
		fprintf(stderr, "C writer output:\n%.*s", (int)b.len, b.data);
}

static void test_errors(void)
{
	static union writer_mem mem;
	static struct buffer b;
	static const struct latmon_log_kv no_source[] = { { "unit", "ns" } };
	static const struct latmon_log_kv no_clock[] = { { "source", "x" }, { "unit", "cycles" } };
	static const struct latmon_log_kv bad_unit[] = { { "source", "x" }, { "unit", "us" } };
	static const struct latmon_log_kv bad_key[] = { { "source", "x" }, { "Unit", "ns" } };
	static const struct latmon_log_kv ok[] = { { "source", "x" }, { "unit", "ns" } };
	struct latmon_log_writer *w = NULL;
	int64_t v = 1, two[2] = { 1, 2 };
	const struct latmon_log_counter c = { "k", 1 };
	char big[5000];

	/* init */
	CHECK_EQ_INT(latmon_log_writer_init(&w, mem.bytes, 16, 1, buffer_sink, &b), ENOSPC);
	CHECK_EQ_INT(latmon_log_writer_init(&w, mem.bytes + 1, 100, 1, buffer_sink, &b), EINVAL);
	CHECK_EQ_INT(latmon_log_writer_init(&w, &mem, sizeof(mem), 0, buffer_sink, &b), EINVAL);
	CHECK_EQ_INT(latmon_log_writer_init(&w, &mem, sizeof(mem), 1, NULL, &b), EINVAL);
	CHECK(latmon_log_writer_size(2) > latmon_log_writer_size(1));

	/* header validation writes nothing */
	w = new_writer(&mem, 2, &b);
	CHECK_EQ_INT(latmon_log_begin(w, no_source, 1), EINVAL);
	CHECK_EQ_INT(latmon_log_begin(w, no_clock, 2), EINVAL);
	CHECK_EQ_INT(latmon_log_begin(w, bad_unit, 2), EINVAL);
	CHECK_EQ_INT(latmon_log_begin(w, bad_key, 2), EINVAL);
	CHECK_EQ_INT(b.len, 0);
	CHECK_EQ_INT(latmon_log_series(w, 0, "a", NULL, NULL, 0), EPROTO);
	CHECK_EQ_INT(latmon_log_begin(w, ok, 2), 0);
	CHECK_EQ_INT(latmon_log_begin(w, ok, 2), EALREADY);

	/* series and samples */
	CHECK_EQ_INT(latmon_log_sample(w, 0, &v, 1), EINVAL);		   /* undeclared */
	CHECK_EQ_INT(latmon_log_series(w, 2, "a", NULL, NULL, 0), EINVAL); /* id >= max */
	CHECK_EQ_INT(latmon_log_series(w, 0, "a", "t,t,latency", NULL, 0), EINVAL);
	CHECK_EQ_INT(latmon_log_series(w, 0, "a", "t", NULL, 0), EINVAL); /* no latency */
	CHECK_EQ_INT(latmon_log_series(w, 0, "a", "latency,", NULL, 0), EINVAL);
	CHECK_EQ_INT(latmon_log_series(w, 0, "a", "t,latency", NULL, 0), 0);
	CHECK_EQ_INT(latmon_log_series(w, 0, "b", NULL, NULL, 0), EEXIST);
	CHECK_EQ_INT(latmon_log_header(w, "late", "1"), EPROTO);
	CHECK_EQ_INT(latmon_log_sample(w, 0, &v, 1), EINVAL); /* needs 2 values */
	CHECK_EQ_INT(latmon_log_sample(w, 0, two, 2), 0);
	CHECK_EQ_INT(latmon_log_bin(w, 0, &two[1], &two[0], 1), EINVAL); /* hi <= lo */
	CHECK_EQ_INT(latmon_log_counters(w, 0, &c, 0), EINVAL);

	/* an overlong line is refused, and the writer stays failed */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK_EQ_INT(latmon_log_header(w, "x", big), EPROTO); /* state check comes first */
	{
		const struct latmon_log_kv long_meta[] = { { "note", big } };
		CHECK_EQ_INT(latmon_log_series(w, 1, "b", NULL, long_meta, 1), E2BIG);
	}
	CHECK_EQ_INT(latmon_log_sample(w, 0, two, 2), E2BIG);
	CHECK_EQ_INT(latmon_log_end(w), E2BIG);

	/* a sink error is kept and returned from end */
	w = new_writer(&mem, 1, &b);
	b.fail_after = 3;
	CHECK_EQ_INT(latmon_log_begin(w, ok, 2), 0);
	CHECK_EQ_INT(latmon_log_series(w, 0, "a", NULL, NULL, 0), EIO);
	CHECK_EQ_INT(latmon_log_end(w), EIO);

	/* end twice */
	w = new_writer(&mem, 1, &b);
	CHECK_EQ_INT(latmon_log_begin(w, ok, 2), 0);
	CHECK_EQ_INT(latmon_log_end(w), 0);
	CHECK_EQ_INT(latmon_log_end(w), EPROTO);
	CHECK_EQ_INT(latmon_log_sample(w, 0, &v, 1), EPROTO);
}

static void test_int64_extremes(void)
{
	static union writer_mem mem;
	static struct buffer b;
	static const struct latmon_log_kv ok[] = { { "source", "x" }, { "unit", "ns" } };
	struct latmon_log_writer *w = new_writer(&mem, 1, &b);
	const int64_t values[] = { INT64_MIN, -1, 0, INT64_MAX };

	CHECK_EQ_INT(latmon_log_begin(w, ok, 2), 0);
	CHECK_EQ_INT(latmon_log_series(w, 0, "a", NULL, NULL, 0), 0);
	for (size_t i = 0; i < 4; i++)
		CHECK_EQ_INT(latmon_log_sample(w, 0, &values[i], 1), 0);
	b.data[b.len] = '\0';
	CHECK(strstr(b.data, "S 0 0 -9223372036854775808 *") != NULL);
	CHECK(strstr(b.data, "S 0 1 -1 *") != NULL);
	CHECK(strstr(b.data, "S 0 2 0 *") != NULL);
	CHECK(strstr(b.data, "S 0 3 9223372036854775807 *") != NULL);
}

/* Against snprintf at the 32-bit boundary, the extremes and a spread of magnitudes. */
static void test_format_u64(void)
{
	const uint64_t values[] = { 0,	       9, 10, 4294967295u, 4294967296u, 100000000000000000u,
				    UINT64_MAX };
	char buf[LATMON_LOG_U64_TEXT], want[32];

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		snprintf(want, sizeof(want), "%" PRIu64, values[i]);
		CHECK(!strcmp(latmon_log_format_u64(buf, values[i]), want));
	}
	for (uint64_t v = 1; v < UINT64_MAX / 7u; v = v * 7u + 3u) {
		snprintf(want, sizeof(want), "%" PRIu64, v);
		CHECK(!strcmp(latmon_log_format_u64(buf, v), want));
	}
}

static int roundtrip(void)
{
	static union writer_mem mem;
	static const struct latmon_log_kv header[] = { { "source", "roundtrip" },
						       { "unit", "ns" } };
	struct latmon_log_writer *w = NULL;
	int64_t pair[2];
	int err = latmon_log_writer_init(&w, &mem, sizeof(mem), 1, stdout_sink, NULL);

	err = err ? err : latmon_log_begin(w, header, 2);
	err = err ? err : latmon_log_series(w, 0, "s", "t,latency", NULL, 0);
	while (!err && scanf("%" SCNd64 " %" SCNd64, &pair[0], &pair[1]) == 2)
		err = latmon_log_sample(w, 0, pair, 2);
	err = err ? err : latmon_log_end(w);
	if (err)
		fprintf(stderr, "roundtrip: %s\n", strerror(err));
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--roundtrip"))
		return roundtrip();
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--roundtrip]\n", argv[0]);
		return 2;
	}
	test_crc32();
	test_vector();
	test_errors();
	test_int64_extremes();
	test_format_u64();
	return check_report("test_latmon_log");
}
