# Self-checking test of the A extension in a single hart: lr.w/sc.w success,
# sc.w failing once its reservation is used up, every amo*.w (rd gets the old
# value, memory the result), rd == x0, rd == rs2, rd == rs1, aq/rl variants.
#include "test.h"

/* mem = init; op a0 = old, a2 = src on amo_word; check a0 and memory. */
#define TEST_AMO(op, init, src, expected_mem)                                 \
    la a1, amo_word;                                                          \
    li a3, init;                                                              \
    sw a3, 0(a1);                                                             \
    li a2, src;                                                               \
    op a0, a2, (a1);                                                          \
    CHECK(a0, init);                                                          \
    lw a4, 0(a1);                                                             \
    CHECK(a4, expected_mem);                                                  \
    CHECK(a2, src)

/* The same with rd == x0: the memory result must still be written. */
#define TEST_AMO_X0_RD(op, init, src, expected_mem)                           \
    la a1, amo_word;                                                          \
    li a3, init;                                                              \
    sw a3, 0(a1);                                                             \
    li a2, src;                                                               \
    op x0, a2, (a1);                                                          \
    CHECK(x0, 0);                                                             \
    lw a4, 0(a1);                                                             \
    CHECK(a4, expected_mem)

/* rd == rs2: the old value replaces the source only after it was used. */
#define TEST_AMO_RD_RS2(op, init, src, expected_mem)                          \
    la a1, amo_word;                                                          \
    li a3, init;                                                              \
    sw a3, 0(a1);                                                             \
    li a2, src;                                                               \
    op a2, a2, (a1);                                                          \
    CHECK(a2, init);                                                          \
    lw a4, 0(a1);                                                             \
    CHECK(a4, expected_mem)

    # ---- amoswap.w
    TEST_AMO(amoswap.w, 0x11111111, 0x22222222, 0x22222222)
    TEST_AMO(amoswap.w, 0x00000000, 0xffffffff, 0xffffffff)
    TEST_AMO_X0_RD(amoswap.w, 0x11111111, 0x33333333, 0x33333333)
    TEST_AMO_RD_RS2(amoswap.w, 0x11111111, 0x44444444, 0x44444444)

    # ---- amoadd.w, wrapping
    TEST_AMO(amoadd.w, 0x00000005, 0x00000007, 0x0000000c)
    TEST_AMO(amoadd.w, 0x7fffffff, 0x00000001, 0x80000000)
    TEST_AMO(amoadd.w, 0xffffffff, 0x00000001, 0x00000000)
    TEST_AMO(amoadd.w, 0x00000010, 0xfffffff0, 0x00000000)
    TEST_AMO_X0_RD(amoadd.w, 0x00000100, 0x00000023, 0x00000123)
    TEST_AMO_RD_RS2(amoadd.w, 0x00001000, 0x00000234, 0x00001234)

    # ---- amoxor.w / amoand.w / amoor.w
    TEST_AMO(amoxor.w, 0xff00ff00, 0x0f0f0f0f, 0xf00ff00f)
    TEST_AMO(amoxor.w, 0xffffffff, 0xffffffff, 0x00000000)
    TEST_AMO_X0_RD(amoxor.w, 0x0ff00ff0, 0xffffffff, 0xf00ff00f)
    TEST_AMO_RD_RS2(amoxor.w, 0xff00ff00, 0x0f0f0f0f, 0xf00ff00f)

    TEST_AMO(amoand.w, 0xff00ff00, 0x0f0f0f0f, 0x0f000f00)
    TEST_AMO(amoand.w, 0xffffffff, 0x12345678, 0x12345678)
    TEST_AMO_X0_RD(amoand.w, 0xf0f0f0f0, 0x0ff00ff0, 0x00f000f0)
    TEST_AMO_RD_RS2(amoand.w, 0xff00ff00, 0x0f0f0f0f, 0x0f000f00)

    TEST_AMO(amoor.w, 0xff00ff00, 0x0f0f0f0f, 0xff0fff0f)
    TEST_AMO(amoor.w, 0x00000000, 0x00000000, 0x00000000)
    TEST_AMO_X0_RD(amoor.w, 0xf0f0f0f0, 0x0ff00ff0, 0xfff0fff0)
    TEST_AMO_RD_RS2(amoor.w, 0xff00ff00, 0x0f0f0f0f, 0xff0fff0f)

    # ---- amomin.w / amomax.w compare signed ...
    TEST_AMO(amomin.w, 0xffffffff, 0x00000001, 0xffffffff)
    TEST_AMO(amomin.w, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_AMO(amomin.w, 0x80000000, 0x7fffffff, 0x80000000)
    TEST_AMO(amomin.w, 0x7fffffff, 0x80000000, 0x80000000)
    TEST_AMO(amomin.w, 0x00000005, 0x00000005, 0x00000005)
    TEST_AMO(amomin.w, 0x00000009, 0x00000003, 0x00000003)
    TEST_AMO_X0_RD(amomin.w, 0x00000001, 0xfffffffe, 0xfffffffe)
    TEST_AMO_RD_RS2(amomin.w, 0x00000002, 0x80000000, 0x80000000)

    TEST_AMO(amomax.w, 0xffffffff, 0x00000001, 0x00000001)
    TEST_AMO(amomax.w, 0x00000001, 0xffffffff, 0x00000001)
    TEST_AMO(amomax.w, 0x80000000, 0x7fffffff, 0x7fffffff)
    TEST_AMO(amomax.w, 0x7fffffff, 0x80000000, 0x7fffffff)
    TEST_AMO(amomax.w, 0x00000005, 0x00000005, 0x00000005)
    TEST_AMO(amomax.w, 0xfffffff0, 0xfffffff8, 0xfffffff8)
    TEST_AMO_X0_RD(amomax.w, 0xfffffffe, 0x00000001, 0x00000001)
    TEST_AMO_RD_RS2(amomax.w, 0x80000000, 0xffffffff, 0xffffffff)

    # ---- ... and amominu.w / amomaxu.w unsigned, on the same operands
    TEST_AMO(amominu.w, 0xffffffff, 0x00000001, 0x00000001)
    TEST_AMO(amominu.w, 0x00000001, 0xffffffff, 0x00000001)
    TEST_AMO(amominu.w, 0x80000000, 0x7fffffff, 0x7fffffff)
    TEST_AMO(amominu.w, 0x7fffffff, 0x80000000, 0x7fffffff)
    TEST_AMO(amominu.w, 0x00000000, 0xffffffff, 0x00000000)
    TEST_AMO_X0_RD(amominu.w, 0xfffffffe, 0x00000001, 0x00000001)
    TEST_AMO_RD_RS2(amominu.w, 0x80000000, 0xffffffff, 0x80000000)

    TEST_AMO(amomaxu.w, 0xffffffff, 0x00000001, 0xffffffff)
    TEST_AMO(amomaxu.w, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_AMO(amomaxu.w, 0x80000000, 0x7fffffff, 0x80000000)
    TEST_AMO(amomaxu.w, 0x00000001, 0x80000000, 0x80000000)
    TEST_AMO(amomaxu.w, 0x00000005, 0x00000005, 0x00000005)
    TEST_AMO_X0_RD(amomaxu.w, 0x00000001, 0xfffffffe, 0xfffffffe)
    TEST_AMO_RD_RS2(amomaxu.w, 0x00000002, 0x80000000, 0x80000000)

    # ---- aq / rl bits must not change the operation
    TEST_AMO(amoadd.w.aq, 0x00000001, 0x00000002, 0x00000003)
    TEST_AMO(amoadd.w.rl, 0x00000001, 0x00000002, 0x00000003)
    TEST_AMO(amoadd.w.aqrl, 0x00000001, 0x00000002, 0x00000003)
    TEST_AMO(amoswap.w.aqrl, 0x00000001, 0x00000002, 0x00000002)
    TEST_AMO(amomaxu.w.aq, 0x00000001, 0xffffffff, 0xffffffff)

    # ---- rd == rs1: the address is used before rd is overwritten
    la a1, amo_word
    li a3, 0x00000040
    sw a3, 0(a1)
    li a2, 0x00000002
    amoadd.w a1, a2, (a1)
    CHECK(a1, 0x00000040)
    la a1, amo_word
    lw a4, 0(a1)
    CHECK(a4, 0x00000042)

    # ---- an AMO on a word next to others touches only that word
    la a1, amo_pad
    li a3, 0x5a5a5a5a
    sw a3, 0(a1)
    sw a3, 8(a1)
    li a3, 0x00000001
    sw a3, 4(a1)
    addi a5, a1, 4
    li a2, 0xffffffff
    amoswap.w a0, a2, (a5)
    lw a4, 0(a1)
    CHECK(a4, 0x5a5a5a5a)
    lw a4, 8(a1)
    CHECK(a4, 0x5a5a5a5a)
    lw a4, 4(a1)
    CHECK(a4, 0xffffffff)

    # ---- lr.w / sc.w: success stores and writes 0 to rd
    la a1, amo_word
    li a3, 0x00000064
    sw a3, 0(a1)
    lr.w a0, (a1)
    CHECK(a0, 0x00000064)
    li a2, 0x00000065
    sc.w a4, a2, (a1)
    CHECK(a4, 0)
    lw a0, 0(a1)
    CHECK(a0, 0x00000065)

    # ---- a second sc.w without a new lr.w fails: rd = 1, memory unchanged
    li a2, 0x00000099
    sc.w a4, a2, (a1)
    CHECK(a4, 1)
    lw a0, 0(a1)
    CHECK(a0, 0x00000065)

    # ---- lr.w/sc.w with aq/rl, and sc.w with rd == rs2 (value stored first)
    li a3, 0x00000007
    sw a3, 0(a1)
    lr.w.aq a0, (a1)
    CHECK(a0, 0x00000007)
    li a2, 0x00000abc
    sc.w.rl a2, a2, (a1)
    CHECK(a2, 0)
    lw a0, 0(a1)
    CHECK(a0, 0x00000abc)
    lr.w.aqrl a0, (a1)
    addi a0, a0, 1
    sc.w.aqrl a4, a0, (a1)
    CHECK(a4, 0)
    lw a0, 0(a1)
    CHECK(a0, 0x00000abd)

    # ---- the usual lr/sc retry loop: atomic increment, ten times
    la a1, amo_word
    sw x0, 0(a1)
    li a5, 10
1:
    lr.w a0, (a1)
    addi a0, a0, 3
    sc.w a4, a0, (a1)
    bnez a4, 1b
    addi a5, a5, -1
    bnez a5, 1b
    lw a0, 0(a1)
    CHECK(a0, 30)

    TEST_END

    .data
    .balign 4
amo_word:
    .word 0
amo_pad:
    .word 0, 0, 0
