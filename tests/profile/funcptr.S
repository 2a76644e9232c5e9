# Call stacks: calls through function pointers (jalr ra), a jal ra to a
# label inside the function (links but is not a call: the target is no
# function's start), and a millicode-style call through t0 (jal t0 / jr t0).
# The exit status is twice(3) = 6.
#
#   _start:  auipc, addi (la), jalr | auipc, addi (la), li, jalr
#            | li a7                                            = 8, ecall 1
#   work:    mv, jal ra 1f, mv, jal t0 helper, ret               = 5
#   helper:  li, jr t0                                          = 2
#   twice:   add, ret                                           = 2
#   total 8 + 1 + 5 + 2 + 2                                     = 18
# EXPECT-EXIT: 6
# EXPECT-CYCLES: 18
# EXPECT-FOLDED: _start 8
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;work 5
# EXPECT-FOLDED: _start;work;helper 2
# EXPECT-FOLDED: _start;twice 2
# EXPECT-PPROF: work flat 5 cum 7

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    la t1, work
    jalr t1
    la t1, twice
    li a0, 3
    jalr t1
    li a7, 93
    ecall
    .size _start, .-_start

    .type work, @function
work:
    mv t2, ra
    jal ra, 1f
1:  mv ra, t2
    jal t0, helper
    ret
    .size work, .-work

    .type helper, @function
helper:
    li t3, 5
    jr t0
    .size helper, .-helper

    .type twice, @function
twice:
    add a0, a0, a0
    ret
    .size twice, .-twice
