/* rows.S - SP1 v6's memory rows (cost/touch.c) under tests/zkvm/rows.model
 * (every instruction 1 cycle, a first touch in a chunk 100, chunks of 4
 * trace entries), with the input frame u64:5. Worked out by hand: each
 * instruction's registers (rd written, rs1 and rs2 read; x0 counts) and
 * 8-byte word, "+" where new in the chunk, e the chunk's trace entries
 * after it (a load or store 1; POSEIDON2 8 words read, 8 written twice:
 * 24; HINT_LEN 1).
 *
 * chunk 1
 *  1 auipc a0            +x10                      1
 *  2 addi a0, a0         x10
 *  3 sd zero, 0(a0)      +x0 x10 +buf              2   e 1
 *  4 ld a1, 0(a0)        +x11 x10 buf              1   e 2
 *  5 ld a1, 8(a0)        +buf+8                    1   e 3
 *  6 ld a1, 16(a0)       +buf+16                   1   e 4: the chunk ends
 * chunk 2
 *  7 ld a1, 0(a0)        +x11 +x10 +buf            3   e 1
 *  8 li t0, 0x133        +x5 +x0                   2
 *  9 li a1, 0            x11 x0
 * 10 ecall POSEIDON2     buf..buf+56: +7 (buf seen) 7  e 25: the chunk ends
 * chunk 3
 * 11 ld a2, 64(a0)       +x12 +x10 +buf+64         3   e 1
 * 12 addi a0, a0, 64     x10
 * 13 li t0, 0xf0         +x5 +x0                   2
 * 14 ecall HINT_LEN      (t0 = 8)                      e 2
 * 15 li a1, 8            +x11 x0                   1
 * 16 li t0, 0xf1         x5 x0
 * 17 ecall HINT_READ     8 bytes to buf+64: SP1 resets buf+64 and
 *                        buf+72 (a whole word more), which count again
 * 18 ld a2, 0(a0)        x12 x10 +buf+64           1   e 3
 * 19 li t0, 3            x5 x0
 * 20 ecall ENTER_UNCONSTRAINED: the block (ld a3, 64(a0); EXIT) is
 *                        not replayed: x13 and buf+128 count nothing
 * 21 beqz t0, 1f         x5 x0 (t0 = 0 after the block)
 * 22 li a0, 0            x10 x0
 * 23 li t0, 0            x5 x0
 * 24 ecall HALT
 * 24 instructions, 6 + 12 + 7 = 25 first touches in 3 chunks:
 * 24 + 25 * 100 = 2524 cycles. The label sp1_zkvm_marker makes the ABI
 * SP1's where no --abi is given (the engines' suite, which gives no
 * input: HINT_READ then stops the run). */
	.option norvc
	.text
	.globl _start
	.globl sp1_zkvm_marker
_start:
sp1_zkvm_marker:
	la a0, buf
	sd zero, 0(a0)
	ld a1, 0(a0)
	ld a1, 8(a0)
	ld a1, 16(a0)
	ld a1, 0(a0)
	li t0, 0x133		/* POSEIDON2 */
	li a1, 0
	ecall
	ld a2, 64(a0)
	addi a0, a0, 64
	li t0, 0xf0		/* HINT_LEN */
	ecall
	li a1, 8
	li t0, 0xf1		/* HINT_READ */
	ecall
	ld a2, 0(a0)
	li t0, 3		/* ENTER_UNCONSTRAINED */
	ecall
	beqz t0, 1f
	ld a3, 64(a0)
	li t0, 4		/* EXIT_UNCONSTRAINED */
	ecall
1:	li a0, 0
	li t0, 0		/* HALT */
	ecall

	.data
	.balign 8
buf:	.zero 256
