/*
 * What the bare-metal example needs from the platform: addresses of the reference design, the
 * interrupt controller and the UART. One implementation per CPU: cpu/a53/platform.c (Cortex-A53,
 * AArch64, GIC-400 of the APU) and cpu/r5/platform.c (Cortex-R5, AArch32, GIC of the RPU).
 */
#ifndef PLATFORM_H
#define PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* The reference design in the PL (hw/rtl/refdesign, docs/hw/refdesign.md) at M_AXI_HPM0_FPD */
#define PLATFORM_LATMON_ADDR	0xA0010000u /* the latmon core measuring T2 (T1: 0xA0000000) */
#define PLATFORM_DATA_ADDR	0xA0020000u /* the FIFO's data register */
#define PLATFORM_FABRIC_HZ	100000000u
#define PLATFORM_TIMEOUT_CYCLES 100000000u /* 1 s: a lost interrupt is counted, not waited for */

/* pl_ps_irq0[0] on ZynqMP: GIC SPI 89 = ID 121; the virtual SoC's build sets 0 (its external
 * interrupt 0) */
#ifndef PLATFORM_FABRIC_IRQ
#define PLATFORM_FABRIC_IRQ 121u
#endif

void platform_init(void);
/* Route interrupt @p id to this CPU and call @p isr from the interrupt handler. */
void platform_irq_enable(unsigned id, void (*isr)(void));
void platform_uart_write(const char *data, size_t len);
void platform_uart_puts(const char *s);

/*
 * The example's storm guard (every platform): the dispatcher counts the interrupts taken since
 * the main loop last called platform_progress(); one taken more than PLATFORM_STORM_LIMIT times
 * without the main loop running in between is masked at the controller. platform_storm()
 * returns 1 with its ID and count once, else 0.
 */
#define PLATFORM_STORM_LIMIT 100000u
void platform_progress(void);
int platform_storm(unsigned *id, uint32_t *count);

/* Status of a stop by a fault (a data abort, an undefined instruction): reported, never a hang. */
#define PLATFORM_EXIT_FAULT 3
/* Stop this program with @p status (main's return value); never returns. With semihosting
 * (the QEMU build) the emulator exits with it; on a board the core stops. */
void platform_exit(int status) __attribute__((noreturn));
/* The program's command line (semihosting SYS_GET_CMDLINE): 0, or 1 when there is none. */
int platform_cmdline(char *buf, size_t size);

extern const char PLATFORM_CPU_NAME[];

#endif
