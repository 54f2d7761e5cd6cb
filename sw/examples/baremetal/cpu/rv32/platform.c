/*
 * The virtual SoC's RV32IM harts (VexRiscv_Full: machine mode, external interrupt array with
 * its mask CSR 0xBC0 and pending CSR 0xFC0, 4 KiB I$ and D$) and its UART and sysctrl
 * (docs/hw/soc.md). The start code and the trap entry are cpu/rv32/start.S.
 */
#include <stdint.h>

#include "board/soc_map.h"
#include "latmon/latmon.h"
#include "latmon/latmon_log.h"
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
CSR_READER(read_mcause, mcause)
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

/*
 * The watchdog (docs/hw/soc.md, "When a handler is broken"). Two parts, neither in the measured
 * path (trap entry -> dispatcher -> the ISR's acknowledge) and neither depending on the broken
 * interrupt:
 *   - the storm guard, in the dispatcher after each handler has returned: a source served more
 *     than FSUITE_STORM_LIMIT times without the interrupted code running in between is masked
 *     and recorded; the suite ends its case with its ID and count;
 *   - hart 1, between the work it is given, wakes every WATCHDOG_TICK cycles (the doorbell
 *     line's compare) and checks that hart 0 has written to the console since: after
 *     WATCHDOG_TICKS ticks without, it names the case, the storm if one was recorded, and ends
 *     the run with status 1 (a handler that never returns, a storm on the measured line that
 *     leaves the case waiting for samples).
 * Shared by the harts: accessed through the uncached alias only.
 */
#define WATCHDOG_TICK  4000000u /* cycles: 40 ms of the SoC's 100 MHz */
#define WATCHDOG_TICKS 3u	/* ticks without console output: stuck (a batch prints in < 3 M) */

/* Work for hart 1 and the watchdog's state, shared: always accessed through the uncached
 * alias. */
struct mailbox {
	void (*fn)(void *);
	void *arg;
	uint32_t started, finished;
	/* the watchdog */
	uint32_t progress;     /* console writes of hart 0 */
	const char *case_name; /* the case hart 0 runs, or 0 */
	uint32_t storm_id;     /* 1 + the ID the storm guard masked, or 0 */
	uint32_t storm_count;  /* ... how often it was served without the case running */
	uint32_t storm_hart;
};

/* One object, so that the dispatcher's hart_state stays first, where it was before the
 * watchdog's fields were added to the mailbox; on a data-cache line of its own (32 bytes), so that
 * whether the dispatcher's first load hits does not depend on the variables the linker puts
 * before it (a case's pointer read just before the batch kept that line warm). */
static struct {
	struct hart_state harts[2];
	struct mailbox mailbox;
} state __attribute__((aligned(32)));

PLATFORM_ISR_TAIL_CODE static volatile struct mailbox *shared_mailbox(void)
{
	return platform_uncached(&state.mailbox);
}

PLATFORM_ISR_TAIL_CODE static volatile struct mailbox *shared_watchdog(void)
{
	return shared_mailbox();
}

/* Not in .text.isr: the dispatcher reads tp itself, and no handler asks. */
unsigned platform_hart_id(void)
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
	struct hart_state *h = &state.harts[platform_hart_id()];

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
	struct hart_state *h = &state.harts[platform_hart_id()];

	if (id >= IRQ_COUNT)
		return;
	IRQ_MASK_WRITE(read_irq_mask() & ~(1u << id));
	h->handlers[id].fn = 0;
}

int platform_irq_storm(unsigned *id, uint32_t *count, unsigned *hart)
{
	volatile struct mailbox *w = shared_watchdog();
	uint32_t stormed = w->storm_id;

	if (!stormed)
		return 0;
	*id = stormed - 1u;
	*count = w->storm_count;
	*hart = w->storm_hart;
	w->storm_id = 0;
	return 1;
}

void platform_watch_case(const char *name)
{
	volatile struct mailbox *w = shared_watchdog();

	w->case_name = name;
	w->progress = w->progress + 1u;
}

/* The example's interface (platform.h): the same storm guard; its main loop's passes are not
 * counted (the dispatcher counts per trap entry). */
void platform_progress(void)
{
}

int platform_storm(unsigned *id, uint32_t *count)
{
	unsigned hart;

	return platform_irq_storm(id, count, &hart);
}

void platform_irq_nesting(int on)
{
	state.harts[platform_hart_id()].nesting = on;
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

/*
 * The storm guard's slow path: the dispatcher calls it when one entry has run
 * FSUITE_STORM_LIMIT + 1 handlers (the interrupted code does not run while it loops), then
 * returns. It masks the source the dispatcher would serve again, the lowest pending one, and
 * records the first storm for the suite and the watchdog. In its own section after the waiting
 * loops, so that it shares no I$ line with them or with the interrupt path; cold, so that the
 * compiler puts its call after the dispatcher's loop.
 */
PLATFORM_ISR_TAIL_CODE __attribute__((noinline, cold)) static void storm_mask(void)
{
	volatile struct mailbox *w = shared_watchdog();
	uint32_t pending = read_irq_pending() & read_irq_mask();
	unsigned id = 0;

	if (!pending)
		return;
	while (!(pending & (1u << id)))
		id++;
	IRQ_MASK_WRITE(read_irq_mask() & ~(1u << id));
	if (!w->storm_id) {
		w->storm_count = FSUITE_STORM_LIMIT + 1u;
		w->storm_hart = platform_hart_id();
		w->storm_id = id + 1u;
	}
}

/* Called by trap_entry (cpu/rv32/start.S) with the caller-saved registers saved. */
void platform_trap(uint32_t mcause);
PLATFORM_ISR_CODE void platform_trap(uint32_t mcause)
{
	struct hart_state *h = &state.harts[platform_hart_id()];
	uint32_t pending;
	/*
	 * The storm guard: the handlers this entry may still run (the interrupted code does not run
	 * while this loop serves), counted down in a register after each handler has returned. The
	 * path to the first handler keeps the instructions it had without the guard (mcause is not
	 * kept: a fatal trap reads it again); each further handler of the entry costs the decrement
	 * and a branch, and no memory access.
	 */
	int32_t budget;

	if (!(mcause & MCAUSE_IRQ) || (mcause & 0x1Fu) != MCAUSE_MEI)
		fatal_trap(mcause);
	budget = FSUITE_STORM_LIMIT;
	/* serve the pending sources, highest priority (lowest id) first */
	pending = read_irq_pending() & read_irq_mask();
	if (!pending)
		return;
	do {
		unsigned id = 0;
		while (!(pending & (1u << id)))
			id++;
		if (!h->handlers[id].fn)
			fatal_trap(read_mcause());
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
		/* in asm: the compiler would move a plain decrement before the call */
		__asm__ volatile("addi %0, %0, -1" : "+r"(budget));
		if (budget < 0) {
			storm_mask();
			__asm__ volatile(""); /* a call, not a jump after a copy of the epilogue */
			return;
		}
	} while ((pending = read_irq_pending() & read_irq_mask()) != 0);
}

void platform_cache_invalidate(void)
{
	/* VexRiscv: 0x0000500F flushes the data cache (write-through: nothing to write back) */
	__asm__ volatile(".word 0x0000500F\n\tfence.i" ::: "memory");
}

PLATFORM_ISR_TAIL_CODE void *platform_uncached(void *p)
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

static void say_u32(uint32_t v)
{
	char text[LATMON_LOG_U64_TEXT];

	platform_uart_puts(latmon_log_format_u64(text, v));
}

struct watch_tick {
	uint32_t progress; /* hart 0's progress at the last tick */
	uint32_t stalled;  /* ticks since it changed */
};

/* Hart 1, a watchdog tick: has hart 0 written to the console since the last one? */
static void watchdog_tick(struct watch_tick *t)
{
	volatile struct mailbox *w = shared_watchdog();
	uint32_t progress = w->progress;
	unsigned id, hart;
	uint32_t count;

	if (progress != t->progress || !w->case_name) {
		t->progress = progress;
		t->stalled = 0;
		return;
	}
	if (++t->stalled < WATCHDOG_TICKS)
		return;
	platform_uart_puts("\nsuite: case ");
	platform_uart_puts(w->case_name);
	platform_uart_puts(": watchdog (hart 1): no progress on hart 0 for over ");
	say_u32((WATCHDOG_TICKS - 1u) * WATCHDOG_TICK);
	platform_uart_puts(" cycles");
	if (platform_irq_storm(&id, &count, &hart)) {
		platform_uart_puts("; interrupt ");
		say_u32(id);
		platform_uart_puts(" fired ");
		say_u32(count);
		platform_uart_puts(" times on hart ");
		say_u32(hart);
		platform_uart_puts(" without returning to the case (an interrupt storm: does its "
				   "handler acknowledge its line?) and was masked");
	} else {
		platform_uart_puts(" (a handler that never returns, or an interrupt that never "
				   "comes?)");
	}
	platform_uart_puts("; the run ends\n");
	platform_exit(1);
}

int platform_storm_report(const char *name)
{
	unsigned id, hart;
	uint32_t count;

	if (!platform_irq_storm(&id, &count, &hart))
		return 0;
	platform_uart_puts("suite: case ");
	platform_uart_puts(name);
	platform_uart_puts(": watchdog: interrupt ");
	say_u32(id);
	platform_uart_puts(" fired ");
	say_u32(count);
	platform_uart_puts(" times on hart ");
	say_u32(hart);
	platform_uart_puts(" without returning to the case (an interrupt storm: does its handler "
			   "acknowledge its line?); interrupt ");
	say_u32(id);
	platform_uart_puts(" masked\n");
	return 1;
}

/* Hart 1: sleep until the doorbell line rings, run the work, report it done; the watchdog's
 * ticks ring the same line. */
void platform_hart_main(void);
void platform_hart_main(void)
{
	volatile struct mailbox *m = shared_mailbox();
	unsigned doorbell = board_line_irq(FSUITE_LINE_DOORBELL);

	struct watch_tick tick = { 0, 0 };

	IRQ_MASK_WRITE(1u << doorbell);
	CSR_SET(mie, MIE_MEIE); /* wfi wakes on it; mstatus.MIE stays 0: no trap */
	board_line_at(FSUITE_LINE_DOORBELL, board_now() + WATCHDOG_TICK);
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
		} else {
			watchdog_tick(&tick);
		}
		/* the next tick (one shot; an earlier one armed during the work has rung) */
		board_line_at(FSUITE_LINE_DOORBELL, board_now() + WATCHDOG_TICK);
	}
}

/* The SoC gives its programs no command line (the suite's options are words the host patches in
 * the image: suite/fabric_suite.h). */
int platform_cmdline(char *buf, size_t size)
{
	if (size)
		buf[0] = 0;
	return 1;
}

void platform_console_speed(uint32_t cycles_per_bit)
{
	REG(UART_DIVISOR) = cycles_per_bit;
}

void platform_uart_write(const char *data, size_t len)
{
	if (platform_hart_id() == 0) {
		volatile struct mailbox *w = shared_watchdog();

		w->progress = w->progress + 1u;
	}
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
