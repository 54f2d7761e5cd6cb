/*
 * Cortex-A53 (AArch64) start and exception vectors of the bare-metal example. Entered at EL3 or
 * EL1 by the boot loader (FSBL/ATF) with the MMU off: set the stack, install the vector table of
 * the current level (and route IRQs to EL3 when there), clear .bss, call main, stop.
 */
	.section .text.boot, "ax"
	.global _start
_start:
	ldr	x0, =__stack_top
	mov	sp, x0
	adr	x0, vectors
	mrs	x1, CurrentEL
	lsr	x1, x1, #2
	cmp	x1, #3
	b.ne	1f
	msr	vbar_el3, x0
	mrs	x2, scr_el3
	orr	x2, x2, #(1 << 1)	/* SCR_EL3.IRQ: IRQs taken to EL3 */
	msr	scr_el3, x2
	b	2f
1:	msr	vbar_el1, x0
2:	isb
	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
3:	cmp	x0, x1
	b.hs	4f
	str	xzr, [x0], #8
	b	3b
4:	bl	main
5:	wfe
	b	5b

/* Save the caller-saved registers, call the C handler, restore, return from the exception. */
	.macro	irq_entry
	stp	x0, x1, [sp, #-16]!
	stp	x2, x3, [sp, #-16]!
	stp	x4, x5, [sp, #-16]!
	stp	x6, x7, [sp, #-16]!
	stp	x8, x9, [sp, #-16]!
	stp	x10, x11, [sp, #-16]!
	stp	x12, x13, [sp, #-16]!
	stp	x14, x15, [sp, #-16]!
	stp	x16, x17, [sp, #-16]!
	stp	x18, x30, [sp, #-16]!
	bl	platform_irq_handler
	ldp	x18, x30, [sp], #16
	ldp	x16, x17, [sp], #16
	ldp	x14, x15, [sp], #16
	ldp	x12, x13, [sp], #16
	ldp	x10, x11, [sp], #16
	ldp	x8, x9, [sp], #16
	ldp	x6, x7, [sp], #16
	ldp	x4, x5, [sp], #16
	ldp	x2, x3, [sp], #16
	ldp	x0, x1, [sp], #16
	eret
	.endm

	.balign	2048
vectors:
	.balign	0x80			/* current EL, SP0: synchronous */
	b	.
	.balign	0x80			/* current EL, SP0: IRQ */
	irq_entry
	.balign	0x80
	b	.
	.balign	0x80
	b	.
	.balign	0x80			/* current EL, SPx: synchronous */
	b	.
	.balign	0x80			/* current EL, SPx: IRQ */
	irq_entry
	.balign	0x80
	b	.
	.balign	0x80
	b	.
