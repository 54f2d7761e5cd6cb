/*
 * The one interface between the bare-metal programs and a CPU (docs/baremetal.md). Programs
 * (example/, suite/) use only what is declared here; each CPU implements it in cpu/<cpu>/
 * (cpu/a53: Cortex-A53, AArch64, GIC-400; cpu/r5: Cortex-R5, AArch32, the RPU's GIC; cpu/rv32:
 * the virtual SoC's VexRiscv harts) and each machine its part in board/ (where the interrupt
 * controller and the UART are, how the program ends).
 *
 * Not every CPU has every part; a program links only on a CPU that has what it uses:
 *
 *   part                                 a53              r5          rv32          used by
 *   console, init, irq enable and        yes              yes         yes           every program
 *     attach, storm guard
 *   exit                                 yes (board/)     yes         yes           the suites
 *   cmdline                              yes (board/)     yes         yes (none)    the runner
 *   board name, emulated, hypervisor     yes (board/)     -           -             timer cases
 *   cycles                               yes (+ hz)       yes (+ hz)  yes           both suites
 *   irq detach, nesting                  yes              yes         yes           fabric cases
 *   delay loop                           -                yes         yes           fabric cases
 *   console speed                        -                -           yes           fabric cases
 *   irq mask/unmask                      yes              yes         -             timer cases
 *   irq line, many irqs                  yes              -           -             timer cases
 *   caches                               yes, dcache-off  -           invalidate,   both suites
 *                                          run                        uncached
 *   harts                                id, start, relax -           id, start,    both suites
 *                                                                     join
 *   timer                                yes              -           -             timer cases
 *
 * Nesting on the GIC (a53, r5): the dispatcher re-enables IRQs around an attached handler and the
 * GIC's running priority lets only a higher one in (platform_irq_attach ranks the priorities).
 */
#ifndef PLATFORM_H
#define PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* ---- the machine: the reference design in the PL (hw/rtl/refdesign, docs/hw/refdesign.md) ---- */

#define PLATFORM_LATMON_ADDR	0xA0010000u /* the latmon core measuring T2 (T1: 0xA0000000) */
#define PLATFORM_DATA_ADDR	0xA0020000u /* the FIFO's data register */
#define PLATFORM_FABRIC_HZ	100000000u
#define PLATFORM_TIMEOUT_CYCLES 100000000u /* 1 s: a lost interrupt is counted, not waited for */

/* pl_ps_irq0[0] on ZynqMP: GIC SPI 89 = ID 121; the virtual SoC's build sets 0 (its external
 * interrupt 0) */
#ifndef PLATFORM_FABRIC_IRQ
#define PLATFORM_FABRIC_IRQ 121u
#endif

/*
 * The interrupt path's code (trap entry, dispatcher, ISRs and what they call) is kept together in
 * one section, so that a small direct-mapped instruction cache holds it beside the main loop.
 */
#define PLATFORM_ISR_CODE __attribute__((section(".text.isr")))
/*
 * The waiting loops the measured interrupts meet (a suite case's wait) are kept in the next
 * section, right after the interrupt path: where they are in the cache is fixed by design, not by
 * what else the program links.
 */
#define PLATFORM_WAIT_CODE __attribute__((section(".text.wait")))
/* What the dispatcher calls only on a storm (the storm guard's slow path), after those. */
#define PLATFORM_ISR_TAIL_CODE __attribute__((section(".text.isrtail")))

/* ---- console, exit, identity ----------------------------------------------------------------- */

void platform_init(void);
void platform_uart_write(const char *data, size_t len);
void platform_uart_puts(const char *s);
/** Set the console's speed in clock cycles per bit (where the platform can). */
void platform_console_speed(uint32_t cycles_per_bit);

/* Status of a stop by a fault (a data abort, an undefined instruction): reported, never a hang. */
#define PLATFORM_EXIT_FAULT 3
/* Stop this program with @p status (main's return value); never returns. With semihosting
 * (the QEMU build) the emulator exits with it; the virtual SoC's simulation ends; on a board the
 * core stops. */
void platform_exit(int status) __attribute__((noreturn));
/* The program's command line (semihosting SYS_GET_CMDLINE, the device tree's /chosen): 0, or 1
 * when there is none. */
int platform_cmdline(char *buf, size_t size);

extern const char PLATFORM_CPU_NAME[];
/* For a log header: the machine, whether it is an emulation ("yes", "no", or "unknown" when the
 * program cannot tell, e.g. as a Xen guest), and the hypervisor below the program ("none" when it
 * runs on the machine itself). */
const char *platform_board_name(void);
const char *platform_emulated(void);
const char *platform_hypervisor(void);

/* ---- interrupts ------------------------------------------------------------------------------ */

typedef void (*platform_isr_fn)(void *ctx);

/* Route interrupt @p id to this CPU and call @p isr from the interrupt handler. */
void platform_irq_enable(unsigned id, void (*isr)(void));
/**
 * Call @p isr with @p ctx when interrupt @p id is raised on this hart; a lower id has the higher
 * priority. Enables the source and the CPU's interrupts.
 * @return 0 or EINVAL.
 */
int platform_irq_attach(unsigned id, platform_isr_fn isr, void *ctx);
/** Stop taking interrupt @p id on this hart. */
void platform_irq_detach(unsigned id);
/** 1: an ISR runs with interrupts of higher priority enabled (nesting); 0: it runs to its end. */
void platform_irq_nesting(int on);
/* Mask / unmask interrupts on this core (unmasking inside a handler allows nesting). */
void platform_irq_mask(void);
void platform_irq_unmask(void);
/* Enable (@p on) or disable interrupt @p id at the controller, for this core. */
void platform_irq_line(unsigned id, int on);
/*
 * Enable (@p on) or disable every interrupt the controller implements besides the program's own.
 * @return how many further interrupts are enabled.
 */
unsigned platform_many_irqs(int on);

/*
 * The example's storm guard (every platform): the dispatcher counts the interrupts taken since
 * the main loop last called platform_progress(); one taken more than PLATFORM_STORM_LIMIT times
 * without the main loop running in between is masked at the controller. platform_storm()
 * returns 1 with its ID and count once, else 0.
 */
#define PLATFORM_STORM_LIMIT 100000u
void platform_progress(void);
int platform_storm(unsigned *id, uint32_t *count);

/* ---- cycles ---------------------------------------------------------------------------------- */

/** The free-running counter latencies are measured in (rv32: mcycle, the fabric's clock; a53:
 * the generic timer's virtual counter) and its frequency. */
uint64_t platform_cycles(void);
uint64_t platform_cycles_hz(void);
/** The cycles one pass of platform_delay_loop(n) takes is what the ISR-loop case measures. */
void platform_delay_loop(uint32_t iterations);

/* ---- caches ---------------------------------------------------------------------------------- */

/** Invalidate the instruction and data caches (write back first where they are write-back). */
void platform_cache_invalidate(void);

enum platform_caches {
	PLATFORM_CACHES_ON,	    /* MMU on, normal memory write-back, I and D caches on */
	PLATFORM_CACHES_OFF,	    /* MMU and caches off */
	PLATFORM_CACHES_INVALIDATE, /* (caches on) clean and invalidate D, I and TLBs now */
};
/* @return 0, or a positive errno value (ENOTSUP: the platform has no such control). */
int platform_caches(enum platform_caches mode);
/**
 * Run @p fn(@p arg) with this hart's data cache bypassed for its stack and for every access
 * through platform_uncached() — on a core whose caches cannot be switched off at run time, by
 * an uncached alias of the memory. The ISRs that interrupt @p fn use the same stack.
 */
void platform_run_dcache_off(void (*fn)(void *), void *arg);
/** An address of the same memory that bypasses the data cache (shared between harts). */
void *platform_uncached(void *p);

/* ---- harts ----------------------------------------------------------------------------------- */

/** This hart's number, 0 .. platform_harts() - 1 (0: the one main() runs on). */
unsigned platform_hart_id(void);
unsigned platform_harts(void);
/**
 * Start @p fn(@p arg) on hart @p hart (not the caller).
 * @return 0, or a positive errno value: ENODEV (no such hart), EBUSY (it still runs earlier
 * work), ENOTSUP (the machine cannot start it).
 */
int platform_hart_start(unsigned hart, void (*fn)(void *), void *arg);
/** Wait until the work started on @p hart has returned. */
void platform_hart_join(unsigned hart);
/* A hint inside a polling loop that another core is awaited (lets an emulator run it). */
void platform_relax(void);

/* ---- timer (the timer suite: a one-shot high-priority timer, a low-priority software
 * interrupt and a watchdog timer above both) ----------------------------------------------------
 */

/* What the timer section calls, each with the counter value read first thing on entry. */
struct platform_timer_hooks {
	void (*on_timer)(uint64_t entry);    /* the one-shot timer fired */
	void (*on_soft_irq)(uint64_t entry); /* the software interrupt was taken */
	/* every interrupt taken (not the watchdog's), after the acknowledge and before the handler:
	 * 0 to run the handler, 1 when the program has masked it (a storm): it is ended unhandled
	 */
	int (*irq_entry)(unsigned id);
	void (*irq_done)(unsigned id); /* its handler has returned */
	void (*watchdog_expired)(void);
};
/* Set up the timers, their priorities and the caches of this core; call @p hooks from now on.
 * @return 0, or a positive errno value. */
int platform_timer_init(const struct platform_timer_hooks *hooks);
/* Program the one-shot timer of this core to fire at counter value @p at. */
void platform_timer_fire_at(uint64_t at);
/* Make the low-priority software interrupt pending on core @p core. */
void platform_soft_irq_raise(unsigned core);
/* Idle (WFI) until an interrupt arrives, at the latest at counter value @p deadline (the
 * watchdog timer wakes the core then: a lost interrupt never leaves it asleep). */
void platform_idle_until(uint64_t deadline);
/*
 * The watchdog timer: a second timer of this core, independent of the measured interrupt and
 * above it in priority, that calls hooks->watchdog_expired at counter value @p at (0: off).
 * platform_idle_until() keeps it armed. @return 0, or ENOTSUP (no such timer).
 */
int platform_watchdog_at(uint64_t at);
/* Enable again the timer section's own interrupts of this core. */
void platform_timer_irqs_restore(void);

#endif
