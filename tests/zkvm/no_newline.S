/* no_newline.S - writes "hello" to stderr with no newline after it and
 * halts: what cyclops prints next must start on a line of its own. */
	.option norvc
	.text
	.globl _start
_start:
	li a0, 2
	la a1, msg
	li a2, 5
	li t0, 2	/* WRITE */
	ecall
	li a0, 0
	li t0, 0	/* HALT */
	ecall
	.section .rodata
msg:	.ascii "hello"
