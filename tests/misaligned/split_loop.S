# split_loop.S - misaligned accesses in a hot loop, for the translation tier
# under a model that charges them (zero-riscy: misaligned-extra 1, for an
# access split over two bus words). tests/run.sh (the jit layer) runs it
# translated and interpreted and compares every byte; no counters run, so
# the run can be translated (event counting keeps to the interpreter).
#
# Each of the N = 200000 iterations makes these accesses (buf is 8-aligned):
#   lw 0(s0)            aligned                          translated
#   lw 0(s2)            s2 = buf + 2 every other time:
#                       then misaligned and split (+1)   half of them leave
#   lw 1(s0)            misaligned, split over 0 and 4   leaves
#   lh 1(s0)            misaligned inside word 0: counted, no extra
#   lhu 3(s0)           misaligned, split over 0 and 4   leaves
#   sw 5(s0)            misaligned, split over 4 and 8   leaves
# so the report counts 4 N + N / 2 = 900000 misaligned accesses at 5 pcs.
# The clock (zero-riscy: alu 1, load and store 2, a branch 1, taken 3,
# ecall 1): an iteration is 8 + 2 + 2 + 1 + 3 * 2 + 2 + 4 + 1 + 3 = 29
# cycles plus 3.5 split extras on average, 32.5 N = 6500000, the last
# branch not taken (-2), and 6 instructions before the loop (la and li of
# 200000 two each) and 3 after it: 6500007 cycles, 21 N + 9 instructions.
# The loop's head (the 8 additions and the aligned lw before the first
# access that can leave: 8 + 2 cycles under zero-riscy) runs translated in
# every iteration after the loop's region is in: at least 10 N cycles.
# EXPECT-SPLIT-LOOP: 900000 5 6500007 2000000
    .data
    .balign 8
buf:
    .word 0x11223344, 0x55667788, 0x99aabbcc, 0

    .text
    .globl _start
    .type _start, @function
_start:
    la s0, buf
    mv s2, s0
    li s1, 200000
    li a5, 0
loop:
    addi t0, s1, 1
    addi t1, s1, 2
    addi t2, s1, 3
    add t0, t0, t1
    add t0, t0, t2
    xor a5, a5, t0
    addi t1, t1, 5
    add a5, a5, t1
    lw a0, 0(s0)
    lw a4, 0(s2)
    xori s2, s2, 2
    lw a1, 1(s0)
    lh a2, 1(s0)
    lhu a3, 3(s0)
    sw a0, 5(s0)
    add a5, a5, a1
    xor a5, a5, a2
    add a5, a5, a3
    xor a5, a5, a4
    addi s1, s1, -1
    bnez s1, loop
    andi a0, a5, 0x7f
    li a7, 93
    ecall
    .size _start, .-_start
