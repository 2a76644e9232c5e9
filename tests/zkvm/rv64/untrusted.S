/* untrusted.S - SP1 v6's untrusted-programs mode (docs/zkvm.md, "Untrusted
 * programs"): the SUCCINCT note turns page protections on for the region
 * it names (here the three pages at `region`); __SUCCINCT_TRAP_CONTEXT is
 * the trap context (handler, code, pc). Each violation below is made in a
 * function of its own, as in SP1's examples/trap: the handler appends the
 * trap code to s1 (s1 = s1 << 4 | code), checks that the context's pc is
 * the one the caller put in a3, and returns to the caller (ret), so the
 * faulting instruction never completes. Expected, in order:
 *   load from a page set to none          5 (load access fault)
 *   store to a page set to r-x            7 (store access fault)
 *   jump into a page set to rw-           1 (instruction access fault)
 *   KECCAK_PERMUTE on a page set to none  5 (its read check comes first)
 *   SHA_EXTEND on a page set to r--       7 (w[0..15] may be read; w[16..]
 *                                            must be written too)
 * so s1 = 0x57157. Code copied into the region while it is rw-, then made
 * r-x, runs (a0 = 9). SIG_RETURN goes to the frame's first word and loads
 * x1..x31 (a0 = 42, t0 = 77). Any check that fails sets bit 24 of s1. s1
 * goes to the public values (8 bytes); then, with the handler set to 1
 * (SP1's halt pc), one more violation ends the run, exit code 0, as
 * SP1's executor ends it. */
	.option norvc
	.equ MPROTECT, 0x132
	.equ SIG_RETURN, 0x134
	.equ KECCAK_PERMUTE, 0x10109
	.equ SHA_EXTEND, 0x300105
	.equ WRITE, 2
	.equ PAGE, 4096
	.equ BAD, 0x1000000

	.text
	.globl _start
_start:
	li s1, 0
	la t1, handler
	la t2, __SUCCINCT_TRAP_CONTEXT
	sd t1, 0(t2)
	la s2, region

	/* a load from a page with no access */
	mv a0, s2
	li a1, 0
	call mprotect
	mv a0, s2
	la a3, load_insn
	call violate_load
	li t1, 123		/* the load did not write t3 */
	beq t3, t1, 1f
	li t1, BAD
	or s1, s1, t1
1:
	/* a store to a page that is read and execute only */
	mv a0, s2
	li a1, 5
	call mprotect
	mv a0, s2
	li a1, 0x55
	la a3, store_insn
	call violate_store

	/* rw- again: the store did not happen; the template is copied in */
	mv a0, s2
	li a1, 6
	call mprotect
	ld t1, 8(s2)
	beqz t1, 1f
	li t1, BAD
	or s1, s1, t1
1:	la t1, tmpl
	ld t2, 0(t1)
	sd t2, 0(s2)
	/* a jump into it while it is not executable: the fault is the fetch's */
	mv a3, s2
	jalr ra, 0(s2)
	/* r-x: now it runs */
	mv a0, s2
	li a1, 5
	call mprotect
	li a0, 0
	jalr ra, 0(s2)
	li t1, 9
	beq a0, t1, 1f
	li t1, BAD
	or s1, s1, t1
1:
	/* KECCAK_PERMUTE on a page with no access */
	li t1, PAGE
	add a0, s2, t1
	li a1, 0
	call mprotect
	li t1, PAGE
	add a0, s2, t1
	la a3, keccak_call
	call violate_keccak

	/* SHA_EXTEND on a page that is read only */
	li t1, 2 * PAGE
	add a0, s2, t1
	li a1, 4
	call mprotect
	li t1, 2 * PAGE
	add a0, s2, t1
	la a3, sha_call
	call violate_sha

	/* SIG_RETURN: the frame's pc, x1..x31 from it; s1 is x9, s2 x18 */
	la a0, frame
	sd s1, 8 + 8 * 8(a0)
	sd s2, 8 + 17 * 8(a0)
	la t1, after_sig
	sd t1, 0(a0)
	li t0, SIG_RETURN
	ecall
	li s1, BAD		/* not reached: SIG_RETURN went to after_sig */
after_sig:
	li t1, 42
	bne a0, t1, 2f
	li t1, 77
	beq t0, t1, 1f
2:	li t1, BAD
	or s1, s1, t1
1:
	/* s1 to the public values */
	la a1, result
	sd s1, 0(a1)
	li a0, 13
	li a2, 8
	li t0, WRITE
	ecall
	/* the handler back to 1: the next violation ends the run */
	la t2, __SUCCINCT_TRAP_CONTEXT
	li t1, 1
	sd t1, 0(t2)
	mv a0, s2
	li a1, 0
	call mprotect
	ld t1, 0(s2)
	li s1, BAD		/* not reached */
	li a0, 99
	li t0, 0		/* HALT 99: not reached */
	ecall

mprotect:
	li t0, MPROTECT
	ecall
	ret

violate_load:
	li t3, 123
load_insn:
	ld t3, 0(a0)
	ret

violate_store:
store_insn:
	sd a1, 8(a0)
	ret

violate_keccak:
	li t0, KECCAK_PERMUTE
	li a1, 0
keccak_call:
	ecall
	ret

violate_sha:
	li t0, SHA_EXTEND
	li a1, 0
sha_call:
	ecall
	ret

handler:
	la t1, __SUCCINCT_TRAP_CONTEXT
	ld t2, 8(t1)		/* code */
	slli s1, s1, 4
	or s1, s1, t2
	ld t2, 16(t1)		/* pc */
	beq t2, a3, 1f
	li t2, BAD
	or s1, s1, t2
1:	ret

	.balign 8
tmpl:	li a0, 9
	ret

	.data
	.balign 8
	.globl __SUCCINCT_TRAP_CONTEXT
__SUCCINCT_TRAP_CONTEXT:
	.dword 1, 0, 1		/* handler, code, pc: SP1's examples start so */
result:	.dword 0
frame:	.dword 0		/* the pc SIG_RETURN goes to */
	.dword 0, 0, 0, 0	/* x1..x4 */
	.dword 77		/* x5 (t0) */
	.dword 0, 0, 0		/* x6..x8 */
	.dword 0		/* x9 (s1), filled in */
	.dword 42		/* x10 (a0) */
	.zero 7 * 8		/* x11..x17 */
	.dword 0		/* x18 (s2), filled in */
	.zero 13 * 8		/* x19..x31 */

	.bss
	.balign PAGE
region:	.zero 3 * PAGE
region_end:

#include "succinct_note.h"
