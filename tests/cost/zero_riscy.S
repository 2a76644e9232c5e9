# Cycle totals under the zero-riscy model, derived by hand from its table
# (models/zero-riscy.model): alu/csr 1, load/store 2, jump 2, branch 1 not
# taken / 3 taken, mul 3, mulh 4, div/rem 37 or 2 by zero, a misaligned
# access one extra cycle. Compressed instructions cost as their expansions.
#
# instruction                 count  zero-riscy   slow model (see below)
# 3 x li (setup)                  3      3 x 1
# loop body, 10 iterations:
#   div  t0, s1, s0              10     10 x 37
#   divu t1, s1, s2 (by zero)    10     10 x 2
#   mul  t2, s1, s0              10     10 x 3
#   mulh t3, s1, s0              10     10 x 4
#   sw   t0, 0(sp)               10     10 x 2     + 2 wait each
#   lw   t4, 0(sp)               10     10 x 2     + 2 wait each
#   addi s0, s0, -1              10     10 x 1
#   bnez s0, loop                10     9 x 3 + 1 x 1
# lw t5, 2(sp) (misaligned)       1      2 + 1      + 2 x 2 wait
# jal ra, leaf                    1      2
# ret (in leaf)                   1      2
# csrr a1, cycle                  1      1
# li a0, li a7, ecall             3      3 x 1
#
# instructions: 3 + 80 + 1 + 1 + 1 + 1 + 3 = 90
# zero-riscy: 3 + 10*(37+2+3+4+2+2+1) + (27+1) + 3 + 2 + 2 + 1 + 3 = 552
# zero-riscy-slow (tests/cost/zero-riscy-slow.model: the stack is outside
# the fast data range with 2 wait states, code outside the fast code range
# with 1 fetch stall per instruction): 552 + 90 fetch stalls + 10*(2+2) +
# 2*2 = 686
# The parts an observer sees under the slow model: wait = 40 + 4 wait states
# + 1 misaligned extra = 45, base = the rest, 686 - 45 = 641.
# EXPECT-PARTS tests/cost/zero-riscy-slow.model: base 641, wait 45, page-in 0, page-out 0, segment 0
# EXPECT-INSTRUCTIONS: 90
# EXPECT-CYCLES unit: 90
# EXPECT-CYCLES zero-riscy: 552
# EXPECT-CYCLES tests/cost/zero-riscy-slow.model: 686

    .text
    .globl _start
_start:
    li s0, 10
    li s1, 7
    li s2, 0
loop:
    div t0, s1, s0
    divu t1, s1, s2
    mul t2, s1, s0
    mulh t3, s1, s0
    sw t0, 0(sp)
    lw t4, 0(sp)
    addi s0, s0, -1
    bnez s0, loop
    lw t5, 2(sp)
    jal ra, leaf
    csrr a1, cycle
    li a0, 0
    li a7, 93
    ecall

leaf:
    ret
