# Instruction-count guest, straight-line shape: no branches at all, a mix of
# 32-bit and compressed instructions, pseudo-instructions whose expansion
# matters, a store/load pair on the stack, and the exit ecall.
#
# Derivation (one executed instruction per line marked with its number):
#   the pseudo `li a0, 0x12345678` is lui+addi (2), `li` of a small value is
#   one addi or c.li, `mv` is one addi or c.mv; each instruction below runs once.
#   32 instructions from _start up to and including the exit ecall.
#   The exit code is 0x5e (94): ((0x12345678 >> 24) = 0x12) + 0x4c, computed
#   step by step in the comments.
# EXPECT-INSTRUCTIONS: 32

    .text
    .globl _start
_start:
    .option norvc
    li a0, 0x12345678           #  1-2  lui a0, 0x12345; addi a0, a0, 0x678
    srli a0, a0, 24             #  3    a0 = 0x12
    addi a1, x0, 0x10           #  4    a1 = 0x10
    .option rvc
    c.li a2, 3                  #  5    a2 = 3
    c.slli a2, 2                #  6    a2 = 12
    c.add a1, a2                #  7    a1 = 0x1c
    c.mv a3, a1                 #  8    a3 = 0x1c
    c.addi a3, 4                #  9    a3 = 0x20
    c.addi16sp sp, -16          # 10
    c.swsp a3, 0(sp)            # 11
    c.swsp a1, 4(sp)            # 12
    c.lwsp a4, 0(sp)            # 13    a4 = 0x20
    c.lwsp a5, 4(sp)            # 14    a5 = 0x1c
    c.addi16sp sp, 16           # 15
    .option norvc
    add a4, a4, a5              # 16    a4 = 0x3c
    xori a5, a4, 0x0f           # 17    a5 = 0x33
    and a5, a5, a4              # 18    a5 = 0x30
    or a5, a5, a2               # 19    a5 = 0x3c
    sub a5, a5, a2              # 20    a5 = 0x30
    slti t0, a5, 0x31           # 21    t0 = 1
    sltu t1, a5, t0             # 22    t1 = 0
    add a5, a5, t0              # 23    a5 = 0x31
    add a5, a5, t1              # 24    a5 = 0x31
    lui t2, 0                   # 25    t2 = 0
    auipc t3, 0                 # 26    (address, unused)
    addi a5, a5, 0x1b           # 27    a5 = 0x4c
    mul t4, a5, t0              # 28    t4 = 0x4c
    .option rvc
    c.nop                       # 29
    c.add a0, t4                # 30    a0 = 0x12 + 0x4c = 0x5e
    .option norvc
    li a7, 93                   # 31    exit
    ecall                       # 32
