# An RV64 load from 2^40 + 2, past the guest's 1 TiB space and misaligned:
# the run stops there (status 252) before the access is made, so neither
# its misalignment nor any wait state costs a cycle; under zero-riscy the
# three instructions before it cost one cycle each: 3 cycles, in every
# engine (the detailed build once priced the access it never made).
    .globl _start
_start:
    li a0, 1
    slli a0, a0, 40             /* 0x10000000000 */
    addi a0, a0, 2
reach:
    ld a1, 0(a0)
    li a7, 93
    ecall
