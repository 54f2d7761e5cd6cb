/* The processor side of the reference design: setup, ISR, readout (refdesign_app.h). */
#define _POSIX_C_SOURCE 200809L
#include "refdesign_app.h"

#include <errno.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "latmon/latmon_log.h"

#define TRACE_MAX 4096u

/* A core's window on the bus: offsets relative to its base. */
struct window {
	const struct latmon_hal *bus;
	uint32_t base;
};

struct refdesign_app {
	struct latmon_hal bus;
	struct window w[2];
	struct latmon_hal hal[2];
	struct latmon_dev dev[2];
	uint32_t trace[TRACE_MAX];
	alignas(max_align_t) unsigned char log_mem[8192]; /* latmon_log_writer_size(2) */
};

static int win_read(void *ctx, uint32_t offset, uint32_t *value)
{
	struct window *w = ctx;

	if (offset >= 0x10000u)
		return ERANGE;
	return w->bus->read32(w->bus->ctx, w->base + offset, value);
}

static int win_write(void *ctx, uint32_t offset, uint32_t value)
{
	struct window *w = ctx;

	if (offset >= 0x10000u)
		return ERANGE;
	return w->bus->write32(w->bus->ctx, w->base + offset, value);
}

static int win_wait(void *ctx, int timeout_ms)
{
	struct window *w = ctx;

	return w->bus->wait_irq ? w->bus->wait_irq(w->bus->ctx, timeout_ms) : ENOTSUP;
}

size_t refdesign_app_size(void)
{
	return sizeof(struct refdesign_app);
}

int refdesign_app_start(void *state, const struct latmon_hal *bus, uint64_t clock_hz,
			uint32_t timer_period, uint32_t gen_delay)
{
	struct refdesign_app *a = state;
	struct latmon_config cfg;
	unsigned i;
	int err;

	if (!a || !bus)
		return EINVAL;
	memset(a, 0, sizeof *a);
	a->bus = *bus;
	memset(&cfg, 0, sizeof cfg);
	cfg.irq_mode = LATMON_RISING;
	cfg.ack_mode = LATMON_RISING;
	cfg.hist_shift = 4;
	for (i = 0; i < 2; i++) {
		a->w[i].bus = &a->bus;
		a->w[i].base = i ? REFDESIGN_T2_BASE : REFDESIGN_T1_BASE;
		a->hal[i] = (struct latmon_hal){ win_read, win_write, win_wait, &a->w[i] };
		if ((err = latmon_attach(&a->dev[i], &a->hal[i], clock_hz)) ||
		    (err = latmon_configure(&a->dev[i], &cfg)) ||
		    (err = latmon_clear(&a->dev[i])) || (err = latmon_arm(&a->dev[i], 1)))
			return err;
	}
	if ((err = a->bus.write32(a->bus.ctx, REFDESIGN_TIMER_PERIOD, timer_period)) ||
	    (err = a->bus.write32(a->bus.ctx, REFDESIGN_GEN_DELAY, gen_delay)))
		return err;
	return a->bus.write32(a->bus.ctx, REFDESIGN_CTRL, 1);
}

int refdesign_app_isr(void *state, uint32_t *data)
{
	struct refdesign_app *a = state;

	if (!a || !data)
		return EINVAL;
	return a->bus.read32(a->bus.ctx, REFDESIGN_DATA, data);
}

int refdesign_app_stop(void *state)
{
	struct refdesign_app *a = state;
	int err;

	if (!a)
		return EINVAL;
	if ((err = a->bus.write32(a->bus.ctx, REFDESIGN_CTRL, 0)))
		return err;
	if ((err = latmon_arm(&a->dev[0], 0)))
		return err;
	return latmon_arm(&a->dev[1], 0);
}

static int file_sink(void *ctx, const char *data, size_t len)
{
	return fwrite(data, 1, len, ctx) == len ? 0 : EIO;
}

int refdesign_app_write_log(void *state, const char *path, const char *scenario)
{
	static const char *const names[2] = { "T1", "T2" };
	struct refdesign_app *a = state;
	struct latmon_log_writer *w;
	struct latmon_stats stats;
	char clock[24];
	uint32_t first, dropped = 0;
	size_t n, k;
	unsigned i;
	FILE *f;
	int err, end;

	if (!a || !path || !scenario || latmon_log_writer_size(2) > sizeof a->log_mem)
		return EINVAL;
	f = fopen(path, "w");
	if (!f)
		return errno;
	snprintf(clock, sizeof clock, "%llu", (unsigned long long)a->dev[0].clock_hz);
	err = latmon_log_writer_init(&w, a->log_mem, sizeof a->log_mem, 2, file_sink, f);
	if (!err) {
		struct latmon_log_kv header[] = {
			{ "source", "refdesign-sim" },
			{ "scenario", scenario },
			{ "unit", "cycles" },
			{ "clock_hz", clock },
			{ "design", "timer->FIFO->pl_ps_irq->ISR read" },
		};
		err = latmon_log_begin(w, header, sizeof header / sizeof header[0]);
	}
	for (i = 0; i < 2 && !err; i++) {
		struct latmon_log_kv meta[] = { { "what",
						  i ? "data ready -> ISR read (interrupt latency)"
						    : "timer -> data ready (fabric)" } };
		err = latmon_log_series(w, i, names[i], "latency", meta, 1);
	}
	for (i = 0; i < 2 && !err; i++) {
		err = latmon_read_trace(&a->dev[i], a->trace, TRACE_MAX, &first, &n);
		for (k = 0; k < n && !err; k++) {
			int64_t v = a->trace[k];
			err = latmon_log_sample(w, i, &v, 1);
		}
		if (!err)
			err = latmon_read_stats(&a->dev[i], &stats);
		if (!err && i == 1)
			err = a->bus.read32(a->bus.ctx, REFDESIGN_DROPPED, &dropped);
		if (!err) {
			struct latmon_log_counter c[] = {
				{ "timeouts", stats.timeouts },
				{ "overruns", stats.overruns },
				{ "ignored", stats.ignored },
				{ "trace_lost", stats.trace_lost },
				{ "fifo_dropped", i ? dropped : 0 },
			};
			err = latmon_log_counters(w, i, c, 5);
		}
	}
	end = latmon_log_end(w);
	err = err ? err : end;
	if (fclose(f) != 0 && !err)
		err = errno;
	return err;
}
