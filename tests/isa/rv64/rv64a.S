# Self-checking test of the A extension at XLEN 64: lr.d/sc.d succeeding,
# sc.d failing without a reservation and after a store-conditional, every
# amo*.d (old value in rd, memory updated; signed and unsigned min and max),
# and the word forms at XLEN 64: lr.w and amo*.w sign-extend the word they
# read, and touch only their word of a doubleword.
# Expected values worked out by hand from the A extension chapter.
#include "../test.h"

    .data
    .balign 8
cell:
    .dword 0
    .dword 0

    .text
    la s0, cell

    # ---- lr.d / sc.d
    li a1, 0x0123456789abcdef
    sd a1, 0(s0)
    lr.d a0, (s0)
    CHECK(a0, 0x0123456789abcdef)
    li a2, 0xfedcba9876543210
    sc.d a3, a2, (s0)
    CHECK(a3, 0)
    ld a0, 0(s0)
    CHECK(a0, 0xfedcba9876543210)
    sc.d a3, a1, (s0)            /* the reservation was used up */
    CHECK(a3, 1)
    ld a0, 0(s0)
    CHECK(a0, 0xfedcba9876543210)

    # ---- amo*.d: old value in rd
    li a1, 0x8000000000000001
    sd a1, 0(s0)
    li a2, -1
    amoadd.d a0, a2, (s0)
    CHECK(a0, 0x8000000000000001)
    ld a0, 0(s0)
    CHECK(a0, 0x8000000000000000)
    li a2, 0x00000000ffffffff
    amoswap.d a0, a2, (s0)
    CHECK(a0, 0x8000000000000000)
    li a2, 0xffff0000ffff0000
    amoxor.d a0, a2, (s0)
    CHECK(a0, 0x00000000ffffffff)
    ld a0, 0(s0)
    CHECK(a0, 0xffff00000000ffff)
    li a2, 0x0f0f0f0f0f0f0f0f
    amoand.d a0, a2, (s0)
    ld a0, 0(s0)
    CHECK(a0, 0x0f0f000000000f0f)
    li a2, 0x1000000000000001
    amoor.d a0, a2, (s0)
    ld a0, 0(s0)
    CHECK(a0, 0x1f0f000000000f0f)
    # min/max: -2 against 3, signed and unsigned
    li a1, -2
    sd a1, 0(s0)
    li a2, 3
    amomin.d a0, a2, (s0)
    ld a0, 0(s0)
    CHECK(a0, 0xfffffffffffffffe)
    amomax.d a0, a2, (s0)
    ld a0, 0(s0)
    CHECK(a0, 3)
    li a1, -2
    sd a1, 0(s0)
    amominu.d a0, a2, (s0)
    ld a0, 0(s0)
    CHECK(a0, 3)
    li a2, -1
    amomaxu.d a0, a2, (s0)
    CHECK(a0, 3)
    ld a0, 0(s0)
    CHECK(a0, 0xffffffffffffffff)

    # ---- word forms at XLEN 64: sign-extended results, one word written
    li a1, 0x1111111180000000
    sd a1, 0(s0)
    lr.w a0, (s0)
    CHECK(a0, 0xffffffff80000000)
    li a2, 5
    sc.w a3, a2, (s0)
    CHECK(a3, 0)
    ld a0, 0(s0)
    CHECK(a0, 0x1111111100000005)
    li a2, 0x7ffffffb
    amoadd.w a0, a2, (s0)
    CHECK(a0, 5)
    ld a0, 0(s0)
    CHECK(a0, 0x1111111180000000)
    amoadd.w a0, x0, (s0)
    CHECK(a0, 0xffffffff80000000)
    li a2, 0x00000000fffffffe    /* -2 as a word */
    amomin.w a0, a2, (s0)
    CHECK(a0, 0xffffffff80000000)
    ld a0, 0(s0)
    CHECK(a0, 0x1111111180000000)
    amominu.w a0, a2, (s0)
    ld a0, 0(s0)
    CHECK(a0, 0x1111111180000000)
    amomaxu.w a0, a2, (s0)
    ld a0, 0(s0)
    CHECK(a0, 0x11111111fffffffe)
    amoswap.w a0, x0, (s0)
    CHECK(a0, 0xfffffffffffffffe)
    ld a0, 0(s0)
    CHECK(a0, 0x1111111100000000)

    TEST_END
