/*
 * Zynq UltraScale+ RPU (Cortex-R5, AArch32): the RPU's GIC and UART0 (docs/baremetal.md). The
 * vector table and the start code (stacks, FPU, .bss, main) are start_r5.S.
 */
#include "platform.h"
#include "platform_gic.h"

#define GICD_BASE  0xF9000000u
#define GICC_BASE  0xF9001000u
#define UART0_BASE 0xFF000000u

const char PLATFORM_CPU_NAME[] = "cortex-r5";

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
	__asm__ volatile("cpsie i" ::: "memory");
}

/*
 * Called from the IRQ exception entry (start_r5.S), which saves the caller-saved core registers;
 * the handler does not use floating point (the FP registers are not saved).
 */
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
