/*
 * The suite runner, portable (suite/suite.h): main(), which cases run, the loop over a case's
 * rounds, the latmon-log output on the console. What is measured and how is the case file's
 * (suite/timer_cases.c or suite/fabric_cases.c); the CPU is reached through platform.h only.
 */
#include "latmon/latmon_log.h"
#include "platform.h"
#include "suite/suite.h"

struct suite {
	struct latmon_log_writer *w;
	int log_err; /* the first error of the log's output */
	uint32_t rounds, round;
	char cmdline[256];
};

/* ---- output ---- */

static int console_sink(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	platform_uart_write(data, len);
	return 0;
}

static int logged(struct suite *s, int err)
{
	if (err && !s->log_err)
		s->log_err = err;
	return err;
}

int suite_log_begin(struct suite *s, const struct latmon_log_kv *kv, size_t n)
{
	int err = latmon_log_writer_init(&s->w, suite_ops.log_mem, suite_ops.log_mem_size,
					 suite_ops.log_series, console_sink, 0);

	if (!err)
		err = latmon_log_begin(s->w, kv, n);
	return logged(s, err);
}

int suite_header(struct suite *s, const char *key, const char *value)
{
	return logged(s, latmon_log_header(s->w, key, value));
}

int suite_header_u64(struct suite *s, const char *key, uint64_t value)
{
	char text[LATMON_LOG_U64_TEXT];

	return suite_header(s, key, latmon_log_format_u64(text, value));
}

int suite_series(struct suite *s, unsigned id, const char *name, const struct latmon_log_kv *kv,
		 size_t n)
{
	return logged(s, latmon_log_series(s->w, id, name, 0, kv, n));
}

int suite_sample(struct suite *s, unsigned id, int64_t value)
{
	return logged(s, latmon_log_sample(s->w, id, &value, 1));
}

int suite_counters(struct suite *s, unsigned id, const struct latmon_log_counter *c, size_t n)
{
	return logged(s, latmon_log_counters(s->w, id, c, n));
}

void suite_say(const char *text)
{
	size_t n = 0;

	while (text[n])
		n++;
	platform_uart_write(text, n);
}

void suite_say_u64(uint64_t v)
{
	char text[LATMON_LOG_U64_TEXT];

	suite_say(latmon_log_format_u64(text, v));
}

/* ---- rounds ---- */

void suite_set_rounds(struct suite *s, uint32_t rounds)
{
	s->rounds = rounds;
}

uint32_t suite_round(const struct suite *s)
{
	return s->round;
}

struct case_run {
	struct suite *s;
	const struct suite_case *c;
	int err;
};

static void run_rounds(void *arg)
{
	struct case_run *r = arg;
	struct suite *s = r->s;
	const struct suite_case *c = r->c;
	int err;

	s->rounds = 1;
	s->round = 0;
	err = c->setup(s, c);
	for (; !err && s->round < s->rounds; s->round++) {
		err = c->arm(s, c);
		if (!err)
			err = c->wait(s, c);
		if (!err)
			err = c->check(s, c);
	}
	r->err = c->finish(s, c, err);
}

/* One case: its rounds, in its own latmon-log where the case file writes one per case. */
static int run_case(struct suite *s, const struct suite_case *c)
{
	struct case_run r = { s, c, 0 };
	int err = 0;

	if (suite_ops.log_per_case) {
		s->w = 0;
		s->log_err = 0;
		err = suite_ops.header(s, c);
	}
	if (!err) {
		if (c->flags & SUITE_DCACHE_OFF)
			platform_run_dcache_off(run_rounds, &r);
		else
			run_rounds(&r);
		err = r.err;
	}
	/* the trailer also for a failed case: what was measured is kept */
	if (suite_ops.log_per_case && s->w) {
		int end = latmon_log_end(s->w);
		err = err ? err : end;
	}
	return err;
}

/* ---- which cases ---- */

const char *suite_option(const struct suite *s, const char *key)
{
	const char *p = s->cmdline;

	for (; *p; p++) {
		size_t n = 0;

		if (p != s->cmdline && p[-1] != ' ')
			continue;
		while (key[n] && p[n] == key[n])
			n++;
		if (!key[n] && p[n] == '=')
			return p + n + 1;
	}
	return 0;
}

uint64_t suite_parse_u64(const char *t)
{
	uint64_t v = 0;

	while (t && *t >= '0' && *t <= '9' && v < 3600000u)
		v = v * 10u + (uint64_t)(*t++ - '0');
	return v;
}

/* Is case @p name in the "cases=" list of the command line (or is there no such list)? */
static int case_selected(const struct suite *s, const char *name)
{
	const char *p = suite_option(s, "cases");

	if (!p)
		return 1;
	while (*p && *p != ' ') {
		size_t n = 0;

		while (name[n] && p[n] == name[n])
			n++;
		if (!name[n] && (p[n] == ',' || p[n] == ' ' || !p[n]))
			return 1;
		while (*p && *p != ',' && *p != ' ')
			p++;
		if (*p == ',')
			p++;
	}
	return 0;
}

int main(void)
{
	static struct suite s;
	uint32_t chosen = 0xFFFFFFFFu;
	unsigned failed = 0;
	int status;

	platform_init();
	if (platform_cmdline(s.cmdline, sizeof s.cmdline) != 0)
		s.cmdline[0] = 0;
	status = suite_ops.init(&s, &chosen);
	if (status)
		return status;
	if (!suite_ops.log_per_case)
		(void)suite_ops.header(&s, 0);
	for (size_t i = 0; i < suite_ops.count && !(!suite_ops.log_per_case && s.log_err); i++) {
		const struct suite_case *c = &suite_ops.cases[i];
		int err;

		if (!(chosen & (1u << i)) || !case_selected(&s, c->name))
			continue;
		err = suite_ops.begin(&s, c);
		if (!err)
			err = run_case(&s, c);
		failed += (unsigned)suite_ops.end(&s, c, err);
	}
	if (!suite_ops.log_per_case && !s.log_err)
		s.log_err = latmon_log_end(s.w);
	return suite_ops.done(&s, failed, suite_ops.log_per_case ? 0 : s.log_err);
}
