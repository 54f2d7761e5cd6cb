/*
 * The virtual SoC's RV32IM harts (VexRiscv_Full: machine mode, external interrupt array with
 * its mask CSR 0xBC0 and pending CSR 0xFC0, 4 KiB I$ and D$) and its UART and sysctrl
 * (docs/hw/soc.md). The start code and the trap entry are cpu/rv32/start.S.
 */
#include <stdint.h>

#include "board/soc_map.h"
#include "latmon/latmon.h"
#include "platform.h"
#include "suite/fabric_suite.h"

#include "latmon_errno.h"

#ifndef EBUSY
#define EBUSY 16
#endif
#ifndef ENODEV
#define ENODEV 19
#endif

const char PLATFORM_CPU_NAME[] = "vexriscv-full";

#define MSTATUS_MIE 0x8u
#define MIE_MEIE    0x800u
#define MCAUSE_IRQ  0x80000000u
#define MCAUSE_MEI  11u
#define IRQ_COUNT   32u

/* One function per CSR read (the CSR is part of the instruction). */
#define CSR_READER(fn, csr)                                   \
	static inline uint32_t fn(void)                       \
	{                                                     \
		uint32_t v;                                   \
		__asm__ volatile("csrr %0, " #csr : "=r"(v)); \
		return v;                                     \
	}
CSR_READER(read_mcycle, mcycle)
CSR_READER(read_mcycleh, mcycleh)
CSR_READER(read_mepc, mepc)
CSR_READER(read_mtval, mtval)
CSR_READER(read_mstatus, mstatus)
/* VexRiscv's external interrupt array: mask (read/write) and pending (read) */
CSR_READER(read_irq_mask, 0xBC0)
CSR_READER(read_irq_pending, 0xFC0)

#define CSR_WRITE(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"r"((uint32_t)(v)) : "memory")
#define CSR_SET(csr, v)	  __asm__ volatile("csrs " #csr ", %0" ::"r"((uint32_t)(v)) : "memory")
#define CSR_CLEAR(csr, v) __asm__ volatile("csrc " #csr ", %0" ::"r"((uint32_t)(v)) : "memory")
#define IRQ_MASK_WRITE(v) CSR_WRITE(0xBC0, v)

#define REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

#define SYSCTRL_HARTS (SOC_SYSCTRL + 0x04u)
#define SYSCTRL_EXIT  (SOC_SYSCTRL + 0x0Cu)
#define UART_TXDATA   (SOC_UART + 0x00u)
#define UART_STATUS   (SOC_UART + 0x04u)
#define UART_DIVISOR  (SOC_UART + 0x08u)
#define UART_TX_FULL  0x1u
#define UART_TX_IDLE  0x2u

struct handler {
	platform_isr_fn fn;
	void *ctx;
};

/* Per hart, written only by that hart (so its own data cache stays coherent). */
struct hart_state {
	struct handler handlers[IRQ_COUNT];
	int nesting;
};

static struct hart_state hart_states[2];

/* Work for hart 1, shared: always accessed through the uncached alias. */
struct mailbox {
	void (*fn)(void *);
	void *arg;
	uint32_t started, finished;
};

static struct mailbox mailbox;

static volatile struct mailbox *shared_mailbox(void)
{
	return platform_uncached(&mailbox);
}

PLATFORM_ISR_CODE unsigned platform_hart_id(void)
{
	unsigned id;

	__asm__ volatile("mv %0, tp" : "=r"(id)); /* cpu/rv32/start.S keeps the hart number in tp */
	return id;
}

unsigned platform_harts(void)
{
	return REG(SYSCTRL_HARTS);
}

uint64_t platform_cycles(void)
{
	uint32_t hi, lo, hi2;

	do {
		hi = read_mcycleh();
		lo = read_mcycle();
		hi2 = read_mcycleh();
	} while (hi != hi2);
	return ((uint64_t)hi << 32) | lo;
}

void platform_init(void)
{
	IRQ_MASK_WRITE(0);
	CSR_SET(mie, MIE_MEIE);
}

int platform_irq_attach(unsigned id, platform_isr_fn isr, void *ctx)
{
	struct hart_state *h = &hart_states[platform_hart_id()];

	if (id >= IRQ_COUNT || !isr)
		return EINVAL;
	h->handlers[id].fn = isr;
	h->handlers[id].ctx = ctx;
	IRQ_MASK_WRITE(read_irq_mask() | (1u << id));
	CSR_SET(mie, MIE_MEIE);
	CSR_SET(mstatus, MSTATUS_MIE);
	return 0;
}

void platform_irq_detach(unsigned id)
{
	struct hart_state *h = &hart_states[platform_hart_id()];

	if (id >= IRQ_COUNT)
		return;
	IRQ_MASK_WRITE(read_irq_mask() & ~(1u << id));
	h->handlers[id].fn = 0;
}

/* The example's interface (platform.h): no storm guard on this platform (its dispatcher is
 * part of the measured path of the fabric suite; docs/hw/soc.md). */
void platform_progress(void)
{
}

int platform_storm(unsigned *id, uint32_t *count)
{
	(void)id;
	(void)count;
	return 0;
}

void platform_irq_nesting(int on)
{
	hart_states[platform_hart_id()].nesting = on;
}

/* The example's interface (platform.h): one handler without context. */
static void (*example_isr)(void);

static void call_example_isr(void *ctx)
{
	(void)ctx;
	example_isr();
}

void platform_irq_enable(unsigned id, void (*isr)(void))
{
	example_isr = isr;
	platform_irq_attach(id, call_example_isr, 0);
}

__attribute__((noinline)) static void fatal_trap(uint32_t mcause)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t words[3] = { mcause, read_mepc(), read_mtval() };
	char text[] = "trap: mcause=00000000 mepc=00000000 mtval=00000000\n";
	char *fields[3] = { text + 13, text + 27, text + 42 };

	for (int f = 0; f < 3; f++)
		for (int k = 0; k < 8; k++)
			fields[f][k] = hex[(words[f] >> (28 - 4 * k)) & 0xFu];
	platform_uart_puts(text);
	platform_exit(3);
}

/* Called by trap_entry (cpu/rv32/start.S) with the caller-saved registers saved. */
void platform_trap(uint32_t mcause);
PLATFORM_ISR_CODE void platform_trap(uint32_t mcause)
{
	struct hart_state *h = &hart_states[platform_hart_id()];
	uint32_t pending;

	if (!(mcause & MCAUSE_IRQ) || (mcause & 0x1Fu) != MCAUSE_MEI)
		fatal_trap(mcause);
	/* serve the pending sources, highest priority (lowest id) first */
	while ((pending = read_irq_pending() & read_irq_mask()) != 0) {
		unsigned id = 0;
		while (!(pending & (1u << id)))
			id++;
		if (!h->handlers[id].fn)
			fatal_trap(mcause);
		if (h->nesting) {
			/* only sources of higher priority may interrupt this handler */
			uint32_t mask = read_irq_mask(), epc = read_mepc();
			uint32_t status = read_mstatus();
			IRQ_MASK_WRITE(mask & ((1u << id) - 1u));
			CSR_SET(mstatus, MSTATUS_MIE);
			h->handlers[id].fn(h->handlers[id].ctx);
			CSR_CLEAR(mstatus, MSTATUS_MIE);
			CSR_WRITE(mstatus, status);
			CSR_WRITE(mepc, epc);
			IRQ_MASK_WRITE(mask);
		} else {
			h->handlers[id].fn(h->handlers[id].ctx);
		}
	}
}

void platform_cache_invalidate(void)
{
	/* VexRiscv: 0x0000500F flushes the data cache (write-through: nothing to write back) */
	__asm__ volatile(".word 0x0000500F\n\tfence.i" ::: "memory");
}

void *platform_uncached(void *p)
{
	return (void *)((uintptr_t)p | SOC_RAM_UNCACHED);
}

/* cpu/rv32/start.S: run fn(arg) on the uncached alias of the current stack */
void platform_call_on_alias_stack(void (*fn)(void *), void *arg, uint32_t alias);

void platform_run_dcache_off(void (*fn)(void *), void *arg)
{
	platform_cache_invalidate();
	platform_call_on_alias_stack(fn, arg, SOC_RAM_UNCACHED);
	/* the cached copy of the stack may be stale after running on the alias */
	platform_cache_invalidate();
}

PLATFORM_ISR_CODE void platform_delay_loop(uint32_t iterations)
{
	if (!iterations)
		return;
	__asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(iterations)::"memory");
}

int platform_hart_start(unsigned hart, void (*fn)(void *), void *arg)
{
	volatile struct mailbox *m = shared_mailbox();

	if (hart != 1 || platform_harts() < 2)
		return ENODEV;
	if (m->started != m->finished)
		return EBUSY;
	m->fn = fn;
	m->arg = arg;
	m->started = m->started + 1u;
	board_line_raise(1u << FSUITE_LINE_DOORBELL);
	return 0;
}

void platform_hart_join(unsigned hart)
{
	volatile struct mailbox *m = shared_mailbox();

	if (hart != 1)
		return;
	while (m->started != m->finished)
		platform_delay_loop(50); /* a poll every ~100 cycles, not a saturated bus */
}

/* Hart 1: sleep until the doorbell line rings, run the work, report it done. */
void platform_hart_main(void);
void platform_hart_main(void)
{
	volatile struct mailbox *m = shared_mailbox();
	unsigned doorbell = board_line_irq(FSUITE_LINE_DOORBELL);

	IRQ_MASK_WRITE(1u << doorbell);
	CSR_SET(mie, MIE_MEIE); /* wfi wakes on it; mstatus.MIE stays 0: no trap */
	for (;;) {
		__asm__ volatile("wfi");
		if (!(read_irq_pending() & (1u << doorbell)))
			continue;
		board_line_ack(FSUITE_LINE_DOORBELL);
		if (m->started != m->finished) {
			IRQ_MASK_WRITE(0);
			m->fn(m->arg);
			CSR_CLEAR(mstatus, MSTATUS_MIE);
			IRQ_MASK_WRITE(1u << doorbell);
			m->finished = m->started;
		}
	}
}

void platform_console_speed(uint32_t cycles_per_bit)
{
	REG(UART_DIVISOR) = cycles_per_bit;
}

void platform_uart_write(const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		while (REG(UART_STATUS) & UART_TX_FULL) {
		}
		REG(UART_TXDATA) = (uint8_t)data[i];
	}
}

void platform_uart_puts(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	platform_uart_write(s, n);
}

void platform_exit(int code)
{
	while (!(REG(UART_STATUS) & UART_TX_IDLE)) {
	}
	REG(SYSCTRL_EXIT) = (uint32_t)code;
	for (;;) {
	}
}
