/*
 * The Zynq UltraScale+ APU as a board (or QEMU's ZCU102 model) has it: GIC-400 at 0xF9010000,
 * the Cadence UART0, DDR and OCM, PSCI through SMC (ATF, or QEMU's built-in PSCI).
 *
 * Built twice: for a board (exit = stop the core) and, with -DPLATFORM_SEMIHOSTING, for QEMU or
 * a debugger with semihosting (exit = SYS_EXIT with main's status, so the emulator's exit
 * status is the firmware's).
 */
#include "cpu/a53/a53.h"
#include "cpu/arm/gic.h"
#include "platform.h"

#define UART0_BASE	     0xFF000000u
#define UART_CR		     0x00u
#define UART_MR		     0x04u
#define UART_CR_TX_RX_ENABLE 0x14u /* TXEN | RXEN, everything else as after reset */
#define UART_MR_8N1	     0x20u /* 8 data bits, no parity, 1 stop bit */

struct a53_board a53_board = {
	.gicd = 0xF9010000u,
	.gicc = 0xF9020000u,
	.boot_cpu = 0,
	.second_cpu = 1,
	.psci_hvc = 0,
	.gic_shared = 0,
	.phys_timer = 1,
};

void platform_init(void)
{
	/*
	 * The boot loader (FSBL) normally leaves UART0 enabled; loaded directly (JTAG, QEMU) it is
	 * as after reset, TX and RX disabled (CR=0x128), and nothing would appear. The baud rate
	 * generator is left as it is.
	 */
	mmio_w32(UART0_BASE + UART_MR, UART_MR_8N1);
	mmio_w32(UART0_BASE + UART_CR, UART_CR_TX_RX_ENABLE);
	a53_apply_cmdline();
}

void platform_uart_write(const char *data, size_t len)
{
	uart_write(UART0_BASE, data, len);
}

/* UART0's interrupt: GIC SPI 21 (ID 53); TX FIFO empty in its enable/status registers. */
#define UART0_IRQ_ID	0x35u
#define UART_IER	0x08u
#define UART_INT_TEMPTY 0x08u

unsigned a53_board_storm_line(void)
{
	mmio_w32(UART0_BASE + UART_IER, UART_INT_TEMPTY); /* asserted while the FIFO is empty */
	return UART0_IRQ_ID;
}

void a53_board_fault_hint(uint64_t far)
{
	if (far >= A53_PL_LOW && far < A53_PL_HIGH) {
		char hex[11] = "0x00000000";
		uint64_t base = far & ~0xFFFFull;

		for (int i = 0; i < 8; i++)
			hex[2 + i] = "0123456789abcdef"[(base >> (28 - 4 * i)) & 0xFu];
		platform_uart_puts("fault: no latmon core at ");
		platform_uart_puts(hex);
		platform_uart_puts(" - is the bitstream loaded, and is this the address Vivado's "
				   "address editor gives it?\n");
	}
}

/*
 * DDR (0-2 GiB) normal write-back, the PL and the peripherals device-nGnRnE, except the last
 * 2 MiB (OCM, where this image runs), normal write-back.
 */
void a53_board_mmu_map(uint64_t *l1, uint64_t *l2)
{
	l1[0] = A53_DESC_BLOCK(0x00000000ull, A53_ATTR_NORMAL);
	l1[1] = A53_DESC_BLOCK(0x40000000ull, A53_ATTR_NORMAL);
	l1[2] = A53_DESC_BLOCK(0x80000000ull, A53_ATTR_DEVICE);
	for (unsigned i = 0; i < 512u; i++)
		l2[i] = A53_DESC_BLOCK(0xC0000000ull + ((uint64_t)i << 21), A53_ATTR_DEVICE);
	l2[511] = A53_DESC_BLOCK(0xFFE00000ull, A53_ATTR_NORMAL);
	l1[3] = A53_DESC_TABLE((uint64_t)(uintptr_t)l2);
}

const char *platform_board_name(void)
{
#ifdef PLATFORM_SEMIHOSTING
	return "qemu-xlnx-zcu102";
#else
	return "zynqmp-apu";
#endif
}

const char *platform_emulated(void)
{
#ifdef PLATFORM_SEMIHOSTING
	return "yes";
#else
	return "no";
#endif
}

const char *platform_hypervisor(void)
{
	return "none";
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
