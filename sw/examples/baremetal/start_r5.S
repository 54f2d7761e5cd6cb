/*
 * Cortex-R5 exception vectors of the bare-metal example (placed at address 0, the RPU's ATCM),
 * with stacks for IRQ and SVC mode; reset continues in newlib's _start (crt0), which calls main.
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
	b	_start
