/* Unit tests of the meter (sw/exporter/latmon_meter.c): buckets, native indices, snapshots. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latmon/latmon_meter.h"

#include "check.h"

static void test_default_buckets(void)
{
	struct latmon_buckets b;

	CHECK(latmon_buckets_default(&b, 0) == 0);
	/* 1us 2us 5us ... 10ms: 13 bounds */
	CHECK(b.n == 13 && b.bound_ns[0] == 1000 && b.bound_ns[1] == 2000 &&
	      b.bound_ns[2] == 5000 && b.bound_ns[12] == 10000000);
	/* a 3 ms deadline: its own bound, up to 30 ms, 50 ms being the first 1-2-5 above */
	CHECK(latmon_buckets_default(&b, 3000000) == 0);
	CHECK(b.bound_ns[b.n - 1] == 50000000);
	CHECK(latmon_buckets_index(&b, 3000000) < b.n &&
	      b.bound_ns[latmon_buckets_index(&b, 3000000)] == 3000000);
	for (unsigned i = 1; i < b.n; i++)
		CHECK(b.bound_ns[i] > b.bound_ns[i - 1]);
	CHECK(latmon_buckets_default(&b, 2000000000000ull) == EINVAL);
}

static void test_parse_buckets(void)
{
	struct latmon_buckets b;
	char err[200];

	CHECK(latmon_buckets_parse("10us,100us,1ms", 0, &b, err, sizeof(err)) == 0);
	CHECK(b.n == 3 && b.bound_ns[0] == 10000 && b.bound_ns[2] == 1000000);
	/* a number alone is microseconds; ns and s work; the deadline is added */
	CHECK(latmon_buckets_parse("500ns,2,0.5ms,1s", 3000000, &b, err, sizeof(err)) == 0);
	CHECK(b.n == 5 && b.bound_ns[0] == 500 && b.bound_ns[1] == 2000 &&
	      b.bound_ns[2] == 500000 && b.bound_ns[3] == 3000000 && b.bound_ns[4] == 1000000000);
	/* log spacing: 3 per decade from 1 us to 1 ms: 1, 2.154, 4.642, 10, ... 1000 us */
	CHECK(latmon_buckets_parse("1us..1ms/3", 0, &b, err, sizeof(err)) == 0);
	CHECK(b.n == 10 && b.bound_ns[0] == 1000 && b.bound_ns[1] == 2154 &&
	      b.bound_ns[2] == 4642 && b.bound_ns[3] == 10000 && b.bound_ns[9] == 1000000);
	/* errors say what to give */
	CHECK(latmon_buckets_parse("10us,5us", 0, &b, err, sizeof(err)) == EINVAL);
	CHECK(strstr(err, "increasing") != NULL);
	CHECK(latmon_buckets_parse("10us,,20us", 0, &b, err, sizeof(err)) == EINVAL);
	CHECK(latmon_buckets_parse("ten", 0, &b, err, sizeof(err)) == EINVAL);
	CHECK(latmon_buckets_parse("10sec", 0, &b, err, sizeof(err)) == EINVAL);
	CHECK(latmon_buckets_parse("0", 0, &b, err, sizeof(err)) == EINVAL);
	CHECK(latmon_buckets_parse("1us..1ms", 0, &b, err, sizeof(err)) == EINVAL);
	CHECK(latmon_buckets_parse("1ms..1us/3", 0, &b, err, sizeof(err)) == EINVAL);
	CHECK(latmon_buckets_parse("1ns..1000s/20", 0, &b, err, sizeof(err)) == EINVAL);
	CHECK(strstr(err, "more than") != NULL);
	CHECK(latmon_buckets_parse("", 0, &b, err, sizeof(err)) == EINVAL);
}

/* The native index against the definition 2^((k-1)/8) < v <= 2^(k/8), with the bounds as
 * Prometheus computes them. */
static void test_native_index(void)
{
	static const uint64_t values[] = {
		1,	    2,		3,	    999,
		1000,	    1001,	12345,	    50000,
		65536,	    1000000,	3000000,    999999999,
		1000000000, 1000000001, 1ull << 40, 18446744073709551615ull
	};

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		double v = (double)values[i] / 1e9;
		int k = latmon_native_index(values[i]);

		CHECK(latmon_native_bound(k - 1) < v && v <= latmon_native_bound(k));
		CHECK(k >= LATMON_METER_NATIVE_MIN_INDEX &&
		      k < LATMON_METER_NATIVE_MIN_INDEX + LATMON_METER_NATIVE_BUCKETS);
	}
	/* 1 s is the upper bound of bucket 0; a power of two is a bound itself */
	CHECK(latmon_native_index(1000000000) == 0);
	CHECK(latmon_native_bound(0) == 1.0 && latmon_native_bound(8) == 2.0 &&
	      latmon_native_bound(-8) == 0.5);
	CHECK(fabs(latmon_native_bound(1) - pow(2.0, 1.0 / 8)) < 1e-15);
}

static void test_record_and_read(void)
{
	struct latmon_buckets b = { .bound_ns = { 10, 100, 1000 }, .n = 3 };
	struct latmon_meter *m = calloc(1, sizeof(*m));
	struct latmon_meter_snapshot s;
	uint64_t native_total = 0;

	CHECK(latmon_meter_init(m, &b, 100, 1u << LATMON_METER_MISSED) == 0);
	CHECK(m->counters == ((1u << LATMON_METER_MISSED) | (1u << LATMON_METER_VIOLATIONS)));
	/* le semantics: a value equal to a bound is in that bound's bucket */
	latmon_meter_record(m, 0);
	latmon_meter_record(m, 10);
	latmon_meter_record(m, 11);
	latmon_meter_record(m, 100);
	latmon_meter_record(m, 101);
	latmon_meter_record(m, 5000);
	latmon_meter_add(m, LATMON_METER_MISSED, 3);
	CHECK(latmon_meter_read(m, &s) == 0);
	CHECK(s.classic[0] == 2 && s.classic[1] == 2 && s.classic[2] == 1 && s.classic[3] == 1);
	CHECK(s.count == 6 && s.sum == 5222 && s.last == 5000 && s.max == 5000 && s.min == 0);
	CHECK(s.zero == 1 && s.counter[LATMON_METER_MISSED] == 3);
	CHECK(s.counter[LATMON_METER_VIOLATIONS] == 2); /* 101 and 5000 are above 100 */
	for (unsigned i = 0; i < LATMON_METER_NATIVE_BUCKETS; i++)
		native_total += s.native[i];
	CHECK(native_total + s.zero == s.count);
	CHECK(s.native[latmon_native_index(5000) - LATMON_METER_NATIVE_MIN_INDEX] == 1);
	/* bounds not increasing */
	b.bound_ns[1] = 5;
	CHECK(latmon_meter_init(m, &b, 0, 0) == EINVAL);
	free(m);
}

/* A writer records as fast as it can while a reader takes snapshots: every snapshot must be
 * consistent (buckets add up to the count; sum = count * value) and never go backwards. */
struct race {
	struct latmon_meter *m;
	atomic_bool done;
};

static void *writer(void *arg)
{
	struct race *r = arg;

	for (int i = 0; i < 2000000; i++)
		latmon_meter_record(r->m, 7);
	atomic_store(&r->done, true);
	return NULL;
}

static void test_concurrent_snapshots(void)
{
	struct latmon_buckets b = { .bound_ns = { 5, 10 }, .n = 2 };
	struct race r = { .m = calloc(1, sizeof(struct latmon_meter)) };
	struct latmon_meter_snapshot s;
	uint64_t prev = 0, reads = 0, bad = 0;
	pthread_t t;

	latmon_meter_init(r.m, &b, 0, 0);
	CHECK(pthread_create(&t, NULL, writer, &r) == 0);
	while (!atomic_load(&r.done)) {
		if (latmon_meter_read(r.m, &s))
			continue;
		reads++;
		if (s.classic[1] != s.count || s.sum != 7 * s.count || s.count < prev ||
		    s.classic[0] || s.classic[2])
			bad++;
		prev = s.count;
	}
	pthread_join(t, NULL);
	CHECK(bad == 0);
	CHECK(reads > 0);
	CHECK(latmon_meter_read(r.m, &s) == 0 && s.count == 2000000 && s.classic[1] == 2000000);
	free(r.m);
}

int main(void)
{
	test_default_buckets();
	test_parse_buckets();
	test_native_index();
	test_record_and_read();
	test_concurrent_snapshots();
	return check_report("test_latmon_meter");
}
