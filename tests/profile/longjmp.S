# Call stacks: longjmp. main2 calls setjmp, then deep1 -> deep2 -> longjmp,
# whose ret lands in main2 right after its call of setjmp (an address no
# frame on the stack returns to): the stack unwinds three frames to main2.
# The exit status is longjmp's value, 7.
#
#   _start:   jal main2 | li a7                                 = 2, ecall 1
#   main2:    addi, sw, auipc, addi (la), jal setjmp            = 5
#             bnez (not taken), jal deep1                       = 2
#             after the longjmp: bnez (taken), lw, addi, ret    = 4 -> 11
#   setjmp:   sw, sw, li, ret                                   = 4
#   deep1:    addi, sw, jal deep2                               = 3
#   deep2:    auipc, addi (la), li, jal longjmp                 = 4
#   longjmp:  lw, lw, mv, ret                                   = 4
#   total 2 + 1 + 11 + 4 + 3 + 4 + 4                            = 29
# EXPECT-EXIT: 7
# EXPECT-CYCLES: 29
# EXPECT-FOLDED: _start 2
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;main2 11
# EXPECT-FOLDED: _start;main2;setjmp 4
# EXPECT-FOLDED: _start;main2;deep1 3
# EXPECT-FOLDED: _start;main2;deep1;deep2 4
# EXPECT-FOLDED: _start;main2;deep1;deep2;longjmp 4
# EXPECT-PPROF: main2 flat 11 cum 26
# EXPECT-PPROF: deep1 flat 3 cum 11

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    jal main2
    li a7, 93
    ecall
    .size _start, .-_start

    .type main2, @function
main2:
    addi sp, sp, -4
    sw ra, 0(sp)
    la a0, jmpbuf
    jal setjmp
    bnez a0, 1f
    jal deep1
1:  lw ra, 0(sp)
    addi sp, sp, 4
    ret
    .size main2, .-main2

    .type setjmp, @function
setjmp:
    sw ra, 0(a0)
    sw sp, 4(a0)
    li a0, 0
    ret
    .size setjmp, .-setjmp

    .type deep1, @function
deep1:
    addi sp, sp, -4
    sw ra, 0(sp)
    jal deep2
    .size deep1, .-deep1

    .type deep2, @function
deep2:
    la a0, jmpbuf
    li a1, 7
    jal longjmp
    .size deep2, .-deep2

    .type longjmp, @function
longjmp:
    lw ra, 0(a0)
    lw sp, 4(a0)
    mv a0, a1
    ret
    .size longjmp, .-longjmp

    .data
jmpbuf:
    .word 0, 0
