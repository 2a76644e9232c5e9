# Self-checking test of RV64I's loads, stores, lui, auipc and branches on
# 64-bit values: ld/sd, lw sign-extending and lwu zero-extending to 64 bits,
# lh/lhu/lb/lbu at XLEN 64, sw and sh touching only their bytes of a
# doubleword, misaligned ld/sd and an ld across a page, lui and auipc
# sign-extending their 32-bit results (auipc with the top bit set lands
# 2 GiB below the pc, wrapping to the top of the 64-bit space), jalr links,
# and branches whose operands differ only in their upper halves.
# Expected values: the bytes stored in .data below, read little-endian, and
# the sign- or zero-extension rules of the RV64I chapter, worked out by hand.
#include "../test.h"

    .data
    .balign 8
words:
    .dword 0x8877665544332211
    .dword 0xfedcba9876543210
buf:
    .space 32
    .balign 4096
    .space 4092
page_edge:              /* 4 bytes before a page boundary */
    .space 16

    .text
    la s0, words
    la s1, buf

    # ---- loads from 0x8877665544332211
    ld a0, 0(s0)
    CHECK(a0, 0x8877665544332211)
    lw a0, 0(s0)
    CHECK(a0, 0x44332211)
    lw a0, 4(s0)
    CHECK(a0, 0xffffffff88776655)
    lwu a0, 4(s0)
    CHECK(a0, 0x0000000088776655)
    lh a0, 6(s0)
    CHECK(a0, 0xffffffffffff8877)
    lhu a0, 6(s0)
    CHECK(a0, 0x8877)
    lb a0, 7(s0)
    CHECK(a0, 0xffffffffffffff88)
    lbu a0, 7(s0)
    CHECK(a0, 0x88)
    ld a0, 8(s0)
    CHECK(a0, 0xfedcba9876543210)
    # misaligned: bytes 3..10 of the two doublewords
    ld a0, 3(s0)
    CHECK(a0, 0x5432108877665544)
    lw a0, 6(s0)                 /* 0x88 0x77 | 0x10 0x32 -> 0x32108877 */
    CHECK(a0, 0x32108877)
    lwu a0, 5(s0)                /* 0x66 0x77 0x88 0x10 */
    CHECK(a0, 0x10887766)

    # ---- stores
    li a1, 0x0102030405060708
    sd a1, 0(s1)
    ld a0, 0(s1)
    CHECK(a0, 0x0102030405060708)
    lbu a0, 0(s1)
    CHECK(a0, 0x08)
    lwu a0, 4(s1)
    CHECK(a0, 0x01020304)
    li a1, -1
    sd a1, 8(s1)
    sw x0, 8(s1)                 /* only the low word */
    ld a0, 8(s1)
    CHECK(a0, 0xffffffff00000000)
    li a1, 0x1234
    sh a1, 14(s1)                /* the top halfword */
    ld a0, 8(s1)
    CHECK(a0, 0x1234ffff00000000)
    sb x0, 15(s1)
    ld a0, 8(s1)
    CHECK(a0, 0x0034ffff00000000)
    # misaligned doubleword store and load
    li a1, 0xa1b2c3d4e5f60718
    sd a1, 17(s1)
    ld a0, 17(s1)
    CHECK(a0, 0xa1b2c3d4e5f60718)
    lbu a0, 17(s1)
    CHECK(a0, 0x18)
    lbu a0, 24(s1)
    CHECK(a0, 0xa1)
    # across a page boundary
    la s2, page_edge
    li a1, 0x1122334455667788
    sd a1, 0(s2)
    ld a0, 0(s2)
    CHECK(a0, 0x1122334455667788)
    lwu a0, 4(s2)                /* the first word of the next page */
    CHECK(a0, 0x11223344)
    # x0 as a store source and a load destination
    sd x0, 0(s1)
    ld a0, 0(s1)
    CHECK(a0, 0)
    ld x0, 0(s0)
    CHECK(x0, 0)

    # ---- lui and auipc sign-extend their 32-bit results
    lui a0, 0x80000
    CHECK(a0, 0xffffffff80000000)
    lui a0, 0x7ffff
    CHECK(a0, 0x7ffff000)
    lui a0, 0xfffff
    CHECK(a0, 0xfffffffffffff000)
1:
    auipc a0, 0
    la a1, 1b
    CHECK_EQ(a0, a1)
2:
    auipc a0, 0xfffff            /* pc - 4096 */
    la a1, 2b
    li a2, -4096
    add a1, a1, a2
    CHECK_EQ(a0, a1)
3:
    auipc a0, 0x80000            /* pc - 2^31: below 0, so the top of the space */
    la a1, 3b
    li a2, 0xffffffff80000000
    add a1, a1, a2
    CHECK_EQ(a0, a1)
4:
    auipc a0, 0x7ffff            /* pc + 2^31 - 4096 */
    la a1, 4b
    li a2, 0x7ffff000
    add a1, a1, a2
    CHECK_EQ(a0, a1)

    # ---- jalr links pc + 4 at 64 bits, and clears bit 0 of the target
    la t0, 5f
    addi t0, t0, 1
    jalr ra, 0(t0)
6:
    FAIL
5:
    la a1, 6b
    CHECK_EQ(ra, a1)

    # ---- branches compare all 64 bits
    TEST_BR_NOT_TAKEN(beq, 0x0000000100000000, 0x0000000000000000)
    TEST_BR_TAKEN(bne, 0x0000000100000000, 0x0000000000000000)
    TEST_BR_TAKEN(blt, 0xffffffff00000000, 0x00000000ffffffff)
    TEST_BR_NOT_TAKEN(bltu, 0xffffffff00000000, 0x00000000ffffffff)
    TEST_BR_TAKEN(bltu, 0x00000000ffffffff, 0x0000000100000000)
    TEST_BR_TAKEN(bge, 0x0000000100000000, 0x00000000ffffffff)
    TEST_BR_TAKEN_BACK(bgeu, 0x8000000000000000, 0x7fffffffffffffff)
    TEST_BR_NOT_TAKEN(blt, 0x7fffffffffffffff, 0x8000000000000000)

    TEST_END
