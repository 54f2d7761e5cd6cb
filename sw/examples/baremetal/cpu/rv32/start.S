/*
 * Start code and trap entry for the virtual SoC's RV32IM harts (VexRiscv, machine mode).
 *
 * Hart 0 resets to _start (address 0), hart 1 to _start + 8. Each sets its stack, gp and mtvec;
 * hart 0 clears .bss, runs main and reports main's return value to sysctrl EXIT; hart 1 waits
 * for work in platform_hart_main (cpu/rv32/platform.c).
 *
 * trap_entry is every hart's trap vector (mtvec, direct mode): it saves the caller-saved
 * registers, calls platform_trap(mcause) and returns with mret. Its first instruction is "the
 * ISR's first instruction" the SoC testbench records.
 */
	.section .text.start, "ax"
	.option norvc
	.globl _start
_start:
	li	a0, 0			/* hart 0: address 0 */
	j	1f
	li	a0, 1			/* hart 1: address 8 */
	j	1f
1:
	mv	tp, a0			/* tp holds the hart number (platform_hart_id) */
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, __stack_top
	la	t0, __stack_size
	mul	t0, t0, a0
	sub	sp, sp, t0
	la	t0, trap_entry
	csrw	mtvec, t0
	bnez	a0, 3f
	la	t0, __bss_start
	la	t1, __bss_end
2:	bgeu	t0, t1, 4f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	2b
4:	call	main
	call	platform_exit
5:	j	5b
3:	call	platform_hart_main
6:	j	6b

	.section .text.isr, "ax"	/* the interrupt path together (fabric_suite.h PLATFORM_ISR_CODE) */
	.balign 32			/* trap_entry starts an instruction-cache line */
	.globl	trap_entry
trap_entry:
	addi	sp, sp, -64
	sw	ra, 0(sp)
	sw	t0, 4(sp)
	sw	t1, 8(sp)
	sw	t2, 12(sp)
	sw	a0, 16(sp)
	sw	a1, 20(sp)
	sw	a2, 24(sp)
	sw	a3, 28(sp)
	sw	a4, 32(sp)
	sw	a5, 36(sp)
	sw	a6, 40(sp)
	sw	a7, 44(sp)
	sw	t3, 48(sp)
	sw	t4, 52(sp)
	sw	t5, 56(sp)
	sw	t6, 60(sp)
	csrr	a0, mcause
	call	platform_trap
	lw	ra, 0(sp)
	lw	t0, 4(sp)
	lw	t1, 8(sp)
	lw	t2, 12(sp)
	lw	a0, 16(sp)
	lw	a1, 20(sp)
	lw	a2, 24(sp)
	lw	a3, 28(sp)
	lw	a4, 32(sp)
	lw	a5, 36(sp)
	lw	a6, 40(sp)
	lw	a7, 44(sp)
	lw	t3, 48(sp)
	lw	t4, 52(sp)
	lw	t5, 56(sp)
	lw	t6, 60(sp)
	addi	sp, sp, 64
	mret

	.text
/*
 * void platform_call_on_alias_stack(void (*fn)(void *), void *arg, uint32_t alias):
 * call fn(arg) with sp moved to the alias (sp | alias) of the current stack, then move back.
 */
	.globl	platform_call_on_alias_stack
platform_call_on_alias_stack:
	mv	t0, sp
	or	sp, sp, a2
	addi	sp, sp, -16
	sw	ra, 12(sp)
	sw	t0, 8(sp)
	mv	t1, a0
	mv	a0, a1
	jalr	t1
	lw	ra, 12(sp)
	lw	t0, 8(sp)
	mv	sp, t0
	ret
