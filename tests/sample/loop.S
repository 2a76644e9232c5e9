# A loop, so that samples fall inside cached blocks and across their ends.
# zero-riscy costs: alu 1, mul 3, branch 1 not taken / 3 taken, ecall 1.
#   a_li    li s0, 100                  [0, 1)
#   iteration i = 0..99 starts at 1 + 7i:
#   b_addi  addi s0, s0, -1     1       [1+7i, 2+7i)
#   c_mul   mul t0, s0, s0      3       [2+7i, 5+7i)
#   d_bnez  bnez s0, b_addi     3 taken [5+7i, 8+7i); the last (i = 99)
#                               1 not taken: [698, 699)
#   e_li    li a0, 0            1       [699, 700)
#   f_li    li a7, 93           1       [700, 701)
#   g_ecall ecall               1       [701, 702)     total 702 cycles
#
# --sample=1: each instruction gets (times run) x cost:
# EXPECT zero-riscy 1: a_li=1 b_addi=100 c_mul=300 d_bnez=298 e_li=1 f_li=1 g_ecall=1
# --sample=7: cycles 7k-1 for k = 1..100 (floor(702/7) = 100). For k <= 99,
# 7k-1 = 5 + 7(k-1) + 1 lies in the taken bnez of iteration k-1; k = 100
# is cycle 699, e_li.
# EXPECT zero-riscy 7: d_bnez=99 e_li=1
# --sample=10: cycles 10k-1, k = 1..70; iteration i = (10k-2) div 7, offset
# (10k-2) mod 7 into it: 0 is b_addi, 1..3 c_mul, 4..6 d_bnez; the offsets
# repeat every 7 k (10*7 = 70 = 10 iterations): for k = 1..7 they are
# 1, 4, 0, 3, 6, 2, 5 -> mul, bnez, addi, mul, bnez, mul, bnez, so 10 rounds
# give addi 10, mul 30, bnez 30. The last, k = 70 (cycle 699), is
# iteration (698) div 7 = 99 offset 5: past the not-taken bnez [698, 699),
# so e_li takes it instead of a bnez: bnez 29, e_li 1.
# EXPECT zero-riscy 10: b_addi=10 c_mul=30 d_bnez=29 e_li=1
# Unit model: 1 + 300 + 3 = 304 cycles; --sample=1 is the execution counts.
# EXPECT unit 1: a_li=1 b_addi=100 c_mul=100 d_bnez=100 e_li=1 f_li=1 g_ecall=1

    .text
    .globl _start
_start:
a_li:    li s0, 100
b_addi:  addi s0, s0, -1
c_mul:   mul t0, s0, s0
d_bnez:  bnez s0, b_addi
e_li:    li a0, 0
f_li:    li a7, 93
g_ecall: ecall
