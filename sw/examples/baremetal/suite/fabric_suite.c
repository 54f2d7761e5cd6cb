/*
 * The interrupt test-case suite's runner (portable; docs/hw/soc.md): runs the cases chosen by
 * fsuite_config and writes each as one latmon-log on the UART — header, series, samples,
 * counters, trailer — so that `latmon ingest` on the host turns the captured console into one
 * run per case.
 */
#include <stdint.h>

#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
#include "platform.h"
#include "suite/fabric_suite.h"

#define MAX_SERIES 24

/* Patched by the host runner in the image (docs/hw/soc.md); these are the defaults. */
__attribute__((used)) const volatile struct fsuite_config fsuite_config = {
	FSUITE_CONFIG_MAGIC, 200u, 0xFFFFFFFFu, 0u, 1u,
};

struct fsuite {
	struct latmon_log_writer *w;
	uint64_t writer_mem[640]; /* latmon_log_writer_size(24) is 4,736 bytes on rv32 */
	uint32_t rounds;
};

static int uart_sink(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	platform_uart_write(data, len);
	return 0;
}

int fsuite_header(struct fsuite *s, const char *key, const char *value)
{
	return latmon_log_header(s->w, key, value);
}

int fsuite_header_u64(struct fsuite *s, const char *key, uint64_t value)
{
	char text[LATMON_LOG_U64_TEXT];

	return latmon_log_header(s->w, key, latmon_log_format_u64(text, value));
}

int fsuite_series(struct fsuite *s, unsigned id, const char *name, const char *channel)
{
	struct latmon_log_kv extra[] = { { "channel", channel } };

	return latmon_log_series(s->w, id, name, 0, extra, channel ? 1 : 0);
}

int fsuite_sample(struct fsuite *s, unsigned id, uint32_t latency)
{
	int64_t v = latency;

	return latmon_log_sample(s->w, id, &v, 1);
}

int fsuite_counters(struct fsuite *s, unsigned id, const struct latmon_log_counter *c, size_t n)
{
	return latmon_log_counters(s->w, id, c, n);
}

uint32_t fsuite_rounds(const struct fsuite *s)
{
	return s->rounds;
}

static void report_failure(const char *name, int err)
{
	platform_uart_puts("suite: case ");
	platform_uart_puts(name);
	platform_uart_puts(" failed: ");
	platform_uart_puts(latmon_strerror(err));
	platform_uart_puts("\n");
}

static int run_case(struct fsuite *s, const struct fsuite_case *c)
{
	char clock[LATMON_LOG_U64_TEXT], index[LATMON_LOG_U64_TEXT];
	struct latmon_log_kv header[] = {
		{ "source", "latmon-soc-suite" },
		{ "unit", "cycles" },
		{ "clock_hz", latmon_log_format_u64(clock, PLATFORM_FABRIC_HZ) },
		{ "cpu", PLATFORM_CPU_NAME },
		{ "scenario", c->name },
		{ "description", c->description },
		{ "harts", latmon_log_format_u64(index, platform_harts()) },
	};
	int err = latmon_log_writer_init(&s->w, s->writer_mem, sizeof s->writer_mem, MAX_SERIES,
					 uart_sink, 0);

	if (!err)
		err = latmon_log_begin(s->w, header, sizeof header / sizeof header[0]);
	if (!err)
		err = c->run(s, c);
	/* the trailer also for a failed case: what was measured is kept */
	if (s->w) {
		int end = latmon_log_end(s->w);
		err = err ? err : end;
	}
	return err;
}

int main(void)
{
	static struct fsuite s;
	uint32_t chosen;
	int failures = 0;

	platform_init();
	if (fsuite_config.magic != FSUITE_CONFIG_MAGIC) {
		platform_uart_puts("suite: the configuration block is damaged\n");
		return 2;
	}
	if (fsuite_config.uart_divisor)
		platform_console_speed(fsuite_config.uart_divisor);
	s.rounds = fsuite_config.rounds ? fsuite_config.rounds : 1u;
	chosen = fsuite_config.cases;
	for (size_t i = 0; i < fsuite_case_count; i++) {
		int err;

		if (!(chosen & (1u << i)))
			continue;
		s.w = 0;
		err = run_case(&s, &fsuite_cases[i]);
		if (err) {
			report_failure(fsuite_cases[i].name, err);
			failures++;
		}
	}
	return failures ? 1 : 0;
}
