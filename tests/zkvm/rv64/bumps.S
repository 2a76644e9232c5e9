/* bumps.S - SP1 v6's clock and state bumps (cost/touch.c) under
 * tests/zkvm/rows.model (every instruction 1 cycle, a first touch 100, a
 * clock bump 10000, a state bump 1000). SP1's clock is 1 before the first
 * instruction and moves 8 per instruction (264 per ecall):
 * - lui, then 2^20 rounds of addi and bnez: instruction k (from 1) starts
 *   at clock 1 + 8 (k - 1); k = 2^21 starts at 2^24 - 7 and ends at
 *   2^24 + 1: one clock bump; it and k = 2^21 - 1 (clock 2^24 - 15) are
 *   within 16 of 2^24: two state bumps;
 * - j near; at 0x7800fffc an addi falls through into the next 64 KiB: a
 *   third state bump (the jump and the branch never count);
 * - first touches: x6 (lui), x0 (bnez), x7, x10, x5: 5.
 * 1 + 2^21 + 6 = 2097159 instructions: 2097159 + 5 * 100 + 10000 +
 * 3 * 1000 = 2110659 cycles. */
	.option norvc
	.text
	.globl _start
_start:
	lui t1, 0x100		/* 2^20 rounds */
1:	addi t1, t1, -1
	bnez t1, 1b
	j near
	.org 0xeff8		/* 0x78001000 + 0xeff8 = 0x7800fff8 */
near:
	addi t2, zero, 1
	addi t2, t2, 1		/* at 0x7800fffc */
	li a0, 0
	li t0, 0		/* HALT */
	ecall
