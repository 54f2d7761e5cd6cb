/*
 * Bare-metal latmon example (docs/baremetal.md): the published ISR pattern.
 *
 * The fabric raises an interrupt when data is ready (pl_ps_irq); the ISR reads the data word —
 * that read is the `ack` the latmon core sees, so the core measures interrupt entry to the ISR's
 * first access with one-cycle precision. The main loop waits for enough samples, reads the
 * trace through liblatmon's MMIO HAL and prints it as latmon-log on the UART; a host turns the
 * captured text into statistics with `latmon stats capture.log`.
 *
 * Addresses are those of the reference design on a Zynq UltraScale+ (platform.h); the
 * interrupt controller and the UART are in platform_<cpu>.c.
 */
#include <stdint.h>

#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
#include "latmon_errno.h"
#include "platform.h"

#define SAMPLES	  512u	    /* one trace RAM */
#define POLLS_MAX 10000000u /* reads of the statistics without a new event: seconds */

static volatile uint32_t last_data;
static volatile uint32_t isr_count;

/* The interrupt service routine: read the data word (this read ends the measurement). */
void example_isr(void)
{
	last_data = *(volatile uint32_t *)PLATFORM_DATA_ADDR;
	isr_count = isr_count + 1u;
}

static int uart_sink(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	platform_uart_write(data, len);
	return 0;
}

static uint64_t writer_mem[256]; /* latmon_log_writer_size(1) is far below 2 KiB */

int main(void)
{
	struct latmon_mmio mmio = { (volatile uint32_t *)PLATFORM_LATMON_ADDR, 0xC000u };
	struct latmon_hal hal;
	struct latmon_dev dev;
	struct latmon_config cfg = {
		LATMON_RISING, LATMON_RISING, PLATFORM_TIMEOUT_CYCLES, 0, 0, 0, 0, 0, 0, 0
	};
	struct latmon_stats stats;
	struct latmon_log_writer *w;
	uint32_t trace[SAMPLES], first;
	char clock[LATMON_LOG_U64_TEXT];
	size_t n, k;
	int err;

	platform_init();
	latmon_hal_mmio(&hal, &mmio);
	err = latmon_attach(&dev, &hal, PLATFORM_FABRIC_HZ);
	if (!err)
		err = latmon_configure(&dev, &cfg);
	if (!err)
		err = latmon_clear(&dev);
	if (!err)
		err = latmon_arm(&dev, 1);
	if (err) {
		platform_uart_write("latmon: ", 8);
		platform_uart_puts(latmon_strerror(err));
		platform_uart_puts(" - is the bitstream loaded, and is the core at the address "
				   "platform.h gives (PLATFORM_LATMON_ADDR)?\n");
		return 1;
	}
	platform_irq_enable(PLATFORM_FABRIC_IRQ, example_isr);
	{
		/* a bounded wait: the core's own time-outs count lost interrupts, a storm is
		 * the dispatcher's to stop (platform_storm), and after POLLS_MAX reads of the
		 * statistics without a new event the source is taken as stopped */
		uint64_t last = UINT64_MAX;
		uint32_t still = 0, count;
		unsigned id;

		do {
			platform_progress();
			err = latmon_read_stats(&dev, &stats);
			if (!err && platform_storm(&id, &count)) {
				char text[LATMON_LOG_U64_TEXT];

				platform_uart_puts("example: interrupt ");
				platform_uart_puts(latmon_log_format_u64(text, id));
				platform_uart_puts(" fired ");
				platform_uart_puts(latmon_log_format_u64(text, count));
				platform_uart_puts(
				    " times without the main loop running (an interrupt "
				    "storm: does the ISR read the data word?); masked\n");
				err = ETIMEDOUT;
			}
			if (!err && stats.count + stats.timeouts == last && ++still > POLLS_MAX) {
				platform_uart_puts(
				    "example: no interrupt for a while: is the fabric's "
				    "timer running?\n");
				err = ETIMEDOUT;
			}
			if (stats.count + stats.timeouts != last)
				still = 0;
			last = stats.count + stats.timeouts;
		} while (!err && stats.count + stats.timeouts < SAMPLES);
	}
	latmon_arm(&dev, 0);
	if (!err)
		err = latmon_read_trace(&dev, trace, SAMPLES, &first, &n);

	err =
	    err ? err : latmon_log_writer_init(&w, writer_mem, sizeof writer_mem, 1, uart_sink, 0);
	if (!err) {
		struct latmon_log_kv header[] = {
			{ "source", "baremetal-example" },
			{ "unit", "cycles" },
			{ "clock_hz", latmon_log_format_u64(clock, PLATFORM_FABRIC_HZ) },
			{ "cpu", PLATFORM_CPU_NAME },
		};
		err = latmon_log_begin(w, header, sizeof header / sizeof header[0]);
		if (!err)
			err = latmon_log_series(w, 0, "isr", "latency", 0, 0);
		for (k = 0; k < n && !err; k++) {
			int64_t v = trace[k];
			err = latmon_log_sample(w, 0, &v, 1);
		}
		if (!err) {
			struct latmon_log_counter c[] = { { "timeouts", stats.timeouts },
							  { "overruns", stats.overruns } };
			err = latmon_log_counters(w, 0, c, 2);
		}
		if (!err)
			err = latmon_log_end(w);
	}
	return err ? 1 : 0;
}
