/* Zynq UltraScale+ APU (Cortex-A53, AArch64): GIC-400 and UART0 (docs/baremetal.md). */
#include "platform.h"
#include "platform_gic.h"

#define GICD_BASE  0xF9010000u
#define GICC_BASE  0xF9020000u
#define UART0_BASE 0xFF000000u

const char PLATFORM_CPU_NAME[] = "cortex-a53";

static void (*handler)(void);
static unsigned handler_id;

void platform_init(void)
{
}

void platform_irq_enable(unsigned id, void (*isr)(void))
{
	handler = isr;
	handler_id = id;
	gic_enable(GICD_BASE, GICC_BASE, id);
	__asm__ volatile("msr daifclr, #2" ::: "memory"); /* unmask IRQ */
}

/* Called from the IRQ vector (start_a53.S). */
void platform_irq_handler(void);
void platform_irq_handler(void)
{
	gic_dispatch(GICC_BASE, handler_id, handler);
}

void platform_uart_write(const char *data, size_t len)
{
	uart_write(UART0_BASE, data, len);
}

void platform_uart_puts(const char *s)
{
	uart_puts(UART0_BASE, s);
}
