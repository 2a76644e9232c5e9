# An RV64 load from 2^40, the first address past the guest's 1 TiB space:
# the run stops there with the address and the instruction named (status
# 252), after the two instructions before it.
    .globl _start
_start:
    li a0, 1
    slli a0, a0, 40             /* 0x10000000000 */
reach:
    ld a1, 0(a0)
    li a7, 93
    ecall
