/* v6_calls.S - SP1 v6's own rules, at 64 bits: HINT_LEN with no frame
 * left returns all ones (u64::MAX) instead of stopping; SIG_RETURN loads
 * x1..x31 from the 31 doublewords after the one at a0 (as a trap handler
 * returns) and goes on after the ecall (the supervisor mode's rule), t0
 * taking x5's; the exit code is 42, the a0 the frame held, if both
 * checks passed (1 and 2 otherwise). */
	.option norvc
	.text
	.globl _start
_start:
	li t0, 0xf0		/* HINT_LEN, no --input */
	ecall
	addi t1, t0, 1		/* all ones + 1 = 0 */
	li a0, 1
	bnez t1, fail
	la a0, frame
	li t0, 0x134		/* SIG_RETURN */
	ecall
	li t1, 77		/* x5 from the frame */
	beq t0, t1, 1f
	li a0, 2
	j fail
1:	li t0, 0		/* HALT with the frame's a0 */
	ecall
fail:	li t0, 0
	ecall

	.data
	.balign 8
frame:	.dword 0		/* the pc a user-mode return would take */
	.dword 0, 0, 0, 0	/* x1..x4 */
	.dword 77		/* x5 (t0) */
	.dword 0, 0, 0, 0	/* x6..x9 */
	.dword 42		/* x10 (a0) */
	.zero 21 * 8		/* x11..x31 */
