/* latmon-log version 1 writer; see latmon/latmon_log.h and docs/latmon-log.md. */
#include "latmon/latmon_log.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#include "latmon_errno.h"

/*
 * Freestanding: the writer uses no C library function (bare-metal images link none), so the
 * few string operations it needs are here.
 */
static size_t text_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* Whether the first @p n characters of @p a and @p b are equal (both at least that long). */
static bool text_equal_n(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static bool text_equal(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Length of the prefix of @p s without @p stop. */
static size_t text_span_until(const char *s, char stop)
{
	size_t n = 0;

	while (s[n] && s[n] != stop)
		n++;
	return n;
}

enum writer_state {
	STATE_NEW,
	STATE_HEADER,
	STATE_BODY,
	STATE_ENDED,
};

struct series_state {
	uint64_t samples;
	uint64_t bins;
	uint16_t fields;
	bool declared;
};

struct latmon_log_writer {
	latmon_log_sink_fn sink;
	void *ctx;
	uint32_t crc;
	uint64_t lines;
	unsigned max_series;
	int error;
	enum writer_state state;
	size_t len;
	bool overflow;
	/* content, " *", 8 hex digits, LF */
	char line[LATMON_LOG_MAX_LINE + 1];
	struct series_state series[];
};

size_t latmon_log_writer_size(unsigned max_series)
{
	return sizeof(struct latmon_log_writer) + (size_t)max_series * sizeof(struct series_state);
}

int latmon_log_writer_init(struct latmon_log_writer **out, void *mem, size_t mem_size,
			   unsigned max_series, latmon_log_sink_fn sink, void *ctx)
{
	struct latmon_log_writer *w;

	if (!out || !mem || !sink || max_series == 0 || max_series > 65536u)
		return EINVAL;
	if ((uintptr_t)mem % alignof(struct latmon_log_writer) != 0)
		return EINVAL;
	if (mem_size < latmon_log_writer_size(max_series))
		return ENOSPC;
	w = mem;
	for (size_t i = 0, size = latmon_log_writer_size(max_series); i < size; i++)
		((unsigned char *)mem)[i] = 0;
	w->sink = sink;
	w->ctx = ctx;
	w->max_series = max_series;
	w->state = STATE_NEW;
	*out = w;
	return 0;
}

/* ---- line assembly ---------------------------------------------------------------------- */

static void put_bytes(struct latmon_log_writer *w, const char *s, size_t n)
{
	if (w->len + n > LATMON_LOG_MAX_LINE - 10) { /* room for " *xxxxxxxx" */
		w->overflow = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		w->line[w->len + i] = s[i];
	w->len += n;
}

static void put_str(struct latmon_log_writer *w, const char *s)
{
	put_bytes(w, s, text_len(s));
}

/* The digits of @p v at the end of @p digits; @return how many. */
static size_t format_digits(char digits[20], uint64_t v)
{
	size_t n = 0;
	uint32_t low;

	/* 64-bit division only while needed: a 32-bit CPU (Cortex-R5, RV32) has none in hardware,
	 * and libgcc's takes hundreds of cycles per digit */
	while (v > UINT32_MAX) {
		digits[19 - n] = (char)('0' + v % 10u);
		v /= 10u;
		n++;
	}
	low = (uint32_t)v;
	do {
		digits[19 - n] = (char)('0' + low % 10u);
		low /= 10u;
		n++;
	} while (low);
	return n;
}

const char *latmon_log_format_u64(char buf[LATMON_LOG_U64_TEXT], uint64_t v)
{
	size_t n = format_digits(buf, v);

	buf[20] = '\0';
	return buf + 20 - n;
}

static void put_u64(struct latmon_log_writer *w, uint64_t v)
{
	char digits[20];
	size_t n = format_digits(digits, v);

	put_bytes(w, digits + sizeof(digits) - n, n);
}

static void put_i64(struct latmon_log_writer *w, int64_t v)
{
	if (v < 0) {
		put_bytes(w, "-", 1);
		/* -(v + 1) + 1 avoids overflowing on INT64_MIN */
		put_u64(w, (uint64_t)(-(v + 1)) + 1u);
	} else {
		put_u64(w, (uint64_t)v);
	}
}

static void put_hex(struct latmon_log_writer *w, uint32_t v, unsigned digits)
{
	static const char hex[] = "0123456789abcdef";
	char buf[8];

	for (unsigned i = 0; i < digits; i++)
		buf[digits - 1 - i] = hex[(v >> (4 * i)) & 0xfu];
	put_bytes(w, buf, digits);
}

/* A value: bytes 0x21..0x7e except the backslash as they are, everything else as \xHH. */
static void put_value(struct latmon_log_writer *w, const char *value)
{
	for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
		if (*p >= 0x21 && *p <= 0x7e && *p != '\\') {
			put_bytes(w, (const char *)p, 1);
		} else {
			put_bytes(w, "\\x", 2);
			put_hex(w, *p, 2);
		}
	}
}

static bool valid_key(const char *key)
{
	if (!key || !(*key >= 'a' && *key <= 'z'))
		return false;
	for (const char *p = key + 1; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		      *p == '.'))
			return false;
	}
	return true;
}

static void put_pair(struct latmon_log_writer *w, const char *key, const char *value)
{
	put_bytes(w, " ", 1);
	put_str(w, key);
	put_bytes(w, "=", 1);
	put_value(w, value);
}

static void begin_line(struct latmon_log_writer *w, char tag)
{
	w->len = 0;
	w->overflow = false;
	w->line[w->len++] = tag;
}

/* Append the CRC suffix and LF, hand the line to the sink, account it in the trailer. */
static int finish_line(struct latmon_log_writer *w)
{
	uint32_t crc;
	int err;

	if (w->overflow)
		return w->error = E2BIG;
	crc = latmon_crc32(0, w->line, w->len);
	w->line[w->len++] = ' ';
	w->line[w->len++] = '*';
	for (unsigned i = 0; i < 8; i++)
		w->line[w->len + 7 - i] = "0123456789abcdef"[(crc >> (4 * i)) & 0xfu];
	w->len += 8;
	w->line[w->len++] = '\n';
	w->crc = latmon_crc32(w->crc, w->line, w->len);
	w->lines++;
	err = w->sink(w->ctx, w->line, w->len);
	if (err)
		w->error = err;
	return err;
}

static int check_body(struct latmon_log_writer *w, unsigned id)
{
	if (w->error)
		return w->error;
	if (w->state != STATE_HEADER && w->state != STATE_BODY)
		return EPROTO;
	if (id >= w->max_series || !w->series[id].declared)
		return EINVAL;
	return 0;
}

/* ---- records ---------------------------------------------------------------------------- */

static int header_record(struct latmon_log_writer *w, const char *key, const char *value)
{
	if (!valid_key(key) || !value || !*value)
		return EINVAL;
	begin_line(w, 'H');
	put_pair(w, key, value);
	return finish_line(w);
}

int latmon_log_begin(struct latmon_log_writer *w, const struct latmon_log_kv *header, size_t count)
{
	const char *unit = NULL;
	bool source = false, clock = false;
	int err;

	if (!w || (count && !header))
		return EINVAL;
	if (w->error)
		return w->error;
	if (w->state != STATE_NEW)
		return EALREADY;
	for (size_t i = 0; i < count; i++) {
		if (!valid_key(header[i].key) || !header[i].value || !*header[i].value)
			return EINVAL;
		if (text_equal(header[i].key, "source"))
			source = true;
		else if (text_equal(header[i].key, "unit"))
			unit = header[i].value;
		else if (text_equal(header[i].key, "clock_hz"))
			clock = true;
	}
	if (!source || !unit || (!text_equal(unit, "ns") && !text_equal(unit, "cycles")) ||
	    (text_equal(unit, "cycles") && !clock))
		return EINVAL;
	begin_line(w, 'H');
	put_str(w, " latmon_log=1");
	err = finish_line(w);
	for (size_t i = 0; !err && i < count; i++)
		err = header_record(w, header[i].key, header[i].value);
	if (!err)
		w->state = STATE_HEADER;
	return err;
}

int latmon_log_header(struct latmon_log_writer *w, const char *key, const char *value)
{
	if (!w)
		return EINVAL;
	if (w->error)
		return w->error;
	if (w->state != STATE_HEADER)
		return EPROTO;
	return header_record(w, key, value);
}

/* Validate a comma-separated field list; count its fields. */
static int parse_fields(const char *fields, uint16_t *count)
{
	char name[64];
	size_t n = 0;
	unsigned found = 0;
	bool latency = false;
	const char *p = fields;

	for (;;) {
		if (*p == ',' || *p == '\0') {
			if (n == 0)
				return EINVAL;
			name[n] = '\0';
			if (!valid_key(name))
				return EINVAL;
			if (text_equal(name, "latency")) {
				if (latency)
					return EINVAL;
				latency = true;
			}
			/* duplicates: compare with every earlier field */
			for (const char *q = fields; q < p - n;) {
				size_t m = text_span_until(q, ',');
				if (m == n && text_equal_n(name, q, n))
					return EINVAL;
				q += m + 1;
			}
			found++;
			n = 0;
			if (*p == '\0')
				break;
		} else {
			if (n + 1 >= sizeof(name))
				return EINVAL;
			name[n++] = *p;
		}
		p++;
	}
	if (!latency || found > 1024)
		return EINVAL;
	*count = (uint16_t)found;
	return 0;
}

int latmon_log_series(struct latmon_log_writer *w, unsigned id, const char *name,
		      const char *fields, const struct latmon_log_kv *extra, size_t count)
{
	uint16_t nfields = 1;
	int err;

	if (!w || !name || !*name || (count && !extra))
		return EINVAL;
	if (w->error)
		return w->error;
	if (w->state != STATE_HEADER && w->state != STATE_BODY)
		return EPROTO;
	if (id >= w->max_series)
		return EINVAL;
	if (w->series[id].declared)
		return EEXIST;
	if (fields && parse_fields(fields, &nfields))
		return EINVAL;
	for (size_t i = 0; i < count; i++) {
		if (!valid_key(extra[i].key) || !extra[i].value || !*extra[i].value ||
		    text_equal(extra[i].key, "name") || text_equal(extra[i].key, "fields"))
			return EINVAL;
	}
	begin_line(w, 'C');
	put_bytes(w, " ", 1);
	put_u64(w, id);
	put_pair(w, "name", name);
	if (fields && !text_equal(fields, "latency"))
		put_pair(w, "fields", fields);
	for (size_t i = 0; i < count; i++)
		put_pair(w, extra[i].key, extra[i].value);
	err = finish_line(w);
	if (!err) {
		w->series[id].declared = true;
		w->series[id].fields = nfields;
		w->state = STATE_BODY;
	}
	return err;
}

int latmon_log_sample(struct latmon_log_writer *w, unsigned id, const int64_t *values, size_t count)
{
	int err = w ? check_body(w, id) : EINVAL;
	int result;

	if (err)
		return err;
	if (!values || count != w->series[id].fields)
		return EINVAL;
	begin_line(w, 'S');
	put_bytes(w, " ", 1);
	put_u64(w, id);
	put_bytes(w, " ", 1);
	put_u64(w, w->series[id].samples);
	for (size_t i = 0; i < count; i++) {
		put_bytes(w, " ", 1);
		put_i64(w, values[i]);
	}
	result = finish_line(w);
	if (!result)
		w->series[id].samples++;
	return result;
}

int latmon_log_bin(struct latmon_log_writer *w, unsigned id, const int64_t *lo, const int64_t *hi,
		   uint64_t count)
{
	int err = w ? check_body(w, id) : EINVAL;
	int result;

	if (err)
		return err;
	if (lo && hi && *hi <= *lo)
		return EINVAL;
	begin_line(w, 'B');
	put_bytes(w, " ", 1);
	put_u64(w, id);
	put_bytes(w, " ", 1);
	if (lo)
		put_i64(w, *lo);
	else
		put_bytes(w, "-", 1);
	put_bytes(w, " ", 1);
	if (hi)
		put_i64(w, *hi);
	else
		put_bytes(w, "+", 1);
	put_bytes(w, " ", 1);
	put_u64(w, count);
	result = finish_line(w);
	if (!result)
		w->series[id].bins++;
	return result;
}

int latmon_log_counters(struct latmon_log_writer *w, unsigned id,
			const struct latmon_log_counter *counters, size_t count)
{
	int err = w ? check_body(w, id) : EINVAL;

	if (err)
		return err;
	if (!counters || count == 0)
		return EINVAL;
	for (size_t i = 0; i < count; i++) {
		if (!valid_key(counters[i].key))
			return EINVAL;
	}
	begin_line(w, 'X');
	put_bytes(w, " ", 1);
	put_u64(w, id);
	for (size_t i = 0; i < count; i++) {
		put_bytes(w, " ", 1);
		put_str(w, counters[i].key);
		put_bytes(w, "=", 1);
		put_u64(w, counters[i].value);
	}
	return finish_line(w);
}

int latmon_log_end(struct latmon_log_writer *w)
{
	int err;

	if (!w)
		return EINVAL;
	if (w->error)
		return w->error;
	if (w->state != STATE_HEADER && w->state != STATE_BODY)
		return EPROTO;
	for (unsigned id = 0; id < w->max_series; id++) {
		const struct latmon_log_counter final[] = {
			{ "samples", w->series[id].samples },
			{ "bins", w->series[id].bins },
		};

		if (!w->series[id].declared)
			continue;
		err = latmon_log_counters(w, id, final, 2);
		if (err)
			return err;
	}
	/* The trailer carries no CRC suffix and is not part of the log CRC. */
	w->len = 0;
	w->overflow = false;
	put_str(w, "E lines=");
	put_u64(w, w->lines);
	put_str(w, " crc32=");
	put_hex(w, w->crc, 8);
	put_bytes(w, "\n", 1);
	err = w->sink(w->ctx, w->line, w->len);
	if (err)
		return w->error = err;
	w->state = STATE_ENDED;
	return 0;
}
