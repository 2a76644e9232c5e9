# Self-checking test of the compressed instructions RV64 has where RV32 has
# others (c.ld, c.sd, c.ldsp, c.sdsp in place of the float forms, c.addiw in
# place of c.jal) and adds (c.addw, c.subw), and of the forms whose results
# are 64 bits wide there: c.li and c.lui sign-extending, c.slli, c.srli and
# c.srai with six-bit shift amounts, c.addi and c.add wrapping at 64 bits.
# Expected values worked out by hand from the RVC chapter's expansions.
#include "../test.h"

    .data
    .balign 8
dwords:
    .dword 0x0123456789abcdef
    .dword 0
    .dword 0

    .text
    .option push
    .option rvc
    la s0, dwords                /* s0 = x8: in the c.ld/c.sd register set */

    # ---- doubleword loads and stores
    c.ld a0, 0(s0)
    CHECK(a0, 0x0123456789abcdef)
    li a1, 0xfedcba9876543210
    c.sd a1, 8(s0)
    ld a0, 8(s0)
    CHECK(a0, 0xfedcba9876543210)
    addi sp, sp, -32
    li a2, 0x8000000000000001
    c.sdsp a2, 16(sp)
    c.ldsp a3, 16(sp)
    CHECK(a3, 0x8000000000000001)
    ld a0, 16(sp)
    CHECK(a0, 0x8000000000000001)
    addi sp, sp, 32

    # ---- c.addiw: 32-bit sum, sign-extended
    li a0, 0x000000007fffffff
    c.addiw a0, 1
    CHECK(a0, 0xffffffff80000000)
    li a0, 0x12345678ffffffff
    c.addiw a0, 0                /* sext.w */
    CHECK(a0, 0xffffffffffffffff)
    li a0, 0x0000000080000000
    c.addiw a0, -1
    CHECK(a0, 0x000000007fffffff)

    # ---- c.addw, c.subw (registers x8..x15)
    li s1, 0x00000000ffffffff
    li a0, 0x0000000100000001
    c.addw s1, a0                /* 0xffffffff + 1 = 0 in 32 bits */
    CHECK(s1, 0)
    li s1, 0
    li a0, 1
    c.subw s1, a0
    CHECK(s1, 0xffffffffffffffff)
    li s1, 0x7fffffff
    li a0, -1
    c.subw s1, a0
    CHECK(s1, 0xffffffff80000000)

    # ---- 64-bit results of the forms RV32 has too
    c.li a0, -1
    CHECK(a0, 0xffffffffffffffff)
    c.lui a0, 0xfffff            /* nzimm -4096 */
    CHECK(a0, 0xfffffffffffff000)
    c.lui a0, 0x1f
    CHECK(a0, 0x1f000)
    li a0, 1
    c.slli a0, 63
    CHECK(a0, 0x8000000000000000)
    c.srai a0, 40
    CHECK(a0, 0xffffffffff800000)
    c.srli a0, 32
    CHECK(a0, 0x00000000ffffffff)
    li a0, 0x7fffffffffffffff
    c.addi a0, 1
    CHECK(a0, 0x8000000000000000)
    li a0, -1
    li a1, 1
    c.add a0, a1
    CHECK(a0, 0)
    .option pop

    TEST_END
