# Call stacks: direct recursion. sum(n) = n + sum(n - 1), sum(0) = 0, called
# as sum(3); the exit status is 6. Under the unit model a cycle is an
# instruction; a frame's self cycles are its instructions on that stack, its
# jal included (the call belongs to the caller), its ret included.
#
#   _start:            jal, li a7, li a0 ... see below        = 3, ecall 1
#   sum(n > 0):        beqz, addi, sw, sw, addi, jal           = 6
#                      lw, add, lw, addi, ret                   = 5 -> 11
#   sum(0):            beqz (taken), ret                        = 2
#   total 3 + 1 + 3 * 11 + 2                                    = 39
#   inclusive: sum (outermost) 35, _start 39
# EXPECT-EXIT: 6
# EXPECT-CYCLES: 39
# EXPECT-FOLDED: _start 3
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;sum 11
# EXPECT-FOLDED: _start;sum;sum 11
# EXPECT-FOLDED: _start;sum;sum;sum 11
# EXPECT-FOLDED: _start;sum;sum;sum;sum 2
# EXPECT-PPROF: sum flat 35 cum 35
# EXPECT-PPROF: _start flat 3 cum 39

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    li a0, 3
    jal sum
    li a7, 93
    ecall
    .size _start, .-_start

    .type sum, @function
sum:
    beqz a0, 1f
    addi sp, sp, -8
    sw ra, 0(sp)
    sw a0, 4(sp)
    addi a0, a0, -1
    jal sum
    lw t0, 4(sp)
    add a0, a0, t0
    lw ra, 0(sp)
    addi sp, sp, 8
1:  ret
    .size sum, .-sum
