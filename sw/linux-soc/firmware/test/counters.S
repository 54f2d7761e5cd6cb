/*
 * The firmware's counter reads, checked from supervisor mode (hw/tb/test_linux_soc.py): a
 * program in the kernel's place that reads time, timeh, cycle and cycleh into every register
 * x1..x31 with every other register holding a known pattern, and records all 31 registers and
 * the CLINT's mtime word read just before and just after; counters.c checks the records and
 * ends the simulation with the number of failures (SBI system reset, reason = exit code).
 */
#define CLINT_MTIME 0xF000BFF8
#define PATTERN(i) (0x5A000000 + ((i) << 8) + (i))

	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, stack_top
	la	t0, s_trap
	csrw	stvec, t0
	call	counters_main
	mv	a1, a0			/* reason: the failures */
	li	a0, 0			/* shutdown */
	li	a6, 0
	li	a7, 0x53525354		/* SRST */
	ecall
1:	j	1b

/*
 * The supervisor's trap vector: an illegal instruction the firmware did not emulate lands here
 * (redirected as if delegated); scause and stval are recorded, the instruction skipped, every
 * register kept.
 */
	.align	2
s_trap:
	csrw	sscratch, t0
	la	t0, s_trap_record
	sw	t1, 0(t0)
	csrr	t1, scause
	sw	t1, 4(t0)
	csrr	t1, stval
	sw	t1, 8(t0)
	csrr	t1, sepc
	addi	t1, t1, 4
	csrw	sepc, t1
	lw	t1, 0(t0)
	csrr	t0, sscratch
	sret

/*
 * probe: void probe_<n>(void) runs the instruction INSN with x1..x31 = PATTERN(i) and writes
 * record[0..31] = the registers after it (x0 as 0), record[32], record[33] = the mtime word
 * at OFF (0 low, 4 high) read before and after.
 */
	.macro	probe n, insn, off
	.globl	probe_\n
probe_\n:
	la	t0, saved
	sw	ra, 0(t0)
	sw	sp, 4(t0)
	sw	gp, 8(t0)
	sw	tp, 12(t0)
	sw	s0, 16(t0)
	sw	s1, 20(t0)
	sw	s2, 24(t0)
	sw	s3, 28(t0)
	sw	s4, 32(t0)
	sw	s5, 36(t0)
	sw	s6, 40(t0)
	sw	s7, 44(t0)
	sw	s8, 48(t0)
	sw	s9, 52(t0)
	sw	s10, 56(t0)
	sw	s11, 60(t0)
	li	t0, CLINT_MTIME
	lw	t1, \off(t0)
	la	t0, record
	sw	t1, 128(t0)
	.irp	i, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	li	x\i, PATTERN(\i)
	.endr
	.word	\insn
	csrw	sscratch, x1
	la	x1, record
	.irp	i, 2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sw	x\i, 4*\i(x1)
	.endr
	csrr	x2, sscratch
	sw	x2, 4(x1)
	sw	zero, 0(x1)
	li	t0, CLINT_MTIME
	lw	t1, \off(t0)
	sw	t1, 132(x1)
	la	t0, saved
	lw	ra, 0(t0)
	lw	sp, 4(t0)
	lw	gp, 8(t0)
	lw	tp, 12(t0)
	lw	s0, 16(t0)
	lw	s1, 20(t0)
	lw	s2, 24(t0)
	lw	s3, 28(t0)
	lw	s4, 32(t0)
	lw	s5, 36(t0)
	lw	s6, 40(t0)
	lw	s7, 44(t0)
	lw	s8, 48(t0)
	lw	s9, 52(t0)
	lw	s10, 56(t0)
	lw	s11, 60(t0)
	ret
	.endm

/* csrrs rd, csr, x0 (csrr) of time 0xC01, timeh 0xC81, cycle 0xC00, cycleh 0xC80, each rd */
	.irp	rd, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	probe	time_\rd, (0xC0102073 | (\rd << 7)), 0
	probe	timeh_\rd, (0xC8102073 | (\rd << 7)), 4
	probe	cycle_\rd, (0xC0002073 | (\rd << 7)), 0
	probe	cycleh_\rd, (0xC8002073 | (\rd << 7)), 4
	.endr
/* the reads' probes, in the order of the loop above: probe_reads[4 * (rd - 1) + k] */
	.section .rodata
	.align	2
	.globl	probe_reads
probe_reads:
	.irp	rd, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.word	probe_time_\rd, probe_timeh_\rd, probe_cycle_\rd, probe_cycleh_\rd
	.endr
	.text
/* the other read forms: csrrc rd, time, x0; csrrsi rd, timeh, 0; csrrci rd, time, 0 (rd = t2) */
	probe	csrrc, (0xC0103073 | (7 << 7)), 0
	probe	csrrsi, (0xC8106073 | (7 << 7)), 4
	probe	csrrci, (0xC0107073 | (7 << 7)), 0
/* not reads (rd = t2): csrrs t2, time, x1 (a write), csrrs t2, 0xC02 (instret), csrrw t2, time */
	probe	write, (0xC010A073 | (7 << 7)), 0
	probe	instret, (0xC0202073 | (7 << 7)), 0
	probe	csrrw, (0xC0001073 | (1 << 20) | (7 << 7)), 0

	.data
	.align	2
	.globl	record, s_trap_record
record:	.space	4 * 34
s_trap_record: .space	12
saved:	.space	64
	.bss
	.align	4
	.space	4096
stack_top:
