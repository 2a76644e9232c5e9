# table_full.S - fills the table of misaligned pcs (65536 of them,
# CY_MISALIGNED_MAX_SITES) up to its last slot, which the next new pc to
# run takes: which pcs are listed must not depend on the engine (translated
# code that counted by instruction index and handed its counts over at its
# exit would give the slot to the lower address). By construction:
#   hot (s1 = 0): lw 1(s0) at pc A, misaligned, 10^7 times
#   fill: 65534 distinct lw 1(s0), once each: with A, 65535 pcs
#   hot (s1 = 1): A 10^7 times more; then lw 5(s0) at pc C (the higher
#         address, run first: it takes the last slot) and lh 3(s0) at pc B
#         (the lower address, run second: no room for it), 10^7 times each
# so 10^7 + 65534 + 3 * 10^7 = 40065534 misaligned accesses, 65536 pcs
# listed (C among them, B not), B's 10^7 lost. hot's first call is long
# enough (5 * 10^7 cycles) for the translation tier to compile it (a run of
# 2^25 cycles at least), and a second run loads it from the cache at once:
# translated code reaches C and B with one slot left.
# EXPECT-TABLE-FULL: 40065534 65536 10000000
    .data
    .balign 8
buf:
    .word 0x11223344, 0x55667788, 0

    .text
    .globl _start
    .type _start, @function
_start:
    la s0, buf
    li s1, 0
    call hot
    call fill
    li s1, 1
    call hot
    li a0, 0
    li a7, 93
    ecall
    .size _start, .-_start

    .globl hot
    .type hot, @function
hot:
    li t0, 10000000
1:  lw a1, 1(s0)        # A
    beqz s1, 2f
    j 4f
3:  lh a2, 3(s0)        # B: no room left for it
    j 2f
4:  lw a3, 5(s0)        # C: takes the last slot
    j 3b
2:  addi t0, t0, -1
    bnez t0, 1b
    ret
    .size hot, .-hot

    .globl fill
    .type fill, @function
fill:
    .rept 65534
    lw a1, 1(s0)
    .endr
    ret
    .size fill, .-fill
