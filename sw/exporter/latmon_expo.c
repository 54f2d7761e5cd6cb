/* latmon exposition formats; see latmon/latmon_expo.h. */
#define _GNU_SOURCE
#include "latmon/latmon_expo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The native histogram's zero threshold: Prometheus's default (2^-128 s), so that only a
 * sample of exactly 0 ns lands in the zero bucket and the histogram is always native. */
#define NATIVE_ZERO_THRESHOLD 2.938735877055719e-39

/* ---- buffer ------------------------------------------------------------------------------- */

void latmon_buf_init(struct latmon_buf *buf)
{
	memset(buf, 0, sizeof(*buf));
}

void latmon_buf_free(struct latmon_buf *buf)
{
	free(buf->data);
	latmon_buf_init(buf);
}

static int reserve(struct latmon_buf *buf, size_t more)
{
	size_t cap = buf->cap ? buf->cap : 1024;
	char *data;

	if (buf->error)
		return buf->error;
	if (more > SIZE_MAX / 2 - buf->len)
		return buf->error = ENOMEM;
	if (buf->len + more <= buf->cap)
		return 0;
	while (cap < buf->len + more)
		cap *= 2;
	data = realloc(buf->data, cap);
	if (!data)
		return buf->error = ENOMEM;
	buf->data = data;
	buf->cap = cap;
	return 0;
}

int latmon_buf_append(struct latmon_buf *buf, const void *data, size_t len)
{
	if (reserve(buf, len))
		return buf->error;
	if (len)
		memcpy(buf->data + buf->len, data, len);
	buf->len += len;
	return 0;
}

static int vappend(struct latmon_buf *buf, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		return buf->error = EINVAL;
	if (reserve(buf, (size_t)n + 1))
		return buf->error;
	vsnprintf(buf->data + buf->len, (size_t)n + 1, fmt, ap);
	buf->len += (size_t)n;
	return 0;
}

int latmon_buf_printf(struct latmon_buf *buf, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vappend(buf, fmt, ap);
	va_end(ap);
	return rc;
}

static void puts_buf(struct latmon_buf *buf, const char *s)
{
	latmon_buf_append(buf, s, strlen(s));
}

/* ---- content negotiation ------------------------------------------------------------------ */

/* The q of one media range's parameters (1 when absent or unreadable). */
static double range_q(const char *params, size_t len)
{
	const char *p = params, *end = params + len;

	while (p < end) {
		while (p < end && (*p == ';' || *p == ' ' || *p == '\t'))
			p++;
		if (end - p > 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
			char num[16];
			size_t n = 0;

			for (p += 2; p < end && n + 1 < sizeof(num) && *p != ';'; p++)
				num[n++] = *p;
			num[n] = '\0';
			return strtod(num, NULL);
		}
		while (p < end && *p != ';')
			p++;
	}
	return 1.0;
}

static bool has_param(const char *params, size_t len, const char *param)
{
	/* parameters compared without spaces: "proto=io.prometheus.client.MetricFamily" */
	char flat[512];
	size_t n = 0;

	for (size_t i = 0; i < len && n + 1 < sizeof(flat); i++) {
		if (params[i] != ' ' && params[i] != '\t')
			flat[n++] = params[i];
	}
	flat[n] = '\0';
	return strcasestr(flat, param) != NULL;
}

enum latmon_expo_format latmon_expo_negotiate(const char *accept)
{
	enum latmon_expo_format best = LATMON_EXPO_TEXT;
	double best_q = -1.0;
	const char *p = accept;

	if (!accept)
		return LATMON_EXPO_TEXT;
	while (*p) {
		size_t len = strcspn(p, ",");
		size_t type_len;
		const char *type = p;
		int format = -1;
		double q;

		while (len && (*type == ' ' || *type == '\t')) {
			type++;
			len--;
		}
		type_len = strcspn(type, ";,");
		if (type_len > len)
			type_len = len;
		while (type_len && (type[type_len - 1] == ' ' || type[type_len - 1] == '\t'))
			type_len--;
#define IS(t) (type_len == strlen(t) && !strncasecmp(type, t, type_len))
		if (IS("application/vnd.google.protobuf")) {
			if (has_param(type + type_len, len - type_len,
				      "proto=io.prometheus.client.MetricFamily") &&
			    has_param(type + type_len, len - type_len, "encoding=delimited"))
				format = LATMON_EXPO_PROTOBUF;
		} else if (IS("application/openmetrics-text")) {
			format = LATMON_EXPO_OPENMETRICS;
		} else if (IS("text/plain") || IS("text/*") || IS("*/*")) {
			format = LATMON_EXPO_TEXT;
		}
#undef IS
		q = range_q(type + type_len, len - type_len);
		if (format >= 0 && q > 0 && q > best_q) {
			best_q = q;
			best = (enum latmon_expo_format)format;
		}
		p = type + len;
		if (*p == ',')
			p++;
	}
	return best;
}

const char *latmon_expo_content_type(enum latmon_expo_format format)
{
	switch (format) {
	case LATMON_EXPO_OPENMETRICS:
		return "application/openmetrics-text; version=1.0.0; charset=utf-8";
	case LATMON_EXPO_PROTOBUF:
		return "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; "
		       "encoding=delimited";
	case LATMON_EXPO_TEXT:
		break;
	}
	return "text/plain; version=0.0.4; charset=utf-8";
}

int latmon_label_name_valid(const char *name)
{
	if (!name || !*name || !strcmp(name, "le") || !strncmp(name, "__", 2))
		return 0;
	for (const char *p = name; *p; p++) {
		bool alpha = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_';

		if (!alpha && !(p != name && *p >= '0' && *p <= '9'))
			return 0;
	}
	return 1;
}

static bool reserved_name(const char *name, const char *reserved)
{
	size_t len = strlen(name);

	for (const char *p = reserved; p && *p;) {
		size_t n = strcspn(p, " ");

		if (n == len && !strncmp(p, name, n))
			return true;
		p += n;
		while (*p == ' ')
			p++;
	}
	return false;
}

int latmon_label_set_add(struct latmon_label_set *set, const char *text, const char *reserved,
			 char *err, size_t errlen)
{
	const char *eq = text ? strchr(text, '=') : NULL;
	size_t half = sizeof(set->text[0]) / 2;
	size_t nlen = eq ? (size_t)(eq - text) : 0;
	char *name;

	if (!eq || nlen == 0 || nlen >= half || strlen(eq + 1) >= half) {
		snprintf(err, errlen,
			 "%s: give NAME=VALUE, e.g. site=plant3 (name and value below %zu "
			 "characters)",
			 text ? text : "", half);
		return EINVAL;
	}
	if (set->n == LATMON_MAX_LABELS) {
		snprintf(err, errlen, "%s: at most %d labels", text, LATMON_MAX_LABELS);
		return EINVAL;
	}
	name = set->text[set->n];
	memcpy(name, text, nlen);
	name[nlen] = '\0';
	if (!latmon_label_name_valid(name) || reserved_name(name, reserved)) {
		snprintf(err, errlen,
			 "%s: a label name is letters, digits and _, not starting with a digit "
			 "or __, and not le%s%s",
			 text, reserved ? " or one the tool sets itself: " : "",
			 reserved ? reserved : "");
		return EINVAL;
	}
	if (latmon_label_set_get(set, name)) {
		snprintf(err, errlen, "%s: the label %s is given twice", text, name);
		return EINVAL;
	}
	snprintf(name + nlen + 1, sizeof(set->text[0]) - nlen - 1, "%s", eq + 1);
	set->label[set->n] = (struct latmon_label){ name, name + nlen + 1 };
	set->n++;
	return 0;
}

const char *latmon_label_set_get(const struct latmon_label_set *set, const char *name)
{
	for (unsigned i = 0; i < set->n; i++) {
		if (!strcmp(set->label[i].name, name))
			return set->label[i].value;
	}
	return NULL;
}

/* ---- protobuf wire format ----------------------------------------------------------------- */

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_BYTES = 2 };

static void pb_varint(struct latmon_buf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;

	do {
		tmp[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	latmon_buf_append(b, tmp, n);
}

static void pb_tag(struct latmon_buf *b, unsigned field, unsigned wire)
{
	pb_varint(b, ((uint64_t)field << 3) | wire);
}

static void pb_uint(struct latmon_buf *b, unsigned field, uint64_t v)
{
	pb_tag(b, field, PB_VARINT);
	pb_varint(b, v);
}

static uint64_t zigzag(int64_t v)
{
	return v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1;
}

static void pb_double(struct latmon_buf *b, unsigned field, double v)
{
	unsigned char le[8];
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)(bits >> (8 * i));
	pb_tag(b, field, PB_FIXED64);
	latmon_buf_append(b, le, sizeof(le));
}

static void pb_bytes(struct latmon_buf *b, unsigned field, const void *data, size_t len)
{
	pb_tag(b, field, PB_BYTES);
	pb_varint(b, len);
	latmon_buf_append(b, data, len);
}

static void pb_string(struct latmon_buf *b, unsigned field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

/* io.prometheus.client field numbers */
enum {
	MF_NAME = 1,
	MF_HELP = 2,
	MF_TYPE = 3,
	MF_METRIC = 4,
	M_LABEL = 1,
	M_GAUGE = 2,
	M_COUNTER = 3,
	M_HISTOGRAM = 7,
	LP_NAME = 1,
	LP_VALUE = 2,
	VALUE = 1, /* Gauge.value, Counter.value */
	H_SAMPLE_COUNT = 1,
	H_SAMPLE_SUM = 2,
	H_BUCKET = 3,
	H_SCHEMA = 5,
	H_ZERO_THRESHOLD = 6,
	H_ZERO_COUNT = 7,
	H_POSITIVE_SPAN = 12,
	H_POSITIVE_DELTA = 13,
	B_CUMULATIVE_COUNT = 1,
	B_UPPER_BOUND = 2,
	SPAN_OFFSET = 1,
	SPAN_LENGTH = 2,
	PB_TYPE_COUNTER = 0,
	PB_TYPE_GAUGE = 1,
	PB_TYPE_HISTOGRAM = 4,
};

/* ---- text helpers ------------------------------------------------------------------------- */

void latmon_expo_decimal(char *buf, size_t len, uint64_t num, unsigned decimals)
{
	uint64_t scale = 1;
	char frac[24];
	int n;

	if (decimals > 19)
		decimals = 19;
	for (unsigned i = 0; i < decimals; i++)
		scale *= 10;
	if (decimals == 0 || num % scale == 0) {
		snprintf(buf, len, "%" PRIu64, num / scale);
		return;
	}
	n = snprintf(frac, sizeof(frac), "%0*" PRIu64, (int)decimals, num % scale);
	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	snprintf(buf, len, "%" PRIu64 ".%s", num / scale, frac);
}

/* num / 10^decimals as the nearest double: one division by an exact power of ten (every power
 * up to 10^22 is a double), so 1000 ns gives the double of "0.000001", as the text formats do */
static double to_double(uint64_t num, unsigned decimals)
{
	double scale = 1.0;

	for (unsigned i = 0; i < decimals && i < 22; i++)
		scale *= 10.0;
	return (double)num / scale;
}

static void put_escaped(struct latmon_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			puts_buf(b, "\\\\");
		else if (*s == '"')
			puts_buf(b, "\\\"");
		else if (*s == '\n')
			puts_buf(b, "\\n");
		else
			latmon_buf_append(b, s, 1);
	}
}

/* "{a="x",b="y"}" (with an extra le label when le is not NULL); nothing when no labels */
static void put_labels(struct latmon_buf *b, const struct latmon_label *labels, unsigned n,
		       const char *le)
{
	if (!n && !le)
		return;
	puts_buf(b, "{");
	for (unsigned i = 0; i < n; i++) {
		latmon_buf_printf(b, "%s%s=\"", i ? "," : "", labels[i].name);
		put_escaped(b, labels[i].value);
		puts_buf(b, "\"");
	}
	if (le)
		latmon_buf_printf(b, "%sle=\"%s\"", n ? "," : "", le);
	puts_buf(b, "}");
}

static void put_sample(struct latmon_expo *e, const char *suffix, const struct latmon_label *labels,
		       unsigned n, const char *le, const char *value)
{
	latmon_buf_printf(&e->family, "%s%s", e->name, suffix);
	put_labels(&e->family, labels, n, le);
	latmon_buf_printf(&e->family, " %s\n", value);
}

static void pb_labels(struct latmon_buf *metric, struct latmon_buf *inner,
		      const struct latmon_label *labels, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		inner->len = 0;
		pb_string(inner, LP_NAME, labels[i].name);
		pb_string(inner, LP_VALUE, labels[i].value);
		pb_bytes(metric, M_LABEL, inner->data, inner->len);
	}
}

/* ---- the writer --------------------------------------------------------------------------- */

void latmon_expo_begin(struct latmon_expo *e, struct latmon_buf *out,
		       enum latmon_expo_format format, uint64_t created_ms)
{
	memset(e, 0, sizeof(*e));
	e->out = out;
	e->format = format;
	e->created_ms = created_ms;
	latmon_buf_init(&e->family);
	latmon_buf_init(&e->metric);
	latmon_buf_init(&e->inner);
}

static void flush_family(struct latmon_expo *e)
{
	if (e->name && e->nmetrics) {
		if (e->format == LATMON_EXPO_PROTOBUF)
			pb_varint(e->out, e->family.len);
		if (e->family.error)
			e->out->error = e->family.error;
		latmon_buf_append(e->out, e->family.data, e->family.len);
	}
	e->family.len = 0;
	e->nmetrics = 0;
	e->name = NULL;
}

void latmon_expo_family(struct latmon_expo *e, const char *name, enum latmon_expo_type type,
			const char *help, const char *unit)
{
	static const char *const text_types[] = { "counter", "gauge", "histogram" };
	static const int pb_types[] = { PB_TYPE_COUNTER, PB_TYPE_GAUGE, PB_TYPE_HISTOGRAM };
	const char *total = type == LATMON_EXPO_COUNTER ? "_total" : "";

	flush_family(e);
	e->name = name;
	e->type = type;
	switch (e->format) {
	case LATMON_EXPO_TEXT:
		latmon_buf_printf(&e->family, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, total, help,
				  name, total, text_types[type]);
		break;
	case LATMON_EXPO_OPENMETRICS:
		latmon_buf_printf(&e->family, "# TYPE %s %s\n", name, text_types[type]);
		if (unit)
			latmon_buf_printf(&e->family, "# UNIT %s %s\n", name, unit);
		latmon_buf_printf(&e->family, "# HELP %s %s\n", name, help);
		break;
	case LATMON_EXPO_PROTOBUF: {
		char full[256];

		snprintf(full, sizeof(full), "%s%s", name, total);
		pb_string(&e->family, MF_NAME, full);
		pb_string(&e->family, MF_HELP, help);
		pb_uint(&e->family, MF_TYPE, (uint64_t)pb_types[type]);
		break;
	}
	}
}

static void created(struct latmon_expo *e, const struct latmon_label *labels, unsigned n)
{
	char value[32];

	if (e->format != LATMON_EXPO_OPENMETRICS || !e->created_ms)
		return;
	latmon_expo_decimal(value, sizeof(value), e->created_ms, 3);
	put_sample(e, "_created", labels, n, NULL, value);
}

void latmon_expo_value(struct latmon_expo *e, const struct latmon_label *labels, unsigned nlabels,
		       uint64_t num, unsigned decimals)
{
	char value[48];

	if (!e->name)
		return;
	e->nmetrics++;
	if (e->format == LATMON_EXPO_PROTOBUF) {
		e->metric.len = 0;
		pb_labels(&e->metric, &e->inner, labels, nlabels);
		e->inner.len = 0;
		pb_double(&e->inner, VALUE, to_double(num, decimals));
		pb_bytes(&e->metric, e->type == LATMON_EXPO_COUNTER ? M_COUNTER : M_GAUGE,
			 e->inner.data, e->inner.len);
		pb_bytes(&e->family, MF_METRIC, e->metric.data, e->metric.len);
		if (e->metric.error || e->inner.error)
			e->family.error = ENOMEM;
		return;
	}
	latmon_expo_decimal(value, sizeof(value), num, decimals);
	put_sample(e, e->type == LATMON_EXPO_COUNTER ? "_total" : "", labels, nlabels, NULL, value);
	if (e->type == LATMON_EXPO_COUNTER)
		created(e, labels, nlabels);
}

/* Native buckets as spans of adjacent non-empty buckets and count deltas. */
static void pb_native(struct latmon_buf *hist, struct latmon_buf *span,
		      const struct latmon_meter_snapshot *s)
{
	struct latmon_buf deltas;
	int64_t prev_count = 0;
	int prev_end = 0; /* index after the previous span (absolute), for the offsets */
	bool first = true;
	unsigned i = 0;

	latmon_buf_init(&deltas);
	while (i < LATMON_METER_NATIVE_BUCKETS) {
		unsigned start;

		if (!s->native[i]) {
			i++;
			continue;
		}
		start = i;
		while (i < LATMON_METER_NATIVE_BUCKETS && s->native[i]) {
			pb_varint(&deltas, zigzag((int64_t)s->native[i] - prev_count));
			prev_count = (int64_t)s->native[i];
			i++;
		}
		{
			int abs_start = (int)start + LATMON_METER_NATIVE_MIN_INDEX;
			int offset = first ? abs_start : abs_start - prev_end;

			span->len = 0;
			pb_tag(span, SPAN_OFFSET, PB_VARINT);
			pb_varint(span, zigzag(offset)); /* sint32: the same varint as sint64 */
			pb_uint(span, SPAN_LENGTH, i - start);
			pb_bytes(hist, H_POSITIVE_SPAN, span->data, span->len);
			prev_end = (int)i + LATMON_METER_NATIVE_MIN_INDEX;
			first = false;
		}
	}
	if (deltas.len)
		pb_bytes(hist, H_POSITIVE_DELTA, deltas.data, deltas.len); /* packed sint64 */
	if (deltas.error)
		hist->error = deltas.error;
	latmon_buf_free(&deltas);
}

void latmon_expo_histogram(struct latmon_expo *e, const struct latmon_label *labels,
			   unsigned nlabels, const struct latmon_buckets *buckets,
			   const struct latmon_meter_snapshot *s)
{
	char le[32], value[32];
	uint64_t cumulative = 0;

	if (!e->name)
		return;
	e->nmetrics++;
	if (e->format == LATMON_EXPO_PROTOBUF) {
		struct latmon_buf hist, bucket;

		latmon_buf_init(&hist);
		latmon_buf_init(&bucket);
		e->metric.len = 0;
		pb_labels(&e->metric, &e->inner, labels, nlabels);
		pb_uint(&hist, H_SAMPLE_COUNT, s->count);
		pb_double(&hist, H_SAMPLE_SUM, to_double(s->sum, 9));
		for (unsigned i = 0; i < buckets->n; i++) {
			cumulative += s->classic[i];
			bucket.len = 0;
			pb_uint(&bucket, B_CUMULATIVE_COUNT, cumulative);
			pb_double(&bucket, B_UPPER_BOUND, to_double(buckets->bound_ns[i], 9));
			pb_bytes(&hist, H_BUCKET, bucket.data, bucket.len);
		}
		pb_tag(&hist, H_SCHEMA, PB_VARINT);
		pb_varint(&hist, zigzag(LATMON_METER_NATIVE_SCHEMA));
		pb_double(&hist, H_ZERO_THRESHOLD, NATIVE_ZERO_THRESHOLD);
		pb_uint(&hist, H_ZERO_COUNT, s->zero);
		pb_native(&hist, &bucket, s);
		pb_bytes(&e->metric, M_HISTOGRAM, hist.data, hist.len);
		pb_bytes(&e->family, MF_METRIC, e->metric.data, e->metric.len);
		if (hist.error || bucket.error || e->metric.error || e->inner.error)
			e->family.error = ENOMEM;
		latmon_buf_free(&hist);
		latmon_buf_free(&bucket);
		return;
	}
	for (unsigned i = 0; i < buckets->n; i++) {
		cumulative += s->classic[i];
		latmon_expo_decimal(le, sizeof(le), buckets->bound_ns[i], 9);
		latmon_expo_decimal(value, sizeof(value), cumulative, 0);
		put_sample(e, "_bucket", labels, nlabels, le, value);
	}
	latmon_expo_decimal(value, sizeof(value), s->count, 0);
	put_sample(e, "_bucket", labels, nlabels, "+Inf", value);
	put_sample(e, "_count", labels, nlabels, NULL, value);
	latmon_expo_decimal(value, sizeof(value), s->sum, 9);
	put_sample(e, "_sum", labels, nlabels, NULL, value);
	created(e, labels, nlabels);
}

int latmon_expo_end(struct latmon_expo *e)
{
	int rc;

	flush_family(e);
	if (e->format == LATMON_EXPO_OPENMETRICS)
		puts_buf(e->out, "# EOF\n");
	rc = e->out->error || e->family.error || e->metric.error || e->inner.error ? ENOMEM : 0;
	latmon_buf_free(&e->family);
	latmon_buf_free(&e->metric);
	latmon_buf_free(&e->inner);
	return rc;
}

/* ---- the metrics of meters ---------------------------------------------------------------- */

static const struct {
	const char *name;
	const char *help;
} counter_info[LATMON_METER_NCOUNTERS] = {
	[LATMON_METER_MISSED] = { "latmon_missed_periods",
				  "Periods skipped because a wake-up came after the next one was "
				  "due (latprobe; samples + missed = periods elapsed)." },
	[LATMON_METER_VIOLATIONS] = { "latmon_deadline_violations",
				      "Samples above the deadline (latprobe --deadline; a latmon "
				      "core: above its THRESHOLD register)." },
	[LATMON_METER_TIMEOUTS] = { "latmon_timeouts",
				    "Measurements of the latmon core without an ack within its "
				    "TIMEOUT." },
	[LATMON_METER_OVERRUNS] = { "latmon_overruns",
				    "Interrupts the latmon core saw while a measurement was "
				    "running (not measured)." },
	[LATMON_METER_IGNORED] = { "latmon_ignored_acks",
				   "Acks the latmon core saw without a measurement running." },
	[LATMON_METER_LOST] = { "latmon_lost_samples",
				"Samples overwritten in the core's trace before latctl read them "
				"(counted in the core's counters, not in the histogram)." },
};

void latmon_expo_meters(struct latmon_expo *e, const struct latmon_expo_series *series, unsigned n,
			const struct latmon_buckets *buckets, unsigned counters)
{
	latmon_expo_family(e, "latmon_latency_seconds", LATMON_EXPO_HISTOGRAM,
			   "Latency: a classic histogram (le: value <= bound, exact integer counts "
			   "of whole nanoseconds) and, in the protobuf format, a native one.",
			   "seconds");
	for (unsigned i = 0; i < n; i++)
		latmon_expo_histogram(e, series[i].labels, series[i].nlabels, buckets,
				      series[i].snap);
	latmon_expo_family(e, "latmon_samples", LATMON_EXPO_COUNTER,
			   "Samples measured (equals latmon_latency_seconds_count).", NULL);
	for (unsigned i = 0; i < n; i++)
		latmon_expo_value(e, series[i].labels, series[i].nlabels, series[i].snap->count, 0);
	for (unsigned c = 0; c < LATMON_METER_NCOUNTERS; c++) {
		if (!(counters & (1u << c)))
			continue;
		latmon_expo_family(e, counter_info[c].name, LATMON_EXPO_COUNTER,
				   counter_info[c].help, NULL);
		for (unsigned i = 0; i < n; i++)
			latmon_expo_value(e, series[i].labels, series[i].nlabels,
					  series[i].snap->counter[c], 0);
	}
	latmon_expo_family(e, "latmon_latency_last_seconds", LATMON_EXPO_GAUGE,
			   "The latest sample's latency.", "seconds");
	for (unsigned i = 0; i < n; i++) {
		if (series[i].snap->count)
			latmon_expo_value(e, series[i].labels, series[i].nlabels,
					  series[i].snap->last, 9);
	}
	latmon_expo_family(e, "latmon_latency_max_seconds", LATMON_EXPO_GAUGE,
			   "The largest latency since the exporter started.", "seconds");
	for (unsigned i = 0; i < n; i++) {
		if (series[i].snap->count)
			latmon_expo_value(e, series[i].labels, series[i].nlabels,
					  series[i].snap->max, 9);
	}
	latmon_expo_family(e, "latmon_latency_min_seconds", LATMON_EXPO_GAUGE,
			   "The smallest latency since the exporter started.", "seconds");
	for (unsigned i = 0; i < n; i++) {
		if (series[i].snap->count)
			latmon_expo_value(e, series[i].labels, series[i].nlabels,
					  series[i].snap->min, 9);
	}
}
