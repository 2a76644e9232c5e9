# More distinct ecall numbers than the profiler names (4096,
# CY_CALLSTACK_MAX_ECALLS, docs/robustness.md#limits): 4097 ecalls with
# the numbers 1000 to 5096, which no Linux syscall has (each returns
# -ENOSYS; run it with -q), then the exit ecall (93). tests/run.sh checks
# what follows, and that every format says the profile was truncated.
#
#   _start:  li s0, 1000 (1); li s1, 5097 (lui + addi: 2)            = 3
#            per number: mv, ecall, addi, bne                       = 4
#            li a0, li a7, ecall                                     = 3
#   total 3 + 4 * 4097 + 3                                       = 16394
#
# The numbers 1000 to 5095 get their [ecall N] frame under _start, with
# its 1 cycle; 5096 and then 93 (exit) come past the limit: their ecalls
# are charged to _start itself. _start's self cycles: 3 + 3 * 4097 + 1 +
# 3 = 12298; 4097 nodes, as many folded lines.
# EXPECT-EXIT: 0
# EXPECT-CYCLES: 16394

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    li s0, 1000
    li s1, 5097
1:  mv a7, s0
    ecall
    addi s0, s0, 1
    bne s0, s1, 1b
    li a0, 0
    li a7, 93
    ecall
    .size _start, .-_start
