/* Process entry of the Linux SoC's static programs: argc, argv from the initial stack. */
	.text
	.globl _start
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	lw	a0, 0(sp)
	addi	a1, sp, 4
	andi	sp, sp, -16
	call	main
	call	lsoc_exit
