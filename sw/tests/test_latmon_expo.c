/* Unit tests of the exposition formats (sw/exporter/latmon_expo.c). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latmon/latmon_expo.h"

#include "check.h"

static void test_decimal(void)
{
	char b[40];

	latmon_expo_decimal(b, sizeof(b), 15000, 9);
	CHECK(!strcmp(b, "0.000015"));
	latmon_expo_decimal(b, sizeof(b), 3000000000ull, 9);
	CHECK(!strcmp(b, "3"));
	latmon_expo_decimal(b, sizeof(b), 1234567891ull, 9);
	CHECK(!strcmp(b, "1.234567891"));
	latmon_expo_decimal(b, sizeof(b), 0, 9);
	CHECK(!strcmp(b, "0"));
	latmon_expo_decimal(b, sizeof(b), 18446744073709551615ull, 0);
	CHECK(!strcmp(b, "18446744073709551615"));
	latmon_expo_decimal(b, sizeof(b), 1795452835153ull, 3);
	CHECK(!strcmp(b, "1795452835.153"));
}

static void test_negotiate(void)
{
	/* what Prometheus 2.42 sends: by default, and with native histograms */
	CHECK(latmon_expo_negotiate("application/openmetrics-text;version=1.0.0,application/"
				    "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0."
				    "4;q=0.5,*/*;q=0.1") == LATMON_EXPO_OPENMETRICS);
	CHECK(latmon_expo_negotiate(
		  "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
		  "encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.2") ==
	      LATMON_EXPO_PROTOBUF);
	/* the highest q wins wherever it is */
	CHECK(latmon_expo_negotiate("text/plain;q=0.9, application/openmetrics-text;q=0.5") ==
	      LATMON_EXPO_TEXT);
	/* protobuf of another message or encoding is not ours */
	CHECK(
	    latmon_expo_negotiate("application/vnd.google.protobuf;proto=x.Y;encoding=delimited") ==
	    LATMON_EXPO_TEXT);
	CHECK(latmon_expo_negotiate("application/vnd.google.protobuf;proto=io.prometheus.client."
				    "MetricFamily;encoding=text") == LATMON_EXPO_TEXT);
	CHECK(latmon_expo_negotiate(NULL) == LATMON_EXPO_TEXT);
	CHECK(latmon_expo_negotiate("") == LATMON_EXPO_TEXT);
	CHECK(latmon_expo_negotiate("image/png, ;;;,,q=") == LATMON_EXPO_TEXT);
	CHECK(latmon_expo_negotiate("application/openmetrics-text;q=0") == LATMON_EXPO_TEXT);
}

static void test_label_names(void)
{
	CHECK(latmon_label_name_valid("site"));
	CHECK(latmon_label_name_valid("_x9"));
	CHECK(!latmon_label_name_valid("9x"));
	CHECK(!latmon_label_name_valid("__name__"));
	CHECK(!latmon_label_name_valid("le"));
	CHECK(!latmon_label_name_valid("a-b"));
	CHECK(!latmon_label_name_valid(""));
}

static struct latmon_meter_snapshot *snapshot_of(const struct latmon_buckets *b,
						 const uint64_t *values, size_t n)
{
	struct latmon_meter *m = calloc(1, sizeof(*m));
	struct latmon_meter_snapshot *s = calloc(1, sizeof(*s));

	latmon_meter_init(m, b, 0, 0);
	for (size_t i = 0; i < n; i++)
		latmon_meter_record(m, values[i]);
	latmon_meter_read(m, s);
	free(m);
	return s;
}

static void test_text(void)
{
	static const uint64_t values[] = { 500, 1000, 1500, 7000 };
	struct latmon_buckets b = { .bound_ns = { 1000, 5000 }, .n = 2 };
	struct latmon_meter_snapshot *s = snapshot_of(&b, values, 4);
	struct latmon_label labels[] = { { "host", "a\"b\\c\nd" }, { "cpu", "0" } };
	struct latmon_expo_series series = { labels, 2, s };
	struct latmon_buf out;
	struct latmon_expo e;

	latmon_buf_init(&out);
	latmon_expo_begin(&e, &out, LATMON_EXPO_TEXT, 0);
	latmon_expo_meters(&e, &series, 1, &b, 0);
	CHECK(latmon_expo_end(&e) == 0);
	CHECK(latmon_buf_append(&out, "", 1) == 0);
	CHECK(strstr(out.data, "# TYPE latmon_latency_seconds histogram\n") != NULL);
	CHECK(strstr(out.data, "latmon_latency_seconds_bucket{host=\"a\\\"b\\\\c\\nd\",cpu=\"0\","
			       "le=\"0.000001\"} 2\n") != NULL);
	CHECK(strstr(out.data, "le=\"0.000005\"} 3\n") != NULL);
	CHECK(strstr(out.data, "le=\"+Inf\"} 4\n") != NULL);
	CHECK(strstr(out.data, "_count{host=\"a\\\"b\\\\c\\nd\",cpu=\"0\"} 4\n") != NULL);
	CHECK(strstr(out.data, "_sum{host=\"a\\\"b\\\\c\\nd\",cpu=\"0\"} 0.00001\n") != NULL);
	CHECK(strstr(out.data, "# TYPE latmon_samples_total counter\n") != NULL);
	CHECK(strstr(out.data, "latmon_latency_max_seconds{host=\"a\\\"b\\\\c\\nd\",cpu=\"0\"} "
			       "0.000007\n") != NULL);
	CHECK(strstr(out.data, "_created") == NULL && strstr(out.data, "# EOF") == NULL);
	/* no counters asked for: none written */
	CHECK(strstr(out.data, "missed") == NULL);

	out.len = 0;
	latmon_expo_begin(&e, &out, LATMON_EXPO_OPENMETRICS, 1795452835153ull);
	latmon_expo_meters(&e, &series, 1, &b, 1u << LATMON_METER_MISSED);
	CHECK(latmon_expo_end(&e) == 0);
	CHECK(latmon_buf_append(&out, "", 1) == 0);
	CHECK(strstr(out.data, "# TYPE latmon_samples counter\n") != NULL);
	CHECK(strstr(out.data, "# UNIT latmon_latency_seconds seconds\n") != NULL);
	CHECK(strstr(out.data, "latmon_samples_created{host=\"a\\\"b\\\\c\\nd\",cpu=\"0\"} "
			       "1795452835.153\n") != NULL);
	CHECK(strstr(out.data, "latmon_missed_periods_total{") != NULL);
	CHECK(out.len > 7 && !strcmp(out.data + out.len - 7, "# EOF\n"));
	latmon_buf_free(&out);
	free(s);
}

/* ---- a small protobuf reader, to check the encoding independently ---- */

struct pb {
	const unsigned char *p, *end;
};

static uint64_t rd_varint(struct pb *r)
{
	uint64_t v = 0;

	for (int shift = 0; r->p < r->end && shift < 64; shift += 7) {
		unsigned char c = *r->p++;

		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	return v;
}

static int64_t unzigzag(uint64_t v)
{
	return (v & 1) ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

/* Find field @p field (length-delimited) starting at r; @return 1 and the sub-reader. */
static int rd_next(struct pb *r, unsigned *field, unsigned *wire, uint64_t *value, struct pb *sub)
{
	uint64_t key;

	if (r->p >= r->end)
		return 0;
	key = rd_varint(r);
	*field = (unsigned)(key >> 3);
	*wire = (unsigned)(key & 7);
	if (*wire == 0) {
		*value = rd_varint(r);
	} else if (*wire == 1) {
		memcpy(value, r->p, 8);
		r->p += 8;
	} else if (*wire == 2) {
		uint64_t len = rd_varint(r);

		sub->p = r->p;
		sub->end = r->p + len;
		r->p += len;
	} else {
		return 0;
	}
	return 1;
}

static void test_protobuf(void)
{
	static const uint64_t values[] = { 0, 1000, 1000, 1100, 3000, 3000, 3000, 250000 };
	struct latmon_buckets b = { .bound_ns = { 1000, 5000 }, .n = 2 };
	struct latmon_meter_snapshot *s = snapshot_of(&b, values, 8);
	struct latmon_label labels[] = { { "cpu", "1" } };
	struct latmon_expo_series series = { labels, 1, s };
	struct latmon_buf out;
	struct latmon_expo e;
	struct pb r, family, metric, hist, sub;
	unsigned field, wire, families = 0;
	uint64_t value, len, count = 0, zero = 0, classic[2] = { 0, 0 };
	int64_t index = 0, bucket_count = 0, nspans = 0;
	uint64_t native_seen[LATMON_METER_NATIVE_BUCKETS];
	char name[64] = "";

	memset(native_seen, 0, sizeof(native_seen));
	latmon_buf_init(&out);
	latmon_expo_begin(&e, &out, LATMON_EXPO_PROTOBUF, 0);
	latmon_expo_meters(&e, &series, 1, &b, 0);
	CHECK(latmon_expo_end(&e) == 0);
	r.p = (const unsigned char *)out.data;
	r.end = r.p + out.len;
	/* delimited: a varint length, then the MetricFamily, until the end exactly */
	while (r.p < r.end) {
		len = rd_varint(&r);
		CHECK(len <= (uint64_t)(r.end - r.p));
		family.p = r.p;
		family.end = r.p + len;
		r.p += len;
		families++;
		if (families > 1)
			continue;
		while (rd_next(&family, &field, &wire, &value, &sub)) {
			if (field == 1 && wire == 2) {
				memcpy(name, sub.p, (size_t)(sub.end - sub.p));
				name[sub.end - sub.p] = '\0';
			}
			if (field == 3)
				CHECK(value == 4); /* HISTOGRAM */
			if (field != 4)
				continue;
			metric = sub;
			while (rd_next(&metric, &field, &wire, &value, &sub)) {
				if (field != 7)
					continue;
				hist = sub;
				while (rd_next(&hist, &field, &wire, &value, &sub)) {
					if (field == 1)
						count = value;
					else if (field == 7)
						zero = value;
					else if (field == 5)
						CHECK(unzigzag(value) == 3);
					else if (field == 3) {
						unsigned f2, w2;
						uint64_t v2, cum = 0;
						double bound = 0;
						struct pb bk = sub, none;

						while (rd_next(&bk, &f2, &w2, &v2, &none)) {
							if (f2 == 1)
								cum = v2;
							if (f2 == 2)
								memcpy(&bound, &v2, 8);
						}
						if (bound == 1e-6)
							classic[0] = cum;
						if (bound == 5e-6)
							classic[1] = cum;
					} else if (field == 12) {
						unsigned f2, w2;
						uint64_t v2, length = 0;
						int64_t offset = 0;
						struct pb sp = sub, none;

						while (rd_next(&sp, &f2, &w2, &v2, &none)) {
							if (f2 == 1)
								offset = unzigzag(v2);
							if (f2 == 2)
								length = v2;
						}
						/* spans first, deltas after: remember the indices
						 */
						index = nspans++ ? index + offset : offset;
						for (uint64_t k = 0; k < length; k++, index++)
							native_seen[index -
								    LATMON_METER_NATIVE_MIN_INDEX] =
							    1;
					} else if (field == 13) {
						struct pb d = sub;
						unsigned k = 0;

						for (; d.p < d.end; k++) {
							while (!native_seen[k])
								k++;
							bucket_count += unzigzag(rd_varint(&d));
							CHECK(s->native[k] ==
							      (uint64_t)bucket_count);
						}
					}
				}
			}
		}
	}
	CHECK(r.p == r.end);
	CHECK(!strcmp(name, "latmon_latency_seconds"));
	CHECK(families >= 5);
	CHECK(count == 8 && zero == 1 && classic[0] == 3 && classic[1] == 7);
	CHECK(nspans >= 2); /* 1 us, 1.1 us, 3 us and 250 us are not all adjacent buckets */
	latmon_buf_free(&out);
	free(s);
}

int main(void)
{
	test_decimal();
	test_negotiate();
	test_label_names();
	test_text();
	test_protobuf();
	return check_report("test_latmon_expo");
}
