/* risc0_abi.S - the RISC Zero guest ABI, each call once; the label
 * risc0_zkvm_marker makes the ABI risc0. Journal (fd 3) and exit code
 * derived from the calls:
 *   SYS_READ fd 0, 8 bytes into buf (2 words): the first 8 bytes of stdin
 *   SHA of one block: "abc" padded, from the standard initial state: the
 *     digest's bytes (big-endian words) ba7816bf...
 *   BIGINT: 3 * 5 mod 7 = 1 (8 LE words)
 *   INPUT 0: the input digest's word 0, zero here
 *   SYS_WRITE fd 1 "hi\n"; SYS_WRITE fd 3 (the journal): buf, state, z,
 *     then the INPUT word: 8 + 32 + 32 + 4 = 76 bytes
 *   HALT TERMINATE with exit code 9 and the output digest at state
 * Instructions (unit model: one cycle each), from _start:
 *   read:   la a0 (2), li a1, la a2 (2), li a3, li a4, li t0, ecall    9
 *   sha:    la a0 (2), la a1 (2), la a2 (2), la a3 (2), li a4, li t0,
 *           ecall                                                     11
 *   bigint: la a0 (2), li a1, la a2 (2), la a3 (2), la a4 (2), li t0,
 *           ecall                                                     11
 *   input:  li a0, li t0, ecall, la t1 (2), sw                         6
 *   write1: li a0, li a1, la a2 (2), li a3, la a4 (2), li a5, li t0,
 *           ecall                                                     10
 *   write3: the same                                                  10
 *   halt:   li a0, 0x900 (lui + addi: over 2047), la a1 (2), li t0,
 *           ecall                                                      6
 * 63 instructions. With the accelerator costs of tests/zkvm/risc0_extras.model
 * (1 a cycle; SOFTWARE 1 + 1 per 4 words of the host's buffer, SHA 5 +
 * 70 a block, BIGINT 9, INPUT 1, HALT 0): 63 + (1 + 1) read (2 words) +
 * 75 sha + 9 bigint + 1 input + 1 + 1 (writes: no buffer) = 152. */
	.option norvc
	.text
	.globl _start
_start:
	la a0, buf		/* SYS_READ(fd 0, 8 bytes) into 2 words */
	li a1, 2
	la a2, name_read
	li a3, 0
	li a4, 8
	li t0, 2		/* SOFTWARE */
	ecall
	la a0, state		/* SHA: out = in = state, one block */
	la a1, state
	la a2, block
	la a3, block + 32
	li a4, 1
	li t0, 3
	ecall
	la a0, z		/* BIGINT: z = x * y mod n */
	li a1, 0
	la a2, x
	la a3, y
	la a4, n
	li t0, 4
	ecall
	li a0, 0		/* INPUT word 0 */
	li t0, 1
	ecall
	la t1, word
	sw a0, 0(t1)
	li a0, 0		/* SYS_WRITE(1, "hi\n") */
	li a1, 0
	la a2, name_write
	li a3, 1
	la a4, hi
	li a5, 3
	li t0, 2
	ecall
	li a0, 0		/* SYS_WRITE(3, buf.., 76): the journal */
	li a1, 0
	la a2, name_write
	li a3, 3
	la a4, buf
	li a5, 76
	li t0, 2
	ecall
	li a0, 0x900		/* HALT: TERMINATE, exit code 9 */
	la a1, state
	li t0, 0
	ecall
risc0_zkvm_marker:
	nop

	.section .rodata
name_read:	.asciz "risc0_zkvm_platform::syscall::nr::SYS_READ"
name_write:	.asciz "risc0_zkvm_platform::syscall::nr::SYS_WRITE"
hi:		.ascii "hi\n"
	.data
	.balign 4
buf:	.zero 8
/* SHA-256's initial state, each word's bytes big-endian in memory */
state:	.byte 0x6a,0x09,0xe6,0x67, 0xbb,0x67,0xae,0x85, 0x3c,0x6e,0xf3,0x72, 0xa5,0x4f,0xf5,0x3a
	.byte 0x51,0x0e,0x52,0x7f, 0x9b,0x05,0x68,0x8c, 0x1f,0x83,0xd9,0xab, 0x5b,0xe0,0xcd,0x19
z:	.zero 32
word:	.zero 4
/* "abc", 0x80, zeros, the length 24 bits in the last byte */
block:	.byte 0x61, 0x62, 0x63, 0x80
	.zero 59
	.byte 24
x:	.word 3, 0, 0, 0, 0, 0, 0, 0
y:	.word 5, 0, 0, 0, 0, 0, 0, 0
n:	.word 7, 0, 0, 0, 0, 0, 0, 0
