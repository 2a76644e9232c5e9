# Instruction-count guest, call shape: a recursive function sum(n) = n + ... + 0
# called three times (n = 3, 5, 0), with a stack frame per level, using
# compressed stack accesses and returns.
#
# Derivation:
#   sum(0): beqz (taken), ret                                       =  2
#   sum(n), n > 0: beqz (not taken), c.addi16sp, c.swsp, c.swsp, c.addi,
#                  jal, c.lwsp, c.add, c.lwsp, c.addi16sp, c.jr     = 11
#                  plus sum(n - 1)
#   so sum(n) costs 11 n + 2: sum(3) = 35, sum(5) = 57, sum(0) = 2     = 94
#   main: li s0 (1); per call li a0, jal, add (3) x 3 calls = 9;
#         mv a0, li a7, ecall (3)                                  = 13
#   total 94 + 13                                                   = 107
#   The exit code is sum(3) + sum(5) + sum(0) = 6 + 15 + 0 = 21.
# EXPECT-INSTRUCTIONS: 107

    .text
    .globl _start
    .option norvc
_start:
    li s0, 0
    li a0, 3
    jal ra, sum
    add s0, s0, a0
    li a0, 5
    jal ra, sum
    add s0, s0, a0
    li a0, 0
    jal ra, sum
    add s0, s0, a0
    mv a0, s0
    li a7, 93
    ecall

# a0 = n -> a0 = n + (n - 1) + ... + 0, recursively.
sum:
    beqz a0, sum_base
    .option rvc
    c.addi16sp sp, -16
    c.swsp ra, 12(sp)
    c.swsp a0, 8(sp)
    c.addi a0, -1
    .option norvc
    jal ra, sum
    .option rvc
    c.lwsp t0, 8(sp)
    c.add a0, t0
    c.lwsp ra, 12(sp)
    c.addi16sp sp, 16
    c.jr ra
    .option norvc
sum_base:
    ret
