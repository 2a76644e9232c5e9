/* zkvm_blocks.S - an SP1 guest for the chunked-run tests: 200 rounds of an
 * unconstrained block of about 600 cycles, which its exit takes off the
 * clock, then 3000 cycles of work outside it, then HALT with code 0. The
 * clock passes some of the tests' chunk ends inside blocks and moves back
 * at their exits: a checkpoint must wait for a block's end, and the
 * sampler's phase follow the clock's highest point. */
	.globl _start
_start:
	li s0, 200            /* rounds */
round:
	li t0, 3              /* ENTER_UNCONSTRAINED: 1 in t0, 0 after the exit */
	ecall
	beqz t0, outside
	li t1, 300
1:	addi t1, t1, -1
	bnez t1, 1b
	li t0, 4              /* EXIT_UNCONSTRAINED */
	ecall
outside:
	li t1, 1500
2:	addi t1, t1, -1
	bnez t1, 2b
	addi s0, s0, -1
	bnez s0, round
	li a0, 0
	li t0, 0              /* HALT */
	ecall
