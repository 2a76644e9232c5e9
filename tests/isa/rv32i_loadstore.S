# Self-checking test of RV32I loads and stores: sign/zero extension of
# lb/lh/lbu/lhu, byte and halfword stores touching only their bytes, 12-bit
# offset edges, misaligned accesses (they work in Linux user mode, as on qemu),
# accesses across a page boundary, and that .data is loaded and .bss zeroed.
#include "test.h"

/* Load from ld_data + off through base a1 into a0, check a0. */
#define TEST_LD(op, expected, off)                                            \
    la a1, ld_data;                                                           \
    op a0, off(a1);                                                           \
    CHECK(a0, expected)

/* Refill st_buf (3 words) with 0xaaaaaaaa so each store test starts clean. */
#define RESET_ST_BUF                                                          \
    la a1, st_buf;                                                            \
    li a2, 0xaaaaaaaa;                                                        \
    sw a2, 0(a1);                                                             \
    sw a2, 4(a1);                                                             \
    sw a2, 8(a1)

/* Check the three words of st_buf after a store. */
#define CHECK_ST_BUF(w0, w1, w2)                                              \
    la a1, st_buf;                                                            \
    lw a0, 0(a1);                                                             \
    CHECK(a0, w0);                                                            \
    lw a0, 4(a1);                                                             \
    CHECK(a0, w1);                                                            \
    lw a0, 8(a1);                                                             \
    CHECK(a0, w2)

    # ---- the loader: initialised data and zeroed bss
    la a1, init_word
    lw a0, 0(a1)
    CHECK(a0, 0xcafef00d)
    la a1, bss_words
    lw a0, 0(a1)
    CHECK(a0, 0)
    lw a0, 60(a1)
    CHECK(a0, 0)

    # ---- lb sign-extends, lbu zero-extends
    TEST_LD(lb, 0x00000000, 0)
    TEST_LD(lb, 0x0000007f, 1)
    TEST_LD(lb, 0xffffff80, 2)
    TEST_LD(lb, 0xffffffff, 3)
    TEST_LD(lb, 0x00000001, 4)
    TEST_LD(lb, 0xffffffef, 11)
    TEST_LD(lbu, 0x00000000, 0)
    TEST_LD(lbu, 0x0000007f, 1)
    TEST_LD(lbu, 0x00000080, 2)
    TEST_LD(lbu, 0x000000ff, 3)
    TEST_LD(lbu, 0x000000ef, 11)

    # ---- lh sign-extends from bit 15, lhu zero-extends; little-endian
    TEST_LD(lh, 0x00007f00, 0)
    TEST_LD(lh, 0xffffff80, 2)
    TEST_LD(lh, 0x00002301, 4)
    TEST_LD(lh, 0x00006745, 6)
    TEST_LD(lh, 0xffffab89, 8)
    TEST_LD(lh, 0xffffefcd, 10)
    TEST_LD(lhu, 0x00007f00, 0)
    TEST_LD(lhu, 0x0000ff80, 2)
    TEST_LD(lhu, 0x0000ab89, 8)
    TEST_LD(lhu, 0x0000efcd, 10)

    # ---- lw
    TEST_LD(lw, 0xff807f00, 0)
    TEST_LD(lw, 0x67452301, 4)
    TEST_LD(lw, 0xefcdab89, 8)
    TEST_LD(lw, 0x76543210, 12)

    # ---- negative offsets from a base in the middle
    la a1, ld_data + 8
    lw a0, -8(a1)
    CHECK(a0, 0xff807f00)
    lb a0, -5(a1)
    CHECK(a0, 0xffffffff)
    lbu a0, -6(a1)
    CHECK(a0, 0x00000080)
    lh a0, -6(a1)
    CHECK(a0, 0xffffff80)
    lhu a0, -2(a1)
    CHECK(a0, 0x00006745)

    # ---- misaligned loads
    TEST_LD(lw, 0x01ff807f, 1)
    TEST_LD(lw, 0x2301ff80, 2)
    TEST_LD(lw, 0x452301ff, 3)
    TEST_LD(lw, 0x89674523, 5)
    TEST_LD(lh, 0xffff807f, 1)
    TEST_LD(lhu, 0x0000807f, 1)
    TEST_LD(lh, 0x000001ff, 3)
    TEST_LD(lh, 0xffff8967, 7)
    TEST_LD(lhu, 0x00008967, 7)

    # ---- rd == base register, and x0 as rd (the load happens, x0 stays 0)
    la a0, ld_data
    lw a0, 4(a0)
    CHECK(a0, 0x67452301)
    la a1, ld_data
    lw x0, 0(a1)
    lbu x0, 3(a1)
    CHECK(x0, 0)

    # ---- sw / sh / sb: only the addressed bytes change
    RESET_ST_BUF
    li a2, 0x12345678
    sw a2, 4(a1)
    CHECK_ST_BUF(0xaaaaaaaa, 0x12345678, 0xaaaaaaaa)

    RESET_ST_BUF
    li a2, 0x123456ef
    sb a2, 5(a1)
    CHECK_ST_BUF(0xaaaaaaaa, 0xaaaaefaa, 0xaaaaaaaa)

    RESET_ST_BUF
    li a2, 0x00000080
    sb a2, 4(a1)
    sb a2, 7(a1)
    CHECK_ST_BUF(0xaaaaaaaa, 0x80aaaa80, 0xaaaaaaaa)
    la a1, st_buf
    lb a0, 7(a1)
    CHECK(a0, 0xffffff80)

    RESET_ST_BUF
    li a2, 0x1234beef
    sh a2, 6(a1)
    CHECK_ST_BUF(0xaaaaaaaa, 0xbeefaaaa, 0xaaaaaaaa)

    RESET_ST_BUF
    li a2, 0xffff8001
    sh a2, 4(a1)
    CHECK_ST_BUF(0xaaaaaaaa, 0xaaaa8001, 0xaaaaaaaa)
    la a1, st_buf
    lh a0, 4(a1)
    CHECK(a0, 0xffff8001)
    lhu a0, 4(a1)
    CHECK(a0, 0x00008001)

    # ---- misaligned stores, including ones straddling two words
    RESET_ST_BUF
    li a2, 0x11223344
    sw a2, 1(a1)
    CHECK_ST_BUF(0x223344aa, 0xaaaaaa11, 0xaaaaaaaa)

    RESET_ST_BUF
    li a2, 0x11223344
    sw a2, 6(a1)
    CHECK_ST_BUF(0xaaaaaaaa, 0x3344aaaa, 0xaaaa1122)

    RESET_ST_BUF
    li a2, 0x11223344
    sw a2, 7(a1)
    CHECK_ST_BUF(0xaaaaaaaa, 0x44aaaaaa, 0xaa112233)
    la a1, st_buf
    lw a0, 7(a1)
    CHECK(a0, 0x11223344)

    RESET_ST_BUF
    li a2, 0x00005566
    sh a2, 3(a1)
    CHECK_ST_BUF(0x66aaaaaa, 0xaaaaaa55, 0xaaaaaaaa)

    RESET_ST_BUF
    li a2, 0x00005566
    sh a2, 1(a1)
    CHECK_ST_BUF(0xaa5566aa, 0xaaaaaaaa, 0xaaaaaaaa)

    # ---- stores of x0, and of the base register itself
    RESET_ST_BUF
    sw x0, 0(a1)
    sh x0, 4(a1)
    sb x0, 11(a1)
    CHECK_ST_BUF(0x00000000, 0xaaaa0000, 0x00aaaaaa)

    RESET_ST_BUF
    addi a0, a1, 4
    sw a0, 0(a0)
    la a1, st_buf
    lw a2, 4(a1)
    addi a0, a1, 4
    CHECK_EQ(a2, a0)

    # ---- offset edges: -2048 and +2047 around a base 2048 into big_buf
    la a1, big_buf + 2048
    li a2, 0x13579bdf
    sw a2, 2044(a1)
    li a2, 0x2468ace0
    sw a2, -2044(a1)
    li a2, 0x5a
    sb a2, -2048(a1)
    li a2, 0xa5
    sb a2, 2047(a1)
    la a3, big_buf
    lbu a0, 0(a3)
    CHECK(a0, 0x5a)
    lw a0, 4(a3)
    CHECK(a0, 0x2468ace0)
    la a3, big_buf + 4092
    lw a0, 0(a3)
    CHECK(a0, 0xa5579bdf)
    lbu a0, 3(a3)
    CHECK(a0, 0xa5)
    la a1, big_buf + 2048
    lw a0, -2048(a1)
    CHECK(a0, 0x0000005a)
    lb a0, 2047(a1)
    CHECK(a0, 0xffffffa5)
    lhu a0, 2046(a1)
    CHECK(a0, 0x0000a557)
    lw a0, 2044(a1)
    CHECK(a0, 0xa5579bdf)

    # ---- misaligned accesses that straddle a page boundary
    la a1, page_pair + 4096
    li a2, 0xdeadbeef
    sw a2, -2(a1)
    li a2, 0x0000c0de
    sh a2, 3(a1)
    lw a0, -2(a1)
    CHECK(a0, 0xdeadbeef)
    lhu a0, -2(a1)
    CHECK(a0, 0x0000beef)
    lhu a0, -1(a1)
    CHECK(a0, 0x0000adbe)
    lw a0, -3(a1)
    CHECK(a0, 0xadbeef00)
    lh a0, 3(a1)
    CHECK(a0, 0xffffc0de)
    la a1, page_pair + 4094
    lw a0, 0(a1)
    CHECK(a0, 0xdeadbeef)

    TEST_END

    .data
    .balign 16
ld_data:
    .byte 0x00, 0x7f, 0x80, 0xff, 0x01, 0x23, 0x45, 0x67
    .byte 0x89, 0xab, 0xcd, 0xef, 0x10, 0x32, 0x54, 0x76
init_word:
    .word 0xcafef00d
st_buf:
    .word 0, 0, 0, 0
    .balign 4096
page_pair:
    .space 8192

    .bss
    .balign 16
bss_words:
    .space 64
big_buf:
    .space 4096
