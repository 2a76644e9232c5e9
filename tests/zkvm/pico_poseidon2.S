/* pico_poseidon2.S - Pico's POSEIDON2_PERMUTE (KoalaBear): the 16 words at
 * a0 permuted into the 16 at a1. First 0, 1, ..., 15 at `in` into `out`
 * (in stays as it was), then `out` in place (a0 = a1); the public values
 * (fd 3) get out, in and out again: 192 bytes, which
 * tests/zkvm/expected_poseidon2.py pico works out. */
	.option norvc
	.text
	.globl _start
_start:
	la a0, in
	la a1, out
	li t0, 0x0001012F	/* POSEIDON2_PERMUTE */
	ecall
	la a1, out
	li a0, 3		/* the public values */
	li a2, 64
	li t0, 2		/* WRITE */
	ecall
	la a1, in
	li a0, 3
	li a2, 64
	li t0, 2
	ecall
	la a0, out
	la a1, out
	li t0, 0x0001012F
	ecall
	la a1, out
	li a0, 3
	li a2, 64
	li t0, 2
	ecall
	li a0, 0
	li t0, 0		/* HALT 0 */
	ecall

	.data
	.balign 4
in:	.word 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
out:	.space 64
