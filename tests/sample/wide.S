# More distinct pcs outside the per-pc ranges than the sampler's table of
# other pcs holds (2^20, docs/robustness.md). The guest writes a sled of
# N = 2^20 + 999 c.nop and one c.jr ra into .sled, an executable segment of
# 17 MiB (larger than the 16 MiB that get a count per pc, so its pcs go to the
# table of other pcs), runs the sled once and exits.
#
# With --sample=1 under the unit model every instruction is sampled exactly
# once. The sled's N + 1 pcs are new pcs outside the ranges, each sampled
# once, in address order; nothing else is outside the ranges. So the table
# takes the first 2^20 of them and the last N + 1 - 2^20 = 1000 samples are
# counted at 0xffffffff, with one warning.
    .equ N, (1 << 20) + 999

    .text
    .globl _start
_start:
    la t0, sled
    li t1, N
    li t2, 0x0001           # c.nop
1:  sh t2, 0(t0)
    addi t0, t0, 2
    addi t1, t1, -1
    bnez t1, 1b
    li t2, 0x8082           # c.jr ra
    sh t2, 0(t0)
    fence.i
    la t0, sled
    jalr ra, 0(t0)
    li a0, 0
    li a7, 93               # exit
    ecall

    .section .sled, "awx", @nobits
    .balign 4
sled:
    .skip 17 << 20
