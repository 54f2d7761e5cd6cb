/*
 * Cortex-A53 (AArch64) start and exception vectors of the bare-metal images. Entered at EL3 or
 * EL1 by the boot loader (FSBL/ATF, or QEMU's loader) with the MMU off: set the stack, install
 * the vector table of the current level (and route IRQs to EL3 when there), clear .bss, call
 * main, then platform_exit(main's status).
 *
 * Interrupts: the IRQ entry reads the generic timer's virtual counter first (the suite's time of
 * entry), saves the caller-saved registers and ELR/SPSR (so that a handler may unmask IRQs and be
 * preempted: nesting), and calls platform_irq_handler(counter).
 * Synchronous exceptions and SErrors (a data abort on an address nothing answers, e.g. the PL
 * without a bitstream) call platform_fault(), which reports and stops: never a silent hang.
 *
 * Secondary cores (the suite's core 1) start at secondary_entry, with their stack top in x0.
 *
 * The virt build (-DPLATFORM_VIRT, docs/target/xen.md) starts with the header of an arm64
 * Linux Image (Documentation/arch/arm64/booting.rst), so that QEMU's -kernel, Xen (dom0less
 * or xl) and a boot loader load it at RAM + text_offset and hand over the device tree in x0;
 * x0 is kept in platform_boot_dtb.
 */
	.section .text.boot, "ax"
	.global _start
_start:
#ifdef PLATFORM_VIRT
	b	1f			/* code0 */
	.long	0			/* code1 */
	.quad	0x80000			/* text_offset: where in RAM the image must sit */
	.quad	__image_size		/* image_size: bytes from _start to the end of the stack */
	.quad	0x2			/* flags: little-endian, 4 KiB pages, 2 MiB-aligned base */
	.quad	0, 0, 0			/* reserved */
	.ascii	"ARM\x64"		/* magic */
	.long	0			/* reserved (PE header offset) */
1:	ldr	x1, =platform_boot_dtb
	str	x0, [x1]
#endif
	mrs	x0, mpidr_el1
	tst	x0, #0xff
	b.ne	park			/* a secondary core started here (spin-table boot) */
	ldr	x0, =__stack_top
	mov	sp, x0
	bl	install_vectors
	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
3:	cmp	x0, x1
	b.hs	4f
	str	xzr, [x0], #8
	b	3b
4:	bl	main
	bl	platform_exit
5:	wfe
	b	5b

/* x0: the stack top (PSCI CPU_ON context id) */
	.global secondary_entry
secondary_entry:
	mov	sp, x0
	bl	install_vectors
	bl	platform_secondary_main
6:	wfe
	b	6b

/*
 * Spin table: a secondary core started at _start (QEMU's loader with cpu-num=N, or a boot loader
 * that releases all cores) waits until core 0 writes its entry's stack top into
 * platform_spin_release, then runs secondary_entry. The word is in .data, never cleared.
 */
park:
	ldr	x1, =platform_spin_release
7:	wfe
	ldr	x0, [x1]
	cbz	x0, 7b
	b	secondary_entry

	.section .data
	.balign	8
	.global	platform_spin_release
platform_spin_release:
	.quad	0
	.global	platform_boot_dtb	/* x0 at entry: the device tree (virt build) */
platform_boot_dtb:
	.quad	0
	.text

install_vectors:
	mrs	x1, CurrentEL
	lsr	x1, x1, #2
	cmp	x1, #3
	b.ne	1f
	adr	x0, vectors_el3
	msr	vbar_el3, x0
	mrs	x2, scr_el3
	orr	x2, x2, #(1 << 1)	/* SCR_EL3.IRQ: IRQs taken to EL3 */
	msr	scr_el3, x2
	b	2f
1:	adr	x0, vectors
	msr	vbar_el1, x0
2:	isb
	ret

/* IRQ: counter first, then registers and ELR/SPSR of level \el, the C handler, restore, eret. */
	.macro	irq_entry el
	stp	x0, x1, [sp, #-16]!
	isb
	mrs	x0, cntvct_el0
	stp	x2, x3, [sp, #-16]!
	stp	x4, x5, [sp, #-16]!
	stp	x6, x7, [sp, #-16]!
	stp	x8, x9, [sp, #-16]!
	stp	x10, x11, [sp, #-16]!
	stp	x12, x13, [sp, #-16]!
	stp	x14, x15, [sp, #-16]!
	stp	x16, x17, [sp, #-16]!
	stp	x18, x30, [sp, #-16]!
	mrs	x2, elr_\el
	mrs	x3, spsr_\el
	stp	x2, x3, [sp, #-16]!
	bl	platform_irq_handler
	ldp	x2, x3, [sp], #16
	msr	elr_\el, x2
	msr	spsr_\el, x3
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

/* Synchronous exception or SError: platform_fault(kind, ESR, FAR, ELR) does not return. */
	.macro	fault_entry el, kind
	mov	x0, #\kind
	mrs	x1, esr_\el
	mrs	x2, far_\el
	mrs	x3, elr_\el
	b	platform_fault
	.endm

	.macro	vector_table el
	.balign	0x80			/* current EL, SP0: synchronous */
	fault_entry \el, 0
	.balign	0x80			/* current EL, SP0: IRQ */
	irq_entry \el
	.balign	0x80			/* current EL, SP0: FIQ */
	fault_entry \el, 2
	.balign	0x80			/* current EL, SP0: SError */
	fault_entry \el, 1
	.balign	0x80			/* current EL, SPx: synchronous */
	fault_entry \el, 0
	.balign	0x80			/* current EL, SPx: IRQ */
	irq_entry \el
	.balign	0x80			/* current EL, SPx: FIQ */
	fault_entry \el, 2
	.balign	0x80			/* current EL, SPx: SError */
	fault_entry \el, 1
	.endm

	.balign	2048
	.global	vectors
vectors:
	vector_table el1

	.balign	2048
vectors_el3:
	vector_table el3
