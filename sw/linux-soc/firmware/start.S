/*
 * Machine-mode entry of the Linux SoC's firmware (docs/hw/linux-soc.md): reset, and the trap
 * entry through which every machine-mode trap (SBI call, time CSR, misaligned access, timer)
 * passes: the legacy console putchar is answered at once, the rest goes through fw_trap. The
 * trap frame holds x0..x31 at 4*i; mscratch holds the top of the firmware's stack.
 */
#define UART_BASE 0xB0010000	/* fw.c's UART_TXDATA; STATUS at +4 */

	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, _stack_top
	csrw	mscratch, sp
	la	t0, trap_entry
	csrw	mtvec, t0
	call	fw_main
1:	wfi
	j	1b

	.text
	.align	4
	.globl trap_entry
trap_entry:
	csrrw	sp, mscratch, sp
	/* t0 and t1 go to their slots of the frame below (x5 at 20, x6 at 24 past sp - 128) */
	sw	t0, -108(sp)
	sw	t1, -104(sp)
	/*
	 * The legacy console putchar (an ecall from supervisor mode with a7 = 1) is answered
	 * here, with t0 and t1 alone: the kernel's SBI console (earlycon, hvc0) makes one such
	 * call per character, and the whole frame and fw_trap cost several hundred cycles each.
	 * What it does is fw.c's: wait while the UART's TX FIFO is full, write the byte, a0 = 0,
	 * return past the ecall.
	 */
	csrr	t0, mcause
	li	t1, 9
	bne	t0, t1, trap_full
	li	t1, 1
	bne	a7, t1, trap_full
	li	t0, UART_BASE
1:	lw	t1, 4(t0)		/* STATUS: bit 0, the TX FIFO is full */
	andi	t1, t1, 1
	bnez	t1, 1b
	andi	t1, a0, 0xFF
	sw	t1, 0(t0)		/* TXDATA */
	li	a0, 0
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	lw	t0, -108(sp)
	lw	t1, -104(sp)
	csrrw	sp, mscratch, sp
	mret
trap_full:
	addi	sp, sp, -128
	sw	x1, 4(sp)
	sw	x3, 12(sp)
	sw	x4, 16(sp)
	sw	x7, 28(sp)
	sw	x8, 32(sp)
	sw	x9, 36(sp)
	sw	x10, 40(sp)
	sw	x11, 44(sp)
	sw	x12, 48(sp)
	sw	x13, 52(sp)
	sw	x14, 56(sp)
	sw	x15, 60(sp)
	sw	x16, 64(sp)
	sw	x17, 68(sp)
	sw	x18, 72(sp)
	sw	x19, 76(sp)
	sw	x20, 80(sp)
	sw	x21, 84(sp)
	sw	x22, 88(sp)
	sw	x23, 92(sp)
	sw	x24, 96(sp)
	sw	x25, 100(sp)
	sw	x26, 104(sp)
	sw	x27, 108(sp)
	sw	x28, 112(sp)
	sw	x29, 116(sp)
	sw	x30, 120(sp)
	sw	x31, 124(sp)
	csrr	t0, mscratch
	sw	t0, 8(sp)
	sw	zero, 0(sp)
	addi	t0, sp, 128
	csrw	mscratch, t0
	mv	a0, sp
	call	fw_trap
	lw	x1, 4(sp)
	lw	x3, 12(sp)
	lw	x4, 16(sp)
	lw	x5, 20(sp)
	lw	x6, 24(sp)
	lw	x7, 28(sp)
	lw	x8, 32(sp)
	lw	x9, 36(sp)
	lw	x10, 40(sp)
	lw	x11, 44(sp)
	lw	x12, 48(sp)
	lw	x13, 52(sp)
	lw	x14, 56(sp)
	lw	x15, 60(sp)
	lw	x16, 64(sp)
	lw	x17, 68(sp)
	lw	x18, 72(sp)
	lw	x19, 76(sp)
	lw	x20, 80(sp)
	lw	x21, 84(sp)
	lw	x22, 88(sp)
	lw	x23, 92(sp)
	lw	x24, 96(sp)
	lw	x25, 100(sp)
	lw	x26, 104(sp)
	lw	x27, 108(sp)
	lw	x28, 112(sp)
	lw	x29, 116(sp)
	lw	x30, 120(sp)
	lw	x31, 124(sp)
	lw	sp, 8(sp)
	mret

/*
 * uint32_t fw_mprv_access(uint32_t addr, uint32_t value, uint32_t op, uint32_t *fault)
 * One byte access with the privilege and translation of the trapped mode (mstatus.MPRV):
 * op 0 loads a byte (returned), op 1 stores the low byte of value. A fault lands at the local
 * handler: *fault = 1 and mstatus, mepc, mcause are the caller's to restore.
 */
	.globl fw_mprv_access
fw_mprv_access:
	csrr	t2, mtvec
	la	t0, 2f
	csrw	mtvec, t0
	li	t1, 0x20000		/* MPRV */
	csrs	mstatus, t1
	bnez	a2, 1f
	lbu	a0, 0(a0)
	j	3f
1:	sb	a1, 0(a0)
	li	a0, 0
	j	3f
	.align	2
2:	li	t0, 1
	sw	t0, 0(a3)
	li	a0, 0
3:	csrc	mstatus, t1
	csrw	mtvec, t2
	ret
