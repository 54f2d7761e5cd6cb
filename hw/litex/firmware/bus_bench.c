/*
 * The bus paths of a SoC that runs the fabric suite's image (hw/soc, hw/litex/sim.py), in CPU
 * cycles per access: what the ISR's accesses cost on each SoC's bus (hw/litex/compare.py).
 *
 * Each figure is the CPU's cycle counter (mcycle) over N accesses in a loop, less the same loop
 * without the access, divided by N (two decimals); the second of two passes is printed, so that
 * code and data are in the caches. One line per path: "<path> <cycles>".
 */
#include <stddef.h>
#include <stdint.h>

#include "board/soc_map.h"
#include "platform.h"

#define N 64u

static volatile uint32_t ram_words[8] __attribute__((aligned(32)));
static uint32_t fill_lines[N * 8u] __attribute__((aligned(32))); /* N data-cache lines */

static void put_u32(uint32_t v)
{
	char b[12];
	int i = 11;

	b[i] = 0;
	do {
		b[--i] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	platform_uart_puts(b + i);
}

static void report(const char *path, uint64_t cycles, uint64_t loop)
{
	uint32_t x100 = (uint32_t)(((cycles - loop) * 100u) / N);

	platform_uart_puts(path);
	platform_uart_puts(" ");
	put_u32(x100 / 100u);
	platform_uart_puts(x100 % 100u < 10u ? ".0" : ".");
	put_u32(x100 % 100u);
	platform_uart_puts("\n");
}

/* mcycle over N passes of a loop whose body is @p body */
#define TIMED(body)                                \
	__extension__({                            \
		uint64_t t0_ = platform_cycles();  \
		for (uint32_t i = 0; i < N; i++) { \
			body;                      \
		}                                  \
		platform_cycles() - t0_;           \
	})

int main(void)
{
	volatile uint32_t *uncached = platform_uncached((void *)ram_words);
	volatile uint32_t *fifo_level = (volatile uint32_t *)(uintptr_t)SOC_REF_FIFO_LEVEL;
	volatile uint32_t *gen_delay = (volatile uint32_t *)(uintptr_t)SOC_REF_GEN_DELAY;
	volatile uint32_t *irqgen_now = (volatile uint32_t *)(uintptr_t)SOC_IRQGEN;
	volatile uint32_t *lines = fill_lines;
	uint32_t sink = 0;

	platform_init();
	for (int pass = 0; pass < 2; pass++) {
		uint64_t loop = TIMED(__asm__ volatile("" ::: "memory"));
		uint64_t hit = TIMED(sink += ram_words[i & 7u]);
		uint64_t ram = TIMED(sink += uncached[i & 7u]);
		uint64_t store = TIMED(ram_words[i & 7u] = i);
		uint64_t axil = TIMED(sink += *fifo_level);
		uint32_t delay = *gen_delay;
		uint64_t axil_w = TIMED(*gen_delay = delay);
		uint64_t reg = TIMED(sink += *irqgen_now);
		uint64_t fill;

		platform_cache_invalidate();
		fill = TIMED(sink += lines[i * 8u]);
		if (pass == 1) {
			report("load-dcache-hit", hit, loop);
			report("load-ram-uncached", ram, loop);
			report("store-ram-write-through", store, loop);
			report("load-axi4-lite", axil, loop);
			report("store-axi4-lite", axil_w, loop);
			report("load-register-block", reg, loop);
			report("dcache-line-fill", fill, loop);
		}
	}
	return (int)(sink & 0u);
}
