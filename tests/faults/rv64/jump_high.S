# An RV64 jump to 4 GiB, where no code can be (pcs are 32 bits wide): the
# run stops at the jalr with the target named (status 252).
    .globl _start
_start:
    li t0, 1
    slli t0, t0, 32             /* 0x100000000 */
leap:
    jalr ra, 0(t0)
    li a7, 93
    ecall
