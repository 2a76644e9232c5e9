# counter.S - the debugger's hand-counted guest (tests/run.sh, gdb layer).
# _start calls bump() 5 times; bump adds one to the word `counter`; the exit
# status is counter - 5 (0). Built without relaxation (tests/asm-guests.mk):
# `call` is auipc + jalr, `la` auipc + addi, `lw a0, counter` auipc + lw.
#
# Instructions, one cycle each under the unit model:
#   _start: li s0, 5                                          1
#   per iteration: call (2) + bump (la 2, lw, addi, sw, ret:
#                  6) + addi + bnez                           10
#   done: lw (2), addi, li a7, ecall                          5
#   in all: 1 + 5 * 10 + 5 = 56
# The k-th arrival at bump (k = 1..5) comes after 1 + 10 (k - 1) + 2 =
# 10k - 7 instructions: 3, 13, 23, 33, 43; `done` after 51. bump's store is
# its 5th instruction: the k-th store ends at 10k - 2 (8, 18, ...), when
# counter becomes k.
	.text
	.globl _start
_start:
	li s0, 5
loop:
	call bump
	addi s0, s0, -1
	bnez s0, loop
	.globl done
done:
	lw a0, counter
	addi a0, a0, -5
	li a7, 93
	ecall

	.globl bump
	.type bump, @function
bump:
	la t0, counter
	lw t1, 0(t0)
	addi t1, t1, 1
	sw t1, 0(t0)
	ret
	.size bump, . - bump

	.data
	.globl counter
	.type counter, @object
counter:
	.word 0
	.size counter, 4
