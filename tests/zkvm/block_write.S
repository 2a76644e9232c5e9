/* block_write.S - a cycle-tracker start written inside an unconstrained
 * block carries the clock before the block's enter (SP1 v6's global_clk,
 * which neither the enter nor the block moves), and the block's own
 * instructions are never counted:
 *   0 li t0, 3 (ENTER)           1 ecall: t0 = 1, the block begins
 *     the block, not counted: beqz (not taken), WRITE "cycle-tracker-start:
 *     in" (6, its request at the clock before the enter: 1), li t0, 4,
 *     ecall (EXIT): back after the enter's ecall with t0 = 0, clock 2
 *   2 beqz (taken)
 *   3 WRITE "cycle-tracker-end: in"  ecall at 8: in = 8 - 1 = 7
 *   9 li a0, li t0, ecall (HALT)     12 instructions, 12 cycles */
	.option norvc

.macro STR sym, text
	.pushsection .rodata
\sym: .ascii "\text"
	.equ \sym\()_len, . - \sym
	.popsection
.endm

.macro WRITE fd, sym
	li a0, \fd
	lla a1, \sym
	li a2, \sym\()_len
	li t0, 2
	ecall
.endm

	STR start_in, "cycle-tracker-start: in\n"
	STR end_in, "cycle-tracker-end: in\n"

	.text
	.globl _start
_start:
	li t0, 3
	ecall
	beqz t0, 1f
	WRITE 1, start_in
	li t0, 4
	ecall
1:	WRITE 1, end_in
	li a0, 0
	li t0, 0
	ecall
