# Call stacks: mutual recursion. is_even(3) -> is_odd(2) -> is_even(1) ->
# is_odd(0) = 0; the exit status is is_even(3) = 0.
#
#   _start:              li a0, jal, li a7                      = 3, ecall 1
#   a level with n > 0:  beqz, addi, sw, addi, jal              = 5
#                        lw, addi, ret                          = 3 -> 8
#   is_odd(0):           beqz (taken), li, ret                  = 3
#   total 3 + 1 + 3 * 8 + 3                                     = 31
#   per function, a recursive function counted once in its inclusive:
#   is_even self 8 + 8 = 16, inclusive 8 + 8 + 8 + 3 = 27;
#   is_odd self 8 + 3 = 11, inclusive 8 + 8 + 3 = 19
# EXPECT-EXIT: 0
# EXPECT-CYCLES: 31
# EXPECT-FOLDED: _start 3
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;is_even 8
# EXPECT-FOLDED: _start;is_even;is_odd 8
# EXPECT-FOLDED: _start;is_even;is_odd;is_even 8
# EXPECT-FOLDED: _start;is_even;is_odd;is_even;is_odd 3
# EXPECT-PPROF: is_even flat 16 cum 27
# EXPECT-PPROF: is_odd flat 11 cum 19

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    li a0, 3
    jal is_even
    li a7, 93
    ecall
    .size _start, .-_start

    .type is_even, @function
is_even:
    beqz a0, 1f
    addi sp, sp, -4
    sw ra, 0(sp)
    addi a0, a0, -1
    jal is_odd
    lw ra, 0(sp)
    addi sp, sp, 4
    ret
1:  li a0, 1
    ret
    .size is_even, .-is_even

    .type is_odd, @function
is_odd:
    beqz a0, 1f
    addi sp, sp, -4
    sw ra, 0(sp)
    addi a0, a0, -1
    jal is_even
    lw ra, 0(sp)
    addi sp, sp, 4
    ret
1:  li a0, 0
    ret
    .size is_odd, .-is_odd
