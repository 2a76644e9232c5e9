/* risc0_timer.S - a RISC Zero guest instrumented as profiler0's guest
 * crate instruments one: the announcement (nop; li x0, 0xCDCDCDCD; la x0
 * of the message, length and signal words; nop), start_timer!("t") (the
 * label's byte stored into the message, a nop, the length stored),
 * stop_timer!() (the signal stored, a nop). Under the unit model the timer
 * holds what profiler0 counts: from the clock before the length store to
 * the clock before the signal store (InstructionStart to
 * InstructionStart):
 *   0  the announcement           0..9
 *  10  li t2, 't'; la t1, msg; sb; nop        10..14
 *  15  la t1, len (2); li t2, 1; sw: the length store at 18: t opens at 18
 *  19  nop, nop, nop              19..21
 *  22  la t1, signal (2); sw: the signal store at 24: t = 24 - 18 = 6
 *      cycles, 6 instructions
 *  25  nop                        (stop_timer!'s)
 *  26  li a0 (exit 0), la a1, li t0, ecall (HALT)  26..30: 31 instructions */
	.option norvc
	.text
	.globl _start
_start:
	nop
	li x0, 0xCDCDCDCD
	la x0, msg
	la x0, len
	la x0, signal
	nop
	li t2, 't'
	la t1, msg
	sb t2, 0(t1)
	nop
	la t1, len
	li t2, 1
	sw t2, 0(t1)
	nop
	nop
	nop
	la t1, signal
	sw zero, 0(t1)
	nop
	li a0, 0
	la a1, digest
	li t0, 0
	ecall
risc0_zkvm_marker:
	nop
	.bss
	.balign 4
msg:	.zero 512
len:	.zero 4
signal:	.zero 4
digest:	.zero 32
