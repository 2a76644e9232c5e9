/* risc0_timer_sha.S - a timer of profiler0's form around RISC Zero's SHA
 * call, under tests/zkvm/risc0_sha_step.model (unit costs, SHA 5 + 1000
 * cycles a block): the ecall is the timer's one step, its cost the ABI's
 * charge, with no jump before it (straight code). Unit clock, plus 1005
 * for the call:
 *   0  the announcement                      0..9
 *  10  li t2, 't'; la t1, msg; sb; nop       10..14
 *  15  la t1, len (2); li t2, 1; sw          15..18: the length store at
 *                                            18: t opens at 18
 *  19  la a0, la a1, la a2, la a3 (8); li a4, 1; li t0, 3   19..28
 *  29  ecall: SHA of one block              29 -> 29 + 1 + 1005 = 1035:
 *                                            t's step (before 29, after
 *                                            1035)
 *  30  la t1, signal (2); sw                 1035, 1036; the signal store
 *                                            at 1037: t = 1037 - 18 = 1019
 *                                            cycles, 32 - 18 = 14
 *                                            instructions
 *  33  li a0, 0; la a1 (2); li t0, 0; ecall (HALT)   38 instructions,
 *                                            38 + 1005 = 1043 cycles */
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
	la a0, state		/* SHA: out = in = state, one block */
	la a1, state
	la a2, block
	la a3, block + 32
	li a4, 1
	li t0, 3
	ecall
	la t1, signal
	sw zero, 0(t1)
	li a0, 0
	la a1, digest
	li t0, 0
	ecall
risc0_zkvm_marker:
	nop
	.data
	.balign 4
/* SHA-256's initial state, each word's bytes big-endian in memory */
state:	.byte 0x6a,0x09,0xe6,0x67, 0xbb,0x67,0xae,0x85, 0x3c,0x6e,0xf3,0x72, 0xa5,0x4f,0xf5,0x3a
	.byte 0x51,0x0e,0x52,0x7f, 0x9b,0x05,0x68,0x8c, 0x1f,0x83,0xd9,0xab, 0x5b,0xe0,0xcd,0x19
/* "abc", 0x80, zeros, the length 24 bits in the last byte */
block:	.byte 0x61, 0x62, 0x63, 0x80
	.zero 59
	.byte 24
	.bss
	.balign 4
msg:	.zero 512
len:	.zero 4
signal:	.zero 4
digest:	.zero 32
