# Self-checking test of jal and jalr: link values (pc+4), rd = x0, forward,
# backward and far jumps, jalr immediates (sign-extended), jalr clearing bit 0
# of the target, and rd == rs1 (the target must use the old rs1).
#include "test.h"

    # ---- jal links pc+4 in ra
    TEST_NEXT
    jal ra, 1f
jal_ret1:
    FAIL
1:
    la a0, jal_ret1
    CHECK_EQ(ra, a0)

    # ---- jal with another rd, and with rd = x0 (plain jump)
    TEST_NEXT
    jal a3, 1f
jal_ret2:
    FAIL
1:
    la a0, jal_ret2
    CHECK_EQ(a3, a0)

    TEST_NEXT
    li ra, 0x1234
    jal x0, 1f
    FAIL
1:
    CHECK(ra, 0x1234)
    CHECK(x0, 0)

    # ---- jal backward
    TEST_NEXT
    j 2f
1:
    la a0, jal_ret3
    CHECK_EQ(t0, a0)
    j 3f
2:
    jal t0, 1b
jal_ret3:
    FAIL
3:

    # ---- far jal, forward and back over 256 KiB (range is +-1 MiB)
    TEST_NEXT
    jal s0, far_fwd
jal_ret4:
    FAIL
far_back:
    la a0, jal_ret5
    CHECK_EQ(s1, a0)
    j jump_far_done

    .skip 0x40000               # zeros: executing any of them traps

far_fwd:
    la a0, jal_ret4
    CHECK_EQ(s0, a0)
    TEST_NEXT
    jal s1, far_back
jal_ret5:
    FAIL
jump_far_done:

    # ---- jalr links pc+4 and jumps to rs1 + imm
    TEST_NEXT
    la a1, 1f
    jalr ra, 0(a1)
jalr_ret1:
    FAIL
1:
    la a0, jalr_ret1
    CHECK_EQ(ra, a0)

    TEST_NEXT
    la a1, 1f - 100
    jalr t1, 100(a1)
    FAIL
1:
    TEST_NEXT
    la a1, 1f + 2048
    jalr t1, -2048(a1)          # most negative immediate
    FAIL
1:
    TEST_NEXT
    la a1, 1f - 2046
    jalr t1, 2046(a1)
    FAIL
1:
    TEST_NEXT
    la a1, 1f + 8
    jalr t1, -8(a1)
    FAIL
1:

    # ---- jalr clears bit 0 of rs1 + imm (an odd target is not an error)
    TEST_NEXT
    la a1, 1f + 1
    jalr t1, 0(a1)
    FAIL
1:
    TEST_NEXT
    la a1, 1f
    jalr t1, 1(a1)
    FAIL
1:
    TEST_NEXT
    la a1, 1f - 1
    jalr t1, 2(a1)              # sum is 1f + 1
    FAIL
1:
    TEST_NEXT
    la a1, 1f - 2047
    jalr t1, 2047(a1)           # largest immediate, odd
    FAIL
1:

    # ---- jalr with rd == rs1: jump to the old value, then link
    TEST_NEXT
    la a1, 1f
    jalr a1, 0(a1)
jalr_ret2:
    FAIL
1:
    la a0, jalr_ret2
    CHECK_EQ(a1, a0)

    TEST_NEXT
    la ra, 1f - 12
    jalr ra, 12(ra)
jalr_ret3:
    FAIL
1:
    la a0, jalr_ret3
    CHECK_EQ(ra, a0)

    # ---- jalr with rd = x0 (jr / ret): no link written
    TEST_NEXT
    la a1, 1f
    li ra, 0x4321
    jalr x0, 0(a1)
    FAIL
1:
    CHECK(ra, 0x4321)
    CHECK(x0, 0)

    # ---- call and return through nested functions
    li s2, 0
    call func_a
    CHECK(s2, 0x21)
    call func_a
    CHECK(s2, 0x42)

    TEST_END

# Adds 1 itself and 0x20 through func_b, to check ra is saved and restored.
func_a:
    mv s3, ra
    addi s2, s2, 1
    la a4, func_b
    jalr ra, 0(a4)
    mv ra, s3
    ret
func_b:
    addi s2, s2, 0x20
    jalr x0, 0(ra)
