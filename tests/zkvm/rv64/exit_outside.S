/* exit_outside.S - EXIT_UNCONSTRAINED outside a block: SP1 v6's executor
 * panics there ("no context is present"), so the run stops (252) at the
 * ecall, the third instruction. */
	.option norvc
	.text
	.globl _start
_start:
	li a0, 0
	li t0, 4
	ecall
	li t0, 0
	ecall
