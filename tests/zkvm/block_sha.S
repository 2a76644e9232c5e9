/* block_sha.S - a precompile inside an unconstrained block stops the run,
 * as SP1's and Pico's executors stop it (only WRITE and EXIT_UNCONSTRAINED
 * are allowed there); the clock shown is the one at the block's start: 2
 * (li t0, the enter's ecall). */
	.option norvc
	.text
	.globl _start
_start:
	li t0, 3
	ecall
	la a0, w
	li a1, 0
	li t0, 0x00300105	/* SHA_EXTEND */
	ecall
	li t0, 0
	ecall
	.data
	.balign 4
w:	.zero 256
