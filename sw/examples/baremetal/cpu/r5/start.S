/*
 * Cortex-R5 exception vectors of the bare-metal example (placed at address 0, the RPU's ATCM),
 * with stacks for IRQ and SVC mode, the FPU enabled (the image is built for the hard-float ABI),
 * .bss cleared, then main and platform_exit with its status. No C library start code: the image links none (docs/baremetal.md).
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
/*
 * IRQ: the return address and SPSR_irq go onto the SVC stack (SRS), the handler runs in SVC mode
 * with the caller-saved registers saved and the stack 8-byte aligned (AAPCS), RFE returns. In SVC
 * mode a nested IRQ (platform_irq_nesting) overwrites only LR_irq and SPSR_irq, both saved here.
 */
irq_entry:
	sub	lr, lr, #4
	srsdb	sp!, #0x13
	cps	#0x13
	push	{r0-r3, r12, lr}
	and	r1, sp, #4
	sub	sp, sp, r1
	push	{r1, r4}		/* the adjustment (and r4, to keep 8 bytes) */
	bl	platform_irq_handler
	pop	{r1, r4}
	add	sp, sp, r1
	pop	{r0-r3, r12, lr}
	rfeia	sp!

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
	bl	platform_exit		/* main's status in r0; never returns */
