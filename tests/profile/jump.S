# Call stacks: a plain jump into the middle of another function. f jumps
# (j, no link) to g_tail, a label inside g: that is neither a call nor a
# return, so g takes f's place (the stack resynchronises from the function
# that contains the pc) and g's ret returns to _start. g_tail is a label,
# not a function: it does not get a frame of its own.
#
#   _start:  jal f | li a7, li a0                               = 3, ecall 1
#   f:       li, li, j g_tail                                   = 3
#   g:       li, ret (from g_tail)                              = 2
#   total 3 + 1 + 3 + 2                                         = 9
# EXPECT-EXIT: 0
# EXPECT-CYCLES: 9
# EXPECT-FOLDED: _start 3
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;f 3
# EXPECT-FOLDED: _start;g 2

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
    li t0, 1
    li t1, 2
    j g_tail
    .size f, .-f

    .type g, @function
g:
    li t2, 3
    .globl g_tail
g_tail:
    li t3, 4
    ret
    .size g, .-g
