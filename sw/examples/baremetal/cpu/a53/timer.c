/*
 * The timer section of platform.h on a Cortex-A53 (what the timer suite needs): the ARM generic
 * timer (virtual timer, PPI 27), the GICv2 (software-generated interrupt 1 as the low-priority
 * one), the MMU and caches (an identity map of 4 GiB), PSCI CPU_ON for the second core. Where the
 * GIC is and which cores are the program's come from the board (board/zcu102.c, board/virt.c).
 * The program's handlers are reached through the hooks given to platform_timer_init().
 *
 * Priorities: the timer 0x40 (high), the SGI 0xA0 (low); the binary point is 0, so the timer
 * preempts the SGI's handler once that unmasks interrupts.
 */
#include "cpu/a53/a53.h"
#include "cpu/arm/gic.h"
#include "latmon_errno.h"
#include "platform.h"

#define TIMER_PPI 27u /* the EL1 virtual timer */
#define SOFT_SGI  1u
#define PRIO_HIGH 0x40u
#define PRIO_LOW  0xA0u

#define GICD_SGIR  0xF00u
#define GICD_TYPER 0x004u
#define GICC_BPR   0x008u

/* The program's handlers (platform_timer_init). */
static const struct platform_timer_hooks *hooks;

/* ---- counter and timer ---- */

uint64_t platform_cycles(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
	return v;
}

uint64_t platform_cycles_hz(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

void platform_timer_fire_at(uint64_t at)
{
	__asm__ volatile("msr cntv_cval_el0, %0\n\tmsr cntv_ctl_el0, %1\n\tisb" ::"r"(at), "r"(1ull)
			 : "memory");
}

/*
 * Broken handlers the tests inject through the command line (docs/target/qemu.md, "When a
 * handler is broken"): "inject=no-clear" (the timer's handler leaves cntv_ctl_el0 enabled: its
 * line stays asserted, a storm), "inject=second-line-storm" (the timer's first handler run enables
 * a device interrupt, UART0's TX-empty on the ZCU102, whose handler never clears it: a storm
 * on a second line), "inject=isr-fault" (a
 * data abort inside the timer's handler), "inject=isr-spin" (the timer's handler never returns,
 * interrupts unmasked). Read once by main().
 */
static int inject_no_clear, inject_isr_fault, inject_isr_spin, inject_storm;
static unsigned storm_id;

static void storm_isr(uint64_t entry)
{
	(void)entry; /* the broken driver: its device's interrupt status is never cleared */
}

static void set_priority(unsigned id, unsigned prio);
static void enable_irq(unsigned id, int on);

static void timer_isr(uint64_t entry)
{
	if (!inject_no_clear)
		__asm__ volatile("msr cntv_ctl_el0, %0\n\tisb" ::"r"(0ull) : "memory"); /* low */
	if (inject_isr_fault)
		a53_misaligned_pl_read();
	if (inject_isr_spin) {
		platform_irq_unmask();
		for (;;)
			__asm__ volatile("" ::: "memory");
	}
	if (inject_storm == 1) {
		inject_storm = 2;
		storm_id = a53_board_storm_line();
		if (storm_id) {
			a53_irq_route(storm_id, storm_isr);
			set_priority(storm_id, PRIO_LOW);
			*(volatile uint8_t *)(uintptr_t)(a53_board.gicd + GICD_ITARGETSR +
							 storm_id) =
			    (uint8_t)(1u << a53_board.boot_cpu);
			enable_irq(storm_id, 1);
		}
	}
	hooks->on_timer(entry);
}

/* The suite's core number: 0 for the core main() runs on, 1 for the second one. */
unsigned platform_hart_id(void)
{
	uint64_t mpidr;

	__asm__ volatile("mrs %0, mpidr_el1" : "=r"(mpidr));
	return (unsigned)(mpidr & 0xFFu) == a53_board.boot_cpu ? 0u : 1u;
}

/* ---- interrupts ---- */

void platform_irq_mask(void)
{
	__asm__ volatile("msr daifset, #2" ::: "memory");
}

void platform_irq_unmask(void)
{
	__asm__ volatile("msr daifclr, #2" ::: "memory");
}

/*
 * The watchdog: the EL1 physical timer (PPI 30), above every other priority, so that it is
 * taken while the measured interrupt storms or its handler runs with interrupts on. It serves
 * the per-case watchdog (platform_watchdog_at) and the wake-up of platform_idle_until. It counts on
 * the physical counter; the suite on the virtual one: a deadline is moved by their offset
 * (CNTVOFF, 0 on bare metal, the domain's start under Xen).
 */
#define WATCHDOG_PPI  30u
#define PRIO_WATCHDOG 0x00u

static uint64_t watchdog_case_at[2]; /* per core: the case watchdog's deadline (virtual) */

static void watchdog_program(uint64_t at)
{
	uint64_t v0, p, v1;

	if (!at) {
		__asm__ volatile("msr cntp_ctl_el0, %0\n\tisb" ::"r"(0ull) : "memory");
		return;
	}
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb\n\tmrs %1, cntpct_el0\n\tisb\n\t"
			 "mrs %2, cntvct_el0"
			 : "=r"(v0), "=r"(p), "=r"(v1)::"memory");
	(void)v1;
	/* physical = virtual + (p - v0); reading v0 before p errs early by the read's time */
	__asm__ volatile(
	    "msr cntp_cval_el0, %0\n\tmsr cntp_ctl_el0, %1\n\tisb" ::"r"(at + (p - v0)), "r"(1ull)
	    : "memory");
}

int platform_watchdog_at(uint64_t at)
{
	if (!a53_board.phys_timer)
		return ENOTSUP;
	watchdog_case_at[platform_hart_id() % 2u] = at;
	watchdog_program(at);
	return 0;
}

void platform_idle_until(uint64_t deadline)
{
	uint64_t wd = watchdog_case_at[platform_hart_id() % 2u];

	/* no timer where the board says the physical timer cannot be relied on: a lost
	 * interrupt is then the case watchdog's bounded waits and the host's time limit */
	if (a53_board.phys_timer)
		watchdog_program(wd && wd < deadline ? wd : deadline);
	__asm__ volatile("dsb sy\n\twfi" ::: "memory");
	if (a53_board.phys_timer)
		watchdog_program(wd);
}

static void watchdog_isr(uint64_t entry)
{
	(void)entry;
	__asm__ volatile("msr cntp_ctl_el0, %0\n\tisb" ::"r"(0ull) : "memory");
	hooks->watchdog_expired();
}

/* The watchdog's view of the dispatch (cpu/a53/platform.c): every interrupt but its own timer. */
int a53_irq_admit(unsigned id)
{
	return id == WATCHDOG_PPI ? 0 : hooks->irq_entry(id);
}

void a53_irq_done(unsigned id)
{
	if (id != WATCHDOG_PPI)
		hooks->irq_done(id);
}

void platform_relax(void)
{
	/* a hint on a Cortex-A53; QEMU's single-threaded TCG runs the next core on it */
	__asm__ volatile("yield" ::: "memory");
}

void platform_soft_irq_raise(unsigned core)
{
	unsigned target = core == 0 ? a53_board.boot_cpu : a53_board.second_cpu;

	__asm__ volatile("dsb sy" ::: "memory");
	mmio_w32(a53_board.gicd + GICD_SGIR, (1u << (16u + target)) | SOFT_SGI);
}

static void set_priority(unsigned id, unsigned prio)
{
	*(volatile uint8_t *)(uintptr_t)(a53_board.gicd + GICD_IPRIORITYR + id) = (uint8_t)prio;
}

static void enable_irq(unsigned id, int on)
{
	mmio_w32(a53_board.gicd + (on ? GICD_ISENABLER : GICD_ICENABLER) + 4u * (id / 32u),
		 1u << (id % 32u));
}

void platform_irq_line(unsigned id, int on)
{
	enable_irq(id, on);
}

void platform_timer_irqs_restore(void)
{
	enable_irq(WATCHDOG_PPI, 1);
	enable_irq(TIMER_PPI, 1);
	enable_irq(SOFT_SGI, 1);
}

/* This core's banked part of the distributor (SGIs, PPIs) and its CPU interface. */
static void gic_core_init(void)
{
	set_priority(TIMER_PPI, PRIO_HIGH);
	set_priority(SOFT_SGI, PRIO_LOW);
	set_priority(WATCHDOG_PPI, PRIO_WATCHDOG);
	enable_irq(WATCHDOG_PPI, 1);
	enable_irq(TIMER_PPI, 1);
	enable_irq(SOFT_SGI, 1);
	mmio_w32(a53_board.gicc + GICC_PMR, 0xF0u);
	mmio_w32(a53_board.gicc + GICC_BPR, 0u);
	mmio_w32(a53_board.gicc + GICC_CTLR, 1u);
}

static void soft_isr(uint64_t entry)
{
	hooks->on_soft_irq(entry);
}

/*
 * Every SPI (to this core) and every other SGI. When another OS owns the distributor (cores
 * next to Linux) its SPIs are not this program's to take: only the SGIs, banked per core.
 */
unsigned platform_many_irqs(int on)
{
	unsigned lines = 32u * ((mmio_r32(a53_board.gicd + GICD_TYPER) & 0x1Fu) + 1u);
	unsigned n = 0;

	if (a53_board.gic_shared)
		lines = 32u;
	for (unsigned id = 32; id < lines; id++) { /* every SPI, low priority, to this core */
		set_priority(id, PRIO_LOW);
		*(volatile uint8_t *)(uintptr_t)(a53_board.gicd + GICD_ITARGETSR + id) =
		    (uint8_t)(1u << a53_board.boot_cpu);
		enable_irq(id, on);
		n++;
	}
	for (unsigned id = 0; id < 16u; id++) /* the other SGIs */
		if (id != SOFT_SGI) {
			enable_irq(id, on);
			n++;
		}
	return on ? n : 0;
}

/* ---- MMU and caches ---- */

/* The identity map (cpu/a53/a53.h); what is normal memory and what is a device: the board's. */
static uint64_t l1_table[512] __attribute__((aligned(4096)));
static uint64_t l2_table[512] __attribute__((aligned(4096)));

static int current_el(void)
{
	uint64_t el;

	__asm__ volatile("mrs %0, CurrentEL" : "=r"(el));
	return (int)((el >> 2) & 3u);
}

static void build_tables(void)
{
	a53_board_mmu_map(l1_table, l2_table);
	__asm__ volatile("dsb sy" ::: "memory");
}

/* Clean and invalidate the data caches by set/way, every level the CLIDR reports. */
static void dcache_clean_invalidate_all(void)
{
	uint64_t clidr;

	__asm__ volatile("mrs %0, clidr_el1" : "=r"(clidr));
	for (unsigned level = 0; level < 7u; level++) {
		unsigned ctype = (unsigned)(clidr >> (3u * level)) & 7u;
		uint64_t ccsidr;
		unsigned line_shift, ways, sets, way_shift = 0;

		if (ctype < 2u) /* no cache or instruction cache only */
			continue;
		__asm__ volatile("msr csselr_el1, %0\n\tisb\n\tmrs %1, ccsidr_el1"
				 : "=r"(ccsidr)
				 : "r"((uint64_t)level << 1)
				 : "memory");
		line_shift = (unsigned)(ccsidr & 7u) + 4u;
		ways = (unsigned)((ccsidr >> 3) & 0x3FFu) + 1u;
		sets = (unsigned)((ccsidr >> 13) & 0x7FFFu) + 1u;
		while ((1u << way_shift) < ways)
			way_shift++;
		for (unsigned way = 0; way < ways; way++)
			for (unsigned set = 0; set < sets; set++) {
				uint64_t sw = ((uint64_t)level << 1) |
					      ((uint64_t)set << line_shift) |
					      (way_shift ? (uint64_t)way << (32u - way_shift) : 0);
				__asm__ volatile("dc cisw, %0" ::"r"(sw) : "memory");
			}
	}
	__asm__ volatile("dsb sy\n\tisb" ::: "memory");
}

#define SCTLR_M (1ull << 0)
#define SCTLR_C (1ull << 2)
#define SCTLR_I (1ull << 12)

#define SYSREG_RW(name)                                                                       \
	static uint64_t read_##name(int el)                                                   \
	{                                                                                     \
		uint64_t v;                                                                   \
		if (el == 3)                                                                  \
			__asm__ volatile("mrs %0, " #name "_el3" : "=r"(v));                  \
		else                                                                          \
			__asm__ volatile("mrs %0, " #name "_el1" : "=r"(v));                  \
		return v;                                                                     \
	}                                                                                     \
	static void write_##name(int el, uint64_t v)                                          \
	{                                                                                     \
		if (el == 3)                                                                  \
			__asm__ volatile("msr " #name "_el3, %0\n\tisb" ::"r"(v) : "memory"); \
		else                                                                          \
			__asm__ volatile("msr " #name "_el1, %0\n\tisb" ::"r"(v) : "memory"); \
	}
SYSREG_RW(sctlr)
SYSREG_RW(tcr)
SYSREG_RW(mair)
SYSREG_RW(ttbr0)

static void invalidate_tlb_icache(int el)
{
	if (el == 3)
		__asm__ volatile("tlbi alle3\n\tic iallu\n\tdsb sy\n\tisb" ::: "memory");
	else
		__asm__ volatile("tlbi vmalle1\n\tic iallu\n\tdsb sy\n\tisb" ::: "memory");
}

static int caches_on_now;

static void mmu_caches_on(void)
{
	int el = current_el();

	invalidate_tlb_icache(el);
	write_mair(el, A53_MAIR); /* device-nGnRnE, normal write-back, normal non-cacheable */
	/* T0SZ 32, inner/outer write-back, inner shareable, 4 KiB granule; EL3: PS 32 bits */
	write_tcr(el, 32u | (1u << 8) | (1u << 10) | (3u << 12) | (1ull << 23) |
			  (el == 3 ? (1ull << 31) : 0));
	(void)read_tcr;
	(void)read_mair;
	(void)read_ttbr0;
	write_ttbr0(el, (uint64_t)(uintptr_t)l1_table);
	write_sctlr(el, read_sctlr(el) | SCTLR_M | SCTLR_C | SCTLR_I);
	caches_on_now = 1;
}

static void mmu_caches_off(void)
{
	int el = current_el();

	write_sctlr(el, read_sctlr(el) & ~(SCTLR_M | SCTLR_C | SCTLR_I));
	dcache_clean_invalidate_all();
	invalidate_tlb_icache(el);
	caches_on_now = 0;
}

int platform_caches(enum platform_caches mode)
{
	switch (mode) {
	case PLATFORM_CACHES_ON:
		if (!caches_on_now)
			mmu_caches_on();
		return 0;
	case PLATFORM_CACHES_OFF:
		if (caches_on_now)
			mmu_caches_off();
		return 0;
	case PLATFORM_CACHES_INVALIDATE:
		dcache_clean_invalidate_all();
		invalidate_tlb_icache(current_el());
		return 0;
	}
	return EINVAL;
}

void platform_cache_invalidate(void)
{
	(void)platform_caches(PLATFORM_CACHES_INVALIDATE);
}

/* The A53 switches its caches off at run time: the whole of @p fn runs with them off. */
void platform_run_dcache_off(void (*fn)(void *), void *arg)
{
	int was_on = caches_on_now;

	(void)platform_caches(PLATFORM_CACHES_OFF);
	fn(arg);
	if (was_on)
		(void)platform_caches(PLATFORM_CACHES_ON);
}

/* The cores' view of memory is coherent (inner shareable): the same address. */
void *platform_uncached(void *p)
{
	return p;
}

/* ---- core 1 ---- */

static uint64_t core1_stack[2048] __attribute__((aligned(16)));
static void (*volatile core1_fn)(void *);
static void *volatile core1_arg;

extern void secondary_entry(void);
extern volatile uint64_t platform_spin_release; /* cpu/a53/start.S */

void platform_secondary_main(void);
void platform_secondary_main(void)
{
	if (caches_on_now)
		mmu_caches_on();
	gic_core_init();
	core1_fn(core1_arg);
}

unsigned platform_harts(void)
{
	return 2u;
}

int platform_hart_start(unsigned hart, void (*fn)(void *), void *arg)
{
	uint64_t stack_top = (uint64_t)(uintptr_t)(core1_stack + 2048);

	if (hart != 1u)
		return EINVAL;
	core1_fn = fn;
	core1_arg = arg;
	dcache_clean_invalidate_all(); /* core 1 starts with its caches off */
	/*
	 * Below EL3 a PSCI firmware (ATF on a board, QEMU's built-in PSCI, Xen for its guests)
	 * starts the core with CPU_ON. At EL3 there is none: a core parked in cpu/a53/start.S's
	 * spin table (a boot loader that released every core) is released by the word.
	 */
	if (current_el() == 3) {
		platform_spin_release = stack_top;
		__asm__ volatile("dsb sy\n\tsev" ::: "memory");
		return 0;
	}
	return a53_psci_cpu_on(a53_board.second_cpu, (uint64_t)(uintptr_t)secondary_entry,
			       stack_top) == 0
		   ? 0
		   : ENOTSUP;
}

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

int platform_timer_init(const struct platform_timer_hooks *h)
{
	char cmdline[256];

	hooks = h;
	if (platform_cmdline(cmdline, sizeof cmdline) == 0) {
		inject_no_clear = has_word(cmdline, "inject=no-clear");
		inject_isr_fault = has_word(cmdline, "inject=isr-fault");
		inject_isr_spin = has_word(cmdline, "inject=isr-spin");
		inject_storm = has_word(cmdline, "inject=second-line-storm");
	}
	a53_irq_route(TIMER_PPI, timer_isr);
	a53_irq_route(SOFT_SGI, soft_isr);
	a53_irq_route(WATCHDOG_PPI, watchdog_isr);
	build_tables();
	if (!a53_board.gic_shared)
		mmio_w32(a53_board.gicd + GICD_CTLR, 1u);
	gic_core_init();
	return 0;
}
