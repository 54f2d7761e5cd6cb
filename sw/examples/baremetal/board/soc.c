/*
 * The virtual SoC's test sources for the suite (docs/hw/soc.md): the irqgen lines, the latmon
 * cores of lines 0 and 1, and the traffic generator. CPU-independent: any core on this fabric
 * uses it.
 */
#include <stdint.h>

#include "board/soc_map.h"
#include "suite/fabric_suite.h"

#define REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

#define IRQGEN_NOW	(SOC_IRQGEN + 0x00u)
#define IRQGEN_PENDING	(SOC_IRQGEN + 0x04u)
#define IRQGEN_SET	(SOC_IRQGEN + 0x08u)
#define IRQGEN_ARM	(SOC_IRQGEN + 0x0Cu)
#define IRQGEN_ACK(i)	(SOC_IRQGEN + 0x10u + 4u * (i))
#define IRQGEN_CMP(i)	(SOC_IRQGEN + 0x40u + 4u * (i))
#define TRAFFIC_CTRL	(SOC_TRAFFIC + 0x00u)
#define TRAFFIC_BASE	(SOC_TRAFFIC + 0x04u)
#define TRAFFIC_MASK	(SOC_TRAFFIC + 0x08u)
#define TRAFFIC_GAP_MAX (SOC_TRAFFIC + 0x0Cu)
#define TRAFFIC_SEED	(SOC_TRAFFIC + 0x10u)
#define TRAFFIC_COUNT	(SOC_TRAFFIC + 0x14u)

unsigned board_line_irq(unsigned line)
{
	return SOC_IRQ_LINE0 + line;
}

PLATFORM_ISR_CODE uint32_t board_now(void)
{
	return REG(IRQGEN_NOW);
}

PLATFORM_ISR_CODE void board_line_at(unsigned line, uint32_t when)
{
	REG(IRQGEN_CMP(line)) = when;
	REG(IRQGEN_ARM) = 1u << line;
}

void board_line_raise(uint32_t mask)
{
	REG(IRQGEN_SET) = mask;
}

PLATFORM_ISR_CODE void board_line_ack(unsigned line)
{
	REG(IRQGEN_ACK(line)) = 0;
}

uint32_t board_line_pending(void)
{
	return REG(IRQGEN_PENDING);
}

struct latmon_mmio *board_line_monitor(unsigned line)
{
	static struct latmon_mmio monitors[2] = {
		{ (volatile uint32_t *)SOC_LINE0_MONITOR, 0x10000u },
		{ (volatile uint32_t *)SOC_LINE1_MONITOR, 0x10000u },
	};

	return line < 2 ? &monitors[line] : 0;
}

void board_traffic(int on, void *window, uint32_t bytes, uint32_t gap_max, uint32_t seed)
{
	REG(TRAFFIC_CTRL) = 0;
	if (!on)
		return;
	REG(TRAFFIC_BASE) = (uint32_t)(uintptr_t)window;
	REG(TRAFFIC_MASK) = bytes / 4u - 1u;
	REG(TRAFFIC_GAP_MAX) = gap_max;
	REG(TRAFFIC_SEED) = seed;
	REG(TRAFFIC_CTRL) = 0x3u; /* enable, reads and writes */
}

uint32_t board_traffic_count(void)
{
	return REG(TRAFFIC_COUNT);
}
