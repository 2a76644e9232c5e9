/* unconstrained_loop.S - enters an unconstrained block of 20000 cycles
 * (10000 iterations of two instructions), leaves it, and does it again,
 * forever. Each round moves the clock by a few cycles only, since the
 * block's cycles are taken off at its exit: --max-cycles must still stop
 * it, counting the cycles the blocks ran. */
	.globl _start
_start:
	li t0, 3             /* ENTER_UNCONSTRAINED */
	ecall
	beqz t0, _start      /* after the exit: again */
	li t1, 10000
spin:
	addi t1, t1, -1
	bnez t1, spin
	li t0, 4             /* EXIT_UNCONSTRAINED */
	ecall
