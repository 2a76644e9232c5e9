# Call stacks past the profiler's limit of 2^20 = 1048576 distinct stacks
# (CY_CALLSTACK_MAX_NODES, docs/robustness.md#limits). Iteration i of N =
# 800000 calls through a table of 64 functions f0..f63, four deep, indexed
# by the base-64 digits of i, lowest first: _start;f[d0];f[d1];f[d2];f[d3]
# with d_k = (i >> 6k) & 63, so every iteration is a new stack. tests/run.sh
# checks what follows (there are too many stacks for EXPECT-FOLDED lines).
#
# Instructions (unit model: one cycle each):
#   _start set-up:  la s2, table (2); li s0, 0 (1); li s1, N (lui+addi: 2) = 5
#   per iteration in _start: andi, slli, add, lw, srli, li, jalr,
#                            addi, bne                                  = 9
#   f with a1 > 0:  beqz (not taken), addi, sw, andi, slli, add, lw, srli,
#                   addi, jalr, lw, addi, ret                          = 13
#   f with a1 = 0:  beqz (taken), ret                                   = 2
#   per iteration:  9 + 3 * 13 + 2                                      = 50
#   after the loop: j finish (1); finish: li, li, ecall (3)             = 4
#   total 5 + 50 * N + 4 = 50 * 800000 + 9                       = 40000009
#
# Distinct stacks after i iterations (i >= 262144): _start, 64 prefixes of
# one function, 4096 of two, 262144 of three (every i mod 64^k has come by
# then) and one leaf per iteration: 1 + 64 + 4096 + 262144 + i. The table
# is full after i = 1048576 - 266305 = 782271 iterations; the leaves of the
# 17729 later ones are charged to their callers (f at depth 3), so the
# tree ends with exactly 1048576 nodes, every one with self cycles: as many
# folded lines, 782271 of them with four functions under _start.
#
# The function pointers are in t1: a jalr through t0, a link register,
# would be a return and a call at once (docs/profiles.md).
#
# `j finish` jumps to the start of a function from the outermost frame: a
# tail call, which puts finish in _start's place, at the top of the tree.
# With the table full, a new outermost stack is charged to the first one
# (_start), and so is the exit ecall under it: no "finish" nor "[ecall
# exit]" line; _start's self cycles are 5 + 9 * N + 4 = 7200009.
# Every f[d] under _start runs N / 64 = 12500 times: 13 * 12500 = 162500.
# EXPECT-EXIT: 0
# EXPECT-CYCLES: 40000009

#define N 800000

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    la s2, table
    li s0, 0
    li s1, N
loop:
    andi t1, s0, 63
    slli t1, t1, 2
    add t1, t1, s2
    lw t1, 0(t1)
    srli a0, s0, 6
    li a1, 3
    jalr t1
    addi s0, s0, 1
    bne s0, s1, loop
    j finish
    .size _start, .-_start

    .type finish, @function
finish:
    li a0, 0
    li a7, 93
    ecall
    .size finish, .-finish

# f\k: with a1 > 0, calls f[a0 & 63] with a0 >> 6 and a1 - 1.
.macro FUNC k
    .type f\k, @function
f\k:
    beqz a1, 1f
    addi sp, sp, -16
    sw ra, 0(sp)
    andi t1, a0, 63
    slli t1, t1, 2
    add t1, t1, s2
    lw t1, 0(t1)
    srli a0, a0, 6
    addi a1, a1, -1
    jalr t1
    lw ra, 0(sp)
    addi sp, sp, 16
1:  ret
    .size f\k, .-f\k
.endm

    .altmacro
.macro FUNCS from, to
    FUNC %(from)
    .if \to - \from
    FUNCS %(from + 1), \to
    .endif
.endm
    FUNCS 0, 63

    .section .rodata
    .balign 4
table:
.macro ENTRIES from, to
    .word f\from
    .if \to - \from
    ENTRIES %(from + 1), \to
    .endif
.endm
    ENTRIES 0, 63
