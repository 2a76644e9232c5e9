/* unconstrained.S - a store inside an unconstrained block is undone and the
 * block's instructions leave the clock, as SP1's executor does. Counted:
 * instructions 1-6 up to the enter; the exit puts the clock back to 5 and
 * its ecall retires in the place of the enter's (6); then 7-10 after it:
 * 10 cycles, exit code 5 (the value
 * stored before the block, not the 99 stored inside it). */
	.globl _start
_start:
	la s0, word          /* 1, 2: auipc + addi */
	li t1, 5             /* 3 */
	sw t1, 0(s0)         /* 4 */
	li t0, 3             /* 5: ENTER_UNCONSTRAINED */
	ecall                /* 6: t0 = 1, then 0 after the exit */
	beqz t0, after       /* 7 */
	li t1, 99            /* inside the block: not counted */
	sw t1, 0(s0)
	li t0, 4             /* EXIT_UNCONSTRAINED */
	ecall
after:
	lw a0, 0(s0)         /* 8 */
	li t0, 0             /* 9: HALT */
	ecall                /* 10 */

	.data
word:	.word 0
