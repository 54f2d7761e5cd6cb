/*
 * Cortex-R5 exception vectors of the bare-metal example (placed at address 0, the RPU's ATCM),
 * with stacks for IRQ and SVC mode, the FPU enabled (the image is built for the hard-float ABI),
 * .bss cleared, then main. No C library start code: the image links none (docs/baremetal.md).
 */
	.syntax	unified
	.arm
	.section .vectors, "ax"
	.global	_vectors
_vectors:
	ldr	pc, =reset
	b	.			/* undefined */
	b	.			/* SVC */
	b	.			/* prefetch abort */
	b	.			/* data abort */
	b	.			/* reserved */
	ldr	pc, =irq_entry
	b	.			/* FIQ */

	.text
/* IRQ: save the caller-saved registers, run the C handler, return to the interrupted code. */
irq_entry:
	sub	lr, lr, #4
	push	{r0-r3, r12, lr}
	bl	platform_irq_handler
	pop	{r0-r3, r12, lr}
	movs	pc, lr

reset:
	cps	#0x12			/* IRQ mode: its stack */
	ldr	sp, =__irq_stack_top
	cps	#0x13			/* SVC mode: the program's stack */
	ldr	sp, =__stack_top
	mrc	p15, 0, r0, c1, c0, 2	/* CPACR: full access to cp10/cp11 (VFP) */
	orr	r0, r0, #(0xF << 20)
	mcr	p15, 0, r0, c1, c0, 2
	isb
	mov	r0, #0x40000000		/* FPEXC.EN */
	vmsr	fpexc, r0
	ldr	r0, =__bss_start__
	ldr	r1, =__bss_end__
	mov	r2, #0
1:	cmp	r0, r1
	strlo	r2, [r0], #4
	blo	1b
	bl	main
2:	wfi
	b	2b
