# Call stacks: hand-overs of a function's blocks between the stacks they run
# on (docs/architecture.md, the accounting interface). walk recurses with a
# different path at odd and even depths, so each depth's stack runs other
# blocks of it; inc is called through one function pointer from three
# sites (drive itself, d1 and d2) in turn, taking its odd path on every
# other call. Both open with 16 branches never taken, each ending a block:
# with more than 16 blocks a function's hand-overs go by the list of the
# blocks that ran (callstack.c, WALK_MAX), not by a walk over them all. The per-pc costs (pprof's samples) are the blocks' run counts
# handed to each stack: tests/run.sh checks that they add up per stack to
# the folded stacks below, which the clock gives. The exit status is the
# number of inc's calls, 6.
#
#   _start:   li, jal walk, auipc, addi (la), li, jal drive, li a7       = 7
#             ecall                                                      = 1
#   walk(n): 16 x bltu (not taken), then
#   walk(3), odd:  beqz, addi, sw, andi, beqz (not taken), addi,
#                  addi, jal | lw, addi, ret                        16 + 11 = 27
#   walk(2), even: beqz, addi, sw, andi, beqz (taken),
#                  addi, jal | lw, addi, ret                        16 + 10 = 26
#   walk(1), odd                                                         = 27
#   walk(0):       beqz (taken), ret                                16 + 2 = 18
#   drive:    mv, li | 2 x (jalr, jal d1, jal d2, addi, bnez) | mv, ret  = 14
#   d1, d2:   mv, jalr, mv, ret, twice each                              = 8 each
#   inc(a0):  16 x bltu (not taken), andi, beqz, [addi when a0 is odd],
#             addi, ret: 20 or 21
#             a0 = 0 (drive), 1 (d1), 2 (d2), 3 (drive), 4 (d1), 5 (d2)
#             drive's: 20 + 21, d1's: 21 + 20, d2's: 20 + 21          = 41 each
#   total 7 + 1 + 98 + 14 + 16 + 123                                     = 259
# EXPECT-EXIT: 6
# EXPECT-CYCLES: 259
# EXPECT-FOLDED: _start 7
# EXPECT-FOLDED: _start;[ecall exit] 1
# EXPECT-FOLDED: _start;walk 27
# EXPECT-FOLDED: _start;walk;walk 26
# EXPECT-FOLDED: _start;walk;walk;walk 27
# EXPECT-FOLDED: _start;walk;walk;walk;walk 18
# EXPECT-FOLDED: _start;drive 14
# EXPECT-FOLDED: _start;drive;inc 41
# EXPECT-FOLDED: _start;drive;d1 8
# EXPECT-FOLDED: _start;drive;d1;inc 41
# EXPECT-FOLDED: _start;drive;d2 8
# EXPECT-FOLDED: _start;drive;d2;inc 41
# EXPECT-PPROF: walk flat 98 cum 98
# EXPECT-PPROF: inc flat 123 cum 123

    .option norvc
    .text
    .globl _start
    .type _start, @function
_start:
    li a0, 3
    jal ra, walk
    la t1, inc
    li a0, 0
    jal ra, drive
    li a7, 93
    ecall
    .size _start, .-_start

    .type walk, @function
walk:
    .rept 16
    bltu a0, zero, 2f
    .endr
    beqz a0, 2f
    addi sp, sp, -16
    sw ra, 0(sp)
    andi t0, a0, 1
    beqz t0, 1f
    addi t2, t2, 1
1:  addi a0, a0, -1
    jal ra, walk
    lw ra, 0(sp)
    addi sp, sp, 16
2:  ret
    .size walk, .-walk

    .type drive, @function
drive:
    mv s1, ra
    li s2, 2
3:  jalr t1
    jal ra, d1
    jal ra, d2
    addi s2, s2, -1
    bnez s2, 3b
    mv ra, s1
    ret
    .size drive, .-drive

    .type d1, @function
d1:
    mv s3, ra
    jalr t1
    mv ra, s3
    ret
    .size d1, .-d1

    .type d2, @function
d2:
    mv s4, ra
    jalr t1
    mv ra, s4
    ret
    .size d2, .-d2

    .type inc, @function
inc:
    .rept 16
    bltu a0, zero, 5f
    .endr
    andi t0, a0, 1
    beqz t0, 5f
    addi a1, a1, 1
5:  addi a0, a0, 1
    ret
    .size inc, .-inc
