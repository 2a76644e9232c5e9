/* untrusted_stops.S - what stops a program in SP1 v6's untrusted-programs
 * mode (docs/zkvm.md, "Untrusted programs"), where SP1's executor panics.
 * The case is the length of the first input frame (HINT_LEN; all ones
 * with no input):
 *   none  a load from a page set to none, and no __SUCCINCT_TRAP_CONTEXT
 *         (this program has none): the run stops at the load
 *   1     MPROTECT with protection 2 (write only): not one SP1 permits
 *   2     MPROTECT on a page outside the region the note names (.data's)
 *   3     MPROTECT on an address that is not a page's start
 * None of them reaches the HALT with exit code 7 at the end. */
	.option norvc
	.equ MPROTECT, 0x132
	.equ PAGE, 4096

	.text
	.globl _start
_start:
	li t0, 0xf0		/* HINT_LEN */
	ecall
	la s2, region
	li t1, 1
	beq t0, t1, write_only
	li t1, 2
	beq t0, t1, outside
	li t1, 3
	beq t0, t1, unaligned
	mv a0, s2
	li a1, 0
	li t0, MPROTECT
	ecall
load:	ld t1, 0(s2)
	j done
write_only:
	mv a0, s2
	li a1, 2
	li t0, MPROTECT
	ecall
	j done
outside:
	la a0, word
	srli a0, a0, 12
	slli a0, a0, 12
	li a1, 4
	li t0, MPROTECT
	ecall
	j done
unaligned:
	addi a0, s2, 8
	li a1, 4
	li t0, MPROTECT
	ecall
done:	li a0, 7
	li t0, 0
	ecall

	.data
	.balign 8
word:	.dword 0

	.bss
	.balign PAGE
region:	.zero PAGE
region_end:

#include "succinct_note.h"
