/*
 * Zynq UltraScale+ APU (Cortex-A53, AArch64): GIC-400, UART0, exceptions, exit (docs/baremetal.md,
 * docs/target/qemu.md).
 *
 * Built twice: for a board (exit = stop the core) and, with -DPLATFORM_SEMIHOSTING, for QEMU or a
 * debugger with semihosting (exit = SYS_EXIT with main's status, so the emulator's exit status is
 * the firmware's).
 */
#include "platform_a53.h"
#include "platform.h"
#include "platform_gic.h"

#define UART0_BASE	     0xFF000000u
#define UART_CR		     0x00u
#define UART_MR		     0x04u
#define UART_CR_TX_RX_ENABLE 0x14u /* TXEN | RXEN, everything else as after reset */
#define UART_MR_8N1	     0x20u /* 8 data bits, no parity, 1 stop bit */

const char PLATFORM_CPU_NAME[] = "cortex-a53";

#define MAX_HANDLERS 8u
static struct {
	unsigned id;
	void (*plain)(void);
	void (*with_entry)(uint64_t entry);
} handlers[MAX_HANDLERS];
static unsigned handler_count;

/*
 * Faults the tests inject through the command line (semihosting), to show what a user sees:
 * "inject=wrong-eoi": the interrupt handler ends another ID than it acknowledged;
 * "inject=data-abort": platform_init() turns alignment checking on (SCTLR_ELx.A) and reads a word
 * at a misaligned PL address: a real data abort (alignment fault), taken by platform_fault().
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

static void misaligned_pl_read(void)
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

void platform_init(void)
{
	/*
	 * The boot loader (FSBL) normally leaves UART0 enabled; loaded directly (JTAG, QEMU) it is
	 * as after reset, TX and RX disabled (CR=0x128), and nothing would appear. The baud rate
	 * generator is left as it is.
	 */
	mmio_w32(UART0_BASE + UART_MR, UART_MR_8N1);
	mmio_w32(UART0_BASE + UART_CR, UART_CR_TX_RX_ENABLE);
	{
		char cmdline[128];

		if (platform_cmdline(cmdline, sizeof cmdline) == 0) {
			inject_wrong_eoi = has_word(cmdline, "inject=wrong-eoi");
			if (has_word(cmdline, "inject=data-abort"))
				misaligned_pl_read();
		}
	}
}

static void add_handler(unsigned id, void (*plain)(void), void (*with_entry)(uint64_t))
{
	if (handler_count < MAX_HANDLERS) {
		handlers[handler_count].id = id;
		handlers[handler_count].plain = plain;
		handlers[handler_count].with_entry = with_entry;
		handler_count++;
	}
}

void platform_irq_enable(unsigned id, void (*isr)(void))
{
	add_handler(id, isr, 0);
	gic_enable(A53_GICD_BASE, A53_GICC_BASE, id);
	__asm__ volatile("msr daifclr, #2" ::: "memory"); /* unmask IRQ */
}

void a53_irq_route(unsigned id, void (*isr)(uint64_t entry))
{
	add_handler(id, 0, isr);
}

/* Called from the IRQ vector (start_a53.S) with the counter read on entry. */
void platform_irq_handler(uint64_t entry);
void platform_irq_handler(uint64_t entry)
{
	uint32_t iar = mmio_r32(A53_GICC_BASE + GICC_IAR);
	unsigned id = iar & 0x3FFu;

	if (id >= 1020u) /* spurious: nothing to end */
		return;
	for (unsigned i = 0; i < handler_count; i++) {
		if (handlers[i].id != id)
			continue;
		if (handlers[i].with_entry)
			handlers[i].with_entry(entry);
		else if (handlers[i].plain)
			handlers[i].plain();
		break;
	}
	/* the deliberately broken handler of the tests ends another interrupt than it took */
	mmio_w32(A53_GICC_BASE + GICC_EOIR, inject_wrong_eoi ? (iar ^ 0x3u) : iar);
}

void platform_uart_write(const char *data, size_t len)
{
	uart_write(UART0_BASE, data, len);
}

void platform_uart_puts(const char *s)
{
	uart_puts(UART0_BASE, s);
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

/* Called from the vectors (start_a53.S); stops with status PLATFORM_EXIT_FAULT. */
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
				   : fsc < 0x10u  ? ": translation or permission fault"
						  : "");
	}
	platform_uart_puts(" (ESR ");
	put_hex(esr);
	platform_uart_puts(", PC ");
	put_hex(elr);
	platform_uart_puts(")\n");
	if (external && far >= A53_PL_LOW && far < A53_PL_HIGH) {
		platform_uart_puts("fault: no latmon core at ");
		put_hex(far & ~0xFFFFull);
		platform_uart_puts(" - is the bitstream loaded, and is this the address Vivado's "
				   "address editor gives it?\n");
	}
	platform_exit(PLATFORM_EXIT_FAULT);
}

#ifdef PLATFORM_SEMIHOSTING
/* Arm semihosting: operation in w0, parameter block in x1, HLT #0xF000 on AArch64. */
static uint64_t semihost(uint64_t op, const void *param)
{
	register uint64_t x0 __asm__("x0") = op;
	register const void *x1 __asm__("x1") = param;

	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
	return x0;
}

#define SYS_GET_CMDLINE		     0x15u
#define SYS_EXIT		     0x18u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

void platform_exit(int status)
{
	uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(uint32_t)status };

	semihost(SYS_EXIT, block);
	for (;;)
		__asm__ volatile("wfe");
}

int platform_cmdline(char *buf, size_t size)
{
	uint64_t block[2] = { (uint64_t)(uintptr_t)buf, size };

	if (size == 0 || semihost(SYS_GET_CMDLINE, block) != 0)
		return 1;
	buf[block[1] < size ? block[1] : size - 1] = 0;
	return 0;
}
#else
void platform_exit(int status)
{
	(void)status;
	__asm__ volatile("msr daifset, #0xf");
	for (;;)
		__asm__ volatile("wfe");
}

int platform_cmdline(char *buf, size_t size)
{
	if (size)
		buf[0] = 0;
	return 1;
}
#endif

/* What a secondary core started at secondary_entry runs; programs that start none get this. */
__attribute__((weak)) void platform_secondary_main(void);
__attribute__((weak)) void platform_secondary_main(void)
{
	for (;;)
		__asm__ volatile("wfe");
}
