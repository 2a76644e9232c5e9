# rv64/misaligned.S - the RV64 forms: an ld at 4 (misaligned: not a
# multiple of 8), an ld at 8 (aligned), an sd at 12 (misaligned), an lwu at
# 6 (misaligned), a lw at 8 (aligned), and an amoadd.d at 8 (aligned; at
# Linux user level a misaligned AMO is not something a guest relies on).
# The loop runs 3 times over hot: 3 * (ld, sd, lwu) = 9 misaligned at 3
# pcs in hot; cold's ld 3(s0) once: 10 in all at 4 pcs. mhpmcounter3
# (MISALIGNED) reads 10 at the end, the exit status.
# EXPECT-MISALIGNED: 10 4 hot 9 cold 1
    .data
    .balign 16
buf:
    .dword 0x1122334455667788, 0x99aabbccddeeff00, 0

    .text
    .globl _start
    .type _start, @function
_start:
    li t0, 1 << 16
    csrw mhpmevent3, t0
    csrw mhpmcounter3, zero
    la s0, buf
    li s1, 3
    call hot
    call cold
    csrr a0, mhpmcounter3
    li a7, 93
    ecall
    .size _start, .-_start

    .type hot, @function
hot:
    ld a0, 4(s0)        # the hottest misaligned pc (first of three tied)
    ld a1, 8(s0)
    sd a1, 12(s0)
    lwu a2, 6(s0)
    lw a3, 8(s0)
    addi t1, s0, 8
    amoadd.d a4, zero, (t1)
    addi s1, s1, -1
    bnez s1, hot
    ret
    .size hot, .-hot

    .type cold, @function
cold:
    ld a0, 3(s0)
    ret
    .size cold, .-cold
