# misaligned.S - data accesses whose address is not a multiple of their
# size (Zicclsm: performed, and counted by pc). By construction:
#   hot:  lw 1(s0) and lh 3(s0) are misaligned, 5 times each (the loop runs
#         5 times); lw 4(s0), lhu 2(s0) and lbu 1(s0) are not (a byte
#         never is)
#   cold: sw 2(s0) is misaligned once; sh 0(s0) is not
# so 11 misaligned accesses at 3 pcs, 10 of them in hot (the lw's 5 are
# the most at one pc), 1 in cold. mhpmcounter3, counting the MISALIGNED
# event (mhpmevent bit 16), reads 11 at the end, the exit status.
# EXPECT-MISALIGNED: 11 3 hot 10 cold 1
    .data
    .balign 8
buf:
    .word 0x11223344, 0x55667788, 0

    .text
    .globl _start
    .type _start, @function
_start:
    li t0, 1 << 16
    csrw mhpmevent3, t0
    csrw mhpmcounter3, zero
    la s0, buf
    li s1, 5
    call hot
    call cold
    csrr a0, mhpmcounter3
    li a7, 93
    ecall
    .size _start, .-_start

    .type hot, @function
hot:
    lw a0, 1(s0)        # the hottest misaligned pc
    lh a1, 3(s0)
    lw a2, 4(s0)
    lhu a3, 2(s0)
    lbu a4, 1(s0)
    addi s1, s1, -1
    bnez s1, hot
    ret
    .size hot, .-hot

    .type cold, @function
cold:
    sw a0, 2(s0)
    sh a1, 0(s0)
    ret
    .size cold, .-cold
