/*
 * Machine-mode entry of the Linux SoC's firmware (docs/hw/linux-soc.md): reset, and the trap
 * entry through which every machine-mode trap (SBI call, time CSR, misaligned access, timer)
 * passes: the legacy console putchar and the reads of the counters the core lacks are answered
 * at once, the rest goes through fw_trap. The trap frame holds x0..x31 at 4*i; mscratch holds
 * the top of the firmware's stack.
 */
#define UART_BASE 0xB0010000	/* fw.c's UART_TXDATA; STATUS at +4 */
#define CLINT_MTIME 0xF000BFF8	/* fw.c's CLINT_MTIME; the high word at +4 */
/*
 * The counter reads fw.c's emulate_csr accepts: csrrs, csrrc, csrrsi, csrrci (funct3 2, 3, 6,
 * 7: bit 13 set) with rs1 = x0 (no write) of time, timeh, cycle, cycleh (CSR 0xC00, 0xC01,
 * 0xC80, 0xC81: bits 20 and 27 free), any rd.
 */
#define CSR_READ_MASK 0xF7EFA07F
#define CSR_READ_INSN 0xC0002073

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
	li	t1, 2
	beq	t0, t1, trap_csr
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
	/*
	 * A read of time, timeh, cycle or cycleh (an illegal instruction here: the core has no
	 * counters; mtval holds the instruction), which the kernel makes on every clock read
	 * (sched_clock, timekeeping, tracepoints), is answered here with t0, t1 and t2 alone, from
	 * the CLINT's mtime: each half is one 32-bit load, the word at the instant of the read, as
	 * fw.c's emulate_csr returns it (the kernel reads timeh, time, timeh again for 64 bits).
	 * rd is written through a table of one move per register; x2, t0, t1 and t2 are written
	 * where they are restored from (mscratch, the frame's slots). Any other illegal
	 * instruction goes through fw_trap with t2 as it was.
	 */
trap_csr:
	sw	t2, -100(sp)		/* x7's slot of the frame */
	csrr	t0, mtval
	li	t1, CSR_READ_MASK
	and	t1, t0, t1
	li	t2, CSR_READ_INSN
	beq	t1, t2, 1f
	lw	t2, -100(sp)
	j	trap_full
1:	li	t1, CLINT_MTIME
	slli	t2, t0, 4		/* CSR bit 7 (the high half) to the sign */
	bgez	t2, 2f
	addi	t1, t1, 4
2:	lw	t1, 0(t1)		/* the value, for rd */
	srli	t0, t0, 7
	andi	t0, t0, 31		/* rd */
	slli	t0, t0, 3		/* 8 bytes per entry of the table */
	la	t2, csr_rd_table
	add	t2, t2, t0
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	jr	t2
	.align	3
csr_rd_table:
	nop				/* x0 */
	j	csr_done
	mv	x1, t1
	j	csr_done
	csrw	mscratch, t1		/* x2: sp comes back from mscratch */
	j	csr_done
	mv	x3, t1
	j	csr_done
	mv	x4, t1
	j	csr_done
	sw	t1, -108(sp)		/* x5 (t0): its slot */
	j	csr_done
	sw	t1, -104(sp)		/* x6 (t1) */
	j	csr_done
	sw	t1, -100(sp)		/* x7 (t2) */
	j	csr_done
	mv	x8, t1
	j	csr_done
	mv	x9, t1
	j	csr_done
	mv	x10, t1
	j	csr_done
	mv	x11, t1
	j	csr_done
	mv	x12, t1
	j	csr_done
	mv	x13, t1
	j	csr_done
	mv	x14, t1
	j	csr_done
	mv	x15, t1
	j	csr_done
	mv	x16, t1
	j	csr_done
	mv	x17, t1
	j	csr_done
	mv	x18, t1
	j	csr_done
	mv	x19, t1
	j	csr_done
	mv	x20, t1
	j	csr_done
	mv	x21, t1
	j	csr_done
	mv	x22, t1
	j	csr_done
	mv	x23, t1
	j	csr_done
	mv	x24, t1
	j	csr_done
	mv	x25, t1
	j	csr_done
	mv	x26, t1
	j	csr_done
	mv	x27, t1
	j	csr_done
	mv	x28, t1
	j	csr_done
	mv	x29, t1
	j	csr_done
	mv	x30, t1
	j	csr_done
	mv	x31, t1
csr_done:
	lw	t0, -108(sp)
	lw	t1, -104(sp)
	lw	t2, -100(sp)
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
