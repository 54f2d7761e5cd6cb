/*
 * Zynq UltraScale+ RPU (Cortex-R5, AArch32): the RPU's GIC and UART0 (docs/baremetal.md). The
 * vector table and the start code (stacks, FPU, .bss, main) are cpu/r5/start.S.
 */
#include "platform.h"
#include "cpu/arm/gic.h"
#include "latmon_errno.h"

#define GICD_BASE  0xF9000000u
#define GICC_BASE  0xF9001000u
#define UART0_BASE 0xFF000000u

const char PLATFORM_CPU_NAME[] = "cortex-r5";

static void (*handler)(void);
static unsigned handler_id;
/* platform_irq_attach's handlers: one per interrupt, up to MAX_ATTACHED */
#define MAX_ATTACHED 8u
static struct {
	unsigned id;
	platform_isr_fn isr;
	void *ctx;
} attached[MAX_ATTACHED];
static unsigned attached_count;
static volatile uint32_t since_progress, storm_id, storm_count;

void platform_progress(void)
{
	since_progress = 0;
}

int platform_storm(unsigned *id, uint32_t *count)
{
	if (!storm_id)
		return 0;
	*id = storm_id - 1u;
	*count = storm_count;
	storm_id = 0;
	return 1;
}

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

int platform_irq_attach(unsigned id, platform_isr_fn isr, void *ctx)
{
	if (!isr || id >= 1020u)
		return EINVAL;
	if (attached_count >= MAX_ATTACHED)
		return ENOSPC;
	attached[attached_count].id = id;
	attached[attached_count].ctx = ctx;
	attached[attached_count].isr = isr;
	attached_count++;
	gic_enable(GICD_BASE, GICC_BASE, id);
	__asm__ volatile("cpsie i" ::: "memory");
	return 0;
}

/*
 * Called from the IRQ exception entry (cpu/r5/start.S), which saves the caller-saved core
 * registers; the handler does not use floating point (the FP registers are not saved).
 */
void platform_irq_handler(void);
void platform_irq_handler(void)
{
	uint32_t iar = mmio_r32(GICC_BASE + GICC_IAR);
	unsigned id = iar & 0x3FFu;

	if (id >= 1020u)
		return;
	since_progress = since_progress + 1u;
	if (since_progress > PLATFORM_STORM_LIMIT) { /* a storm: mask it, do not run it */
		mmio_w32(GICD_BASE + 0x180u + 4u * (id / 32u), 1u << (id % 32u)); /* ICENABLER */
		storm_count = since_progress;
		storm_id = id + 1u;
		since_progress = 0;
	} else if (id == handler_id && handler) {
		handler();
	} else {
		for (unsigned i = 0; i < attached_count; i++)
			if (attached[i].id == id) {
				attached[i].isr(attached[i].ctx);
				break;
			}
	}
	mmio_w32(GICC_BASE + GICC_EOIR, iar);
}

void platform_uart_write(const char *data, size_t len)
{
	uart_write(UART0_BASE, data, len);
}

void platform_uart_puts(const char *s)
{
	uart_puts(UART0_BASE, s);
}
