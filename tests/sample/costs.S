# Straight-line code whose instructions cost different cycles, for exact
# sample counts. A sample at clock T counts the instruction executing in
# cycle T-1 (start <= T-1 < start+cost); samples are taken at T = N, 2N, ...
# so a run of C cycles gets floor(C/N) samples. Each instruction has a label
# so that the test finds its address with nm.
#
# zero-riscy costs (models/zero-riscy.model): alu 1, mul 3, mulh 4, div 37,
# ecall 1. The cycles each instruction occupies:
#   a_li    li s0, 5          1   [0, 1)
#   b_li    li s1, 7          1   [1, 2)
#   c_mul   mul               3   [2, 5)
#   d_div   div              37   [5, 42)
#   e_mulh  mulh              4   [42, 46)
#   f_addi  addi              1   [46, 47)
#   g_li    li a0, 0          1   [47, 48)
#   h_li    li a7, 93         1   [48, 49)
#   i_ecall ecall             1   [49, 50)       total 50 cycles
#
# --sample=1: every cycle, so each instruction gets its cost:
# EXPECT zero-riscy 1: a_li=1 b_li=1 c_mul=3 d_div=37 e_mulh=4 f_addi=1 g_li=1 h_li=1 i_ecall=1
# --sample=4: cycles 3, 7, ..., 47 (12 = floor(50/4) samples): 3 in c_mul;
# 7, 11, ..., 39 (9 samples) in d_div; 43 in e_mulh; 47 in g_li.
# EXPECT zero-riscy 4: c_mul=1 d_div=9 e_mulh=1 g_li=1
# --sample=5: cycles 4, 9, ..., 49 (10 samples): 4 in c_mul; 9, 14, ..., 39
# (7) in d_div; 44 in e_mulh; 49 in i_ecall, the exit itself.
# EXPECT zero-riscy 5: c_mul=1 d_div=7 e_mulh=1 i_ecall=1
# Under the unit model every instruction costs 1 (9 cycles); --sample=2
# counts cycles 1, 3, 5, 7:
# EXPECT unit 1: a_li=1 b_li=1 c_mul=1 d_div=1 e_mulh=1 f_addi=1 g_li=1 h_li=1 i_ecall=1
# EXPECT unit 2: b_li=1 d_div=1 f_addi=1 h_li=1

    .text
    .globl _start
_start:
a_li:    li s0, 5
b_li:    li s1, 7
c_mul:   mul t0, s0, s1
d_div:   div t1, s1, s0
e_mulh:  mulh t2, s0, s1
f_addi:  addi t3, zero, 1
g_li:    li a0, 0
h_li:    li a7, 93
i_ecall: ecall
