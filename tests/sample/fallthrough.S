# A hot loop that calls a function falling through into the next one: with
# the call-stack profile on, f's block, which ends with a branch never taken
# into g's code, is flagged (the next block runs on the same stack), so
# translated code that counts samples by phases must leave at its end for
# the driver to count its samples there (tests/run.sh, the jit layer, with
# --profile).
# Unit model: every instruction 1 cycle.
#   a_li    li s0, 1000                 [0, 1)
#   iteration i = 0..999 starts at 1 + 8i:
#   b_jal   jal f                 +0
#   f1      addi t0, t0, 1        +1    (f)
#   f2      addi t1, t1, 1        +2
#   f3      bltz s0, f1           +3    not taken: falls through into g
#   g1      addi t3, t3, 1        +4    (g)
#   g2      ret                   +5
#   c_addi  addi s0, s0, -1       +6
#   d_bnez  bnez s0, b_jal        +7
#   e_li    li a0, 0            [8001, 8002)
#   f_li    li a7, 93           [8002, 8003)
#   g_ecall ecall               [8003, 8004)   total 8004 cycles
#
# --sample=2: the samples at clock 2k count the instruction in cycle 2k-1,
# offset (2k-2) mod 8 = 0, 2, 4, 6 into an iteration for 2k-1 <= 7999, so
# b_jal, f2, g1, c_addi 1000 each; then cycles 8001 (e_li) and 8003.
# EXPECT unit 2: b_jal=1000 f2=1000 g1=1000 c_addi=1000 e_li=1 g_ecall=1
# --sample=4: offsets (4k-2) mod 8 = 2, 6 for 4k-1 <= 7999: f2 and c_addi
# 1000 each; then cycle 8003.
# EXPECT unit 4: f2=1000 c_addi=1000 g_ecall=1

    .text
    .globl _start
_start:
a_li:    li s0, 1000
b_jal:   jal f
c_addi:  addi s0, s0, -1
d_bnez:  bnez s0, b_jal
e_li:    li a0, 0
f_li:    li a7, 93
g_ecall: ecall

    .type f, @function
f:
f1:      addi t0, t0, 1
f2:      addi t1, t1, 1
f3:      bltz s0, f1
    .size f, . - f

    .type g, @function
g:
g1:      addi t3, t3, 1
g2:      ret
    .size g, . - g
