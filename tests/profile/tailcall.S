# Call stacks: a tail call. f calls g, then jumps (j, no link) to the start
# of h: h takes f's place under _start and its ret returns to _start.
#
#   _start:  jal f, li a7, li a0                                = 3, ecall 1
#   f:       addi, sw, jal g, lw, addi, j h                     = 6
#   g:       li, ret                                            = 2
#   h:       li, li, ret                                        = 3
#   total 3 + 1 + 6 + 2 + 3                                     = 15
# EXPECT-EXIT: 0
# EXPECT-CYCLES: 15
# EXPECT-FOLDED: _start 3
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;f 6
# EXPECT-FOLDED: _start;f;g 2
# EXPECT-FOLDED: _start;h 3
# EXPECT-PPROF: f flat 6 cum 8
# EXPECT-PPROF: h flat 3 cum 3

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    jal f
    li a7, 93
    li a0, 0
    ecall
    .size _start, .-_start

    .type f, @function
f:
    addi sp, sp, -4
    sw ra, 0(sp)
    jal g
    lw ra, 0(sp)
    addi sp, sp, 4
    j h
    .size f, .-f

    .type g, @function
g:
    li t0, 1
    ret
    .size g, .-g

    .type h, @function
h:
    li t1, 2
    li t2, 3
    ret
    .size h, .-h
