/*
 * Cortex-A53 (AArch64), the part every board shares: interrupt dispatch through the GICv2,
 * fault reports, PSCI, the fault injections of the tests (docs/baremetal.md,
 * docs/target/qemu.md). Where the GIC and the UART are, how the program ends and what its
 * command line is: board/zcu102.c or board/virt.c.
 */
#include "platform.h"
#include "cpu/a53/a53.h"
#include "cpu/arm/gic.h"
#include "latmon_errno.h"

const char PLATFORM_CPU_NAME[] = "cortex-a53";

#define MAX_HANDLERS 8u
static struct {
	unsigned id;
	void (*plain)(void);
	void (*with_entry)(uint64_t entry);
	platform_isr_fn attached;
	void *ctx;
} handlers[MAX_HANDLERS];
static unsigned handler_count;
static volatile int nesting; /* platform_irq_nesting */

/*
 * Faults the tests inject through the command line, to show what a user sees:
 * "inject=wrong-eoi": the interrupt handler ends another ID than it acknowledged;
 * "inject=data-abort": alignment checking on (SCTLR_ELx.A) and a word read at a misaligned
 * PL address: a real data abort (alignment fault), taken by platform_fault().
 * The suite's own (cpu/a53/timer.c): "inject=no-clear", "inject=second-line-storm",
 * "inject=isr-fault", "inject=isr-spin".
 */
static int inject_wrong_eoi;

static int has_word(const char *text, const char *word)
{
	for (const char *p = text; *p; p++) {
		size_t i = 0;
		while (word[i] && p[i] == word[i])
			i++;
		if (!word[i])
			return 1;
	}
	return 0;
}

void a53_misaligned_pl_read(void)
{
	uint64_t el, sctlr;

	__asm__ volatile("mrs %0, CurrentEL" : "=r"(el));
	if (((el >> 2) & 3u) == 3u) {
		__asm__ volatile("mrs %0, sctlr_el3" : "=r"(sctlr));
		__asm__ volatile("msr sctlr_el3, %0\n\tisb" ::"r"(sctlr | 2u));
	} else {
		__asm__ volatile("mrs %0, sctlr_el1" : "=r"(sctlr));
		__asm__ volatile("msr sctlr_el1, %0\n\tisb" ::"r"(sctlr | 2u));
	}
	(void)*(volatile uint32_t *)(uintptr_t)(A53_PL_LOW + 0x20010001u);
}

void a53_apply_cmdline(void)
{
	char cmdline[256];

	if (platform_cmdline(cmdline, sizeof cmdline) == 0) {
		inject_wrong_eoi = has_word(cmdline, "inject=wrong-eoi");
		if (has_word(cmdline, "inject=data-abort"))
			a53_misaligned_pl_read();
	}
}

static int add_handler(unsigned id, void (*plain)(void), void (*with_entry)(uint64_t),
		       platform_isr_fn attached, void *ctx)
{
	if (handler_count >= MAX_HANDLERS)
		return ENOSPC;
	handlers[handler_count].id = id;
	handlers[handler_count].plain = plain;
	handlers[handler_count].with_entry = with_entry;
	handlers[handler_count].attached = attached;
	handlers[handler_count].ctx = ctx;
	handler_count++;
	return 0;
}

void platform_irq_enable(unsigned id, void (*isr)(void))
{
	(void)add_handler(id, isr, 0, 0, 0);
	gic_enable(a53_board.gicd, a53_board.gicc, id);
	__asm__ volatile("msr daifclr, #2" ::: "memory"); /* unmask IRQ */
}

void a53_irq_route(unsigned id, void (*isr)(uint64_t entry))
{
	(void)add_handler(id, 0, isr, 0, 0);
}

int platform_irq_attach(unsigned id, platform_isr_fn isr, void *ctx)
{
	int err;

	if (!isr || id >= 1020u)
		return EINVAL;
	err = add_handler(id, 0, 0, isr, ctx);
	if (err)
		return err;
	gic_enable(a53_board.gicd, a53_board.gicc, id);
	{
		unsigned ids[MAX_HANDLERS], n = 0;

		for (unsigned i = 0; i < handler_count; i++)
			if (handlers[i].attached)
				ids[n++] = handlers[i].id;
		gic_rank_priorities(a53_board.gicd, ids, n);
	}
	__asm__ volatile("msr daifclr, #2" ::: "memory"); /* unmask IRQ */
	return 0;
}

void platform_irq_detach(unsigned id)
{
	uint64_t daif;

	gic_disable(a53_board.gicd, id);
	__asm__ volatile("mrs %0, daif\n\tmsr daifset, #2" : "=r"(daif)::"memory");
	for (unsigned i = 0; i < handler_count; i++)
		if (handlers[i].id == id && handlers[i].attached) {
			handlers[i] = handlers[--handler_count];
			break;
		}
	__asm__ volatile("msr daif, %0" ::"r"(daif) : "memory");
}

/*
 * Nesting: the dispatcher unmasks IRQs around an attached handler; the GIC's running priority
 * (the handler's, from platform_irq_attach) lets only those of higher priority in. The vectors
 * keep ELR and SPSR on the stack (cpu/a53/start.S).
 */
void platform_irq_nesting(int on)
{
	nesting = on;
}

/*
 * The watchdog's hooks (cpu/a53/timer.c has the suite's; a program without one runs every
 * handler): a53_irq_admit() after the acknowledge, nonzero when the interrupt is not to be handled
 * (a storm the watchdog masked); a53_irq_done() when its handler has returned.
 */
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

/* The example's storm guard (platform.h); the suite has its own watchdog (suite/timer_suite.c). */
__attribute__((weak)) int a53_irq_admit(unsigned id)
{
	since_progress = since_progress + 1u;
	if (since_progress <= PLATFORM_STORM_LIMIT)
		return 0;
	mmio_w32(a53_board.gicd + 0x180u + 4u * (id / 32u), 1u << (id % 32u)); /* ICENABLER */
	storm_count = since_progress;
	storm_id = id + 1u;
	since_progress = 0;
	return 1;
}

__attribute__((weak)) void a53_irq_done(unsigned id)
{
	(void)id;
}

/* Called from the IRQ vector (cpu/a53/start.S) with the counter read on entry. */
void platform_irq_handler(uint64_t entry);
void platform_irq_handler(uint64_t entry)
{
	uint32_t iar = mmio_r32(a53_board.gicc + GICC_IAR);
	unsigned id = iar & 0x3FFu;

	if (id >= 1020u) /* spurious: nothing to end */
		return;
	if (a53_irq_admit(id)) {
		mmio_w32(a53_board.gicc + GICC_EOIR, iar);
		return;
	}
	for (unsigned i = 0; i < handler_count; i++) {
		if (handlers[i].id != id)
			continue;
		if (handlers[i].with_entry)
			handlers[i].with_entry(entry);
		else if (handlers[i].attached && nesting) {
			__asm__ volatile("msr daifclr, #2" ::: "memory");
			handlers[i].attached(handlers[i].ctx);
			__asm__ volatile("msr daifset, #2" ::: "memory");
		} else if (handlers[i].attached)
			handlers[i].attached(handlers[i].ctx);
		else if (handlers[i].plain)
			handlers[i].plain();
		break;
	}
	a53_irq_done(id);
	/* the deliberately broken handler of the tests ends another interrupt than it took */
	mmio_w32(a53_board.gicc + GICC_EOIR, inject_wrong_eoi ? (iar ^ 0x3u) : iar);
}

void platform_uart_puts(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	platform_uart_write(s, n);
}

static void put_hex(uint64_t v)
{
	char buf[19];

	buf[0] = '0';
	buf[1] = 'x';
	for (int i = 0; i < 16; i++)
		buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xFu];
	buf[18] = 0;
	platform_uart_puts(buf);
}

/* Called from the vectors (cpu/a53/start.S); stops with status PLATFORM_EXIT_FAULT. */
void platform_fault(uint64_t kind, uint64_t esr, uint64_t far, uint64_t elr);
void platform_fault(uint64_t kind, uint64_t esr, uint64_t far, uint64_t elr)
{
	unsigned ec = (unsigned)(esr >> 26) & 0x3Fu;
	unsigned fsc = (unsigned)esr & 0x3Fu;
	int data_abort = ec == 0x24u || ec == 0x25u;
	int external = data_abort && fsc == 0x10u;

	platform_uart_puts("\nfault: ");
	platform_uart_puts(kind == 1			  ? "SError"
			   : kind == 2			  ? "FIQ"
			   : data_abort			  ? "data abort"
			   : (ec == 0x20u || ec == 0x21u) ? "instruction abort"
							  : "synchronous exception");
	if (data_abort) {
		platform_uart_puts(" at address ");
		put_hex(far);
		platform_uart_puts(external	  ? ": external abort (nothing answered)"
				   : fsc == 0x21u ? ": alignment fault"
				   : fsc < 0x04u  ? ": address size fault (beyond the output range)"
				   : fsc < 0x08u  ? ": translation fault (not mapped)"
				   : fsc < 0x0Cu  ? ": access flag fault"
				   : fsc < 0x10u  ? ": permission fault"
						  : "");
	}
	platform_uart_puts(" (ESR ");
	put_hex(esr);
	platform_uart_puts(", PC ");
	put_hex(elr);
	platform_uart_puts(")\n");
	if (external)
		a53_board_fault_hint(far);
	platform_exit(PLATFORM_EXIT_FAULT);
}

/* PSCI (SMC/HVC calling convention): function in x0, arguments in x1..x3, result in x0. */
static int64_t psci_call(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = a1;
	register uint64_t x2 __asm__("x2") = a2;
	register uint64_t x3 __asm__("x3") = a3;

	if (a53_board.psci_hvc)
		__asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)::"memory");
	else
		__asm__ volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)::"memory");
	return (int64_t)x0;
}

#define PSCI_CPU_ON_64	0xC4000003u
#define PSCI_SYSTEM_OFF 0x84000008u

int64_t a53_psci_cpu_on(uint64_t mpidr, uint64_t entry, uint64_t context)
{
	return psci_call(PSCI_CPU_ON_64, mpidr, entry, context);
}

void a53_psci_system_off(void)
{
	(void)psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
}

/* What a secondary core started at secondary_entry runs; programs that start none get this. */
__attribute__((weak)) void platform_secondary_main(void);
__attribute__((weak)) void platform_secondary_main(void)
{
	for (;;)
		__asm__ volatile("wfe");
}
