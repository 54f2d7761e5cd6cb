/*
 * Machine-mode firmware of the Linux SoC (docs/hw/linux-soc.md): a minimal SBI for one
 * VexRiscv_Linux hart, what Linux 6.1 needs and nothing else.
 *
 * - SBI v0.3: base, TIME, IPI, RFENCE (local: one hart), SRST (ends the simulation through
 *   sysctrl EXIT), and the legacy v0.1 calls (console putchar/getchar on the UART, set_timer,
 *   IPI, fences, shutdown).
 * - The time CSRs (time, timeh, and cycle, cycleh: the same clock) that the core lacks are
 *   emulated from the CLINT's mtime on the illegal-instruction trap.
 * - Misaligned loads and stores are emulated byte by byte with the trapped mode's translation.
 * - Everything else the hardware cannot delegate (ebreak, any other illegal instruction) is
 *   passed to the supervisor's trap vector as if delegated.
 * The machine timer interrupt becomes the supervisor's (mip.STIP); the PLIC's context drives the
 * supervisor external interrupt through VexRiscv's supervisor interrupt mask (CSR 0x9C0).
 */
#include <stdint.h>

#define RAM_BASE     0x80000000u
#define KERNEL_ENTRY 0x80400000u
#define DTB_ADDR     0x81F00000u

#define SYSCTRL_EXIT   0xB000000Cu
#define UART_TXDATA    0xB0010000u
#define UART_STATUS    0xB0010004u
#define UART_DIVISOR   0xB0010008u
#define CLINT_MSIP     0xF0000000u
#define CLINT_MTIMECMP 0xF0004000u
#define CLINT_MTIME    0xF000BFF8u

#define MSTATUS_SIE   (1u << 1)
#define MSTATUS_SPIE  (1u << 5)
#define MSTATUS_SPP   (1u << 8)
#define MSTATUS_MPP   (3u << 11)
#define MSTATUS_MPP_S (1u << 11)
#define MIP_SSIP      (1u << 1)
#define MIP_MSIP      (1u << 3)
#define MIP_STIP      (1u << 5)
#define MIP_MTIP      (1u << 7)
#define MIP_SEIP      (1u << 9)

#define SBI_ERR_NOT_SUPPORTED (-2)
#define EXT_BASE	      0x10u
#define EXT_TIME	      0x54494D45u
#define EXT_IPI		      0x735049u
#define EXT_RFENCE	      0x52464E43u
#define EXT_SRST	      0x53525354u

#define REG_RA 1
#define REG_A0 10
#define REG_A1 11
#define REG_A2 12
#define REG_A6 16
#define REG_A7 17

#define csr_read(csr)                                          \
	({                                                     \
		uint32_t v_;                                   \
		__asm__ volatile("csrr %0, " #csr : "=r"(v_)); \
		v_;                                            \
	})
#define csr_write(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"r"((uint32_t)(v)))
#define csr_set(csr, v)	  __asm__ volatile("csrs " #csr ", %0" ::"r"((uint32_t)(v)))
#define csr_clear(csr, v) __asm__ volatile("csrc " #csr ", %0" ::"r"((uint32_t)(v)))

uint32_t fw_mprv_access(uint32_t addr, uint32_t value, uint32_t op, uint32_t *fault);
void fw_main(void);
void fw_trap(uint32_t *regs);

static inline uint32_t mmio_read(uint32_t addr)
{
	return *(volatile uint32_t *)addr;
}

static inline void mmio_write(uint32_t addr, uint32_t value)
{
	*(volatile uint32_t *)addr = value;
}

static void uart_putc(int c)
{
	while (mmio_read(UART_STATUS) & 1u)
		;
	mmio_write(UART_TXDATA, (uint32_t)c & 0xFFu);
}

static void uart_puts(const char *s)
{
	while (*s) {
		if (*s == '\n')
			uart_putc('\r');
		uart_putc(*s++);
	}
}

static uint64_t mtime(void)
{
	uint32_t hi, lo;

	do {
		hi = mmio_read(CLINT_MTIME + 4);
		lo = mmio_read(CLINT_MTIME);
	} while (hi != mmio_read(CLINT_MTIME + 4));
	return ((uint64_t)hi << 32) | lo;
}

static void set_timer(uint32_t lo, uint32_t hi)
{
	/* no spurious compare while the two halves change */
	mmio_write(CLINT_MTIMECMP + 4, 0xFFFFFFFFu);
	mmio_write(CLINT_MTIMECMP, lo);
	mmio_write(CLINT_MTIMECMP + 4, hi);
	csr_clear(mip, MIP_STIP);
	csr_set(mie, MIP_MTIP);
}

static void power_off(uint32_t code)
{
	uart_puts("fw: system reset\n");
	while (!(mmio_read(UART_STATUS) & 2u)) /* TX_IDLE: the last byte is on the line */
		;
	mmio_write(SYSCTRL_EXIT, code);
	for (;;)
		__asm__ volatile("wfi");
}

/* Hand the trap to the supervisor's vector as if the hardware had delegated it. */
static void redirect(uint32_t cause, uint32_t tval, uint32_t epc, uint32_t mstatus)
{
	uint32_t s = mstatus & ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE | MSTATUS_MPP);

	if ((mstatus & MSTATUS_MPP) != 0)
		s |= MSTATUS_SPP; /* from supervisor mode */
	if (mstatus & MSTATUS_SIE)
		s |= MSTATUS_SPIE;
	s |= MSTATUS_MPP_S;
	csr_write(scause, cause);
	csr_write(stval, tval);
	csr_write(sepc, epc);
	csr_write(mepc, csr_read(stvec));
	csr_write(mstatus, s);
}

static int32_t sbi_base(uint32_t fid, uint32_t arg, uint32_t *value)
{
	switch (fid) {
	case 0: /* spec version 0.3 */
		*value = 3;
		return 0;
	case 1: /* implementation ID: not a registered one ("LM") */
		*value = 0x4C4D;
		return 0;
	case 2:
		*value = 1;
		return 0;
	case 3:
		*value = arg == EXT_BASE || arg == EXT_TIME || arg == EXT_IPI ||
			 arg == EXT_RFENCE || arg == EXT_SRST || arg <= 8u;
		return 0;
	case 4:
		*value = csr_read(mvendorid);
		return 0;
	case 5:
		*value = csr_read(marchid);
		return 0;
	case 6:
		*value = csr_read(mimpid);
		return 0;
	default:
		return SBI_ERR_NOT_SUPPORTED;
	}
}

static void sbi_call(uint32_t *regs)
{
	uint32_t ext = regs[REG_A7], fid = regs[REG_A6];
	uint32_t a0 = regs[REG_A0], a1 = regs[REG_A1];
	uint32_t value = 0;
	int32_t err = 0;

	switch (ext) {
	case 0: /* legacy set_timer */
		set_timer(a0, a1);
		regs[REG_A0] = 0;
		return;
	case 1: /* legacy console_putchar */
		uart_putc((int)a0);
		regs[REG_A0] = 0;
		return;
	case 2: /* legacy console_getchar: no input */
		regs[REG_A0] = (uint32_t)-1;
		return;
	case 3: /* legacy clear_ipi */
		csr_clear(mip, MIP_SSIP);
		regs[REG_A0] = 0;
		return;
	case 4: /* legacy send_ipi: one hart, itself */
		csr_set(mip, MIP_SSIP);
		regs[REG_A0] = 0;
		return;
	case 5: /* legacy remote_fence_i */
		__asm__ volatile("fence.i" ::: "memory");
		regs[REG_A0] = 0;
		return;
	case 6: /* legacy remote_sfence_vma(_asid) */
	case 7:
		__asm__ volatile("sfence.vma" ::: "memory");
		regs[REG_A0] = 0;
		return;
	case 8: /* legacy shutdown */
		power_off(0);
		return;
	case EXT_BASE:
		err = sbi_base(fid, a0, &value);
		break;
	case EXT_TIME:
		if (fid == 0)
			set_timer(a0, a1);
		else
			err = SBI_ERR_NOT_SUPPORTED;
		break;
	case EXT_IPI:
		/* hart mask a0 from base a1 (all harts if base is -1): only hart 0 exists */
		if (fid != 0)
			err = SBI_ERR_NOT_SUPPORTED;
		else if (a1 == 0xFFFFFFFFu || (a1 == 0 && (a0 & 1u)))
			csr_set(mip, MIP_SSIP);
		break;
	case EXT_RFENCE:
		if (fid == 0)
			__asm__ volatile("fence.i" ::: "memory");
		else if (fid == 1 || fid == 2)
			__asm__ volatile("sfence.vma" ::: "memory");
		else
			err = SBI_ERR_NOT_SUPPORTED;
		break;
	case EXT_SRST:
		if (fid == 0)
			power_off(a1); /* the reset reason is the simulation's exit code */
		err = SBI_ERR_NOT_SUPPORTED;
		break;
	default:
		err = SBI_ERR_NOT_SUPPORTED;
		break;
	}
	regs[REG_A0] = (uint32_t)err;
	regs[REG_A1] = value;
}

/* time, timeh, cycle, cycleh read with csrr (csrrs rd, csr, x0): from the CLINT's mtime. */
static int emulate_csr(uint32_t *regs, uint32_t insn)
{
	uint32_t csr = insn >> 20, rd = (insn >> 7) & 31u, rs1 = (insn >> 15) & 31u;
	uint32_t funct3 = (insn >> 12) & 7u;
	uint64_t t;

	if ((insn & 0x7Fu) != 0x73u || (funct3 != 2 && funct3 != 3 && funct3 != 6 && funct3 != 7))
		return 0;
	if (rs1 != 0) /* a write to a read-only counter */
		return 0;
	if (csr != 0xC00 && csr != 0xC01 && csr != 0xC80 && csr != 0xC81)
		return 0;
	t = mtime();
	if (rd != 0)
		regs[rd] = (csr & 0x80u) ? (uint32_t)(t >> 32) : (uint32_t)t;
	return 1;
}

/* A misaligned load or store, done byte by byte with the trapped mode's translation. */
static void emulate_misaligned(uint32_t *regs, uint32_t cause, uint32_t addr, uint32_t epc,
			       uint32_t mstatus)
{
	uint32_t insn = 0, fault = 0, i, size, funct3, value = 0;

	for (i = 0; i < 4 && !fault; i++)
		insn |= fw_mprv_access(epc + i, 0, 0, &fault) << (8 * i);
	if (fault) {
		csr_write(mstatus, mstatus);
		redirect(12, epc, epc, mstatus); /* instruction page fault */
		return;
	}
	funct3 = (insn >> 12) & 7u;
	size = 1u << (funct3 & 3u);
	if (cause == 4) { /* load: lh, lw, lhu */
		for (i = 0; i < size && !fault; i++)
			value |= fw_mprv_access(addr + i, 0, 0, &fault) << (8 * i);
		if (fault) {
			csr_write(mstatus, mstatus);
			redirect(13, addr, epc, mstatus);
			return;
		}
		if (funct3 == 1 && (value & 0x8000u))
			value |= 0xFFFF0000u;
		if (((insn >> 7) & 31u) != 0)
			regs[(insn >> 7) & 31u] = value;
	} else { /* store: sh, sw */
		value = regs[(insn >> 20) & 31u];
		for (i = 0; i < size && !fault; i++)
			fw_mprv_access(addr + i, value >> (8 * i), 1, &fault);
		if (fault) {
			csr_write(mstatus, mstatus);
			redirect(15, addr, epc, mstatus);
			return;
		}
	}
	csr_write(mstatus, mstatus);
	csr_write(mepc, epc + 4);
}

void fw_trap(uint32_t *regs)
{
	uint32_t cause = csr_read(mcause), epc = csr_read(mepc), tval = csr_read(mtval);
	uint32_t mstatus = csr_read(mstatus);

	if (cause & 0x80000000u) {
		switch (cause & 0xFFu) {
		case 7: /* machine timer: the supervisor's timer interrupt */
			csr_clear(mie, MIP_MTIP);
			csr_set(mip, MIP_STIP);
			break;
		case 3: /* machine software */
			mmio_write(CLINT_MSIP, 0);
			csr_set(mip, MIP_SSIP);
			break;
		default:
			break;
		}
		return;
	}
	switch (cause) {
	case 9: /* ecall from supervisor mode */
		sbi_call(regs);
		csr_write(mepc, epc + 4);
		return;
	case 2: /* illegal instruction: the counters the core lacks */
		if (emulate_csr(regs, tval)) {
			csr_write(mepc, epc + 4);
			return;
		}
		break;
	case 4: /* misaligned load */
	case 6: /* misaligned store */
		emulate_misaligned(regs, cause, tval, epc, mstatus);
		return;
	case 11: /* ecall from machine mode: a firmware bug */
		uart_puts("fw: ecall from machine mode\n");
		power_off(0xE0);
		return;
	default:
		break;
	}
	if ((mstatus & MSTATUS_MPP) == MSTATUS_MPP) {
		uart_puts("fw: trap in machine mode\n");
		power_off(0xE1);
	}
	redirect(cause, tval, epc, mstatus);
}

void fw_main(void)
{
	mmio_write(UART_DIVISOR, 4); /* a simulation speed-up: 4 cycles per bit */
	uart_puts("fw: latmon Linux SoC firmware (SBI v0.3)\n");
	/* delegated: misaligned fetch, access faults, user ecall, page faults */
	csr_write(medeleg, (1u << 0) | (1u << 1) | (1u << 5) | (1u << 7) | (1u << 8) | (1u << 12) |
			       (1u << 13) | (1u << 15));
	csr_write(mideleg, MIP_SSIP | MIP_STIP | MIP_SEIP);
	csr_write(0x9C0, 1u); /* external interrupt array bit 0 (the PLIC) is the supervisor's */
	csr_write(mie, MIP_MSIP);
	csr_write(mepc, KERNEL_ENTRY);
	csr_write(mstatus, MSTATUS_MPP_S);
	{
		register uint32_t a0 __asm__("a0") = 0;
		register uint32_t a1 __asm__("a1") = DTB_ADDR;

		__asm__ volatile("mret" ::"r"(a0), "r"(a1));
	}
	(void)RAM_BASE;
	(void)REG_RA;
	(void)REG_A2;
}
