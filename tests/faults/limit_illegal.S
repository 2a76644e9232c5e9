/* limit_illegal.S - two instructions, then an illegal one in the same
 * block. With --max-cycles 2 the clock reaches the limit at the boundary
 * before the illegal instruction: the run stops at the limit there, in
 * every interpreter and under every model whose instructions cost 1 here
 * (an illegal instruction costs nothing, but a run at its budget stops
 * before it, as before any instruction). With --max-cycles 3 it faults. */
	.option norvc
	.text
	.globl _start
_start:
	nop
	nop
	.word 0
