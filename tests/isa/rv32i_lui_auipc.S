# Self-checking test of lui and auipc: the 20-bit immediate lands in bits
# 31:12, auipc adds it to its own pc (checked against link-time absolute
# addresses built with lui/addi, so neither instruction checks itself).
#include "test.h"

/* reg = absolute address of sym, without any pc-relative instruction. */
#define LA_ABS(reg, sym)                                                      \
    lui reg, %hi(sym);                                                        \
    addi reg, reg, %lo(sym)

    # ---- lui
    lui a0, 0
    CHECK(a0, 0x00000000)
    lui a0, 1
    CHECK(a0, 0x00001000)
    lui a0, 0x12345
    CHECK(a0, 0x12345000)
    lui a0, 0x7ffff
    CHECK(a0, 0x7ffff000)
    lui a0, 0x80000
    CHECK(a0, 0x80000000)
    lui a0, 0xfffff
    CHECK(a0, 0xfffff000)
    # lui replaces the whole register, the low 12 bits become 0
    li a0, 0xffffffff
    lui a0, 0x54321
    CHECK(a0, 0x54321000)
    lui x0, 0x12345
    CHECK(x0, 0)
    # lui + addi with a negative low part (what li expands to)
    lui a0, 0x12345
    addi a0, a0, -1
    CHECK(a0, 0x12344fff)
    lui a0, 0x80000
    addi a0, a0, -1
    CHECK(a0, 0x7fffffff)

    # ---- auipc 0 gives its own address
auipc_0:
    auipc a0, 0
    LA_ABS(a1, auipc_0)
    CHECK_EQ(a0, a1)

    # ---- auipc with positive, negative and top-bit immediates
auipc_1:
    auipc a0, 1
    LA_ABS(a1, auipc_1)
    li a2, 0x1000
    add a1, a1, a2
    CHECK_EQ(a0, a1)

auipc_2:
    auipc a0, 0xfffff           # pc - 4096
    LA_ABS(a1, auipc_2)
    li a2, -0x1000
    add a1, a1, a2
    CHECK_EQ(a0, a1)

auipc_3:
    auipc a0, 0x80000           # pc + 2^31, wraps modulo 2^32
    LA_ABS(a1, auipc_3)
    li a2, 0x80000000
    add a1, a1, a2
    CHECK_EQ(a0, a1)

auipc_4:
    auipc a0, 0x12345
    LA_ABS(a1, auipc_4)
    li a2, 0x12345000
    add a1, a1, a2
    CHECK_EQ(a0, a1)

    # ---- auipc agrees with the pc that jal links
    jal a1, 1f
1:
    auipc a0, 0
    CHECK_EQ(a0, a1)

    # ---- auipc x0 writes nothing
    auipc x0, 0x12345
    CHECK(x0, 0)

    # ---- pc-relative addressing of data (auipc + addi and auipc + lw)
2:
    auipc a0, %pcrel_hi(lui_data)
    addi a0, a0, %pcrel_lo(2b)
    LA_ABS(a1, lui_data)
    CHECK_EQ(a0, a1)
3:
    auipc a0, %pcrel_hi(lui_data)
    lw a0, %pcrel_lo(3b)(a0)
    CHECK(a0, 0x600dcafe)

    TEST_END

    .data
    .balign 4
lui_data:
    .word 0x600dcafe
