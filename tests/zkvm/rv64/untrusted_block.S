/* untrusted_block.S - page protections hold inside an unconstrained block,
 * as SP1 v6's user mode checks them there too (docs/zkvm.md, "Untrusted
 * programs"): the region's page is set to none, then inside the block a
 * load from it traps to the handler, which sets s1 to 't' (it stays 'n'
 * if the load went through) and returns to load's caller; the block
 * writes s1 and a newline to stdout (a block's output is kept) and ends;
 * the program halts with exit code 5. The label sp1_zkvm_marker makes
 * the SP1 ABI the detected one (tests/run.sh engines runs it without
 * --abi). */
	.option norvc
	.text
	.globl _start
	.globl sp1_zkvm_marker
_start:
sp1_zkvm_marker:
	la t1, handler
	la t2, __SUCCINCT_TRAP_CONTEXT
	sd t1, 0(t2)
	la a0, region
	li a1, 0
	li t0, 0x132
	ecall
	li t0, 3		/* ENTER_UNCONSTRAINED */
	ecall
	beqz t0, after		/* 0: back from the block */
	li s1, 'n'
	la a0, region
	call load
	la a1, msg
	sb s1, 0(a1)
	li a0, 1
	li a2, 2
	li t0, 2
	ecall
	li t0, 4		/* EXIT_UNCONSTRAINED */
	ecall
after:
	li a0, 5
	li t0, 0
	ecall
load:	ld t3, 0(a0)
	ret
handler:
	li s1, 't'
	ret
	.data
	.balign 8
	.globl __SUCCINCT_TRAP_CONTEXT
__SUCCINCT_TRAP_CONTEXT: .dword 1, 0, 1
msg:	.ascii "?\n"
	.bss
	.balign 4096
region:	.zero 4096
region_end:
#include "succinct_note.h"
