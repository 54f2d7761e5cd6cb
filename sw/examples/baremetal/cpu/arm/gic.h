/*
 * The GICv2 distributor and CPU interface, as both the APU (GIC-400) and the RPU (GIC-390) of a
 * Zynq UltraScale+ have them; platform_<cpu>.c gives the base addresses.
 */
#ifndef PLATFORM_GIC_H
#define PLATFORM_GIC_H

#include <stddef.h>
#include <stdint.h>

#define GICD_CTLR	0x000u
#define GICD_ISENABLER	0x100u
#define GICD_IPRIORITYR 0x400u
#define GICD_ITARGETSR	0x800u
#define GICD_ICFGR	0xC00u
#define GICC_CTLR	0x000u
#define GICC_PMR	0x004u
#define GICC_IAR	0x00Cu
#define GICC_EOIR	0x010u

static inline void mmio_w32(uintptr_t addr, uint32_t v)
{
	*(volatile uint32_t *)addr = v;
}

static inline uint32_t mmio_r32(uintptr_t addr)
{
	return *(volatile uint32_t *)addr;
}

/* Enable interrupt @p id (level, priority 0xA0, to CPU 0) and both GIC parts. */
static inline void gic_enable(uintptr_t gicd, uintptr_t gicc, unsigned id)
{
	mmio_w32(gicd + GICD_CTLR, 0);
	*(volatile uint8_t *)(gicd + GICD_IPRIORITYR + id) = 0xA0u;
	*(volatile uint8_t *)(gicd + GICD_ITARGETSR + id) = 0x01u;
	mmio_w32(gicd + GICD_ICFGR + 4u * (id / 16u),
		 mmio_r32(gicd + GICD_ICFGR + 4u * (id / 16u)) & ~(3u << (2u * (id % 16u))));
	mmio_w32(gicd + GICD_ISENABLER + 4u * (id / 32u), 1u << (id % 32u));
	mmio_w32(gicd + GICD_CTLR, 1);
	mmio_w32(gicc + GICC_PMR, 0xF0u);
	mmio_w32(gicc + GICC_CTLR, 1);
}

#define GICD_ICENABLER 0x180u

/* Disable interrupt @p id at the distributor. */
static inline void gic_disable(uintptr_t gicd, unsigned id)
{
	mmio_w32(gicd + GICD_ICENABLER + 4u * (id / 32u), 1u << (id % 32u));
}

/*
 * platform_irq_attach's priorities: of the @p n attached interrupts @p ids, the lower ID gets the
 * higher priority (a lower value), 0x80 + 8 x its rank, one preemption group each (the binary
 * point of 0..2 splits at bit 3); from the eighth on they share the lowest, 0xB8.
 */
static inline void gic_rank_priorities(uintptr_t gicd, const unsigned *ids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned rank = 0;

		for (size_t k = 0; k < n; k++)
			rank += ids[k] < ids[i];
		*(volatile uint8_t *)(gicd + GICD_IPRIORITYR + ids[i]) =
		    (uint8_t)(0x80u + 8u * (rank < 7u ? rank : 7u));
	}
}

/* Acknowledge, run the handler, end: the body of the IRQ exception. */
static inline void gic_dispatch(uintptr_t gicc, unsigned id, void (*isr)(void))
{
	uint32_t iar = mmio_r32(gicc + GICC_IAR);

	if ((iar & 0x3FFu) == id && isr)
		isr();
	mmio_w32(gicc + GICC_EOIR, iar);
}

/* The Cadence UART of the Zynq UltraScale+ (already set up by the boot loader). */
#define UART_SR	       0x2Cu
#define UART_FIFO      0x30u
#define UART_SR_TXFULL 0x10u

static inline void uart_write(uintptr_t uart, const char *data, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		while (mmio_r32(uart + UART_SR) & UART_SR_TXFULL) {
		}
		mmio_w32(uart + UART_FIFO, (uint8_t)data[i]);
	}
}

static inline void uart_puts(uintptr_t uart, const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	uart_write(uart, s, n);
}

#endif
