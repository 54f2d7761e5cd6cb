/* latmon meter: published histogram and counters; see latmon/latmon_meter.h. */
#include "latmon/latmon_meter.h"
#include "latmon_parse.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reader tries before latmon_meter_read() gives up with EAGAIN. */
#define READ_TRIES 10000

/*
 * The upper bounds of the 8 buckets of one power of two, as fractions in [0.5, 1): 2^(i/8) / 2.
 * The same constants as Prometheus's client_golang (nativeHistogramBounds[3]) and its server's
 * bucket bounds (histogram.exponentialBounds[3]), so that both sides agree to the last bit.
 */
static const double native_bounds[8] = {
	0.5,
	0.5452538663326288,
	0.5946035575013605,
	0.6484197773255048,
	0.7071067811865475,
	0.7711054127039704,
	0.8408964152537144,
	0.9170040432046711,
};

static uint64_t load(const _Atomic uint64_t *x)
{
	return atomic_load_explicit(x, memory_order_relaxed);
}

/* The one writer: no read-modify-write instruction needed. */
static void store(_Atomic uint64_t *x, uint64_t v)
{
	atomic_store_explicit(x, v, memory_order_relaxed);
}

static void write_begin(struct latmon_meter *m)
{
	uint32_t s = atomic_load_explicit(&m->seq, memory_order_relaxed);

	atomic_store_explicit(&m->seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
}

static void write_end(struct latmon_meter *m)
{
	uint32_t s = atomic_load_explicit(&m->seq, memory_order_relaxed);

	atomic_store_explicit(&m->seq, s + 1, memory_order_release);
}

int latmon_native_index(uint64_t value_ns)
{
	int exp;
	double frac = frexp((double)value_ns / 1e9, &exp);
	int i = 0;

	/* the first bound >= frac (8 when frac is above the last: the next power's bucket 0) */
	while (i < 8 && native_bounds[i] < frac)
		i++;
	return i + (exp - 1) * 8;
}

double latmon_native_bound(int index)
{
	/* floor division: index = 8 * q + r with r in 0..7 */
	int q = index >= 0 ? index / 8 : -((-index + 7) / 8);
	int r = index - 8 * q;

	return ldexp(native_bounds[r], q + 1);
}

unsigned latmon_buckets_index(const struct latmon_buckets *buckets, uint64_t value_ns)
{
	unsigned lo = 0, hi = buckets->n;

	/* the first bound >= value: binary search over at most 64 bounds */
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (buckets->bound_ns[mid] < value_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool buckets_valid(const struct latmon_buckets *b)
{
	if (b->n > LATMON_METER_MAX_BUCKETS)
		return false;
	for (unsigned i = 1; i < b->n; i++) {
		if (b->bound_ns[i] <= b->bound_ns[i - 1])
			return false;
	}
	return true;
}

int latmon_meter_init(struct latmon_meter *meter, const struct latmon_buckets *buckets,
		      uint64_t deadline_ns, unsigned counters)
{
	if (!meter || !buckets || !buckets_valid(buckets))
		return EINVAL;
	memset(meter, 0, sizeof(*meter));
	meter->buckets = *buckets;
	meter->deadline_ns = deadline_ns;
	meter->counters = counters;
	store(&meter->min, UINT64_MAX);
	if (deadline_ns)
		meter->counters |= 1u << LATMON_METER_VIOLATIONS;
	return 0;
}

void latmon_meter_record(struct latmon_meter *m, uint64_t latency_ns)
{
	unsigned c = latmon_buckets_index(&m->buckets, latency_ns);
	uint64_t sum = load(&m->sum);

	write_begin(m);
	store(&m->classic[c], load(&m->classic[c]) + 1);
	if (latency_ns == 0) {
		store(&m->zero, load(&m->zero) + 1);
	} else {
		int k = latmon_native_index(latency_ns) - LATMON_METER_NATIVE_MIN_INDEX;

		/* every 64-bit nanosecond count falls inside; the clamp only guards the array */
		if (k < 0)
			k = 0;
		if (k >= LATMON_METER_NATIVE_BUCKETS)
			k = LATMON_METER_NATIVE_BUCKETS - 1;
		store(&m->native[k], load(&m->native[k]) + 1);
	}
	store(&m->count, load(&m->count) + 1);
	store(&m->sum, sum > UINT64_MAX - latency_ns ? UINT64_MAX : sum + latency_ns);
	store(&m->last, latency_ns);
	if (latency_ns > load(&m->max))
		store(&m->max, latency_ns);
	if (latency_ns < load(&m->min))
		store(&m->min, latency_ns);
	if (m->deadline_ns && latency_ns > m->deadline_ns)
		store(&m->counter[LATMON_METER_VIOLATIONS],
		      load(&m->counter[LATMON_METER_VIOLATIONS]) + 1);
	write_end(m);
}

void latmon_meter_add(struct latmon_meter *m, enum latmon_meter_counter which, uint64_t n)
{
	if ((unsigned)which >= LATMON_METER_NCOUNTERS || n == 0)
		return;
	write_begin(m);
	store(&m->counter[which], load(&m->counter[which]) + n);
	write_end(m);
}

int latmon_meter_read(const struct latmon_meter *meter, struct latmon_meter_snapshot *out)
{
	/* the readers never write: the cast only drops const for the atomic loads */
	struct latmon_meter *m = (struct latmon_meter *)meter;

	for (int tries = 0; tries < READ_TRIES; tries++) {
		uint32_t s1 = atomic_load_explicit(&m->seq, memory_order_acquire), s2;

		if (s1 & 1)
			continue;
		for (unsigned i = 0; i <= m->buckets.n; i++)
			out->classic[i] = load(&m->classic[i]);
		for (unsigned i = 0; i < LATMON_METER_NATIVE_BUCKETS; i++)
			out->native[i] = load(&m->native[i]);
		out->zero = load(&m->zero);
		out->count = load(&m->count);
		out->sum = load(&m->sum);
		out->last = load(&m->last);
		out->max = load(&m->max);
		out->min = load(&m->min);
		for (unsigned i = 0; i < LATMON_METER_NCOUNTERS; i++)
			out->counter[i] = load(&m->counter[i]);
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&m->seq, memory_order_relaxed);
		if (s1 == s2)
			return 0;
	}
	return EAGAIN;
}

/* ---- bucket bounds ------------------------------------------------------------------------ */

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return EINVAL;
}

/* Add a bound keeping the list sorted and unique. @return false when full. */
static bool add_bound(struct latmon_buckets *b, uint64_t v)
{
	unsigned i = latmon_buckets_index(b, v);

	if (i < b->n && b->bound_ns[i] == v)
		return true;
	if (b->n == LATMON_METER_MAX_BUCKETS)
		return false;
	memmove(&b->bound_ns[i + 1], &b->bound_ns[i], (b->n - i) * sizeof(b->bound_ns[0]));
	b->bound_ns[i] = v;
	b->n++;
	return true;
}

int latmon_buckets_default(struct latmon_buckets *buckets, uint64_t deadline_ns)
{
	static const uint64_t steps[3] = { 1, 2, 5 };
	uint64_t top = 10000000; /* 10 ms */

	if (deadline_ns > 1000000000000ull)
		return EINVAL;
	if (deadline_ns && deadline_ns * 10 > top)
		top = deadline_ns * 10;
	buckets->n = 0;
	for (uint64_t decade = 1000; buckets->n < LATMON_METER_MAX_BUCKETS; decade *= 10) {
		for (unsigned s = 0; s < 3; s++) {
			uint64_t v = steps[s] * decade;

			if (!add_bound(buckets, v))
				return EINVAL;
			if (v >= top)
				goto done;
		}
	}
done:
	if (deadline_ns && !add_bound(buckets, deadline_ns))
		return EINVAL;
	return 0;
}

/* A bucket bound: a duration (latmon_parse.h; a number alone is µs), at most half of 2^64 ns.
 * @return 0, EINVAL, ERANGE. *end receives the first character after it. */
static int parse_duration(const char *p, const char **end, uint64_t *out)
{
	uint64_t v;
	int err = latmon_parse_duration_prefix(p, LATMON_US, end, &v);

	if (err)
		return err;
	if (v > UINT64_MAX / 2)
		return ERANGE;
	*out = v;
	return 0;
}

static int parse_log_spacing(const char *text, struct latmon_buckets *b, char *err, size_t errlen)
{
	const char *p = text;
	uint64_t lo, hi;
	char *end;
	unsigned long per_decade;

	if (parse_duration(p, &p, &lo) || strncmp(p, "..", 2) || parse_duration(p + 2, &p, &hi) ||
	    *p != '/' || p[1] < '1' || p[1] > '9')
		return fail(err, errlen,
			    "bucket spacing %s: give MIN..MAX/N (N bounds per decade), e.g. "
			    "1us..100ms/3",
			    text);
	per_decade = strtoul(p + 1, &end, 10);
	if (*end || per_decade == 0 || per_decade > 20)
		return fail(err, errlen, "bucket spacing %s: N (bounds per decade) is 1 to 20",
			    text);
	if (lo == 0 || hi <= lo)
		return fail(err, errlen, "bucket spacing %s: give 0 < MIN < MAX", text);
	for (unsigned k = 0;; k++) {
		double v = (double)lo * pow(10.0, (double)k / (double)per_decade);
		uint64_t ns = (uint64_t)llround(v);

		if (ns > hi)
			ns = hi;
		if (!add_bound(b, ns))
			return fail(
			    err, errlen,
			    "bucket spacing %s gives more than %d bounds; widen the spacing", text,
			    LATMON_METER_MAX_BUCKETS);
		if (ns >= hi)
			return 0;
	}
}

int latmon_buckets_parse(const char *text, uint64_t deadline_ns, struct latmon_buckets *buckets,
			 char *err, size_t errlen)
{
	const char *p = text;
	uint64_t prev = 0;

	if (!text || !buckets || !*text)
		return fail(err, errlen, "give bucket bounds, e.g. 10us,100us,1ms or 1us..100ms/3");
	buckets->n = 0;
	if (strstr(text, "..")) {
		if (parse_log_spacing(text, buckets, err, errlen))
			return EINVAL;
	} else {
		for (;;) {
			uint64_t v;

			if (parse_duration(p, &p, &v) || (*p && *p != ','))
				return fail(err, errlen,
					    "bucket bounds %s: give durations separated by commas, "
					    "e.g. 10us,100us,1ms (a number alone is microseconds)",
					    text);
			if (v == 0 || v <= prev)
				return fail(err, errlen,
					    "bucket bounds %s: give positive bounds in increasing "
					    "order",
					    text);
			if (!add_bound(buckets, v))
				return fail(err, errlen, "bucket bounds %s: at most %d bounds",
					    text, LATMON_METER_MAX_BUCKETS);
			prev = v;
			if (!*p)
				break;
			p++;
		}
	}
	if (deadline_ns && !add_bound(buckets, deadline_ns))
		return fail(err, errlen,
			    "bucket bounds %s: no room left for the deadline (at most %d)", text,
			    LATMON_METER_MAX_BUCKETS);
	return 0;
}
