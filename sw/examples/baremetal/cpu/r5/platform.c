/*
 * Zynq UltraScale+ RPU (Cortex-R5, AArch32): the RPU's GIC and UART0 (docs/baremetal.md), the
 * PMU's cycle counter, nesting, exit. The vector table and the start code (stacks, FPU, .bss,
 * main) and the IRQ entry are cpu/r5/start.S.
 */
#include "platform.h"
#include "cpu/arm/gic.h"
#include "latmon_errno.h"

#define GICD_BASE  0xF9000000u
#define GICC_BASE  0xF9001000u
#define UART0_BASE 0xFF000000u

/* The RPU's clock: the ZCU102 boot firmware's default (500 MHz); a design that clocks the RPU
 * otherwise builds with -DPLATFORM_R5_HZ=<its clock>. */
#ifndef PLATFORM_R5_HZ
#define PLATFORM_R5_HZ 500000000u
#endif

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
static volatile int nesting; /* platform_irq_nesting */
static volatile uint32_t since_progress, storm_id, storm_count;

/*
 * ---- cycles: the PMU's cycle counter (PMCCNTR, CP15 c9), 32 bits, widened by counting its
 * wraps (the overflow flag); read at least once per wrap (2^32 cycles: 8.6 s at 500 MHz) ----
 */

static uint32_t irq_save(void)
{
	uint32_t cpsr;

	__asm__ volatile("mrs %0, cpsr\n\tcpsid i" : "=r"(cpsr)::"memory");
	return cpsr;
}

static void irq_restore(uint32_t cpsr)
{
	__asm__ volatile("msr cpsr_c, %0" ::"r"(cpsr) : "memory");
}

static uint32_t cycle_high; /* wraps of PMCCNTR seen (its overflow flag, PMOVSR bit 31) */

static void pmu_start(void)
{
	uint32_t pmcr;

	__asm__ volatile("mrc p15, 0, %0, c9, c12, 0" : "=r"(pmcr));
	pmcr = (pmcr | 0x1u | 0x4u) & ~0x8u; /* E: on, C: reset the cycle counter, D: every cycle */
	__asm__ volatile("mcr p15, 0, %0, c9, c12, 3" ::"r"(0x80000000u)); /* PMOVSR: clear */
	__asm__ volatile("mcr p15, 0, %0, c9, c12, 0" ::"r"(pmcr));
	__asm__ volatile("mcr p15, 0, %0, c9, c12, 1" ::"r"(0x80000000u)); /* PMCNTENSET: C */
	__asm__ volatile("isb" ::: "memory");
}

uint64_t platform_cycles(void)
{
	uint32_t cpsr = irq_save(), lo, ovf;

	__asm__ volatile("isb\n\tmrc p15, 0, %0, c9, c13, 0" : "=r"(lo)::"memory");
	__asm__ volatile("mrc p15, 0, %0, c9, c12, 3" : "=r"(ovf));
	if (ovf & 0x80000000u) { /* it wrapped since the last reading: count it, read again */
		__asm__ volatile("mcr p15, 0, %0, c9, c12, 3" ::"r"(0x80000000u));
		cycle_high++;
		__asm__ volatile("isb\n\tmrc p15, 0, %0, c9, c13, 0" : "=r"(lo)::"memory");
	}
	{
		uint64_t v = ((uint64_t)cycle_high << 32) | lo;
		irq_restore(cpsr);
		return v;
	}
}

uint64_t platform_cycles_hz(void)
{
	return PLATFORM_R5_HZ;
}

PLATFORM_ISR_CODE void platform_delay_loop(uint32_t iterations)
{
	if (!iterations)
		return;
	__asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(iterations)::"cc", "memory");
}

/* ---- the example's storm guard ---- */

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
	pmu_start();
}

/* ---- interrupts ---- */

void platform_irq_enable(unsigned id, void (*isr)(void))
{
	handler = isr;
	handler_id = id;
	gic_enable(GICD_BASE, GICC_BASE, id);
	__asm__ volatile("cpsie i" ::: "memory");
}

int platform_irq_attach(unsigned id, platform_isr_fn isr, void *ctx)
{
	unsigned ids[MAX_ATTACHED];
	uint32_t cpsr;

	if (!isr || id >= 1020u)
		return EINVAL;
	if (attached_count >= MAX_ATTACHED)
		return ENOSPC;
	cpsr = irq_save();
	attached[attached_count].id = id;
	attached[attached_count].ctx = ctx;
	attached[attached_count].isr = isr;
	attached_count++;
	for (unsigned i = 0; i < attached_count; i++)
		ids[i] = attached[i].id;
	irq_restore(cpsr);
	gic_enable(GICD_BASE, GICC_BASE, id);
	gic_rank_priorities(GICD_BASE, ids, attached_count);
	__asm__ volatile("cpsie i" ::: "memory");
	return 0;
}

void platform_irq_detach(unsigned id)
{
	uint32_t cpsr;

	gic_disable(GICD_BASE, id);
	cpsr = irq_save();
	for (unsigned i = 0; i < attached_count; i++)
		if (attached[i].id == id) {
			attached[i] = attached[--attached_count];
			break;
		}
	irq_restore(cpsr);
}

/*
 * Nesting: the dispatcher enables IRQs around an attached handler; the GIC's running priority
 * (the handler's, from platform_irq_attach) lets only those of higher priority in. The IRQ entry
 * runs the dispatcher in SVC mode with LR_irq and SPSR_irq on the stack (cpu/r5/start.S), so a
 * nested IRQ overwrites nothing still needed.
 */
void platform_irq_nesting(int on)
{
	nesting = on;
}

void platform_irq_mask(void)
{
	__asm__ volatile("cpsid i" ::: "memory");
}

void platform_irq_unmask(void)
{
	__asm__ volatile("cpsie i" ::: "memory");
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
		gic_disable(GICD_BASE, id);
		storm_count = since_progress;
		storm_id = id + 1u;
		since_progress = 0;
	} else if (id == handler_id && handler) {
		handler();
	} else {
		for (unsigned i = 0; i < attached_count; i++)
			if (attached[i].id == id) {
				platform_isr_fn isr = attached[i].isr;
				void *ctx = attached[i].ctx;

				if (nesting)
					__asm__ volatile("cpsie i" ::: "memory");
				isr(ctx);
				if (nesting)
					__asm__ volatile("cpsid i" ::: "memory");
				break;
			}
	}
	mmio_w32(GICC_BASE + GICC_EOIR, iar);
}

/* ---- console, exit ---- */

void platform_uart_write(const char *data, size_t len)
{
	uart_write(UART0_BASE, data, len);
}

void platform_uart_puts(const char *s)
{
	uart_puts(UART0_BASE, s);
}

#ifdef PLATFORM_SEMIHOSTING
/* Arm semihosting on AArch32 (A32 state): operation in r0, parameter block in r1, SVC 0x123456. */
static uint32_t semihost(uint32_t op, const void *param)
{
	register uint32_t r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = param;

	__asm__ volatile("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

#define SYS_GET_CMDLINE		     0x15u
#define SYS_EXIT_EXTENDED	     0x20u /* AArch32's SYS_EXIT carries no status; this does */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

void platform_exit(int status)
{
	uint32_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status };

	semihost(SYS_EXIT_EXTENDED, block);
	for (;;)
		__asm__ volatile("wfi");
}

int platform_cmdline(char *buf, size_t size)
{
	uint32_t block[2] = { (uint32_t)(uintptr_t)buf, (uint32_t)size };

	if (size == 0 || semihost(SYS_GET_CMDLINE, block) != 0)
		return 1;
	buf[block[1] < size ? block[1] : size - 1] = 0;
	return 0;
}
#else
/* On a board: the core stops, interrupts off (a debugger sees main's status in r0 at the WFI). */
void platform_exit(int status)
{
	register uint32_t r0 __asm__("r0") = (uint32_t)status;

	__asm__ volatile("cpsid if" ::: "memory");
	for (;;)
		__asm__ volatile("wfi" ::"r"(r0));
}

int platform_cmdline(char *buf, size_t size)
{
	if (size)
		buf[0] = 0;
	return 1;
}
#endif
